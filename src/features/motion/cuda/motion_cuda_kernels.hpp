// Device kernels of the motion twin (host-callable launchers).
#pragma once

#include "backends/gpu/portability.hpp"

#include <cstddef>
#include <cstdint>

namespace vmaf::motion::cuda {

/// Vertical filter sums V(P) of a w x h luma plane (pitch in bytes) into out[w*h].
void launch_vertical_sums(const void* luma, std::size_t pitch, unsigned w, unsigned h, unsigned bpc,
                          std::uint32_t* out, cudaStream_t s);

/// Adds the SAD of the blurred difference of two frames' vertical sums to *out
/// (the CPU's blurred_difference_sad, uint32 per row).
void launch_sad(const std::uint32_t* prev, const std::uint32_t* cur, unsigned w, unsigned h, unsigned bpc,
                unsigned long long* out, cudaStream_t s);

}  // namespace vmaf::motion::cuda
