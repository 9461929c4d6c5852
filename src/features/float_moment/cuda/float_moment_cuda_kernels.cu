#include "backends/cuda/reduce.cuh"
#include "features/float_common/cuda/float_device.cuh"
#include "float_moment_cuda_kernels.hpp"

namespace vmaf::floatfeat::cuda {

namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned long long kExact = 1ull << 53;

__host__ __device__ __forceinline__ float scaler_of(unsigned bpc) {
    return bpc == 10 ? 4.0f : bpc == 12 ? 16.0f : 256.0f;
}

// a = sample / scaler is k / scaler exactly; a * a rounded to float is a
// multiple of 1/scaler^2 (exact k^2 / scaler^2 up to 12 bits), so times
// scaler^2 it is an exact integer below 2^32.
__global__ void moment_units(const unsigned char* a, const unsigned char* b, std::size_t pitch, unsigned w, unsigned h,
                             unsigned bpc, unsigned long long* out) {
    const float scaler = bpc == 8 ? 1.0f : scaler_of(bpc);
    const float s2 = scaler * scaler;
    unsigned long long acc[4] = {0, 0, 0, 0};
    for (unsigned y = blockIdx.x; y < h; y += gridDim.x) {
        const unsigned char *ra = a + y * pitch, *rb = b + y * pitch;
        for (unsigned x = threadIdx.x; x < w; x += kThreads) {
            const float fa = sample(ra, x, bpc, scaler), fb = sample(rb, x, bpc, scaler);
            acc[0] += raw_sample(ra, x, bpc);
            acc[1] += raw_sample(rb, x, bpc);
            acc[2] += static_cast<unsigned long long>((fa * fa) * s2);
            acc[3] += static_cast<unsigned long long>((fb * fb) * s2);
        }
    }
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        const unsigned long long t = vmaf::cuda::block_sum<kThreads>(acc[k]);
        if (threadIdx.x == 0 && t) atomicAdd(out + k, t);
        __syncthreads();  // block_sum's shared scratch is reused by the next sum
    }
}

struct SquaresTerm {
    const unsigned char *a, *b;
    std::size_t pitch;
    unsigned w, bpc;
    float scaler;
    __device__ void operator()(unsigned long long i, double* t) const {
        const auto k = static_cast<unsigned>(i);
        const unsigned x = k % w, y = k / w;
        const float fa = sample(a + y * pitch, x, bpc, scaler), fb = sample(b + y * pitch, x, bpc, scaler);
        t[0] = fa * fa;
        t[1] = fb * fb;
    }
};

struct Inexact {
    const unsigned long long* units;
    __device__ bool operator()() const { return units[2] >= kExact || units[3] >= kExact; }
};

}  // namespace

void launch_float_moment(const void* ref, const void* dist, std::size_t pitch, unsigned w, unsigned h, unsigned bpc,
                         MomentSums* sums, cudaStream_t s) {
    if (!w || !h) return;
    const auto* a = static_cast<const unsigned char*>(ref);
    const auto* b = static_cast<const unsigned char*>(dist);
    moment_units<<<h < 1024 ? h : 1024, kThreads, 0, s>>>(a, b, pitch, w, h, bpc, sums->units);
    if (bpc > 12)  // below, the square sums stay under 2^53 units
        sequential_sum<2><<<1, 32, 0, s>>>(SquaresTerm{a, b, pitch, w, bpc, scaler_of(bpc)},
                                           static_cast<unsigned long long>(w) * h,
                                           Inexact{sums->units}, sums->seq);
}

}  // namespace vmaf::floatfeat::cuda
