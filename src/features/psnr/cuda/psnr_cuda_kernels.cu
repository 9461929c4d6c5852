#include "backends/cuda/reduce.cuh"
#include "psnr_cuda_kernels.hpp"

namespace vmaf::psnr::cuda {

namespace {

constexpr unsigned kThreads = 256;

// One block per row (grid-stride over rows). uint32 wrap-around adds are
// associative, so the row sum equals the CPU's sequential uint32 sum.
__global__ void sse8(const unsigned char* a, const unsigned char* b, std::size_t pitch, unsigned w, unsigned h,
                     unsigned long long* out) {
    unsigned long long total = 0;
    for (unsigned y = blockIdx.x; y < h; y += gridDim.x) {
        const unsigned char* ra = a + y * pitch;
        const unsigned char* rb = b + y * pitch;
        unsigned acc = 0;
        for (unsigned x = threadIdx.x; x < w; x += kThreads) {
            const int e = static_cast<int>(ra[x]) - static_cast<int>(rb[x]);
            acc += static_cast<unsigned>(e * e);
        }
        acc = vmaf::cuda::block_sum<kThreads>(acc);
        __syncthreads();
        total += acc;  // thread 0's value is the row sum
    }
    if (threadIdx.x == 0 && total) atomicAdd(out, total);
}

__global__ void sse16(const unsigned char* a, const unsigned char* b, std::size_t pitch, unsigned w, unsigned h,
                      unsigned long long* out) {
    unsigned long long acc = 0;
    for (unsigned y = blockIdx.x; y < h; y += gridDim.x) {
        const auto* ra = reinterpret_cast<const unsigned short*>(a + y * pitch);
        const auto* rb = reinterpret_cast<const unsigned short*>(b + y * pitch);
        for (unsigned x = threadIdx.x; x < w; x += kThreads) {
            const unsigned e = ra[x] > rb[x] ? ra[x] - rb[x] : rb[x] - ra[x];
            acc += e * e;
        }
    }
    acc = vmaf::cuda::block_sum<kThreads>(acc);
    if (threadIdx.x == 0 && acc) atomicAdd(out, acc);
}

}  // namespace

void launch_sse(const void* a, const void* b, std::size_t pitch, unsigned w, unsigned h, unsigned bpc,
                unsigned long long* out, cudaStream_t s) {
    const unsigned blocks = h < 1024 ? h : 1024;
    if (!blocks || !w) return;
    if (bpc == 8)
        sse8<<<blocks, kThreads, 0, s>>>(static_cast<const unsigned char*>(a), static_cast<const unsigned char*>(b), pitch,
                                         w, h, out);
    else
        sse16<<<blocks, kThreads, 0, s>>>(static_cast<const unsigned char*>(a), static_cast<const unsigned char*>(b), pitch,
                                          w, h, out);
}

}  // namespace vmaf::psnr::cuda
