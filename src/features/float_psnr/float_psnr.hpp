// Float PSNR arithmetic (float_psnr.cpp): upstream's loop, and the integer-sum
// path that equals it where every partial sum is exact.
#pragma once

#include <cstdint>

#include "vmaf/picture.hpp"

namespace vmaf::floatfeat {

/// Upstream's float PSNR of two equally sized planes of T samples (uint8_t or
/// uint16_t with `scaler` 4/16/256): float differences squared in float,
/// summed in double in raster order.
template <typename T>
double float_psnr(const Plane& ref, const Plane& dis, float scaler, double peak, double psnr_max);

/// The score from upstream's noise sum (the double sum of the squared
/// differences of a w x h plane): noise / (w * h), then capped dB.
double float_psnr_from_noise(double noise, unsigned w, unsigned h, double peak, double psnr_max);

/// The same from the integer sum of squared sample differences `sse` of a
/// w x h plane; equal to float_psnr for bpc <= 12 and rows of at most 66051 samples.
double float_psnr_exact_sum(std::uint64_t sse, unsigned bpc, unsigned w, unsigned h, double peak, double psnr_max);

}  // namespace vmaf::floatfeat
