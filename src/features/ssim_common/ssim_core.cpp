#include "features/ssim_common/ssim_core.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "vmaf/error.hpp"

namespace vmaf::ssimfeat {

namespace {

/// MS-SSIM exponents per scale (luminance only at the coarsest; contrast and structure share theirs).
constexpr float kAlpha[kScales] = {0.0000f, 0.0000f, 0.0000f, 0.0000f, 0.1333f};
constexpr float kBetaGamma[kScales] = {0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f};

/// Index of sample i of an n-sample line mirrored with the edge repeated; i in [-n, 2n).
int mirror(int i, int n) {
    return i < 0 ? -1 - i : (i >= n ? 2 * n - 1 - i : i);
}

}  // namespace

SsimLcs iqa_ssim(const SsimKernels& k, const FloatImage& ref, const FloatImage& cmp) {
    const int w = static_cast<int>(ref.w), h = static_cast<int>(ref.h);
    const int dw = w - (kWindow - 1), dh = h - (kWindow - 1);
    // Ring of the last kWindow horizontally filtered rows of the 5 images
    // (ref, cmp, ref^2, cmp^2, ref*cmp); image i, input row y at ring row i * kWindow + y % kWindow.
    FloatImage ring(static_cast<unsigned>(dw), 5 * kWindow);
    FloatImage out(static_cast<unsigned>(dw), 5);
    const SsimConsts consts = ssim_consts();
    SsimSums sums;
    const float* rows[kWindow];
    for (int y = 0; y < h; ++y) {
        const int slot = y % kWindow;
        const float *a = ref.row(static_cast<unsigned>(y)), *b = cmp.row(static_cast<unsigned>(y));
        k.conv_h(kSsimGauss, kWindow, a, nullptr, Tap::Value, ring.row(0 * kWindow + slot), dw);
        k.conv_h(kSsimGauss, kWindow, b, nullptr, Tap::Value, ring.row(1 * kWindow + slot), dw);
        k.conv_h(kSsimGauss, kWindow, a, nullptr, Tap::Square, ring.row(2 * kWindow + slot), dw);
        k.conv_h(kSsimGauss, kWindow, b, nullptr, Tap::Square, ring.row(3 * kWindow + slot), dw);
        k.conv_h(kSsimGauss, kWindow, a, b, Tap::Product, ring.row(4 * kWindow + slot), dw);
        if (y < kWindow - 1) continue;
        const int top = y - (kWindow - 1);
        for (unsigned i = 0; i < 5; ++i) {
            for (int v = 0; v < kWindow; ++v) rows[v] = ring.row(i * kWindow + (top + v) % kWindow);
            k.conv_v(kSsimGauss, kWindow, rows, out.row(i), dw);
        }
        k.ssim_row(out.row(0), out.row(1), out.row(2), out.row(3), out.row(4), dw, consts, sums);
    }
    return ssim_means(sums, dw, dh);
}

SsimLcs ssim_means(const SsimSums& sums, int dw, int dh) {
    const double n = static_cast<double>(dw * dh);
    return {static_cast<float>(sums.ssim / n), static_cast<float>(sums.l / n), static_cast<float>(sums.c / n),
            static_cast<float>(sums.s / n)};
}

int auto_scale(unsigned w, unsigned h) {
    const float a = static_cast<float>(std::min(static_cast<int>(w), static_cast<int>(h))) / 256.0f;
    const int sign = a > 0.0f ? 1 : -1;
    const int r = a - static_cast<int>(a) >= 0.5 ? static_cast<int>(a) + sign : static_cast<int>(a);
    return std::max(1, r);
}

unsigned decimated_size(unsigned n, int factor) {
    return n / static_cast<unsigned>(factor) + (n & 1);
}

namespace {

/// decimate() over a w x h image whose row y is row(y): a pointer that stays
/// valid while the kw rows of one output row are fetched.
template <typename RowFn>
FloatImage decimate_rows(const SsimKernels& k, int w, int h, RowFn&& row, int factor, const float* kernel, int kw) {
    const int sw = static_cast<int>(decimated_size(static_cast<unsigned>(w), factor)),
              sh = static_cast<int>(decimated_size(static_cast<unsigned>(h), factor));
    const int lo = kw / 2;  // taps from -lo to kw - 1 - lo around x * factor
    if ((sw - 1) * factor + kw - lo > 2 * w || (sh - 1) * factor + kw - lo > 2 * h || lo > std::min(w, h))
        throw Error(ErrorKind::Input, "ssim: frame too small for decimation by " + std::to_string(factor));
    // Outputs [x0, x1) have every tap inside the row and read the image in
    // place; the few at either edge read short mirrored strips (left strip
    // column c = sample mirror(c - lo), right = mirror(x1 * factor - lo + c)).
    const int x0 = std::min(sw, (lo + factor - 1) / factor);
    const int x1 = std::max(x0, std::min(sw, (w - kw + lo) / factor + 1));
    const int left_len = x0 > 0 ? (x0 - 1) * factor + kw : 0;
    const int right_len = x1 < sw ? (sw - 1 - x1) * factor + kw : 0;
    std::vector<float> strips(static_cast<std::size_t>(kw * (left_len + right_len)));
    FloatImage out(static_cast<unsigned>(sw), static_cast<unsigned>(sh));
    std::vector<const float*> rows(static_cast<std::size_t>(kw)), left(rows), right(rows);
    for (int y = 0; y < sh; ++y) {
        for (int v = 0; v < kw; ++v) {
            const float* s = row(mirror(y * factor - lo + v, h));
            rows[v] = s + (static_cast<std::ptrdiff_t>(x0) * factor - lo);
            float* l = strips.data() + static_cast<std::size_t>(v) * (left_len + right_len);
            float* r = l + left_len;
            for (int c = 0; c < left_len; ++c) l[c] = s[mirror(c - lo, w)];
            for (int c = 0; c < right_len; ++c) r[c] = s[mirror(x1 * factor - lo + c, w)];
            left[v] = l;
            right[v] = r;
        }
        float* o = out.row(static_cast<unsigned>(y));
        if (x0 > 0) k.decimate_row(kernel, kw, kw, left.data(), factor, o, x0);
        if (x1 > x0) k.decimate_row(kernel, kw, kw, rows.data(), factor, o + x0, x1 - x0);
        if (x1 < sw) k.decimate_row(kernel, kw, kw, right.data(), factor, o + x1, sw - x1);
    }
    return out;
}

/// Rows of a plane converted to float on demand (as to_float, offset 0) into
/// `slots` cached rows: a window of up to `slots` consecutive rows stays valid.
class PlaneRows {
public:
    PlaneRows(const Plane& p, unsigned bpc, int slots)
        : p_(p), bpc_(bpc), buf_(p.width, static_cast<unsigned>(slots)), tag_(static_cast<std::size_t>(slots), -1) {}
    const float* operator()(int y) {
        const auto slot = static_cast<std::size_t>(y) % tag_.size();
        float* d = buf_.row(static_cast<unsigned>(slot));
        if (tag_[slot] == y) return d;
        tag_[slot] = y;
        if (bpc_ == 8) {
            const std::uint8_t* s = p_.row<std::uint8_t>(static_cast<unsigned>(y));
            for (unsigned x = 0; x < p_.width; ++x) d[x] = floatfeat::sample_to_float(s[x], 1.0f);
        } else {
            const float scaler = floatfeat::hbd_scaler(bpc_);
            const std::uint16_t* s = p_.row<std::uint16_t>(static_cast<unsigned>(y));
            for (unsigned x = 0; x < p_.width; ++x) d[x] = floatfeat::sample_to_float(s[x], scaler);
        }
        return d;
    }

private:
    const Plane& p_;
    const unsigned bpc_;
    FloatImage buf_;
    std::vector<int> tag_;
};

}  // namespace

FloatImage decimate(const SsimKernels& k, const FloatImage& img, int factor, const float* kernel, int kw) {
    return decimate_rows(
        k, static_cast<int>(img.w), static_cast<int>(img.h), [&](int y) { return img.row(static_cast<unsigned>(y)); },
        factor, kernel, kw);
}

SsimLcs float_ssim(const SsimKernels& k, const Plane& ref, const Plane& cmp, unsigned bpc, int scale) {
    if (scale <= 1) {
        floatfeat::require_size("float_ssim", ref.width, ref.height, kWindow, kWindow);
        return iqa_ssim(k, floatfeat::to_float(ref, bpc, 0), floatfeat::to_float(cmp, bpc, 0));
    }
    floatfeat::require_size("float_ssim (decimated)", decimated_size(ref.width, scale),
                            decimated_size(ref.height, scale), kWindow, kWindow);
    const std::vector<float> box(static_cast<std::size_t>(scale * scale), 1.0f / static_cast<float>(scale * scale));
    // The frame is read row by row (never converted whole): an output row's
    // scale input rows lie in a window of at most scale consecutive rows.
    auto dec = [&](const Plane& p) {
        const int w = static_cast<int>(p.width), h = static_cast<int>(p.height);
        return decimate_rows(k, w, h, PlaneRows(p, bpc, scale), scale, box.data(), scale);
    };
    return iqa_ssim(k, dec(ref), dec(cmp));
}

MsSsim float_ms_ssim(const SsimKernels& k, const FloatImage& ref, const FloatImage& cmp) {
    floatfeat::require_size("float_ms_ssim", ref.w, ref.h, kMsSsimMinSize, kMsSsimMinSize);
    std::array<SsimLcs, kScales> v;
    FloatImage a, b;
    for (int i = 0; i < kScales; ++i) {
        if (i > 0) {
            a = decimate(k, i == 1 ? ref : a, 2, kLpf2d, kLpf);
            b = decimate(k, i == 1 ? cmp : b, 2, kLpf2d, kLpf);
        }
        v[static_cast<std::size_t>(i)] = iqa_ssim(k, i == 0 ? ref : a, i == 0 ? cmp : b);
    }
    return ms_ssim_combine(v);
}

MsSsim ms_ssim_combine(const std::array<SsimLcs, kScales>& v) {
    MsSsim r{};
    double ms = 1.0;
    for (std::size_t i = 0; i < kScales; ++i) {
        ms *= std::pow(static_cast<double>(v[i].l), static_cast<double>(kAlpha[i])) *
              std::pow(static_cast<double>(v[i].c), static_cast<double>(kBetaGamma[i])) *
              std::pow(static_cast<double>(v[i].s), static_cast<double>(kBetaGamma[i]));
        r.l[i] = v[i].l;
        r.c[i] = v[i].c;
        r.s[i] = v[i].s;
        if (ms == INFINITY) throw Error(ErrorKind::Input, "float_ms_ssim: the MS-SSIM product is infinite");
    }
    r.score = ms;
    return r;
}

double to_db(double score, double max_db) {
    const double db = -10. * std::log10(1 - score);
    return db < max_db ? db : max_db;
}

double max_db(unsigned bpc, unsigned w, unsigned h) {
    const unsigned peak = (1u << bpc) - 1;
    const double mse = 0.5 / (w * h);
    return std::ceil(10. * std::log10((peak * peak) / mse));
}

}  // namespace vmaf::ssimfeat
