// Device kernels of the float_ansnr twin (host-callable launcher).
#pragma once

#include "backends/gpu/portability.hpp"

#include <cstddef>

namespace vmaf::floatfeat::cuda {

/// The filters, as the host's float constants (uploaded bit for bit).
struct AnsnrFilters {
    float ref3[9];
    float dis5[25];
};

/// Per-row sums of one w x h luma pair (pitch in bytes) into rows (device,
/// 2 * h floats): rows[y] = the float sum over x in order of rf*rf and
/// rows[h + y] that of (rf - df)^2, where rf / df are the reference / distorted
/// (as float, offset -128) filtered by ref3 / dis5 as the CPU's filter2d.
void launch_float_ansnr(const void* ref, const void* dist, std::size_t pitch, unsigned w, unsigned h, unsigned bpc,
                        const AnsnrFilters& f, float* rows, cudaStream_t s);

}  // namespace vmaf::floatfeat::cuda
