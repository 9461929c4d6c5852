// Planar copies of the interleaved / shifted device planes a GPU decoder
// produces (NV12 and P010 chroma, P010/P016 luma).
#pragma once

#include "backends/gpu/portability.hpp"

#include <cstddef>

namespace vmaf::cuda {

/// Enqueues on `s` a copy of a w x h plane from device memory `src` (rows
/// `src_pitch` bytes apart, samples `step` samples apart and stored shifted
/// left by `shift` bits) to planar device memory `dst` (rows `dst_pitch`
/// bytes apart, samples right-aligned). `bytes_per_sample`: 1 or 2 (shift is
/// 0 for 1). Returns the launch error.
cudaError_t gather_plane(void* dst, std::size_t dst_pitch, const void* src, std::size_t src_pitch, unsigned w,
                         unsigned h, unsigned step, unsigned shift, unsigned bytes_per_sample, cudaStream_t s);

}  // namespace vmaf::cuda
