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

/// VIF statistic of one scale.
///   scale: 0..3 (selects the filter and the fixed-point normalisation);
///   bpc:   bits per sample of the *input* (only used at scale 0; decimated
///          scales always hold 16-bit-range values);
///   enhn_gain_limit: upper clamp of the gain g, in [1, 100].
/// ref and dis must have the same size, each side > the filter half width.
template <typename T>
ScaleStat scale_statistic(const SampleView<T>& ref, const SampleView<T>& dis, unsigned scale, unsigned bpc,
                          double enhn_gain_limit);

/// Filters `src` with the kernel of scale `scale + 1` and keeps every other
/// sample of every other row: the result is (width/2) x (height/2), 16-bit
/// range. `scale` is the scale of `src` (0..2); bpc as in scale_statistic.
template <typename T>
ScalePlane subsample(const SampleView<T>& src, unsigned scale, unsigned bpc);

/// Whole-frame VIF: the four scales' statistics of luma planes of the same
/// size (>= kMinDimension each side, checked by the caller).
/// With skip_scale0 the scale-0 statistic is not computed (left zero).
template <typename T>
std::array<ScaleStat, kScales> compute_vif(const SampleView<T>& ref, const SampleView<T>& dis, unsigned bpc,
                                           double enhn_gain_limit, bool skip_scale0);

}  // namespace vmaf::vif
