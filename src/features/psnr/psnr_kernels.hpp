// Scalar reference kernels of the PSNR feature (upstream integer_psnr).
#pragma once

#include <cstdint>

#include "core/simd.hpp"
#include "vmaf/picture.hpp"

namespace vmaf::psnr {

/// Scalar reference SSE of two 8-bit planes (size of `a`): each row summed in
/// (wrapping) uint32, rows summed in uint64.
std::uint64_t sse_u8(const Plane& a, const Plane& b);
/// Scalar reference SSE of two 16-bit-container planes: every square summed in uint64.
std::uint64_t sse_u16(const Plane& a, const Plane& b);

/// Kernel table: scalar reference by default, overridden per SIMD target
/// (psnr_simd.cpp). Every entry gives bit-identical results for every input.
struct PsnrKernels {
    using SseFn = std::uint64_t (*)(const Plane& a, const Plane& b);
    SseFn sse_u8 = &psnr::sse_u8;
    SseFn sse_u16 = &psnr::sse_u16;
};

/// The SIMD targets compiled for PSNR (defined in psnr_simd.cpp).
simd::KernelRegistry<PsnrKernels>& psnr_registry();

/// Sum of squared differences of two planes of the same size (the size of `a`).
/// Samples are uint8_t when bpc == 8, else uint16_t. As upstream, 8-bit rows
/// are summed in uint32 before entering the uint64 total; deeper samples go
/// straight into the uint64 total (each square fits in uint32).
std::uint64_t sse(const Plane& a, const Plane& b, unsigned bpc);
/// The same through a kernel table.
std::uint64_t sse(const PsnrKernels& k, const Plane& a, const Plane& b, unsigned bpc);

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
