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

template <typename T>
__global__ void vertical_sums(const unsigned char* luma, std::size_t pitch, unsigned w, unsigned h, std::uint32_t* out) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    std::uint32_t acc = 0;
    const bool inner = y >= 2 && y + 2 < h;  // no reflection needed
#pragma unroll
    for (int k = 0; k < 5; ++k) {
        const int r = inner ? static_cast<int>(y) - 2 + k : reflect(static_cast<int>(y) - 2 + k, static_cast<int>(h));
        acc += kF[k] * static_cast<std::uint32_t>(reinterpret_cast<const T*>(luma + r * pitch)[x]);
    }
    out[static_cast<std::size_t>(y) * w + x] = acc;
}

__global__ void sad(const std::uint32_t* prev, const std::uint32_t* cur, unsigned w, unsigned h, unsigned bpc,
                    unsigned long long* out) {
    const long long round_v = 1ll << (bpc - 1);
    unsigned long long total = 0;
    for (unsigned y = blockIdx.x; y < h; y += gridDim.x) {
        const std::size_t base = static_cast<std::size_t>(y) * w;
        unsigned acc = 0;
        for (unsigned x = threadIdx.x; x < w; x += kThreads) {
            long long a = 0;
            const bool inner = x >= 2 && x + 2 < w;  // no reflection needed
#pragma unroll
            for (int k = 0; k < 5; ++k) {
                const unsigned c = inner ? x - 2 + k
                                         : static_cast<unsigned>(reflect(static_cast<int>(x) - 2 + k, static_cast<int>(w)));
                const long long v = static_cast<long long>(prev[base + c]) - static_cast<long long>(cur[base + c]);
                const int t = static_cast<int>((v + round_v) >> bpc);
                a += static_cast<long long>(kF[k]) * t;
            }
            const int u = static_cast<int>((a + (1ll << 15)) >> 16);
            acc += static_cast<unsigned>(u < 0 ? -u : u);
        }
        acc = vmaf::cuda::block_sum<kThreads>(acc);
        __syncthreads();
        total += acc;
    }
    if (threadIdx.x == 0 && total) atomicAdd(out, total);
}

}  // namespace

void launch_vertical_sums(const void* luma, std::size_t pitch, unsigned w, unsigned h, unsigned bpc,
                          std::uint32_t* out, cudaStream_t s) {
    const dim3 block(32, 8);
    const dim3 grid((w + 31) / 32, (h + 7) / 8);
    if (bpc == 8)
        vertical_sums<unsigned char><<<grid, block, 0, s>>>(static_cast<const unsigned char*>(luma), pitch, w, h, out);
    else
        vertical_sums<unsigned short><<<grid, block, 0, s>>>(static_cast<const unsigned char*>(luma), pitch, w, h, out);
}

void launch_sad(const std::uint32_t* prev, const std::uint32_t* cur, unsigned w, unsigned h, unsigned bpc,
                unsigned long long* out, cudaStream_t s) {
    const unsigned blocks = h < 1024 ? h : 1024;
    if (!blocks || !w) return;
    sad<<<blocks, kThreads, 0, s>>>(prev, cur, w, h, bpc, out);
}

}  // namespace vmaf::motion::cuda
