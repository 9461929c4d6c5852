// Scalar reference kernels of the PSNR feature (upstream integer_psnr).
#pragma once

#include <cstdint>

#include "vmaf/picture.hpp"

namespace vmaf::psnr {

/// Sum of squared differences of two planes of the same size (the size of `a`).
/// Samples are uint8_t when bpc == 8, else uint16_t. As upstream, 8-bit rows
/// are summed in uint32 before entering the uint64 total; deeper samples go
/// straight into the uint64 total (each square fits in uint32).
std::uint64_t sse(const Plane& a, const Plane& b, unsigned bpc);

/// Peak sample value: 2^bpc - 1, or with reduced_hbd_peak 255 << (bpc - 8)
/// (high bit depths scaled like 8-bit content).
std::uint32_t peak(unsigned bpc, bool reduced_hbd_peak);

/// Per-frame PSNR: min(10 * log10(peak^2 / max(mse, 1e-16)), psnr_max), with
/// peak^2 computed in uint32 arithmetic as upstream.
double frame_psnr(double mse, std::uint32_t peak, double psnr_max);

/// Upper clamp of a plane's PSNR: 6 * bpc + 12, or with min_sse > 0
/// ceil(10 * log10(peak^2 / (min_sse / (w * h)))) for a plane of w x h samples.
double psnr_max(unsigned bpc, std::uint32_t peak, double min_sse, unsigned w, unsigned h);

/// Clip-level PSNR from accumulated sse and sample count:
/// min(10 * (log10(peak^2) + log10(n) - log10(sse)), ceil(10 * log10(peak^2 * n * 2)))
/// with peak^2 * n * 2 in (wrapping) uint64 arithmetic as upstream. sse == 0
/// yields the cap; n == 0 (a plane never measured) yields -inf.
double aggregate_psnr(std::uint64_t sse, std::uint64_t n, std::uint32_t peak);

}  // namespace vmaf::psnr
