// CAMBI (contrast-aware multiscale banding index), scalar reference.
//
// One picture's score: its luma is brought to 10 bits at the encoding
// resolution, a spatial mask keeps the flat areas, and at 5 scales a
// per-pixel banding value c is pooled over the worst `topk` fraction of
// pixels; the scales are combined with weights 16, 8, 4, 2, 1. Every step
// uses upstream libvmaf's integer/float/double types and evaluation order, so
// scores match it bit for bit.
#pragma once

#include <cstdint>
#include <vector>

#include "features/cambi/cambi_kernels.hpp"
#include "vmaf/picture.hpp"

namespace vmaf::cambi {

inline constexpr int kNumScales = 5;

/// Everything fixed for a run, derived once from the options (see Setup()).
struct Params {
    int num_diffs = 4;                    ///< 1 << max_log_contrast
    std::vector<std::uint16_t> tvi;       ///< per contrast step d+1: largest visible 10-bit value + num_diffs
    std::uint16_t vlt_luma = 0;           ///< smallest 10-bit value above the visibility luminance (0: none)
    double topk = 0.6;                    ///< pooled fraction of pixels, (0, 1]
    unsigned enc_bitdepth = 8;            ///< < 10 enables the anti-dithering filter
    bool high_res_speedup = false;        ///< halve the resolution right after the spatial mask
    std::uint16_t band_base = 0;          ///< lowest 10-bit value that can contribute to a histogram
    std::uint16_t band_size = 0;          ///< number of histogram rows (values band_base ...)
    /// Per value + num_diffs (0 ... 1024 + num_diffs): bit d set when contrast
    /// step d + 1 passes the visibility test (value <= tvi[d], value + d + 1 > vlt_luma).
    std::vector<std::uint32_t> active;
};

/// Builds Params; `eotf_name` "bt1886" or "pq". Throws vmaf::Error(Usage) on an unknown EOTF.
Params make_params(int max_log_contrast, double tvi_threshold, double vis_lum_threshold, const char* eotf_name,
                   double topk, unsigned enc_bitdepth, bool high_res_speedup);

/// Upstream's window adjustment: `window` scaled by (w + h) / (3840 + 2160), halved under the
/// speed-up, made odd.
std::uint16_t adjusted_window(std::uint16_t window, unsigned width, unsigned height, bool high_res_speedup);

/// Per-thread working memory; sized on first use.
struct Scratch {
    std::vector<std::uint16_t> image, mask, hist, codes, filter_rows, mask_buf;
    std::vector<float> c_values, topk_tmp;
};

/// Banding heat map of one scale: c values scaled to 16 bits, row-major.
struct Heatmap {
    unsigned width = 0, height = 0;
    std::vector<std::uint16_t> samples;
};

/// Upstream's in-place selection on arr[0, n) (finite values, 1 <= k <= n):
/// afterwards arr[0, k) holds the k largest values in the order this exact
/// partition scheme leaves them (the pooled sum depends on that order).
void quick_select(float* arr, int n, int k);

/// The k of pool(): clamp(topk * w * h, 1, w * h).
int topk_count(double topk, unsigned w, unsigned h);

/// Mean of the k = topk_count() largest of c[0, w * h)
/// (values >= 0, no NaN), summed as upstream sums them after its quick_select
/// (which may reorder c); `tmp` is scratch.
double pool(float* c, double topk, unsigned w, unsigned h, std::vector<float>& tmp, const CambiKernels& kernels);

/// The same with the stats of c[0, w * h) given (topk_stats(), or
/// c_values_row()'s over the rows: any summation order).
double pool(float* c, const TopkStats& stats, double topk, unsigned w, unsigned h, std::vector<float>& tmp);

/// Count threshold of the spatial mask's flat-area test for a w x h picture:
/// a sample is kept when more than this many of the 7x7 square around it are flat.
std::uint16_t mask_threshold(unsigned w, unsigned h);

/// Heat map of a w x h scale's c values (before pooling, which may reorder them).
Heatmap to_heatmap(const float* c, unsigned w, unsigned h, int window, const Params& p);

/// Source index of each of `out` samples when `in` samples are resampled to
/// `out` (nearest sample, upstream's float stepping); one axis.
std::vector<unsigned> nearest_samples(unsigned in, unsigned out);

/// The picture's score from its kNumScales pooled scale scores.
double combine_scales(const double scores[kNumScales], std::uint16_t window);

/// CAMBI score of the luma plane of a `bpc`-bit picture evaluated at `width` x `height`
/// (nearest-sample resampled when that differs from the plane). Throws
/// vmaf::Error(Input) when a sample exceeds the bit depth. With `heatmaps`
/// non-null, also returns the kNumScales heat maps. `kernels`: the row kernels
/// to use (any variant gives the same result).
double score_picture(const Plane& luma, unsigned bpc, unsigned width, unsigned height, std::uint16_t window,
                     const Params& params, Scratch& scratch, std::vector<Heatmap>* heatmaps,
                     const CambiKernels& kernels = CambiKernels{});

}  // namespace vmaf::cambi
