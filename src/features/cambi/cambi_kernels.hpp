// Row kernels of CAMBI: scalar references, overridden per SIMD target by
// cambi_simd.cpp. Every variant gives bit-identical output for every input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include "core/simd.hpp"

namespace vmaf::cambi {

// Suprathreshold contrast response per contrast step (index d = step - 1).
inline constexpr int kContrastWeights[32] = {1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8,
                                      8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};
/// Largest window * window the reciprocal table covers (as upstream).
inline constexpr int kReciprocalTableSize = 4226;

/// reciprocal_table()[i] = 1/i as upstream's table has it (0 for i = 0), i < kReciprocalTableSize.
const float* reciprocal_table();

/// What the c-value kernels need of Params (see cambi_core.hpp).
struct ScoreParams {
    int num_diffs = 4;                     ///< contrast steps 1 ... num_diffs
    const std::uint32_t* active = nullptr; ///< Params::active: bit d for value + num_diffs
    std::uint16_t band_base = 0, band_size = 0;
};

/// Histogram row of a sample that counts in no histogram (unmasked, or
/// outside the band); see band_codes_row().
inline constexpr std::uint16_t kNoCode = 0xffff;

/// out[j] = vals[j] - band_base when mask[j] != 0 and that difference (as
/// unsigned) is below band_size, else kNoCode: the histogram row of each
/// sample. band_size < kNoCode.
void band_codes_row(const std::uint16_t* vals, const std::uint16_t* mask, std::uint16_t band_base,
                    std::uint16_t band_size, std::uint16_t* out, std::size_t w);

/// The window histograms: one row of `stride` (>= w) uint16 counts per
/// histogram row (10-bit value - band_base), column c at index c; columns
/// [w, stride) are scratch that the SIMD slide kernels may write. Fastest
/// with stride = hist_stride(w) and rows at 128-byte boundaries (the slide
/// then updates whole aligned vectors).
inline constexpr int kHistColumns = 64;
inline constexpr int hist_stride(int w) { return (w + kHistColumns - 1) / kHistColumns * kHistColumns; }

/// What top-k pooling needs to know about the c values of a scale.
struct TopkStats {
    double sum = 0.0;       ///< their sum (see topk_stats())
    std::size_t nonzero = 0;
    float min_nonzero = std::numeric_limits<float>::infinity();  ///< +inf when every value is 0
};

/// Banding values of one row: out[j] = 0 where codes[j] is kNoCode, else the
/// c value of the sample with histogram row r = codes[j] (10-bit value
/// r + band_base, at most 1024) from the window histograms
/// hist[r' * stride + j]: the largest over active steps s = d + 1 of
/// weight[d] * p0 * q / (p0 + q) (float product with the reciprocal table),
/// p0 the count of row r, q the larger count of rows r +- s (0 below row 0).
/// hist[band_size * stride] must be readable (pair reads). The row's values
/// are also added to `stats` (count, minimum, and sum in an order of the
/// variant's choosing, as topk_stats() allows), so that a scale's rows give
/// the stats of the scale.
void c_values_row(const std::uint16_t* hist, int stride, int w, const std::uint16_t* codes, const ScoreParams& p,
                  float* out, TopkStats& stats);

/// out[j] = the value that two or three of a[j], b[j], c[j] share, else the
/// smallest of them (upstream's mode3; symmetric in its arguments). out may
/// alias none of the inputs.
void mode3_row(const std::uint16_t* a, const std::uint16_t* b, const std::uint16_t* c, std::uint16_t* out,
               std::size_t n);

/// out[j] = 1 when row[j] equals row[j + 1] (the last column, j = w - 1,
/// always counts as equal) and, with `below` non-null, equals below[j]; else 0.
void flat_row(const std::uint16_t* row, const std::uint16_t* below, std::uint16_t* out, std::size_t w);

/// out[j] = 1 when colsum[j - 3] + ... + colsum[j + 3] > threshold, else 0,
/// for j in [0, w). colsum[-3, 0) and colsum[w, w + 3) must be readable (the
/// caller keeps them 0); every colsum entry is at most 7.
void box7_above(const std::uint16_t* colsum, std::uint32_t threshold, std::uint16_t* out, std::size_t w);

/// One row step of the sliding-window histograms hist[r * stride + c] (w
/// columns, see hist_stride(); pad = half the window): every column j whose code in
/// `out_codes` is a histogram row r (not kNoCode) is removed from row r at
/// columns [j - pad, j + pad] (clipped to the picture), every such column of
/// `in_codes` added; a column with the same code in both rows cancels out.
/// A null row stands for a row of kNoCode. codes[-1] and codes[w] of a
/// non-null row must be readable and hold kNoCode. Counts wrap modulo 2^16
/// as upstream's do.
void slide_row(std::uint16_t* hist, int stride, int w, int pad, const std::uint16_t* out_codes,
               const std::uint16_t* in_codes);

/// Stats of c[0, n) (values >= 0 and finite). The sum is formed in an order
/// of the variant's choosing: every variant gives the same double whenever all
/// partial sums are exact (see the pooling proof in cambi_core.cpp), and
/// otherwise one within n * 2^-53 relative of the exact sum.
TopkStats topk_stats(const float* c, std::size_t n);

/// In-place 2x2 box average of row r with the row below, n (pairs of
/// samples: r[j] = (r[j] + r[j + 1] + below[j] + below[j + 1]) >> 2 for
/// j in [0, n), each from the values before the call; r[n] and below[n]
/// are read, not written. Samples are at most 1023 (10 bits).
void anti_dither_row(std::uint16_t* r, const std::uint16_t* below, std::size_t n);

/// Kernel table: the scalar references by default.
struct CambiKernels {
    decltype(&mode3_row) mode3 = &mode3_row;
    decltype(&flat_row) flat = &flat_row;
    decltype(&box7_above) box7 = &box7_above;
    decltype(&slide_row) slide = &slide_row;
    decltype(&topk_stats) stats = &topk_stats;
    decltype(&c_values_row) c_values = &c_values_row;
    decltype(&anti_dither_row) anti_dither = &anti_dither_row;
    decltype(&band_codes_row) band_codes = &band_codes_row;
};

/// The SIMD targets compiled for CAMBI (defined in cambi_simd.cpp).
simd::KernelRegistry<CambiKernels>& cambi_registry();

}  // namespace vmaf::cambi
