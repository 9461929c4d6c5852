// Scalar reference kernels of the fixed-point ("integer") VIF feature.
//
// The arithmetic reproduces libvmaf's integer VIF bit for bit: every
// intermediate has the same width, rounding offset and shift as upstream, and
// the few floating-point steps are evaluated in the same order and precision.
//
// Pipeline for one frame (luma only):
//   scale 0: statistic on the input samples (filter of 17 taps)
//   scale k (k = 1..3): the previous scale is low-pass filtered with the next
//            scale's kernel, decimated by 2 in both directions (floor sizes),
//            and the statistic runs on the result (9, 5, 3 taps).
// Borders are mirrored without repeating the edge sample (index -k reads k,
// index n-1+k reads n-1-k), which is only meaningful when every scale is wider
// and taller than its filter's half width: see kMinDimension.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace vmaf::vif {

constexpr unsigned kScales = 4;

/// Smallest width/height accepted. At the coarsest scale (size >> 3) the
/// 3-tap filter needs at least 2 samples, and each finer scale likewise needs
/// more samples than its half width (9x9 at scale 0, 5 at 1, 3 at 2), so
/// 16x16 is the smallest frame on which upstream's mirrored borders never
/// reach outside the picture.
constexpr unsigned kMinDimension = 16;
/// Supported bits per sample.
constexpr unsigned kMinBpc = 8, kMaxBpc = 16;

/// Upstream's default (and maximum) enhancement gain limit.
constexpr double kDefaultEnhnGainLimit = 100.0;

/// Numerator and denominator of one scale, as upstream keeps them: float.
/// den > 0 for every non-empty picture; num / den is the scale's score.
struct ScaleStat {
    float num = 0.0f;
    float den = 0.0f;
};

/// Read-only 2-D view of samples. `T` is uint8_t (8-bit input) or uint16_t
/// (high-bit-depth input, and every decimated scale). `stride` is in bytes.
template <typename T>
struct SampleView {
    const T* data = nullptr;
    std::ptrdiff_t stride = 0;
    unsigned width = 0, height = 0;

    const T* row(unsigned y) const {
        return reinterpret_cast<const T*>(reinterpret_cast<const std::uint8_t*>(data) +
                                          stride * static_cast<std::ptrdiff_t>(y));
    }
};

/// An owned plane of 16-bit samples (a decimated scale).
struct ScalePlane {
    std::vector<std::uint16_t> samples;
    unsigned width = 0, height = 0;

    SampleView<std::uint16_t> view() const {
        return {samples.data(), static_cast<std::ptrdiff_t>(width * sizeof(std::uint16_t)), width, height};
    }
};

/// Table of round(2048 * log2f(i)) for i in [32767, 65535] (other entries 0).
/// Built once; safe to call from any thread.
const std::array<std::uint16_t, 65536>& log2_table();

/// 2048 * log2(v) approximated from v's 16 leading bits. Requires v >= 2^17.
std::int32_t log2_q11(std::uint64_t v);

/// Integer sums over one scale, combined into num/den by finish_statistic.
struct StatSums {
    std::int64_t num_log = 0;      ///< sum of 2048 * log2 numerator terms (sigma1_sq >= sigma_nsq)
    std::int64_t den_log = 0;      ///< sum of 2048 * log2 denominator terms
    std::int64_t num_non_log = 0;  ///< sum of sigma2_sq where sigma1_sq < sigma_nsq
    std::int64_t den_non_log = 0;  ///< number of such pixels

    bool operator==(const StatSums&) const = default;
};

/// Separable Gaussian kernels of the four scales, Q16 (each sums to 65536,
/// every coefficient < 65536). Only the first `taps` entries are used.
struct Kernel {
    unsigned taps;
    std::array<std::uint16_t, 17> coeff;
    unsigned half() const { return taps / 2; }
};
extern const Kernel kKernels[kScales];

/// Fixed-point normalisation of the statistic's vertical pass: a filtered
/// first moment is (sum + round_mu) >> shift_mu, cut to 16 bits; a second
/// moment is (sum + round_sq) >> shift_sq, cut to 32 bits.
struct VerticalNorm {
    unsigned shift_mu;
    std::uint32_t round_mu;
    unsigned shift_sq;
    std::uint64_t round_sq;
};
VerticalNorm vertical_norm(unsigned scale, unsigned bpc);

/// Entries a stat_hfilter kernel may read past the stored row (w + taps - 1
/// entries): callers allocate them; their contents are irrelevant.
constexpr unsigned kStatRowPad = 64;

/// One row of vertically filtered statistics, as eight planes of 16-bit
/// values stored biased: entry = value - 32768 (value ^ 0x8000 as int16), so
/// that SIMD kernels can multiply them as signed 16-bit numbers. mu1/mu2 hold
/// the 16-bit first moments; each 32-bit second moment m is split into
/// m_lo = m & 0xFFFF and m_hi = m >> 16.
struct StatRow {
    std::int16_t* mu1;
    std::int16_t* mu2;
    std::int16_t* xx_lo;
    std::int16_t* xx_hi;
    std::int16_t* yy_lo;
    std::int16_t* yy_hi;
    std::int16_t* xy_lo;
    std::int16_t* xy_hi;

    static constexpr unsigned kPlanes = 8;
    std::int16_t* plane(unsigned i) const {
        std::int16_t* const p[kPlanes] = {mu1, mu2, xx_lo, xx_hi, yy_lo, yy_hi, xy_lo, xy_hi};
        return p[i];
    }
    /// The same row advanced by j entries.
    StatRow offset(std::ptrdiff_t j) const {
        return {mu1 + j, mu2 + j, xx_lo + j, xx_hi + j, yy_lo + j, yy_hi + j, xy_lo + j, xy_hi + j};
    }
    /// Rows over a buffer of kPlanes * len entries.
    static StatRow over(std::int16_t* buf, std::size_t len) {
        return {buf, buf + len, buf + 2 * len, buf + 3 * len, buf + 4 * len, buf + 5 * len, buf + 6 * len, buf + 7 * len};
    }
};

/// Biased 16-bit storage of a 16-bit value, and back.
inline std::int16_t bias16(std::uint32_t v) { return static_cast<std::int16_t>(static_cast<std::uint16_t>(v ^ 0x8000u)); }
inline std::uint32_t unbias16(std::int16_t v) { return static_cast<std::uint16_t>(v) ^ 0x8000u; }

// ---------------------------------------------------------------------------
// Row kernels: the hot loops, dispatched through VifKernels. The scalar
// reference below is the definition; SIMD variants must match it bit for bit.
//
// stat_vfilter: for j in [0, w): taps-tap vertical filter of ref/dis rows
//   ref_rows[k][j], dis_rows[k][j] (k < taps) into out.*[j] (biased planes).
// stat_hfilter: for j in [0, w): taps-tap horizontal filter of in.*[j .. j+taps)
//   and that pixel's contribution under each of the n_limits enhancement-gain
//   limits limits[i] (n_limits >= 1, any count), added to sums[i]: sums[i]
//   receives exactly what a pass with limits[i] alone adds. Only num_log
//   depends on the limit, so one pass filters and classifies the pixels for
//   every limit (VMAF and VMAF NEG share it). `table` is log2_table().
//   May read (never use) kStatRowPad entries past in.*[w + taps - 2].
// sub_vfilter: for j in [0, w): out[j] = (u16)((sum_k coeff[k] rows[k][j] + 2^(shift-1)) >> shift).
// sub_hfilter: for j in [0, out_w): dst[j] = (u16)((sum_k coeff[k] in[2j + k] + 2^15) >> 16).
//   May read (never use) in[2 * out_w + taps - 2], one entry past those used.
// `coeff` has `taps` entries (an odd number <= 17, symmetric, summing to 65536).
// ---------------------------------------------------------------------------
template <typename T>
using StatVFilterFn = void (*)(const T* const* ref_rows, const T* const* dis_rows, unsigned w,
                               const std::uint16_t* coeff, unsigned taps, const VerticalNorm& norm, const StatRow& out);
using StatHFilterFn = void (*)(const StatRow& in, unsigned w, const std::uint16_t* coeff, unsigned taps,
                               const double* limits, unsigned n_limits, const std::uint16_t* table,
                               StatSums* sums);
template <typename T>
using SubVFilterFn = void (*)(const T* const* rows, unsigned w, const std::uint16_t* coeff, unsigned taps,
                              unsigned shift, std::uint32_t* out);
using SubHFilterFn = void (*)(const std::uint32_t* in, unsigned out_w, const std::uint16_t* coeff, unsigned taps,
                              std::uint16_t* dst);

namespace ref {
template <typename T>
void stat_vfilter(const T* const* ref_rows, const T* const* dis_rows, unsigned w, const std::uint16_t* coeff,
                  unsigned taps, const VerticalNorm& norm, const StatRow& out);
void stat_hfilter(const StatRow& in, unsigned w, const std::uint16_t* coeff, unsigned taps, const double* limits,
                  unsigned n_limits, const std::uint16_t* table, StatSums* sums);
template <typename T>
void sub_vfilter(const T* const* rows, unsigned w, const std::uint16_t* coeff, unsigned taps, unsigned shift,
                 std::uint32_t* out);
void sub_hfilter(const std::uint32_t* in, unsigned out_w, const std::uint16_t* coeff, unsigned taps,
                 std::uint16_t* dst);
}  // namespace ref

/// Kernel table: the scalar reference, overridden per SIMD target.
struct VifKernels {
    StatVFilterFn<std::uint8_t> stat_vfilter_8 = &ref::stat_vfilter<std::uint8_t>;
    StatVFilterFn<std::uint16_t> stat_vfilter_16 = &ref::stat_vfilter<std::uint16_t>;
    StatHFilterFn stat_hfilter = &ref::stat_hfilter;
    SubVFilterFn<std::uint8_t> sub_vfilter_8 = &ref::sub_vfilter<std::uint8_t>;
    SubVFilterFn<std::uint16_t> sub_vfilter_16 = &ref::sub_vfilter<std::uint16_t>;
    SubHFilterFn sub_hfilter = &ref::sub_hfilter;

    StatVFilterFn<std::uint8_t> stat_vfilter(const std::uint8_t*) const { return stat_vfilter_8; }
    StatVFilterFn<std::uint16_t> stat_vfilter(const std::uint16_t*) const { return stat_vfilter_16; }
    SubVFilterFn<std::uint8_t> sub_vfilter(const std::uint8_t*) const { return sub_vfilter_8; }
    SubVFilterFn<std::uint16_t> sub_vfilter(const std::uint16_t*) const { return sub_vfilter_16; }
};

/// Best kernels allowed by `cpumask` (upstream bit meanings; 0: best available).
VifKernels select_kernels(unsigned cpumask);
/// Every compiled SIMD variant this CPU runs, by Highway target name (tests).
std::vector<std::pair<std::string, VifKernels>> kernel_variants();

/// num/den of one scale from its integer sums (upstream's float recipe).
ScaleStat finish_statistic(const StatSums& sums);

/// VIF statistic of one scale.
///   scale: 0..3 (selects the filter and the fixed-point normalisation);
///   bpc:   bits per sample of the *input* (only used at scale 0; decimated
///          scales always hold 16-bit-range values);
///   limits: enhancement-gain limits (upper clamps of the gain g, each in
///          [1, 100]); out[i] receives the sums under limits[i]. The vertical
///          pass runs once for all of them (see stat_hfilter).
/// ref and dis must have the same size, each side > the filter half width.
template <typename T>
void scale_sums(const SampleView<T>& ref, const SampleView<T>& dis, unsigned scale, unsigned bpc,
                std::span<const double> limits, std::span<StatSums> out, const VifKernels& k = {});
template <typename T>
StatSums scale_sums(const SampleView<T>& ref, const SampleView<T>& dis, unsigned scale, unsigned bpc,
                    double enhn_gain_limit, const VifKernels& k = {}) {
    StatSums s;
    scale_sums(ref, dis, scale, bpc, std::span<const double>(&enhn_gain_limit, 1), std::span<StatSums>(&s, 1), k);
    return s;
}
template <typename T>
ScaleStat scale_statistic(const SampleView<T>& ref, const SampleView<T>& dis, unsigned scale, unsigned bpc,
                          double enhn_gain_limit, const VifKernels& k = {}) {
    return finish_statistic(scale_sums(ref, dis, scale, bpc, enhn_gain_limit, k));
}

/// Filters `src` with the kernel of scale `scale + 1` and keeps every other
/// sample of every other row: the result is (width/2) x (height/2), 16-bit
/// range. `scale` is the scale of `src` (0..2); bpc as in scale_statistic.
template <typename T>
ScalePlane subsample(const SampleView<T>& src, unsigned scale, unsigned bpc, const VifKernels& k = {});

/// Whole-frame VIF: the four scales' statistics of luma planes of the same
/// size (>= kMinDimension each side, checked by the caller), for each gain
/// limit: out[i] is what compute_vif(..., limits[i], ...) returns. Shared
/// between the limits: the decimation of every scale and each scale's
/// vertical statistic pass, and the horizontal pass up to the gain clamp.
/// With skip_scale0 the scale-0 statistic is not computed (left zero).
using FrameStats = std::array<ScaleStat, kScales>;
template <typename T>
void compute_vif(const SampleView<T>& ref, const SampleView<T>& dis, unsigned bpc, std::span<const double> limits,
                 bool skip_scale0, std::span<FrameStats> out, const VifKernels& k = {});
template <typename T>
FrameStats compute_vif(const SampleView<T>& ref, const SampleView<T>& dis, unsigned bpc, double enhn_gain_limit,
                       bool skip_scale0, const VifKernels& k = {}) {
    FrameStats s;
    compute_vif(ref, dis, bpc, std::span<const double>(&enhn_gain_limit, 1), skip_scale0,
                std::span<FrameStats>(&s, 1), k);
    return s;
}

}  // namespace vmaf::vif
