// Integer reductions for the CUDA kernels. Integer addition is associative,
// so any reduction order gives the CPU's exact sums.
#pragma once

namespace vmaf::cuda {

/// Sum over the 32 lanes of a warp; valid in lane 0.
template <typename U>
__device__ __forceinline__ U warp_sum(U v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

/// Sum of one value per thread over a block of `Threads` threads (a multiple
/// of 32); valid in thread 0. Every thread of the block must call it.
template <unsigned Threads, typename U>
__device__ U block_sum(U v) {
    static_assert(Threads % 32 == 0 && Threads <= 1024, "block size");
    __shared__ U part[Threads / 32];
    v = warp_sum(v);
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) part[warp] = v;
    __syncthreads();
    v = threadIdx.x < Threads / 32 ? part[threadIdx.x] : U{0};
    if (warp == 0) v = warp_sum(v);
    return v;
}

}  // namespace vmaf::cuda
