// Device kernels of the PSNR twin (host-callable launchers).
#pragma once

#include "backends/gpu/portability.hpp"

#include <cstddef>
#include <cstdint>

namespace vmaf::psnr::cuda {

/// Adds the sum of squared differences of two w x h planes to *out, with the
/// CPU's arithmetic: 8-bit rows summed in (wrapping) uint32 before entering
/// the uint64 total, deeper samples summed in uint64. Pitch in bytes.
void launch_sse(const void* a, const void* b, std::size_t pitch, unsigned w, unsigned h, unsigned bpc,
                unsigned long long* out, cudaStream_t s);

}  // namespace vmaf::psnr::cuda
