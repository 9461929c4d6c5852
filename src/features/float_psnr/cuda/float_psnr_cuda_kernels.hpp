// Device kernels of the float_psnr twin at 16 bits (host-callable launchers);
// 8 to 12 bits use the psnr twin's integer SSE kernel.
#pragma once

#include "backends/gpu/portability.hpp"

#include <cstddef>

namespace vmaf::floatfeat::cuda {

/// The 16-bit sums of one w x h luma pair (pitch in bytes), in `sums`
/// (device, zeroed): units, the exact integer sum of each pixel's float
/// square (a - b)^2 (a, b = sample / 256 in float, the square rounded to
/// float) times 2^16; seq, written only when units >= 2^53, upstream's
/// sequential raster-order double sum of those squares.
struct PsnrSums16 {
    unsigned long long units;
    double seq;
};
void launch_float_psnr16(const void* ref, const void* dist, std::size_t pitch, unsigned w, unsigned h,
                         PsnrSums16* sums, cudaStream_t s);

}  // namespace vmaf::floatfeat::cuda
