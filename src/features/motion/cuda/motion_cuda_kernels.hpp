// Device kernels of the motion twin (host-callable launchers).
#pragma once

#include "backends/gpu/portability.hpp"

#include <cstddef>
#include <cstdint>

namespace vmaf::motion::cuda {

/// Adds to *out the SAD of the blurred difference of two frames (the CPU's
/// blurred_difference_sad: u32 per row, rows in 64 bits), from their w x h
/// luma planes (`pitch` bytes a row, `bpc` bits a sample): the vertical
/// filter sums of both are formed on the way, so a frame is kept as its luma
/// (2 bytes a sample at most), not as its 4-byte sums. `rows`: h zeroed u32
/// of scratch, zeroed again when the work is done (SADs sharing it go on one stream).
void launch_sad(const void* prev, const void* cur, std::size_t pitch, unsigned w, unsigned h, unsigned bpc,
                unsigned* rows, unsigned long long* out, cudaStream_t s);

}  // namespace vmaf::motion::cuda
