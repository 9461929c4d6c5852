#include "features/cambi/cambi_core.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <limits>
#include <cstdlib>
#include <string>
#include <utility>

#include "features/cambi/cambi_kernels.hpp"
#include "features/cambi/cambi_luminance.hpp"
#include "vmaf/error.hpp"

namespace vmaf::cambi {

namespace {

constexpr int kScaleWeights[kNumScales] = {16, 8, 4, 2, 1};
constexpr int kMaskFilter = 7;  // side of the flat-area counting square

// ---- visibility thresholds -------------------------------------------------

/// True when a step of `diff` code values above `sample` is a visible luminance change.
bool visible(int sample, int diff, double tvi_threshold, LumaRange range, Eotf eotf) {
    const double mean = luminance(sample, range, eotf);
    const double stepped = luminance(sample + diff, range, eotf);
    return stepped - mean > tvi_threshold * mean;
}

enum class Bisect { TooSmall, Correct, TooBig };

Bisect classify(int sample, int diff, double tvi_threshold, LumaRange range, Eotf eotf) {
    if (!visible(sample, diff, tvi_threshold, range, eotf)) return Bisect::TooBig;
    if (visible(sample + 1, diff, tvi_threshold, range, eotf)) return Bisect::TooSmall;
    return Bisect::Correct;
}

/// Largest 10-bit sample at which a step of `diff` is still visible (upstream's bisection).
int tvi_for_diff(int diff, double tvi_threshold, LumaRange range, Eotf eotf) {
    int lo = range.foot, hi = range.head - diff - 1;
    Bisect b = classify(lo, diff, tvi_threshold, range, eotf);
    if (b == Bisect::TooBig) return 0;
    if (b == Bisect::Correct) return lo;
    b = classify(hi, diff, tvi_threshold, range, eotf);
    if (b == Bisect::TooSmall) return (1 << 10) - 1;
    if (b == Bisect::Correct) return hi;
    for (;;) {
        const int mid = lo + (hi - lo) / 2;
        b = classify(mid, diff, tvi_threshold, range, eotf);
        if (b == Bisect::TooBig)
            hi = mid;
        else if (b == Bisect::TooSmall)
            lo = mid;
        else
            return mid;
    }
}

/// Smallest sample whose luminance reaches `threshold`; 0 when the range foot already does.
std::uint16_t vlt_luma(double threshold, LumaRange range, Eotf eotf) {
    int sample = range.foot;
    while (luminance(sample, range, eotf) < threshold) {
        if (++sample > 0xffff)
            throw Error(ErrorKind::Usage, "cambi: cambi_vis_lum_threshold is above the EOTF's peak luminance");
    }
    return sample == range.foot ? 0 : static_cast<std::uint16_t>(sample);
}

// ---- preprocessing ---------------------------------------------------------

template <typename T>
void check_range(const Plane& p, unsigned bpc) {
    const unsigned max = (1u << bpc) - 1;
    for (unsigned y = 0; y < p.height; ++y) {
        const T* r = p.row<T>(y);
        for (unsigned x = 0; x < p.width; ++x)
            if (r[x] > max)
                throw Error(ErrorKind::Input, "cambi: input contains values greater than " + std::to_string(max) +
                                                  ", the maximum of a " + std::to_string(bpc) + "-bit format");
    }
}

/// Luma -> 10-bit samples at out_w x out_h (nearest sample, nearest_samples()
/// per axis, when the size differs).
template <typename T, typename Convert>
void to_10bit(const Plane& p, std::uint16_t* out, unsigned out_w, unsigned out_h, Convert conv) {
    if (p.width == out_w && p.height == out_h) {
        for (unsigned y = 0; y < out_h; ++y) {
            const T* r = p.row<T>(y);
            for (unsigned x = 0; x < out_w; ++x) out[std::size_t{y} * out_w + x] = conv(r[x]);
        }
        return;
    }
    const std::vector<unsigned> xs = nearest_samples(p.width, out_w), ys = nearest_samples(p.height, out_h);
    for (unsigned y = 0; y < out_h; ++y) {
        const T* r = p.row<T>(ys[y]);
        for (unsigned x = 0; x < out_w; ++x) out[std::size_t{y} * out_w + x] = conv(r[xs[x]]);
    }
}

/// 2x2 box average (edges: 2-tap) of the image as it was before the call.
void anti_dither(std::uint16_t* d, unsigned w, unsigned h, const CambiKernels& k) {
    for (unsigned i = 0; i + 1 < h; ++i) {
        std::uint16_t* r = d + std::size_t{i} * w;
        const std::uint16_t* n = r + w;
        k.anti_dither(r, n, w - 1);
        r[w - 1] = (r[w - 1] + n[w - 1]) >> 1;
    }
    std::uint16_t* r = d + std::size_t{h - 1} * w;
    for (unsigned j = 0; j + 1 < w; ++j) r[j] = (r[j] + r[j + 1]) >> 1;
}

void preprocess(const Plane& p, unsigned bpc, std::uint16_t* out, unsigned w, unsigned h, unsigned enc_bitdepth,
                const CambiKernels& k) {
    if (bpc == 8) {
        to_10bit<std::uint8_t>(p, out, w, h, [](std::uint8_t v) { return static_cast<std::uint16_t>(v << 2); });
    } else {
        if (bpc < 16) check_range<std::uint16_t>(p, bpc);
        if (bpc == 9) {
            to_10bit<std::uint16_t>(p, out, w, h, [](std::uint16_t v) { return static_cast<std::uint16_t>(v << 1); });
        } else {
            const int shift = static_cast<int>(bpc) - 10;
            const int round = shift == 0 ? 0 : 1 << (shift - 1);
            to_10bit<std::uint16_t>(p, out, w, h,
                                    [=](std::uint16_t v) { return static_cast<std::uint16_t>((v + round) >> shift); });
        }
    }
    if (enc_bitdepth < 10) anti_dither(out, w, h, k);
}

// ---- spatial mask ----------------------------------------------------------

std::uint16_t ceil_log2(std::uint32_t n) {
    if (n == 0) return 0;
    std::uint16_t bits = 0;
    for (std::uint32_t t = n - 1; t > 0; t >>= 1) ++bits;
    return bits;
}


/// mask = 1 where more than mask_threshold() pixels of the 7x7 square around
/// (zero outside the picture) have a zero derivative (equal to their right and
/// lower neighbours; the last column/row count as equal). Each row's
/// derivative is computed once into a ring of kMaskFilter + 1 rows; colsum
/// holds the square's column counts between 3 zero entries either side.
void spatial_mask(const std::uint16_t* img, std::uint16_t* mask, unsigned w, unsigned h, std::ptrdiff_t stride,
                  std::vector<std::uint16_t>& buf, const CambiKernels& k) {
    const int pad = kMaskFilter / 2;
    constexpr int kRing = kMaskFilter + 1;
    const std::uint32_t threshold = mask_threshold(w, h);
    buf.assign(std::size_t{w} * (kRing + 1) + 2 * pad, 0);
    std::uint16_t* colsum = buf.data() + pad;
    std::uint16_t* ring = colsum + w + pad;
    const int hi = static_cast<int>(h);
    auto flat = [&](int r) { return ring + std::size_t(r % kRing) * w; };
    auto add_row = [&](int r) {
        if (r >= hi) return;
        const std::uint16_t* row = img + r * stride;
        std::uint16_t* f = flat(r);
        k.flat(row, r + 1 < hi ? row + stride : nullptr, f, w);
        for (unsigned c = 0; c < w; ++c) colsum[c] = static_cast<std::uint16_t>(colsum[c] + f[c]);
    };
    for (int r = 0; r < pad; ++r) add_row(r);
    for (int r = 0; r < hi; ++r) {
        add_row(r + pad);
        k.box7(colsum, threshold, mask + r * stride, w);
        if (r - pad >= 0) {
            const std::uint16_t* f = flat(r - pad);
            for (unsigned c = 0; c < w; ++c) colsum[c] = static_cast<std::uint16_t>(colsum[c] - f[c]);
        }
    }
}

// ---- per-scale steps -------------------------------------------------------

/// Keeps every other sample of every other row, in place.
void decimate(std::uint16_t* d, unsigned w, unsigned h, std::ptrdiff_t stride) {
    for (unsigned i = 0; i < h; ++i)
        for (unsigned j = 0; j < w; ++j) d[i * stride + j] = d[(2 * i) * stride + 2 * j];
}

/// 3x3 separable mode filter (horizontal then vertical), in place; the outer
/// rows and columns keep their horizontally / unfiltered values as upstream.
void filter_mode(std::uint16_t* d, unsigned w, unsigned h, std::ptrdiff_t stride, std::vector<std::uint16_t>& rows,
                 const CambiKernels& k) {
    rows.resize(3 * std::size_t{w});
    for (unsigned i = 0; i < h; ++i) {
        const std::uint16_t* src = d + i * stride;
        std::uint16_t* hr = rows.data() + (i % 3) * std::size_t{w};
        hr[0] = src[0];
        if (w > 2) k.mode3(src, src + 1, src + 2, hr + 1, w - 2);
        hr[w - 1] = src[w - 1];
        if (i > 1) k.mode3(rows.data(), rows.data() + w, rows.data() + 2 * std::size_t{w}, d + (i - 1) * stride, w);
    }
}

/// c values of a w x h scale into c (row-major, w per row; unmasked pixels are 0)
/// and their stats into `stats` (from TopkStats{}).
/// The band codes of the rows in the window (and the one leaving it) are kept
/// in a ring of window + 1 rows, each with a kNoCode sentinel either side.
void c_values(const std::uint16_t* img, const std::uint16_t* mask, int w, int h, std::ptrdiff_t stride, int window,
              const Params& p, Scratch& s, float* c, TopkStats& stats, const CambiKernels& k) {
    const int pad = window >> 1;
    // Rows start at 128-byte boundaries (whole SIMD vectors per cache line);
    // one element past the last row: the SIMD c-value kernels read pairs.
    const int hist_w = hist_stride(w);
    constexpr std::size_t kAlign = 64;  // elements
    s.hist.assign(std::size_t{p.band_size} * hist_w + 1 + kAlign, 0);
    std::uint16_t* hist = s.hist.data();
    hist += (kAlign - reinterpret_cast<std::uintptr_t>(hist) / sizeof(std::uint16_t) % kAlign) % kAlign;
    const int ring = 2 * pad + 2;
    const std::size_t code_stride = std::size_t(w) + 2;
    s.codes.assign(code_stride * ring, kNoCode);
    auto codes_of = [&](int r) { return s.codes.data() + std::size_t(r % ring) * code_stride + 1; };
    auto add = [&](int r) {
        k.band_codes(img + r * stride, mask + r * stride, p.band_base, p.band_size, codes_of(r), std::size_t(w));
        k.slide(hist, hist_w, w, pad, nullptr, codes_of(r));
    };
    auto remove = [&](int r) { k.slide(hist, hist_w, w, pad, codes_of(r), nullptr); };
    const ScoreParams sp{p.num_diffs, p.active.data(), p.band_base, p.band_size};
    auto score_row = [&](int i) {
        if (i < h) k.c_values(hist, hist_w, w, codes_of(i), sp, c + std::size_t(i) * w, stats);
    };
    // The three row phases of upstream (grow, slide, shrink), kept literally so
    // that even degenerate heights (h < window) behave identically.
    for (int i = 0; i < pad && i < h; ++i) add(i);
    for (int i = 0; i < pad + 1; ++i) {
        if (i + pad < h) add(i + pad);
        score_row(i);
    }
    for (int i = pad + 1; i < h - pad; ++i) {
        const int in = i + pad;
        k.band_codes(img + in * stride, mask + in * stride, p.band_base, p.band_size, codes_of(in), std::size_t(w));
        k.slide(hist, hist_w, w, pad, codes_of(i - pad - 1), codes_of(in));
        score_row(i);
    }
    for (int i = h - pad; i < h; ++i) {
        if (i - pad - 1 >= 0) remove(i - pad - 1);
        score_row(i);
    }
}

/// Upstream's top-k sum, sum of arr[0, k) in order after quick_select(c, n, k),
/// without the selection when its first pivot c[k] is 0 and its first
/// partition leaves k right of the split (so later passes only move zeros,
/// right of every nonzero value); false (sum untouched) otherwise. c >= 0
/// (zeros +0), k < n.
///
/// With pivot 0 the first partition of [0, R = n - 1] never moves its right
/// index while scanning (no value is below 0): the t-th zero z_t met from the
/// left (counted from 0) is swapped with c[R - t] while z_t <= R - t, and
/// the left scan stops at R - t + 1 at the latest (the zeros swapped there).
/// The split ends below k (j = R - T < k after T swaps) exactly when
/// z_{n-k-1} <= k, i.e. when c[0, k] holds at least n - k zeros; the final
/// arr[0, k) is then the left part so formed followed by zeros.
bool zero_pivot_topk_sum(const float* c, int n, int k, double& sum) {
    // 16 values that are all +0 (as the c values' zeros are).
    auto zeros16 = [](const float* x) {
        std::uint32_t bits = 0;
        for (int q = 0; q < 16; ++q) bits |= std::bit_cast<std::uint32_t>(x[q]);
        return bits == 0;
    };
    int zeros = 0;
    for (int p = 0; p <= k; ++p) zeros += c[p] == 0.0f;
    if (zeros < n - k) return false;
    const int right = n - 1;
    double s = 0.0;
    int t = 0, p = 0;  // swaps so far; scan position (i)
    for (;;) {
        // 16 zeros swapped with 16 zeros, far from where the scans meet: nothing to add.
        while (p + 32 <= right - t && zeros16(c + p) && zeros16(c + (right - t - 15))) p += 16, t += 16;
        for (; p <= right - t && c[p] > 0.0f; ++p)
            if (p < k) s += c[p];
        if (p > right - t) break;  // met the zeros swapped in: i > j
        // z_t = p takes c[R - t] (0 when the same element); adding 0 changes nothing.
        if (p < k && c[right - t] != 0.0f) s += c[right - t];
        ++t, ++p;
        if (p > right - t) break;  // do-while test i <= j
    }
    if (right - t >= k) return false;  // j >= k (not reached: the count above rules it out)
    sum = s;
    return true;
}

/// Sum of the k largest of c[0, n) (all c >= 0 and finite) when it can be
/// shown to be order-independent, i.e. equal to what upstream's sum over its
/// quick_select arrangement gives; false (sum untouched) otherwise.
///
/// Proof used: with m the smallest nonzero value and q = 2^(floor(log2 m) - 23),
/// every value is a multiple of q (a float >= 2^e is a multiple of 2^(e-23)),
/// so every partial sum of any subset, in any order, is a multiple of q no
/// larger than the total S. When S <= 2^53 q all of them are exact doubles,
/// and the top-k sum is the exact sum of the k largest values however it is
/// formed. The test compares a rounded S (relative error below n * 2^-53 <=
/// 2^-22 for any summation order) with 2^53 q (1 - 2^-21).
bool exact_topk_sum(const float* c, int n, int k, const TopkStats& st, std::vector<float>& tmp, double& sum) {
    const int nonzero = static_cast<int>(st.nonzero);
    if (nonzero == 0) {
        sum = 0.0;
        return true;
    }
    const double total = st.sum;
    int e = 0;
    std::frexp(st.min_nonzero, &e);  // min_nz in [2^(e-1), 2^e)
    if (!(total <= std::ldexp(1.0 - 0x1p-21, 53 + e - 24))) return false;
    if (nonzero <= k) {  // the k largest are every nonzero value plus zeros
        sum = total;
        return true;
    }
    // Radix select on the (monotonic, as the values are >= 0) float bits:
    // bucket by the top 12 bits, sum whole buckets above the k-th largest,
    // then the largest of its bucket.
    constexpr int kShift = 20, kBuckets = 1 << (32 - kShift);
    std::vector<int> count(kBuckets, 0);
    for (int j = 0; j < n; ++j) ++count[std::bit_cast<std::uint32_t>(c[j]) >> kShift];
    int above = 0, b = kBuckets - 1;
    for (; above + count[b] < k; --b) above += count[b];
    double s = 0.0;
    tmp.clear();
    for (int j = 0; j < n; ++j) {
        const std::uint32_t bucket = std::bit_cast<std::uint32_t>(c[j]) >> kShift;
        if (bucket > static_cast<std::uint32_t>(b))
            s += c[j];
        else if (bucket == static_cast<std::uint32_t>(b))
            tmp.push_back(c[j]);
    }
    const int rest = k - above;  // 1 <= rest <= tmp.size()
    std::nth_element(tmp.begin(), tmp.begin() + (rest - 1), tmp.end(), std::greater<float>());
    for (int j = 0; j < rest; ++j) s += tmp[j];
    sum = s;
    return true;
}


}  // namespace

std::uint16_t mask_threshold(unsigned w, unsigned h) {
    const std::uint32_t blocks = (w >> 6) * (h >> 6);
    return static_cast<std::uint16_t>((kMaskFilter * kMaskFilter + 3 * (ceil_log2(blocks) - 11) - 1) >> 1);
}

Heatmap to_heatmap(const float* c, unsigned w, unsigned h, int window, const Params& p) {
    int max_weight = kContrastWeights[0];
    for (int d = 0; d < p.num_diffs; ++d) max_weight = std::max(max_weight, kContrastWeights[d]);
    const int max_c = max_weight * window * window / 4;
    const double scale = static_cast<double>((1 << 16) - 1) / max_c;
    Heatmap hm{w, h, std::vector<std::uint16_t>(std::size_t{w} * h)};
    for (std::size_t i = 0; i < hm.samples.size(); ++i) hm.samples[i] = static_cast<std::uint16_t>(scale * c[i]);
    return hm;
}

std::vector<unsigned> nearest_samples(unsigned in, unsigned out) {
    std::vector<unsigned> idx(out);
    // Upstream's float stepping; the start is formed in double and stored as float.
    const float ratio = static_cast<float>(in) / out;
    float f = ratio / 2 - 0.5;
    for (unsigned i = 0; i < out; ++i) {
        idx[i] = static_cast<unsigned>(static_cast<int>(f + 0.5));
        f += ratio;
    }
    return idx;
}

double combine_scales(const double scores[kNumScales], std::uint16_t window) {
    double score = 0.0;
    for (int scale = 0; scale < kNumScales; ++scale) score += scores[scale] * kScaleWeights[scale];
    const auto odd = static_cast<std::uint16_t>(2 * (window >> 1) + 1);
    const auto pixels = static_cast<std::uint16_t>(odd * odd);
    return score / pixels;
}

void quick_select(float* arr, int n, int k) {
    if (n == k) return;
    int left = 0, right = n - 1;
    while (left < right) {
        const float pivot = arr[k];
        int i = left, j = right;
        do {
            while (arr[i] > pivot) ++i;
            while (arr[j] < pivot) --j;
            if (i <= j) {
                std::swap(arr[i], arr[j]);
                ++i;
                --j;
            }
        } while (i <= j);
        if (j < k) left = i;
        if (k < i) right = j;
    }
}

int topk_count(double topk, unsigned w, unsigned h) {
    const int n = static_cast<int>(w * h);
    return std::clamp(static_cast<int>(topk * n), 1, n);
}

double pool(float* c, const TopkStats& stats, double topk, unsigned w, unsigned h, std::vector<float>& tmp) {
    const int n = static_cast<int>(w * h);
    const int k = topk_count(topk, w, h);
    double sum = 0;
    if (exact_topk_sum(c, n, k, stats, tmp, sum)) return sum / k;
    if (k < n && c[k] == 0.0f && zero_pivot_topk_sum(c, n, k, sum)) return sum / k;
    quick_select(c, n, k);
    for (int i = 0; i < k; ++i) sum += c[i];
    return sum / k;
}

double pool(float* c, double topk, unsigned w, unsigned h, std::vector<float>& tmp, const CambiKernels& kern) {
    return pool(c, kern.stats(c, std::size_t{w} * h), topk, w, h, tmp);
}

Params make_params(int max_log_contrast, double tvi_threshold, double vis_lum_threshold, const char* eotf_name,
                   double topk, unsigned enc_bitdepth, bool high_res_speedup) {
    Params p;
    p.num_diffs = 1 << max_log_contrast;
    const Eotf eotf = eotf_by_name(eotf_name);
    if (!eotf) throw Error(ErrorKind::Usage, std::string("cambi: unknown eotf '") + eotf_name + "' (bt1886, pq)");
    const LumaRange range = limited_range(10);
    for (int d = 0; d < p.num_diffs; ++d)
        p.tvi.push_back(static_cast<std::uint16_t>(tvi_for_diff(d + 1, tvi_threshold, range, eotf) + p.num_diffs));
    p.vlt_luma = vlt_luma(vis_lum_threshold, range, eotf);
    p.topk = topk;
    p.enc_bitdepth = enc_bitdepth;
    p.high_res_speedup = high_res_speedup;
    const int lo = static_cast<int>(p.vlt_luma) - 3 * p.num_diffs + 1;
    p.band_base = lo > 0 ? static_cast<std::uint16_t>(lo) : 0;
    p.band_size = static_cast<std::uint16_t>(p.tvi[p.num_diffs - 1] + 1 - p.band_base);
    // 10-bit conversion rounds 12- and 16-bit 65535-ish samples up to 1024.
    p.active.assign((1 << 10) + 1 + p.num_diffs, 0);
    for (int value = 0; value < static_cast<int>(p.active.size()); ++value)
        for (int d = 0; d < p.num_diffs; ++d)
            if (value <= p.tvi[d] && value + (d + 1) > p.vlt_luma) p.active[value] |= 1u << d;
    return p;
}

std::uint16_t adjusted_window(std::uint16_t window, unsigned width, unsigned height, bool high_res_speedup) {
    auto w = static_cast<std::uint16_t>((window * (width + height)) / 375 >> 4);
    if (high_res_speedup) w = static_cast<std::uint16_t>((w + 1) >> 1);
    return static_cast<std::uint16_t>(w | 1);
}

double score_picture(const Plane& luma, unsigned bpc, unsigned width, unsigned height, std::uint16_t window,
                     const Params& params, Scratch& s, std::vector<Heatmap>* heatmaps, const CambiKernels& k) {
    const std::size_t n = std::size_t{width} * height;
    const std::ptrdiff_t stride = width;
    s.image.resize(n);
    s.mask.resize(n);
    s.c_values.resize(n);
    preprocess(luma, bpc, s.image.data(), width, height, params.enc_bitdepth, k);
    spatial_mask(s.image.data(), s.mask.data(), width, height, stride, s.mask_buf, k);

    double scores[kNumScales];
    unsigned w = width, h = height;
    if (heatmaps) heatmaps->clear();
    for (int scale = 0; scale < kNumScales; ++scale) {
        if (scale > 0 || params.high_res_speedup) {
            w = (w + 1) >> 1;
            h = (h + 1) >> 1;
            decimate(s.image.data(), w, h, stride);
            decimate(s.mask.data(), w, h, stride);
        }
        filter_mode(s.image.data(), w, h, stride, s.filter_rows, k);
        TopkStats stats;
        c_values(s.image.data(), s.mask.data(), static_cast<int>(w), static_cast<int>(h), stride, window, params, s,
                 s.c_values.data(), stats, k);
        if (heatmaps) heatmaps->push_back(to_heatmap(s.c_values.data(), w, h, window, params));
        scores[scale] = pool(s.c_values.data(), stats, params.topk, w, h, s.topk_tmp);
    }
    return combine_scales(scores, window);
}

}  // namespace vmaf::cambi
