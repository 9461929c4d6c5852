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
