// SIMD kernels of SSIMULACRA 2, one Highway source compiled for every target
// (foreach_target) and registered in ssimulacra2_registry(). Each kernel
// performs, per sample, exactly the float/double operations of its scalar
// reference (ssimulacra2_kernels.cpp) in the same order, so results are
// bit-identical:
//  - row kernels (colour conversion, downsampling, XYB, map values) map one
//    sample per lane; leftover samples run the reference;
//  - blur_v runs in bands of rows, one column per lane, the recursion states
//    of all columns kept in scratch rows between bands;
//  - blur_h (and blur_h_product) runs libjxl's own scheme: 4-lane vectors
//    along each row for the blocks of four outputs (inputs broadcast, the
//    coefficient vectors shifted), two rows at a time.
// The kernels whose reference has fused multiply-adds (colour conversion,
// XYB, both blurs) are registered only for targets with native FMA, where
// MulAdd is one rounding like std::fma.
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
// The kernels keep per-channel vectors in arrays, which sizeless (SVE) vector
// types cannot form: scalable targets use the scalar reference.
#if !HWY_HAVE_SCALABLE

namespace hn = hwy::HWY_NAMESPACE;
namespace s2 = vmaf::ssimulacra2;

using DF = hn::ScalableTag<float>;
using VF = hn::Vec<DF>;

template <class D, class V>
V Clamp01(D d, V v) {
    const V zero = hn::Zero(d), one = hn::Set(d, 1.0f);
    // (v < 0) ? 0 : (v > 1 ? 1 : v), as the reference.
    return hn::IfThenElse(hn::Lt(v, zero), zero, hn::IfThenElse(hn::Gt(v, one), one, v));
}

#if HWY_NATIVE_FMA
template <class D, class V>
V SrgbToLinear(D d, V v) {
    V p = hn::Set(d, s2::kSrgbP[4]), q = hn::Set(d, s2::kSrgbQ[4]);
    for (int i = 3; i >= 0; --i) {
        p = hn::MulAdd(p, v, hn::Set(d, s2::kSrgbP[i]));
        q = hn::MulAdd(q, v, hn::Set(d, s2::kSrgbQ[i]));
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

VF CubeRootPlus(DF d, VF x, VF add) {
    const hn::RebindToUnsigned<DF> du;
    const auto bits = hn::BitCast(du, x);
    const auto guess =
        hn::Sub(hn::Set(du, s2::kCbrtExpBias), hn::Mul(hn::ShiftRight<23>(bits), hn::Set(du, s2::kCbrtExpMul)));
    VF r = hn::BitCast(d, hn::IfThenZeroElse(hn::Eq(bits, hn::Zero(du)), guess));
    const VF k1_3 = hn::Set(d, s2::kOneThird), k4_3 = hn::Set(d, s2::kFourThirds);
    const VF x_3 = hn::Mul(k1_3, x);
    for (int i = 0; i < 3; ++i) {
        const VF r2 = hn::Mul(r, r);
        r = hn::NegMulAdd(x_3, hn::Mul(r2, r2), hn::Mul(k4_3, r));
    }
    VF r2 = hn::Mul(r, r);
    r = hn::MulAdd(k1_3, hn::NegMulAdd(x, hn::Mul(r2, r2), r), r);
    r2 = hn::Mul(r, r);
    return hn::MulAdd(r2, x, add);
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
            VF m = hn::MulAdd(
                hn::Set(d, s2::kOpsin[j][0]), r,
                hn::MulAdd(hn::Set(d, s2::kOpsin[j][1]), g, hn::MulAdd(hn::Set(d, s2::kOpsin[j][2]), b, bias)));
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

/// blur_v in bands of kBand output rows: every column's recursion state (p,
/// pp per filter) lives in `state` (6 x width floats) between bands and in
/// registers within one, so each band streams its rows once per vector of
/// columns. Columns past the last full vector use the same state with
/// scalar std::fma, the reference's operations.
void BlurV(const s2::PlaneF& in, const s2::PlaneF& out, float* state) {
    constexpr std::ptrdiff_t kBand = 16;
    const DF d;
    const std::size_t L = hn::Lanes(d);
    const s2::BlurCoeffs& c = s2::blur_coeffs();
    const std::ptrdiff_t nr = c.radius, h = in.height;
    const std::size_t w = in.width;
    float* st[6];  // p1, pp1, p3, pp3, p5, pp5
    for (int j = 0; j < 6; ++j) st[j] = state + j * w;
    std::fill(state, state + 6 * w, 0.0f);
    VF n2[3], d1[3];
    for (int k = 0; k < 3; ++k) {
        n2[k] = hn::Set(d, c.n2[k]);
        d1[k] = hn::Set(d, c.d1[k]);
    }
    const float* rt[kBand];
    const float* rb[kBand];
    float* ro[kBand];
    for (std::ptrdiff_t i0 = -nr + 1; i0 < h; i0 += kBand) {
        const std::ptrdiff_t rows = std::min(kBand, h - i0);
        for (std::ptrdiff_t r = 0; r < rows; ++r) {
            const std::ptrdiff_t i = i0 + r, top = i - nr - 1, bottom = i + nr - 1;
            rt[r] = top >= 0 ? in.row(static_cast<unsigned>(top)) : nullptr;
            rb[r] = bottom < h ? in.row(static_cast<unsigned>(bottom)) : nullptr;
            ro[r] = i >= 0 ? out.row(static_cast<unsigned>(i)) : nullptr;
        }
        std::size_t x = 0;
        for (; x + L <= w; x += L) {
            VF p[3], pp[3];
            for (int k = 0; k < 3; ++k) {
                p[k] = hn::LoadU(d, st[2 * k] + x);
                pp[k] = hn::LoadU(d, st[2 * k + 1] + x);
            }
            for (std::ptrdiff_t r = 0; r < rows; ++r) {
                const VF b = rb[r] ? hn::LoadU(d, rb[r] + x) : hn::Zero(d);
                const VF s = rt[r] ? hn::Add(hn::LoadU(d, rt[r] + x), b) : b;
                VF o[3];
                for (int k = 0; k < 3; ++k) {
                    o[k] = hn::MulAdd(n2[k], s, hn::NegMulSub(d1[k], p[k], pp[k]));
                    pp[k] = p[k];
                    p[k] = o[k];
                }
                if (ro[r]) hn::StoreU(hn::Add(o[0], hn::Add(o[1], o[2])), d, ro[r] + x);
            }
            for (int k = 0; k < 3; ++k) {
                hn::StoreU(p[k], d, st[2 * k] + x);
                hn::StoreU(pp[k], d, st[2 * k + 1] + x);
            }
        }
        for (; x < w; ++x) {
            for (std::ptrdiff_t r = 0; r < rows; ++r) {
                const float b = rb[r] ? rb[r][x] : 0.0f;
                const float s = rt[r] ? rt[r][x] + b : b;
                float o[3];
                for (int k = 0; k < 3; ++k) {
                    o[k] = std::fma(c.n2[k], s, std::fma(-c.d1[k], st[2 * k][x], -st[2 * k + 1][x]));
                    st[2 * k + 1][x] = st[2 * k][x];
                    st[2 * k][x] = o[k];
                }
                if (ro[r]) ro[r][x] = o[0] + (o[1] + o[2]);
            }
        }
    }
}

/// blur_h_row of R rows at once, the way libjxl runs it: the one-at-a-time
/// phases in scalar std::fma, the blocks as 4-lane vectors along the row
/// (lane j = position i + j, the inputs broadcast, libjxl's shifted
/// coefficient vectors), so every lane performs the reference's operations.
/// R independent rows give the recursions room to overlap.
template <int R>
void RowsBlocked(const float* const* in, float* const* out, std::ptrdiff_t w) {
    const hn::CappedTag<float, 4> d4;
    using V4 = hn::Vec<decltype(d4)>;
    const s2::BlurCoeffs& c = s2::blur_coeffs();
    const std::ptrdiff_t nr = c.radius;
    float p[R][3] = {}, pp[R][3] = {};
    auto single = [&](int r, std::ptrdiff_t i) {
        const std::ptrdiff_t left = i - nr - 1, right = i + nr - 1;
        const float s = (left >= 0 ? in[r][left] : 0.0f) + (right < w ? in[r][right] : 0.0f);
        float o[3];
        for (int k = 0; k < 3; ++k) {
            o[k] = std::fma(c.mul_prev[k][0], p[r][k], std::fma(-1.0f, pp[r][k], s * c.mul_in[k][0]));
            pp[r][k] = p[r][k];
            p[r][k] = o[k];
        }
        if (i >= 0) out[r][i] = o[0] + (o[1] + o[2]);
    };
    std::ptrdiff_t i = -nr + 1;
    for (; i < std::min<std::ptrdiff_t>(8, w); ++i)
        for (int r = 0; r < R; ++r) single(r, i);
    if (i < w - nr + 1 - 3) {
        V4 mi[3][4], mp[3], mp2[3], vp[R][3], vpp[R][3];
        for (int k = 0; k < 3; ++k) {
            for (int t = 0; t < 4; ++t) {
                HWY_ALIGN float lanes[4];
                for (int j = 0; j < 4; ++j) lanes[j] = j >= t ? c.mul_in[k][j - t] : 0.0f;
                mi[k][t] = hn::Load(d4, lanes);
            }
            mp[k] = hn::LoadU(d4, c.mul_prev[k]);
            mp2[k] = hn::LoadU(d4, c.mul_prev2[k]);
            for (int r = 0; r < R; ++r) {
                vp[r][k] = hn::Set(d4, p[r][k]);
                vpp[r][k] = hn::Set(d4, pp[r][k]);
            }
        }
        for (; i < w - nr + 1 - 3; i += 4) {
            for (int r = 0; r < R; ++r) {
                const V4 sum = hn::Add(hn::LoadU(d4, in[r] + i - nr - 1), hn::LoadU(d4, in[r] + i + nr - 1));
                const V4 s0 = hn::Broadcast<0>(sum), s1 = hn::Broadcast<1>(sum), s2v = hn::Broadcast<2>(sum),
                         s3 = hn::Broadcast<3>(sum);
                V4 o[3];
                for (int k = 0; k < 3; ++k) {
                    V4 v = hn::Mul(s0, mi[k][0]);
                    v = hn::MulAdd(mi[k][1], s1, v);
                    v = hn::MulAdd(mi[k][2], s2v, v);
                    v = hn::MulAdd(mi[k][3], s3, v);
                    v = hn::MulAdd(mp2[k], vpp[r][k], v);
                    o[k] = hn::MulAdd(mp[k], vp[r][k], v);
                    vpp[r][k] = hn::Broadcast<2>(o[k]);
                    vp[r][k] = hn::Broadcast<3>(o[k]);
                }
                hn::StoreU(hn::Add(o[0], hn::Add(o[1], o[2])), d4, out[r] + i);
            }
        }
        for (int r = 0; r < R; ++r)
            for (int k = 0; k < 3; ++k) {
                p[r][k] = hn::GetLane(vp[r][k]);
                pp[r][k] = hn::GetLane(vpp[r][k]);
            }
    }
    for (; i < w; ++i)
        for (int r = 0; r < R; ++r) single(r, i);
}

/// blur_h of `a`, or of the product a * b when `b` is given (each product
/// one float multiply, into scratch rows first, as the reference).
void BlurRows(const s2::PlaneF& a, const s2::PlaneF* b, const s2::PlaneF& out, float* scratch) {
    constexpr int kRows = 2;
    const std::size_t w = a.width;
    auto source = [&](unsigned y, int slot) -> const float* {
        const float* ra = a.row(y);
        if (!b) return ra;
        const float* rb = b->row(y);
        float* prod = scratch + slot * w;
        for (std::size_t x = 0; x < w; ++x) prod[x] = ra[x] * rb[x];
        return prod;
    };
    unsigned y = 0;
    for (; y + kRows <= a.height; y += kRows) {
        const float* in[kRows];
        float* dst[kRows];
        for (int r = 0; r < kRows; ++r) {
            in[r] = source(y + r, r);
            dst[r] = out.row(y + r);
        }
        RowsBlocked<kRows>(in, dst, static_cast<std::ptrdiff_t>(w));
    }
    for (; y < a.height; ++y) {
        const float* in[1] = {source(y, 0)};
        float* dst[1] = {out.row(y)};
        RowsBlocked<1>(in, dst, static_cast<std::ptrdiff_t>(w));
    }
}

void BlurH(const s2::PlaneF& in, const s2::PlaneF& out, float* scratch) {
    BlurRows(in, nullptr, out, scratch);
}

void BlurHProduct(const s2::PlaneF& a, const s2::PlaneF& b, const s2::PlaneF& out, float* scratch) {
    BlurRows(a, &b, out, scratch);
}
#endif  // HWY_NATIVE_FMA

void DownsampleRow(const float* a, const float* b, std::size_t in_width, float* out) {
    const DF d;
    const std::size_t L = hn::Lanes(d);
    const VF quarter = hn::Set(d, 0.25f);
    std::size_t i = 0;
    for (; 2 * (i + L) <= in_width; i += L) {  // no column clamping inside
        VF a0, a1, b0, b1;
        hn::LoadInterleaved2(d, a + 2 * i, a0, a1);
        hn::LoadInterleaved2(d, b + 2 * i, b0, b1);
        hn::StoreU(hn::Mul(hn::Add(hn::Add(hn::Add(a0, a1), b0), b1), quarter), d, out + i);
    }
    if (2 * i < in_width) s2::downsample_row(a + 2 * i, b + 2 * i, in_width - 2 * i, out + i);
}

void MapValuesRow(const float* img1, const float* mu1, const float* img2, const float* mu2, const float* s11,
                  const float* s22, const float* s12, std::size_t n, double* ssim_out, double* art_out,
                  double* lost_out) {
    const hn::CappedTag<double, 8> dd;
    const hn::Rebind<float, decltype(dd)> df;
    using VD = hn::Vec<decltype(dd)>;
    const std::size_t L = hn::Lanes(dd);
    const auto c2 = hn::Set(df, s2::kC2), two = hn::Set(df, 2.0f);
    const VD one = hn::Set(dd, 1.0), zero = hn::Zero(dd);
    std::size_t i = 0;
    for (; i + L <= n; i += L) {
        const auto m1 = hn::LoadU(df, mu1 + i), m2 = hn::LoadU(df, mu2 + i);
        const auto diff = hn::Sub(m1, m2);
        const auto num_m = hn::DemoteTo(df, hn::Sub(one, hn::PromoteTo(dd, hn::Mul(diff, diff))));
        const auto num_s = hn::Add(hn::Mul(two, hn::Sub(hn::LoadU(df, s12 + i), hn::Mul(m1, m2))), c2);
        const auto den_s = hn::Add(
            hn::Add(hn::Sub(hn::LoadU(df, s11 + i), hn::Mul(m1, m1)), hn::Sub(hn::LoadU(df, s22 + i), hn::Mul(m2, m2))),
            c2);
        const VD ssim = hn::Sub(one, hn::PromoteTo(dd, hn::Div(hn::Mul(num_m, num_s), den_s)));
        hn::StoreU(hn::IfThenElse(hn::Lt(ssim, zero), zero, ssim), dd, ssim_out + i);  // std::max(ssim, 0.0)
        const VD e2 = hn::Add(one, hn::PromoteTo(dd, hn::Abs(hn::Sub(hn::LoadU(df, img2 + i), m2))));
        const VD e1 = hn::Add(one, hn::PromoteTo(dd, hn::Abs(hn::Sub(hn::LoadU(df, img1 + i), m1))));
        const VD d1 = hn::Sub(hn::Div(e2, e1), one), neg = hn::Neg(d1);
        hn::StoreU(hn::IfThenElse(hn::Lt(d1, zero), zero, d1), dd, art_out + i);
        hn::StoreU(hn::IfThenElse(hn::Lt(neg, zero), zero, neg), dd, lost_out + i);
    }
    if (i < n)
        s2::map_values_row(img1 + i, mu1 + i, img2 + i, mu2 + i, s11 + i, s22 + i, s12 + i, n - i, ssim_out + i,
                           art_out + i, lost_out + i);
}

void FillKernels(s2::Kernels& k) {
    k.downsample_row = &DownsampleRow;
    k.map_values_row = &MapValuesRow;
#if HWY_NATIVE_FMA
    k.yuv_to_linear_row = &YuvToLinearRow;
    k.xyb_row = &XybRow;
    k.blur_v = &BlurV;
    k.blur_h = &BlurH;
    k.blur_h_product = &BlurHProduct;
#endif
}

[[maybe_unused]] const bool kRegistered = s2::ssimulacra2_registry().add(HWY_TARGET, &FillKernels);
#endif  // !HWY_HAVE_SCALABLE

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
