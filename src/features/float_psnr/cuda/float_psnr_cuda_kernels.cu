#include "backends/cuda/reduce.cuh"
#include "features/float_common/cuda/float_device.cuh"
#include "float_psnr_cuda_kernels.hpp"

namespace vmaf::floatfeat::cuda {

namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned long long kExact = 1ull << 53;

/// The float square of one pixel's difference, as upstream forms it.
__device__ __forceinline__ float square16(const unsigned char* a, const unsigned char* b, std::size_t pitch,
                                          unsigned x, unsigned y) {
    const float d = sample(a + y * pitch, x, 16, 256.0f) - sample(b + y * pitch, x, 16, 256.0f);
    return d * d;
}

// Each square is a multiple of 2^-16 (d is a multiple of 2^-8; rounding to
// 24 bits keeps it one) below 2^16, so square * 2^16 is an exact integer.
__global__ void units16(const unsigned char* a, const unsigned char* b, std::size_t pitch, unsigned w, unsigned h,
                        unsigned long long* out) {
    unsigned long long acc = 0;
    for (unsigned y = blockIdx.x; y < h; y += gridDim.x)
        for (unsigned x = threadIdx.x; x < w; x += kThreads)
            acc += static_cast<unsigned long long>(square16(a, b, pitch, x, y) * 65536.0f);
    acc = vmaf::cuda::block_sum<kThreads>(acc);
    if (threadIdx.x == 0 && acc) atomicAdd(out, acc);
}

struct SquareTerm {
    const unsigned char *a, *b;
    std::size_t pitch;
    unsigned w;
    __device__ void operator()(unsigned long long i, double* t) const {
        const auto k = static_cast<unsigned>(i);
        t[0] = square16(a, b, pitch, k % w, k / w);
    }
};

struct Inexact {
    const unsigned long long* units;
    __device__ bool operator()() const { return *units >= kExact; }
};

}  // namespace

void launch_float_psnr16(const void* ref, const void* dist, std::size_t pitch, unsigned w, unsigned h,
                         PsnrSums16* sums, cudaStream_t s) {
    if (!w || !h) return;
    const auto* a = static_cast<const unsigned char*>(ref);
    const auto* b = static_cast<const unsigned char*>(dist);
    units16<<<h < 1024 ? h : 1024, kThreads, 0, s>>>(a, b, pitch, w, h, &sums->units);
    sequential_sum<1><<<1, 32, 0, s>>>(SquareTerm{a, b, pitch, w}, static_cast<unsigned long long>(w) * h,
                                       Inexact{&sums->units}, &sums->seq);
}

}  // namespace vmaf::floatfeat::cuda
