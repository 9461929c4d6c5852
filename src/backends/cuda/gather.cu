#include "backends/cuda/gather.hpp"

#include <cstdint>

namespace vmaf::cuda {

namespace {

template <typename T>
__global__ void gather_kernel(T* dst, std::size_t dst_pitch, const T* src, std::size_t src_pitch, unsigned w,
                              unsigned h, unsigned step, unsigned shift) {
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    const T* in = reinterpret_cast<const T*>(reinterpret_cast<const std::uint8_t*>(src) + y * src_pitch);
    T* out = reinterpret_cast<T*>(reinterpret_cast<std::uint8_t*>(dst) + y * dst_pitch);
    out[x] = static_cast<T>(in[static_cast<std::size_t>(x) * step] >> shift);
}

}  // namespace

cudaError_t gather_plane(void* dst, std::size_t dst_pitch, const void* src, std::size_t src_pitch, unsigned w,
                         unsigned h, unsigned step, unsigned shift, unsigned bytes_per_sample, cudaStream_t s) {
    const dim3 block(32, 8);
    const dim3 grid((w + block.x - 1) / block.x, (h + block.y - 1) / block.y);
    if (bytes_per_sample == 1)
        gather_kernel<<<grid, block, 0, s>>>(static_cast<std::uint8_t*>(dst), dst_pitch,
                                             static_cast<const std::uint8_t*>(src), src_pitch, w, h, step, shift);
    else
        gather_kernel<<<grid, block, 0, s>>>(static_cast<std::uint16_t*>(dst), dst_pitch,
                                             static_cast<const std::uint16_t*>(src), src_pitch, w, h, step, shift);
    return cudaGetLastError();
}

}  // namespace vmaf::cuda
