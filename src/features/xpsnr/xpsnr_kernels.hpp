// Scalar reference kernels of the XPSNR feature (FFmpeg's `xpsnr` filter,
// libavfilter/vf_xpsnr.c, FFmpeg 7.1).
//
// XPSNR weights each luma block's squared error by the inverse of the block's
// activity: a high-pass of the reference (spatial) plus its change against the
// previous reference frame(s) (temporal). The filter reads samples as int16:
// 8-bit samples widened, deeper ones reinterpreted (16-bit samples >= 2^15 are
// negative there, and so here).
//
// The kernels below add per-column sums of one band of rows into `col`
// (uint32, one entry per column); the caller sums the columns of each block.
// Two modes, chosen by picture size as the filter does:
//   plain (w*h <= 2048*1152): every sample.
//     spatial  |12 c - 2 (l + r + u + d) - (ul + ur + dl + dr)|  at x in [1, w-1)
//     temporal |c - p1|  (order 1)  or  |c - 2 p1 + p2|  (order 2), every x
//   downsampled (larger): at even x and even y only, on 2x2 sums.
//     spatial  |12 S(x,y) - 3 (edge pairs) - 2 (corners) - (outer ring)|, the
//              filter's 6x6 high-pass, at even x in [2, w-2)
//     temporal |S_c - S_p1| or |S_c - 2 S_p1 + S_p2| over the 2x2 group, even x
//   Samples outside the picture read as 0 (the filter reads past the picture
//   there, at odd sizes only; see README in this folder).
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/simd.hpp"
#include "vmaf/picture.hpp"

namespace vmaf::xpsnr {

/// Rows [y0, y1) of the plain spatial high-pass: col[x] += |f(x, y)| for x in
/// [1, w-1). Requires 1 <= y0 and y1 <= h - 1.
void spatial_plain(const Plane& p, unsigned bpc, unsigned y0, unsigned y1, std::uint32_t* col);
/// Even rows y in [y0, y1) (y0 even) of the downsampled spatial high-pass:
/// col[x] += |g(x, y)| for even x in [2, w-2). Rows y-2 .. y+3 are read
/// (outside the picture: 0). `scratch`: spatial_scratch_size(w) int32.
void spatial_down(const Plane& p, unsigned bpc, unsigned y0, unsigned y1, std::uint32_t* col, std::int32_t* scratch);
/// Rows [y0, y1) of the plain temporal difference against p1 (order 1) or
/// p1 and p2 (order 2): col[x] += |t(x, y)| for every x.
void temporal_plain(const Plane& cur, const Plane& p1, const Plane& p2, unsigned bpc, unsigned order, unsigned y0,
                    unsigned y1, std::uint32_t* col);
/// Even rows y in [y0, y1) (y0 even) of the downsampled temporal difference
/// over 2x2 groups: col[x] += |T(x, y)| for even x in [0, w). Samples outside
/// the picture read as 0. `scratch`: temporal_scratch_size(w) int32.
void temporal_down(const Plane& cur, const Plane& p1, const Plane& p2, unsigned bpc, unsigned order, unsigned y0,
                   unsigned y1, std::uint32_t* col, std::int32_t* scratch);
/// Rows [y0, y1) of the squared error: col[x] += (a - b)^2 for x in [0, w),
/// exact. The caller keeps (y1 - y0) * (2^bpc - 1)^2 below 2^32 per call.
void sse_cols(const Plane& a, const Plane& b, unsigned bpc, unsigned y0, unsigned y1, std::uint32_t* col);

inline std::size_t spatial_scratch_size(unsigned w) { return 3 * (static_cast<std::size_t>(w) + 8); }
inline std::size_t temporal_scratch_size(unsigned w) { return static_cast<std::size_t>(w) + 8; }

/// The squared error of one block row segment as FFmpeg's x86 build computes
/// it (its SSE2 sse_line on int16 samples, what its xpsnr filter uses): runs
/// of 32 samples from `n`'s start as four lanes of eight squares of the
/// int16-wrapped difference, each lane's sum taken mod 2^32; the remaining
/// samples as exact squares. Equal to the exact sum at bpc <= 14; differs at
/// 15 and 16 bits where a difference or a lane's sum overflows.
std::uint64_t sse_line_x86(const std::uint16_t* a, const std::uint16_t* b, unsigned n);

/// Kernel table: scalar reference by default, overridden per SIMD target
/// (xpsnr_simd.cpp). Every entry gives bit-identical results for every input.
struct XpsnrKernels {
    decltype(&xpsnr::spatial_plain) spatial_plain = &xpsnr::spatial_plain;
    decltype(&xpsnr::spatial_down) spatial_down = &xpsnr::spatial_down;
    decltype(&xpsnr::temporal_plain) temporal_plain = &xpsnr::temporal_plain;
    decltype(&xpsnr::temporal_down) temporal_down = &xpsnr::temporal_down;
    decltype(&xpsnr::sse_cols) sse_cols = &xpsnr::sse_cols;
};

/// The SIMD targets compiled for XPSNR (defined in xpsnr_simd.cpp).
simd::KernelRegistry<XpsnrKernels>& xpsnr_registry();

/// A sample as the filter reads it: 8-bit widened, deeper reinterpreted as int16.
inline int sample(const Plane& p, unsigned bpc, unsigned x, unsigned y) {
    if (bpc == 8) return p.row<const std::uint8_t>(y)[x];
    return static_cast<std::int16_t>(p.row<const std::uint16_t>(y)[x]);
}

}  // namespace vmaf::xpsnr
