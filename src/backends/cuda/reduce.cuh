// Integer reductions for the GPU kernels. Integer addition is associative,
// so any reduction order gives the CPU's exact sums. The warp width is the
// target's (gpu::kWarpSize: 32 on NVIDIA, 64 or 32 on AMD).
#pragma once

#include "backends/gpu/portability.hpp"

namespace vmaf::cuda {

/// Sum over the lanes of a warp; valid in lane 0.
template <typename U>
__device__ __forceinline__ U warp_sum(U v) {
    for (unsigned o = gpu::kWarpSize / 2; o > 0; o >>= 1) v += gpu::shfl_down(v, o);
    return v;
}

/// Sum modulo 2^32 over each aligned group of 32 lanes, valid in every lane
/// (one redux instruction on sm_80 and later; shuffles elsewhere, valid in
/// the group's first lane). Every lane of the warp must call it.
__device__ __forceinline__ unsigned group32_sum(unsigned v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 && !defined(__HIP_PLATFORM_AMD__)
    static_assert(gpu::kWarpSize == 32, "a group is the warp");
    return __reduce_add_sync(0xffffffffu, v);
#else
    for (int o = 16; o > 0; o >>= 1) v += gpu::shfl_down(v, static_cast<unsigned>(o), 32);
    return v;
#endif
}

/// Sum of one value per thread over a block of `Threads` threads (a multiple
/// of the warp width, at most its square); valid in thread 0. Every thread
/// of the block must call it.
template <unsigned Threads, typename U>
__device__ U block_sum(U v) {
    constexpr unsigned kWarps = Threads / gpu::kWarpSize;
    static_assert(Threads % gpu::kWarpSize == 0 && kWarps <= gpu::kWarpSize && Threads <= 1024, "block size");
    __shared__ U part[kWarps];
    v = warp_sum(v);
    const unsigned lane = threadIdx.x % gpu::kWarpSize, warp = threadIdx.x / gpu::kWarpSize;
    if (lane == 0) part[warp] = v;
    __syncthreads();
    v = threadIdx.x < kWarps ? part[threadIdx.x] : U{0};
    if (warp == 0) v = warp_sum(v);
    return v;
}

}  // namespace vmaf::cuda
