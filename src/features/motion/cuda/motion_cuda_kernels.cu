#include "backends/cuda/reduce.cuh"
#include "motion_cuda_kernels.hpp"

namespace vmaf::motion::cuda {

namespace {

constexpr unsigned kThreads = 256;
__constant__ unsigned kF[5] = {3571, 16004, 26386, 16004, 3571};

/// Mirror about the edge samples without repeating them (as the CPU's reflect).
__device__ __forceinline__ int reflect(int idx, int size) {
    if (size <= 1) return 0;
    while (idx < 0 || idx >= size) {
        if (idx < 0) idx = -idx;
        if (idx >= size) idx = 2 * size - idx - 2;
    }
    return idx;
}

/// Vertical filter sum V(P) at column c of the row whose taps are rows r[0..4].
template <typename T>
__device__ __forceinline__ unsigned vsum(const T* const (&r)[5], unsigned c) {
    return kF[2] * r[2][c] + kF[0] * (r[0][c] + r[4][c]) + kF[1] * (r[1][c] + r[3][c]);
}

/// One row a block (blockIdx.x, striding by gridDim.x): a thread takes kSx
/// consecutive columns, forms the vertical sums of both frames at their taps'
/// kSx + 4 columns (u32 sums below 65536 * 65535: exact in any order) and
/// their differences t once, filters them (mirrored taps paired: |t| < 2^25,
/// so a pair fits an int), and the row's sum of |u| is reduced in u32 (its
/// wrap is the CPU's) before it joins the 64-bit total. Neighbouring rows
/// run in neighbouring blocks at once: the taps' rows come from the cache.
constexpr int kSx = 4;

template <typename T>
__global__ void __launch_bounds__(kThreads) sad(const unsigned char* prev, const unsigned char* cur, std::size_t pitch,
                                                unsigned w, unsigned h, unsigned bpc, unsigned long long* out) {
    const long long round_v = 1ll << (bpc - 1);
    unsigned long long total = 0;
    for (unsigned y = blockIdx.x; y < h; y += gridDim.x) {
        const T* p[5];
        const T* q[5];
#pragma unroll
        for (int m = 0; m < 5; ++m) {
            const std::size_t r = static_cast<std::size_t>(reflect(static_cast<int>(y) - 2 + m, static_cast<int>(h)));
            p[m] = reinterpret_cast<const T*>(prev + r * pitch);
            q[m] = reinterpret_cast<const T*>(cur + r * pitch);
        }
        unsigned acc = 0;
        for (unsigned x0 = threadIdx.x * kSx; x0 < w; x0 += kThreads * kSx) {
            int t[kSx + 4];
            const bool inner = x0 >= 2 && x0 + kSx + 2 <= w;  // no reflection needed
#pragma unroll
            for (int m = 0; m < kSx + 4; ++m) {
                const int c = static_cast<int>(x0) - 2 + m;
                // Columns past the row's end only feed outputs past it: any in-range column does.
                const unsigned cc = inner ? static_cast<unsigned>(c)
                                          : min(static_cast<unsigned>(reflect(c, static_cast<int>(w))), w - 1);
                const long long a = vsum(p, cc), b = vsum(q, cc);
                t[m] = static_cast<int>((a - b + round_v) >> bpc);
            }
#pragma unroll
            for (int j = 0; j < kSx; ++j) {
                if (x0 + j >= w) break;
                const long long a = static_cast<long long>(kF[2]) * t[j + 2] +
                                    static_cast<long long>(kF[0]) * (t[j] + t[j + 4]) +
                                    static_cast<long long>(kF[1]) * (t[j + 1] + t[j + 3]);
                const int u = static_cast<int>((a + (1ll << 15)) >> 16);
                acc += static_cast<unsigned>(u < 0 ? -u : u);
            }
        }
        acc = vmaf::cuda::block_sum<kThreads>(acc);
        __syncthreads();
        total += acc;
    }
    if (threadIdx.x == 0 && total) atomicAdd(out, total);
}

}  // namespace

void launch_sad(const void* prev, const void* cur, std::size_t pitch, unsigned w, unsigned h, unsigned bpc,
                unsigned long long* out, cudaStream_t s) {
    const unsigned blocks = h < 1024 ? h : 1024;
    if (!blocks || !w) return;
    const auto* a = static_cast<const unsigned char*>(prev);
    const auto* b = static_cast<const unsigned char*>(cur);
    if (bpc == 8)
        sad<unsigned char><<<blocks, kThreads, 0, s>>>(a, b, pitch, w, h, bpc, out);
    else
        sad<unsigned short><<<blocks, kThreads, 0, s>>>(a, b, pitch, w, h, bpc, out);
}

}  // namespace vmaf::motion::cuda
