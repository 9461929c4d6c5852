// SIMD kernels of the float features' separable convolution, one Highway
// source compiled for every target, registered in float_registry(). Each
// lane is one output column computing exactly the scalar expression
// (multiply, then add into the float accumulator, taps in order; no fused
// multiply-add), so results are bit-identical to the scalar reference.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/float_common/float_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <limits>

#include "features/float_common/float_kernels.hpp"

#if HWY_TARGET != HWY_SCALAR
HWY_BEFORE_NAMESPACE();
namespace vmaf::floatfeat::HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;

template <Tap kTap>
void RowsT(const float* f, int fw, const float* const* a, const float* const* b, float* out, int w) {
    const hn::ScalableTag<float> d;
    const int n = static_cast<int>(hn::Lanes(d));
    int j = 0;
    for (; j + n <= w; j += n) {
        auto acc = hn::Zero(d);
        for (int k = 0; k < fw; ++k) {
            const auto v = hn::LoadU(d, a[k] + j);
            auto g = v;
            if constexpr (kTap == Tap::Square) g = hn::Mul(v, v);
            if constexpr (kTap == Tap::Product) g = hn::Mul(v, hn::LoadU(d, b[k] + j));
            acc = hn::Add(acc, hn::Mul(hn::Set(d, f[k]), g));
        }
        hn::StoreU(acc, d, out + j);
    }
    if (j < w) {
        const float* ta[128];
        const float* tb[128];
        for (int k = 0; k < fw; ++k) {
            ta[k] = a[k] + j;
            tb[k] = b && b[k] ? b[k] + j : nullptr;  // no offset on a null row (UB)
        }
        floatfeat::conv_rows(f, fw, ta, tb, kTap, out + j, w - j);
    }
}

void Rows(const float* f, int fw, const float* const* a, const float* const* b, Tap tap, float* out, int w) {
    if (fw > 128) return floatfeat::conv_rows(f, fw, a, b, tap, out, w);
    switch (tap) {
        case Tap::Value:
            return RowsT<Tap::Value>(f, fw, a, b, out, w);
        case Tap::Square:
            return RowsT<Tap::Square>(f, fw, a, b, out, w);
        case Tap::Product:
            return RowsT<Tap::Product>(f, fw, a, b, out, w);
    }
}

void Cols(const float* f, int fw, const float* in, float* out, int w) {
    const hn::ScalableTag<float> d;
    const int n = static_cast<int>(hn::Lanes(d));
    const int r = fw / 2;
    // Outputs whose taps all lie inside [0, w): j in [r, w - r).
    const int lo = std::min(r, w), hi = std::max(lo, w - r);
    auto edge = [&](int j0, int j1) {
        for (int j = j0; j < j1; ++j) {
            float acc = 0;
            for (int k = 0; k < fw; ++k) {
                int jj = j - r + k;
                jj = jj < 0 ? -jj : (jj >= w ? 2 * w - jj - 2 : jj);
                acc += f[k] * in[jj];
            }
            out[j] = acc;
        }
    };
    edge(0, lo);
    int j = lo;
    for (; j + n <= hi; j += n) {
        auto acc = hn::Zero(d);
        for (int k = 0; k < fw; ++k) acc = hn::Add(acc, hn::Mul(hn::Set(d, f[k]), hn::LoadU(d, in + j - r + k)));
        hn::StoreU(acc, d, out + j);
    }
    edge(j, w);
}

// VIF statistic: float lanes as many as double lanes, so the terms upstream
// evaluates in double are promoted lane for lane.
void VifStat(const float* mu1, const float* mu2, const float* xx, const float* yy, const float* xy, int w,
             const VifStatParams& p, float* num_out, float* den_out) {
    const hn::ScalableTag<double> dd;
    const hn::Rebind<float, decltype(dd)> d;
    const hn::RebindToUnsigned<decltype(d)> du;
    const hn::RebindToSigned<decltype(d)> di;
    const int n = static_cast<int>(hn::Lanes(d));
    const auto zero = hn::Zero(d), one = hn::Set(d, 1.0f), eps = hn::Set(d, 1.0e-10f);
    const auto gain = hn::Set(d, p.gain_limit), smi = hn::Set(d, p.sigma_max_inv);
    const auto thr = hn::Set(d, p.nsq_threshold);
    const auto nsq = hn::Set(dd, p.sigma_nsq), one_d = hn::Set(dd, 1.0);
    static constexpr float kPoly[9] = {-0.012671635276421f, 0.064841182402670f,  -0.157048836463065f,
                                       0.257167726303123f,  -0.353800560300520f, 0.480131410397451f,
                                       -0.721314327952201f, 1.442694803896991f,  0};
    auto log2v = [&](hn::Vec<decltype(d)> x) {
        const auto u = hn::BitCast(du, x);
        const auto expo = hn::ShiftRight<23>(hn::And(u, hn::Set(du, 0x7F800000u)));
        const auto base = hn::ConvertTo(d, hn::Sub(hn::BitCast(di, expo), hn::Set(di, 127)));
        const auto rem = hn::BitCast(d, hn::Or(hn::And(u, hn::Set(du, 0x007FFFFFu)), hn::Set(du, 0x3F800000u)));
        const auto t = hn::Sub(rem, one);
        auto v = zero;
        for (float c : kPoly) v = hn::Add(hn::Mul(v, t), hn::Set(d, c));
        auto r = hn::Add(base, v);
        r = hn::IfThenElse(hn::Eq(x, zero), hn::Set(d, -std::numeric_limits<float>::infinity()), r);
        return hn::IfThenElse(hn::Lt(x, zero), hn::Set(d, std::numeric_limits<float>::quiet_NaN()), r);
    };
    int j = 0;
    for (; j + n <= w; j += n) {
        const auto m1 = hn::LoadU(d, mu1 + j), m2 = hn::LoadU(d, mu2 + j);
        auto s1 = hn::Sub(hn::LoadU(d, xx + j), hn::Mul(m1, m1));
        auto s2 = hn::Sub(hn::LoadU(d, yy + j), hn::Mul(m2, m2));
        const auto s12 = hn::Sub(hn::LoadU(d, xy + j), hn::Mul(m1, m2));
        s1 = hn::IfThenElse(hn::Gt(s1, zero), s1, zero);
        s2 = hn::IfThenElse(hn::Gt(s2, zero), s2, zero);
        auto g = hn::Div(s12, hn::Add(s1, eps));
        auto sv = hn::Sub(s2, hn::Mul(g, s12));
        const auto small1 = hn::Lt(s1, eps);
        g = hn::IfThenElse(small1, zero, g);
        sv = hn::IfThenElse(small1, s2, sv);
        s1 = hn::IfThenElse(small1, zero, s1);
        const auto small2 = hn::Lt(s2, eps);
        g = hn::IfThenElse(small2, zero, g);
        sv = hn::IfThenElse(small2, zero, sv);
        const auto neg = hn::Lt(g, zero);
        sv = hn::IfThenElse(neg, s2, sv);
        g = hn::IfThenElse(neg, zero, g);
        sv = hn::IfThenElse(hn::Gt(sv, eps), sv, eps);
        g = hn::IfThenElse(hn::Lt(g, gain), g, gain);
        const auto t = hn::Mul(hn::Mul(g, g), s1);
        const auto num_arg =
            hn::DemoteTo(d, hn::Add(one_d, hn::Div(hn::PromoteTo(dd, t), hn::Add(hn::PromoteTo(dd, sv), nsq))));
        const auto den_arg = hn::DemoteTo(d, hn::Add(one_d, hn::Div(hn::PromoteTo(dd, s1), nsq)));
        auto num = log2v(num_arg);
        auto den = log2v(den_arg);
        num = hn::IfThenElse(hn::Lt(s12, zero), zero, num);
        const auto low = hn::Lt(s1, thr);
        num = hn::IfThenElse(low, hn::Sub(one, hn::Mul(s2, smi)), num);
        den = hn::IfThenElse(low, one, den);
        hn::StoreU(num, d, num_out + j);
        hn::StoreU(den, d, den_out + j);
    }
    if (j < w) floatfeat::vif_stat_row(mu1 + j, mu2 + j, xx + j, yy + j, xy + j, w - j, p, num_out + j, den_out + j);
}

// ANSNR 2-D filter: lanes are output columns; edge columns by the scalar formula.
void Filter2d(const float* f, int fw, const float* const* rows, float* out, int w) {
    const hn::ScalableTag<float> d;
    const int n = static_cast<int>(hn::Lanes(d));
    const int r = fw / 2;
    const int lo = std::min(r, w), hi = std::max(lo, w - r);
    auto edge = [&](int j0, int j1) {
        for (int j = j0; j < j1; ++j) {
            float acc = 0;
            for (int fi = 0; fi < fw; ++fi) {
                float inner = 0;
                for (int fj = 0; fj < fw; ++fj) {
                    int jj = j - r + fj;
                    jj = jj < 0 ? -jj : (jj >= w ? 2 * w - jj - 1 : jj);
                    inner += f[fi * fw + fj] * rows[fi][jj];
                }
                acc += inner;
            }
            out[j] = acc;
        }
    };
    edge(0, lo);
    int j = lo;
    for (; j + n <= hi; j += n) {
        auto acc = hn::Zero(d);
        for (int fi = 0; fi < fw; ++fi) {
            auto inner = hn::Zero(d);
            for (int fj = 0; fj < fw; ++fj)
                inner = hn::Add(inner, hn::Mul(hn::Set(d, f[fi * fw + fj]), hn::LoadU(d, rows[fi] + j - r + fj)));
            acc = hn::Add(acc, inner);
        }
        hn::StoreU(acc, d, out + j);
    }
    edge(j, w);
}

// ADM contrast masking: interior columns (1 .. w-2) in lanes; the first and
// last column by the scalar reference. Float lanes as many as double lanes
// for the centre term taken in double.
void AdmCm(const float* const* flt, const float* const* mask, const float* const* src, const float* fac, int j0, int j1,
           int w, bool bypass, float* const* out) {
    const hn::ScalableTag<double> dd;
    const hn::Rebind<float, decltype(dd)> d;
    const int n = static_cast<int>(hn::Lanes(d));
    const int a = std::max(j0, 1), b = std::min(j1, w - 1);
    if (a >= b) return floatfeat::adm_cm_row(flt, mask, src, fac, j0, j1, w, bypass, out);
    floatfeat::adm_cm_row(flt, mask, src, fac, j0, a, w, bypass, out);
    const auto zero = hn::Zero(d);
    const auto c15 = hn::Set(dd, kAdmOneBy15);
    int j = a;
    for (; j + n <= b; j += n) {
        auto thr = zero;
        if (!bypass) {
            for (int t = 0; t < 3; ++t) {
                const float *up = flt[3 * t], *mid = flt[3 * t + 1], *dn = flt[3 * t + 2];
                auto sum = zero;
                sum = hn::Add(sum, hn::LoadU(d, up + j - 1));
                sum = hn::Add(sum, hn::LoadU(d, up + j));
                sum = hn::Add(sum, hn::LoadU(d, up + j + 1));
                sum = hn::Add(sum, hn::LoadU(d, mid + j - 1));
                sum = hn::DemoteTo(d, hn::Add(hn::PromoteTo(dd, sum),
                                              hn::Mul(c15, hn::PromoteTo(dd, hn::Abs(hn::LoadU(d, mask[t] + j))))));
                sum = hn::Add(sum, hn::LoadU(d, mid + j + 1));
                sum = hn::Add(sum, hn::LoadU(d, dn + j - 1));
                sum = hn::Add(sum, hn::LoadU(d, dn + j));
                sum = hn::Add(sum, hn::LoadU(d, dn + j + 1));
                thr = hn::Add(thr, sum);
            }
        }
        for (int t = 0; t < 3; ++t) {
            auto x = hn::Sub(hn::Abs(hn::Mul(hn::LoadU(d, src[t] + j), hn::Set(d, fac[t]))), thr);
            x = hn::IfThenElse(hn::Lt(x, zero), zero, x);
            hn::StoreU(hn::Mul(hn::Mul(x, x), x), d, out[t] + j);
        }
    }
    floatfeat::adm_cm_row(flt, mask, src, fac, j, j1, w, bypass, out);
}

void AdmDwtRows(const float* const* r, int w, float* lo, float* hi) {
    const hn::ScalableTag<float> d;
    const int n = static_cast<int>(hn::Lanes(d));
    int j = 0;
    for (; j + n <= w; j += n) {
        const auto s0 = hn::LoadU(d, r[0] + j), s1 = hn::LoadU(d, r[1] + j), s2 = hn::LoadU(d, r[2] + j),
                   s3 = hn::LoadU(d, r[3] + j);
        auto a = hn::Add(hn::Zero(d), hn::Mul(hn::Set(d, kAdmDb2Lo[0]), s0));  // from +0, as the scalar sum
        a = hn::Add(a, hn::Mul(hn::Set(d, kAdmDb2Lo[1]), s1));
        a = hn::Add(a, hn::Mul(hn::Set(d, kAdmDb2Lo[2]), s2));
        a = hn::Add(a, hn::Mul(hn::Set(d, kAdmDb2Lo[3]), s3));
        auto b = hn::Add(hn::Zero(d), hn::Mul(hn::Set(d, kAdmDb2Hi[0]), s0));
        b = hn::Add(b, hn::Mul(hn::Set(d, kAdmDb2Hi[1]), s1));
        b = hn::Add(b, hn::Mul(hn::Set(d, kAdmDb2Hi[2]), s2));
        b = hn::Add(b, hn::Mul(hn::Set(d, kAdmDb2Hi[3]), s3));
        hn::StoreU(a, d, lo + j);
        hn::StoreU(b, d, hi + j);
    }
    if (j < w) {
        const float* rr[4] = {r[0] + j, r[1] + j, r[2] + j, r[3] + j};
        floatfeat::adm_dwt_rows(rr, w - j, lo + j, hi + j);
    }
}

void FillFloatKernels(FloatKernels& k) {
    k.adm_cm_row = &AdmCm;
    k.adm_dwt_rows = &AdmDwtRows;
    k.conv_rows = &Rows;
    k.conv_cols = &Cols;
    k.vif_stat_row = &VifStat;
    k.filter2d_row = &Filter2d;
}

[[maybe_unused]] const bool kRegistered = float_registry().add(HWY_TARGET, &FillFloatKernels);

}  // namespace
}  // namespace vmaf::floatfeat::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
#endif  // HWY_TARGET != HWY_SCALAR

#if HWY_ONCE
namespace vmaf::floatfeat {

simd::KernelRegistry<FloatKernels>& float_registry() {
    static simd::KernelRegistry<FloatKernels> registry;
    return registry;
}

}  // namespace vmaf::floatfeat
#endif
