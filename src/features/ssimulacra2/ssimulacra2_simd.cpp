// SIMD kernels of SSIMULACRA 2, one Highway source compiled for every target
// (foreach_target) and registered in ssimulacra2_registry(). Each kernel
// performs, per sample, exactly the float/double operations of its scalar
// reference (ssimulacra2_kernels.cpp) in the same order, so results are
// bit-identical:
//  - row kernels (colour conversion, downsampling, XYB, products) map one
//    sample per lane; leftover samples run the scalar reference;
//  - blur_v runs the recursion down a strip of columns, one column per lane;
//  - blur_h interleaves a block of rows (one row per lane) into a scratch
//    buffer, runs the same recursion along it and de-interleaves the result;
//  - maps_row keeps the reference's 8 partial sums (pixel x into x % 8) as
//    double lanes and adds to them in pixel order.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/ssimulacra2/ssimulacra2_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cmath>

#include "features/ssimulacra2/ssimulacra2_constants.hpp"
#include "features/ssimulacra2/ssimulacra2_kernels.hpp"

#if HWY_TARGET != HWY_SCALAR
HWY_BEFORE_NAMESPACE();
namespace vmaf::HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;
namespace s2 = vmaf::ssimulacra2;

using DF = hn::ScalableTag<float>;
using VF = hn::Vec<DF>;

template <class D, class V>
V Clamp01(D d, V v) {
    const V zero = hn::Zero(d), one = hn::Set(d, 1.0f);
    // (v < 0) ? 0 : (v > 1 ? 1 : v), NaN passing through as in the reference.
    return hn::IfThenElse(hn::Lt(v, zero), zero, hn::IfThenElse(hn::Gt(v, one), one, v));
}

template <class D, class V>
V SrgbToLinear(D d, V v) {
    V p = hn::Set(d, s2::kSrgbP[4]), q = hn::Set(d, s2::kSrgbQ[4]);
    for (int i = 3; i >= 0; --i) {
        p = hn::Add(hn::Mul(p, v), hn::Set(d, s2::kSrgbP[i]));
        q = hn::Add(hn::Mul(q, v), hn::Set(d, s2::kSrgbQ[i]));
    }
    const V low = hn::Mul(v, hn::Set(d, s2::kSrgbLowSlope));
    return hn::IfThenElse(hn::Gt(v, hn::Set(d, s2::kSrgbThreshold)), hn::Div(p, q), low);
}

void YuvToLinearRow(const float* y, const float* cb, const float* cr, float* r, float* g, float* b, std::size_t n,
                    const s2::YuvCoeffs& k) {
    const DF d;
    const std::size_t L = hn::Lanes(d);
    const VF yo = hn::Set(d, k.y_offset), ys = hn::Set(d, k.y_scale), co = hn::Set(d, k.c_offset),
             cs = hn::Set(d, k.c_scale);
    const VF cr_r = hn::Set(d, k.cr_r), cb_g = hn::Set(d, k.cb_g), cr_g = hn::Set(d, k.cr_g), cb_b = hn::Set(d, k.cb_b);
    std::size_t i = 0;
    for (; i + L <= n; i += L) {
        const VF yv = hn::Mul(hn::Sub(hn::LoadU(d, y + i), yo), ys);
        const VF u = hn::Mul(hn::Sub(hn::LoadU(d, cb + i), co), cs);
        const VF v = hn::Mul(hn::Sub(hn::LoadU(d, cr + i), co), cs);
        hn::StoreU(SrgbToLinear(d, Clamp01(d, hn::Add(yv, hn::Mul(cr_r, v)))), d, r + i);
        hn::StoreU(SrgbToLinear(d, Clamp01(d, hn::Add(hn::Add(yv, hn::Mul(cb_g, u)), hn::Mul(cr_g, v)))), d, g + i);
        hn::StoreU(SrgbToLinear(d, Clamp01(d, hn::Add(yv, hn::Mul(cb_b, u)))), d, b + i);
    }
    if (i < n) s2::yuv_to_linear_row(y + i, cb + i, cr + i, r + i, g + i, b + i, n - i, k);
}

void DownsampleRow(const float* a, const float* b, std::size_t in_width, float* out) {
    const DF d;
    const std::size_t L = hn::Lanes(d);
    const VF quarter = hn::Set(d, 0.25f);
    const std::size_t out_width = (in_width + 1) / 2;
    std::size_t i = 0;
    for (; 2 * (i + L) <= in_width; i += L) {  // no column clamping inside
        VF a0, a1, b0, b1;
        hn::LoadInterleaved2(d, a + 2 * i, a0, a1);
        hn::LoadInterleaved2(d, b + 2 * i, b0, b1);
        hn::StoreU(hn::Mul(hn::Add(hn::Add(hn::Add(a0, a1), b0), b1), quarter), d, out + i);
    }
    for (; i < out_width; ++i) {
        const std::size_t x0 = 2 * i, x1 = std::min(2 * i + 1, in_width - 1);
        out[i] = (((a[x0] + a[x1]) + b[x0]) + b[x1]) * 0.25f;
    }
}

VF CubeRootPlus(DF d, VF x, VF add) {
    const hn::RebindToUnsigned<DF> du;
    const auto bits = hn::BitCast(du, x);
    const auto guess = hn::Sub(hn::Set(du, s2::kCbrtExpBias), hn::Mul(hn::ShiftRight<23>(bits), hn::Set(du, s2::kCbrtExpMul)));
    VF r = hn::BitCast(d, hn::IfThenZeroElse(hn::Eq(bits, hn::Zero(du)), guess));
    const VF k1_3 = hn::Set(d, s2::kOneThird), k4_3 = hn::Set(d, s2::kFourThirds);
    const VF x_3 = hn::Mul(k1_3, x);
    for (int i = 0; i < 3; ++i) {
        const VF r2 = hn::Mul(r, r);
        r = hn::Sub(hn::Mul(k4_3, r), hn::Mul(x_3, hn::Mul(r2, r2)));
    }
    VF r2 = hn::Mul(r, r);
    r = hn::Add(hn::Mul(k1_3, hn::Sub(r, hn::Mul(x, hn::Mul(r2, r2)))), r);
    r2 = hn::Mul(r, r);
    return hn::Add(hn::Mul(r2, x), add);
}

void XybRow(const float* rr, const float* gg, const float* bb, float* xx, float* yy, float* zz, std::size_t n) {
    const DF d;
    const std::size_t L = hn::Lanes(d);
    const VF neg_cbrt_bias = hn::Set(d, -std::cbrt(s2::kOpsinBias));
    const VF bias = hn::Set(d, s2::kOpsinBias), zero = hn::Zero(d), half = hn::Set(d, 0.5f);
    std::size_t i = 0;
    for (; i + L <= n; i += L) {
        const VF r = hn::LoadU(d, rr + i), g = hn::LoadU(d, gg + i), b = hn::LoadU(d, bb + i);
        VF c[3];
        for (int j = 0; j < 3; ++j) {
            VF m = hn::Add(hn::Mul(hn::Set(d, s2::kOpsin[j][0]), r),
                           hn::Add(hn::Mul(hn::Set(d, s2::kOpsin[j][1]), g),
                                   hn::Add(hn::Mul(hn::Set(d, s2::kOpsin[j][2]), b), bias)));
            m = hn::IfThenElse(hn::Gt(m, zero), m, zero);
            c[j] = CubeRootPlus(d, m, neg_cbrt_bias);
        }
        const VF x = hn::Mul(half, hn::Sub(c[0], c[1])), y = hn::Mul(half, hn::Add(c[0], c[1]));
        hn::StoreU(hn::Add(hn::Mul(x, hn::Set(d, 14.0f)), hn::Set(d, 0.42f)), d, xx + i);
        hn::StoreU(hn::Add(y, hn::Set(d, 0.01f)), d, yy + i);
        hn::StoreU(hn::Add(hn::Sub(c[2], y), hn::Set(d, 0.55f)), d, zz + i);
    }
    if (i < n) s2::xyb_row(rr + i, gg + i, bb + i, xx + i, yy + i, zz + i, n - i);
}

void MultiplyRow(const float* a, const float* b, float* out, std::size_t n) {
    const DF d;
    const std::size_t L = hn::Lanes(d);
    std::size_t i = 0;
    for (; i + L <= n; i += L) hn::StoreU(hn::Mul(hn::LoadU(d, a + i), hn::LoadU(d, b + i)), d, out + i);
    for (; i < n; ++i) out[i] = a[i] * b[i];
}

/// The recursion along `len` steps for one vector of independent lines:
/// sample j of the lines at in + j * in_step (a full vector), outputs at
/// out + j * out_step.
void RecurseLanes(const float* in, std::ptrdiff_t in_step, float* out, std::ptrdiff_t out_step, std::ptrdiff_t len) {
    const DF d;
    const s2::BlurCoeffs& c = s2::blur_coeffs();
    const std::ptrdiff_t nr = c.radius;
    const VF n2_1 = hn::Set(d, c.n2[0]), n2_3 = hn::Set(d, c.n2[1]), n2_5 = hn::Set(d, c.n2[2]);
    const VF d1_1 = hn::Set(d, c.d1[0]), d1_3 = hn::Set(d, c.d1[1]), d1_5 = hn::Set(d, c.d1[2]);
    const VF zero = hn::Zero(d);
    VF p1 = zero, p3 = zero, p5 = zero, q1 = zero, q3 = zero, q5 = zero;  // previous, second previous
    auto step = [&](VF s) {
        const VF y1 = hn::Add(hn::Mul(n2_1, s), hn::Sub(hn::Neg(hn::Mul(d1_1, p1)), q1));
        const VF y3 = hn::Add(hn::Mul(n2_3, s), hn::Sub(hn::Neg(hn::Mul(d1_3, p3)), q3));
        const VF y5 = hn::Add(hn::Mul(n2_5, s), hn::Sub(hn::Neg(hn::Mul(d1_5, p5)), q5));
        q1 = p1;
        q3 = p3;
        q5 = p5;
        p1 = y1;
        p3 = y3;
        p5 = y5;
        return hn::Add(y1, hn::Add(y3, y5));
    };
    auto at = [&](std::ptrdiff_t j) { return hn::LoadU(d, in + j * in_step); };
    for (std::ptrdiff_t i = -nr + 1; i < len; ++i) {
        const std::ptrdiff_t left = i - nr - 1, right = i + nr - 1;
        VF s;
        if (left >= 0 && right < len) {
            s = hn::Add(at(left), at(right));
        } else {
            s = hn::Add(left >= 0 ? at(left) : zero, right < len ? at(right) : zero);
        }
        const VF o = step(s);
        if (i >= 0) hn::StoreU(o, d, out + i * out_step);
    }
}

void BlurV(const s2::PlaneF& in, const s2::PlaneF& out) {
    const DF d;
    const std::size_t L = hn::Lanes(d);
    std::size_t x = 0;
    for (; x + L <= in.width; x += L) RecurseLanes(in.data + x, in.stride, out.data + x, out.stride, in.height);
    for (; x < in.width; ++x) s2::blur_line(in.data + x, in.stride, out.data + x, out.stride, in.height);
}

void BlurH(const s2::PlaneF& in, const s2::PlaneF& out, float* scratch) {
    const DF d;
    const std::size_t L = hn::Lanes(d);
    const std::size_t w = in.width;
    float* lin = scratch;
    float* lout = scratch + L * w;
    unsigned y = 0;
    for (; y + L <= in.height; y += static_cast<unsigned>(L)) {
        for (std::size_t l = 0; l < L; ++l) {
            const float* src = in.row(y + static_cast<unsigned>(l));
            for (std::size_t x = 0; x < w; ++x) lin[x * L + l] = src[x];
        }
        RecurseLanes(lin, static_cast<std::ptrdiff_t>(L), lout, static_cast<std::ptrdiff_t>(L),
                     static_cast<std::ptrdiff_t>(w));
        for (std::size_t l = 0; l < L; ++l) {
            float* dst = out.row(y + static_cast<unsigned>(l));
            for (std::size_t x = 0; x < w; ++x) dst[x] = lout[x * L + l];
        }
    }
    for (; y < in.height; ++y) s2::blur_line(in.row(y), 1, out.row(y), 1, in.width);
}

void MapsRow(const float* img1, const float* mu1, const float* img2, const float* mu2, const float* s11,
             const float* s22, const float* s12, std::size_t n, s2::MapSums& acc) {
    const hn::CappedTag<double, s2::MapSums::kLanes> dd;
    const hn::Rebind<float, decltype(dd)> df;
    using VD = hn::Vec<decltype(dd)>;
    const std::size_t L = hn::Lanes(dd);
    const std::size_t groups = s2::MapSums::kLanes / L;  // accumulator vectors per map
    VD a[6][s2::MapSums::kLanes];
    for (int m = 0; m < 6; ++m)
        for (std::size_t g = 0; g < groups; ++g) a[m][g] = hn::LoadU(dd, acc.s[m] + g * L);
    const auto c2 = hn::Set(df, s2::kC2), two = hn::Set(df, 2.0f);
    const VD one = hn::Set(dd, 1.0), zero = hn::Zero(dd);
    auto max0 = [&](VD v) { return hn::IfThenElse(hn::Lt(v, zero), zero, v); };  // std::max(v, 0.0)
    std::size_t i = 0;
    for (; i + L <= n; i += L) {
        const std::size_t g = (i % s2::MapSums::kLanes) / L;
        const auto m1 = hn::LoadU(df, mu1 + i), m2 = hn::LoadU(df, mu2 + i);
        const auto diff = hn::Sub(m1, m2);
        const auto num_m = hn::DemoteTo(df, hn::Sub(one, hn::PromoteTo(dd, hn::Mul(diff, diff))));
        const auto num_s = hn::Add(hn::Mul(two, hn::Sub(hn::LoadU(df, s12 + i), hn::Mul(m1, m2))), c2);
        const auto den_s = hn::Add(hn::Add(hn::Sub(hn::LoadU(df, s11 + i), hn::Mul(m1, m1)),
                                           hn::Sub(hn::LoadU(df, s22 + i), hn::Mul(m2, m2))),
                                   c2);
        const VD ssim = max0(hn::Sub(one, hn::PromoteTo(dd, hn::Div(hn::Mul(num_m, num_s), den_s))));
        const VD e2 = hn::Add(one, hn::PromoteTo(dd, hn::Abs(hn::Sub(hn::LoadU(df, img2 + i), m2))));
        const VD e1 = hn::Add(one, hn::PromoteTo(dd, hn::Abs(hn::Sub(hn::LoadU(df, img1 + i), m1))));
        const VD d1 = hn::Sub(hn::Div(e2, e1), one);
        const VD vals[3] = {ssim, max0(d1), max0(hn::Neg(d1))};
        for (int m = 0; m < 3; ++m) {
            const VD sq = hn::Mul(vals[m], vals[m]);
            a[2 * m][g] = hn::Add(a[2 * m][g], vals[m]);
            a[2 * m + 1][g] = hn::Add(a[2 * m + 1][g], hn::Mul(sq, sq));
        }
    }
    for (int m = 0; m < 6; ++m)
        for (std::size_t g = 0; g < groups; ++g) hn::StoreU(a[m][g], dd, acc.s[m] + g * L);
    if (i < n) s2::maps_range(img1, mu1, img2, mu2, s11, s22, s12, i, n, acc);
}

void FillKernels(s2::Kernels& k) {
    k.yuv_to_linear_row = &YuvToLinearRow;
    k.downsample_row = &DownsampleRow;
    k.xyb_row = &XybRow;
    k.multiply_row = &MultiplyRow;
    k.blur_v = &BlurV;
    k.blur_h = &BlurH;
    k.maps_row = &MapsRow;
}

[[maybe_unused]] const bool kRegistered = s2::ssimulacra2_registry().add(HWY_TARGET, &FillKernels);

}  // namespace
}  // namespace vmaf::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
#endif  // HWY_TARGET != HWY_SCALAR

#if HWY_ONCE
namespace vmaf::ssimulacra2 {

simd::KernelRegistry<Kernels>& ssimulacra2_registry() {
    static simd::KernelRegistry<Kernels> registry;
    return registry;
}

}  // namespace vmaf::ssimulacra2
#endif
