// The link's ceiling for a workload: pinned host-to-device copies of one
// frame pair's planes (the bytes the CUDA backend uploads per frame), on two
// streams as the backend overlaps them, timed with events after a warm-up.
// Prints GB/s and pairs per second, luma only and with 4:2:0 chroma.
//
//   cuda_h2d_ceiling WIDTH HEIGHT BPC [SECONDS]
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

bool ok(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return true;
    std::fprintf(stderr, "cuda_h2d_ceiling: %s: %s\n", what, cudaGetErrorString(e));
    return false;
}

/// Pairs per second of `bytes`-sized copies (one pair each), best of three timed rounds.
double pairs_per_second(std::size_t bytes, double seconds) {
    constexpr int kBuffers = 4;
    void* host[kBuffers] = {};
    void* dev[kBuffers] = {};
    cudaStream_t st[2];
    for (int i = 0; i < kBuffers; ++i) {
        if (!ok(cudaHostAlloc(&host[i], bytes, cudaHostAllocPortable), "cudaHostAlloc") ||
            !ok(cudaMalloc(&dev[i], bytes), "cudaMalloc"))
            std::exit(1);
        std::memset(host[i], i + 1, bytes);  // not zeros: pages touched, nothing special
    }
    for (auto& s : st) ok(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    auto round = [&](int copies) {
        cudaEventRecord(a, st[0]);
        cudaStreamWaitEvent(st[1], a, 0);
        for (int k = 0; k < copies; ++k)
            cudaMemcpyAsync(dev[k % kBuffers], host[k % kBuffers], bytes, cudaMemcpyHostToDevice, st[k & 1]);
        cudaEvent_t j;
        cudaEventCreate(&j);
        cudaEventRecord(j, st[1]);
        cudaStreamWaitEvent(st[0], j, 0);
        cudaEventRecord(b, st[0]);
        cudaEventSynchronize(b);
        cudaEventDestroy(j);
        float ms = 0;
        cudaEventElapsedTime(&ms, a, b);
        return ms / 1000.0;
    };
    round(8);  // warm-up
    const double probe = round(16) / 16;
    int copies = static_cast<int>(seconds / 3 / (probe > 0 ? probe : 1e-3));
    if (copies < 16) copies = 16;
    double best = 0;
    for (int r = 0; r < 3; ++r) {
        const double s = round(copies);
        if (s > 0 && copies / s > best) best = copies / s;
    }
    ok(cudaGetLastError(), "copies");
    for (int i = 0; i < kBuffers; ++i) {
        cudaFreeHost(host[i]);
        cudaFree(dev[i]);
    }
    for (auto& s : st) cudaStreamDestroy(s);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return best;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s WIDTH HEIGHT BPC [SECONDS]\n", argv[0]);
        return 2;
    }
    const std::size_t w = std::strtoul(argv[1], nullptr, 10), h = std::strtoul(argv[2], nullptr, 10);
    const unsigned bpc = std::strtoul(argv[3], nullptr, 10);
    const double seconds = argc > 4 ? std::atof(argv[4]) : 1.5;
    if (!w || !h || bpc < 8 || bpc > 16) {
        std::fprintf(stderr, "cuda_h2d_ceiling: bad geometry\n");
        return 2;
    }
    const std::size_t bps = bpc > 8 ? 2 : 1;
    const std::size_t luma = 2 * w * h * bps;
    const std::size_t chroma = 2 * 2 * ((w + 1) / 2) * ((h + 1) / 2) * bps;
    const double pl = pairs_per_second(luma, seconds), pc = pairs_per_second(luma + chroma, seconds);
    std::printf("h2d ceiling %zux%zu %u-bit: %.1f GB/s; %.0f pairs/s luma only, %.0f pairs/s with 4:2:0 chroma\n", w, h,
                bpc, pl * luma / 1e9, pl, pc);
    return 0;
}
