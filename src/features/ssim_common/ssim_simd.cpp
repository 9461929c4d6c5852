// SIMD kernels of the float SSIM features, one Highway source compiled for
// every target, registered in ssim_registry(). Each lane is one output
// computing exactly the scalar expression of ssim_kernels.cpp: float products
// rounded to float, promoted and added to a double accumulator from +0.0 in
// tap order (no fused multiply-add); the SSIM map's raster-order sums stay
// sequential (lanes compute the per-pixel terms, a scalar loop adds them).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/ssim_common/ssim_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "features/ssim_common/ssim_kernels.hpp"

#if HWY_TARGET != HWY_SCALAR
HWY_BEFORE_NAMESPACE();
namespace vmaf::ssimfeat::HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;

// Lanes of double accumulators, with float vectors of as many lanes.
using DD = hn::ScalableTag<double>;
using DF = hn::Rebind<float, DD>;

// Sample g(i) of a horizontal pass (see conv_h).
template <Tap kTap>
HWY_INLINE hn::Vec<DF> TapValue(DF df, const float* a, const float* b) {
    auto g = hn::LoadU(df, a);
    if constexpr (kTap == Tap::Square) g = hn::Mul(g, g);
    if constexpr (kTap == Tap::Product) g = hn::Mul(g, hn::LoadU(df, b));
    return g;
}

// acc + (double)(g * f), the float product rounded first.
HWY_INLINE hn::Vec<DD> AddProduct(DD dd, hn::Vec<DD> acc, hn::Vec<DF> g, hn::Vec<DF> f) {
    return hn::Add(acc, hn::PromoteTo(dd, hn::Mul(g, f)));
}

// Four vectors of outputs at a time: four independent double chains hide the
// add latency (each output still sums its own taps in order).
template <Tap kTap>
void ConvHT(const float* f, int fw, const float* a, const float* b, float* out, int n) {
    const DD dd;
    const DF df;
    const int lanes = static_cast<int>(hn::Lanes(dd));
    int x = 0;
    for (; x + 4 * lanes <= n; x += 4 * lanes) {
        auto acc0 = hn::Zero(dd), acc1 = acc0, acc2 = acc0, acc3 = acc0;
        const float* pb = b ? b + x : nullptr;
        for (int u = 0; u < fw; ++u) {
            const auto fu = hn::Set(df, f[u]);
            const float* pa = a + x + u;
            const float* qb = pb ? pb + u : nullptr;
            acc0 = AddProduct(dd, acc0, TapValue<kTap>(df, pa, qb), fu);
            acc1 = AddProduct(dd, acc1, TapValue<kTap>(df, pa + lanes, qb ? qb + lanes : nullptr), fu);
            acc2 = AddProduct(dd, acc2, TapValue<kTap>(df, pa + 2 * lanes, qb ? qb + 2 * lanes : nullptr), fu);
            acc3 = AddProduct(dd, acc3, TapValue<kTap>(df, pa + 3 * lanes, qb ? qb + 3 * lanes : nullptr), fu);
        }
        hn::StoreU(hn::DemoteTo(df, acc0), df, out + x);
        hn::StoreU(hn::DemoteTo(df, acc1), df, out + x + lanes);
        hn::StoreU(hn::DemoteTo(df, acc2), df, out + x + 2 * lanes);
        hn::StoreU(hn::DemoteTo(df, acc3), df, out + x + 3 * lanes);
    }
    for (; x + lanes <= n; x += lanes) {
        auto acc = hn::Zero(dd);
        for (int u = 0; u < fw; ++u)
            acc = AddProduct(dd, acc, TapValue<kTap>(df, a + x + u, b ? b + x + u : nullptr), hn::Set(df, f[u]));
        hn::StoreU(hn::DemoteTo(df, acc), df, out + x);
    }
    if (x < n) ssimfeat::conv_h(f, fw, a + x, b ? b + x : nullptr, kTap, out + x, n - x);
}

void ConvH(const float* f, int fw, const float* a, const float* b, Tap tap, float* out, int n) {
    switch (tap) {
        case Tap::Value:
            return ConvHT<Tap::Value>(f, fw, a, b, out, n);
        case Tap::Square:
            return ConvHT<Tap::Square>(f, fw, a, b, out, n);
        case Tap::Product:
            return ConvHT<Tap::Product>(f, fw, a, b, out, n);
    }
}

void ConvV(const float* f, int fw, const float* const* rows, float* out, int n) {
    const DD dd;
    const DF df;
    const int lanes = static_cast<int>(hn::Lanes(dd));
    int x = 0;
    for (; x + 4 * lanes <= n; x += 4 * lanes) {
        auto acc0 = hn::Zero(dd), acc1 = acc0, acc2 = acc0, acc3 = acc0;
        for (int v = 0; v < fw; ++v) {
            const auto fv = hn::Set(df, f[v]);
            const float* r = rows[v] + x;
            acc0 = AddProduct(dd, acc0, hn::LoadU(df, r), fv);
            acc1 = AddProduct(dd, acc1, hn::LoadU(df, r + lanes), fv);
            acc2 = AddProduct(dd, acc2, hn::LoadU(df, r + 2 * lanes), fv);
            acc3 = AddProduct(dd, acc3, hn::LoadU(df, r + 3 * lanes), fv);
        }
        hn::StoreU(hn::DemoteTo(df, acc0), df, out + x);
        hn::StoreU(hn::DemoteTo(df, acc1), df, out + x + lanes);
        hn::StoreU(hn::DemoteTo(df, acc2), df, out + x + 2 * lanes);
        hn::StoreU(hn::DemoteTo(df, acc3), df, out + x + 3 * lanes);
    }
    for (; x + lanes <= n; x += lanes) {
        auto acc = hn::Zero(dd);
        for (int v = 0; v < fw; ++v) acc = AddProduct(dd, acc, hn::LoadU(df, rows[v] + x), hn::Set(df, f[v]));
        hn::StoreU(hn::DemoteTo(df, acc), df, out + x);
    }
    for (; x < n; ++x) {
        double sum = 0.0;
        for (int v = 0; v < fw; ++v) sum += rows[v][x] * f[v];
        out[x] = static_cast<float>(sum);
    }
}

void SsimRow(const float* mu1, const float* mu2, const float* xx, const float* yy, const float* xy, int n,
             const SsimConsts& k, SsimSums& sums) {
    const DD dd;
    const DF df;
    const int lanes = static_cast<int>(hn::Lanes(dd));
    constexpr int kChunk = 256;
    HWY_ALIGN double tl[kChunk], tc[kChunk], ts[kChunk], tlcs[kChunk];
    const auto zf = hn::Zero(df);
    const auto two = hn::Set(dd, 2.0);
    const auto c1 = hn::Set(df, k.c1), c2 = hn::Set(df, k.c2), c3 = hn::Set(df, k.c3);
    const auto c1d = hn::Set(dd, static_cast<double>(k.c1)), c2d = hn::Set(dd, static_cast<double>(k.c2));
    int x = 0;
    while (x + lanes <= n) {
        const int m = (n - x) / lanes * lanes < kChunk ? (n - x) / lanes * lanes : kChunk;
        for (int i = 0; i < m; i += lanes) {
            const int j = x + i;
            const auto m1 = hn::LoadU(df, mu1 + j), m2 = hn::LoadU(df, mu2 + j);
            auto v1 = hn::Sub(hn::LoadU(df, xx + j), hn::Mul(m1, m1));
            auto v2 = hn::Sub(hn::LoadU(df, yy + j), hn::Mul(m2, m2));
            v1 = hn::IfThenElse(hn::Lt(v1, zf), zf, v1);
            v2 = hn::IfThenElse(hn::Lt(v2, zf), zf, v2);
            const auto cov = hn::Sub(hn::LoadU(df, xy + j), hn::Mul(m1, m2));
            const auto sd12 = hn::Sqrt(hn::Mul(v1, v2));
            const auto l = hn::Div(hn::Add(hn::Mul(hn::Mul(two, hn::PromoteTo(dd, m1)), hn::PromoteTo(dd, m2)), c1d),
                                   hn::PromoteTo(dd, hn::Add(hn::Add(hn::Mul(m1, m1), hn::Mul(m2, m2)), c1)));
            const auto c = hn::Div(hn::Add(hn::Mul(two, hn::PromoteTo(dd, sd12)), c2d),
                                   hn::PromoteTo(dd, hn::Add(hn::Add(v1, v2), c2)));
            const auto cov_c = hn::IfThenElse(hn::And(hn::Lt(cov, zf), hn::Le(sd12, zf)), zf, cov);
            const auto s = hn::PromoteTo(dd, hn::Div(hn::Add(cov_c, c3), hn::Add(sd12, c3)));
            hn::Store(l, dd, tl + i);
            hn::Store(c, dd, tc + i);
            hn::Store(s, dd, ts + i);
            hn::Store(hn::Mul(hn::Mul(l, c), s), dd, tlcs + i);
        }
        // Raster order: one pixel after the other, as upstream sums.
        for (int i = 0; i < m; ++i) {
            sums.ssim += tlcs[i];
            sums.l += tl[i];
            sums.c += tc[i];
            sums.s += ts[i];
        }
        x += m;
    }
    if (x < n) ssimfeat::ssim_row(mu1 + x, mu2 + x, xx + x, yy + x, xy + x, n - x, k, sums);
}

// Loads lanes p[0], p[step], p[2 * step], ... (step 1 to 4); reads p[0, lanes * step).
template <int kStep>
HWY_INLINE hn::Vec<DF> LoadStrided(DF df, const float* p) {
    if constexpr (kStep == 1) {
        return hn::LoadU(df, p);
    } else if constexpr (kStep == 2) {
        hn::Vec<DF> a, b;
        hn::LoadInterleaved2(df, p, a, b);
        return a;
    } else if constexpr (kStep == 3) {
        hn::Vec<DF> a, b, c;
        hn::LoadInterleaved3(df, p, a, b, c);
        return a;
    } else {
        hn::Vec<DF> a, b, c, e;
        hn::LoadInterleaved4(df, p, a, b, c, e);
        return a;
    }
}

template <int kStep>
void DecimateT(const float* k, int kw, int kh, const float* const* rows, float* out, int n) {
    const DD dd;
    const DF df;
    const int lanes = static_cast<int>(hn::Lanes(dd));
    int x = 0;
    // A strided load of the last lanes reads kStep - 1 samples past its tap:
    // vector loops stop one output early so no read leaves [0, (n - 1) * step + kw).
    for (; x + 4 * lanes < n; x += 4 * lanes) {
        auto acc0 = hn::Zero(dd), acc1 = acc0, acc2 = acc0, acc3 = acc0;
        for (int v = 0; v < kh; ++v) {
            const float* r = rows[v] + x * kStep;
            for (int u = 0; u < kw; ++u) {
                const auto ku = hn::Set(df, k[v * kw + u]);
                acc0 = AddProduct(dd, acc0, LoadStrided<kStep>(df, r + u), ku);
                acc1 = AddProduct(dd, acc1, LoadStrided<kStep>(df, r + u + lanes * kStep), ku);
                acc2 = AddProduct(dd, acc2, LoadStrided<kStep>(df, r + u + 2 * lanes * kStep), ku);
                acc3 = AddProduct(dd, acc3, LoadStrided<kStep>(df, r + u + 3 * lanes * kStep), ku);
            }
        }
        hn::StoreU(hn::DemoteTo(df, acc0), df, out + x);
        hn::StoreU(hn::DemoteTo(df, acc1), df, out + x + lanes);
        hn::StoreU(hn::DemoteTo(df, acc2), df, out + x + 2 * lanes);
        hn::StoreU(hn::DemoteTo(df, acc3), df, out + x + 3 * lanes);
    }
    for (; x + lanes < n; x += lanes) {
        auto acc = hn::Zero(dd);
        for (int v = 0; v < kh; ++v) {
            const float* r = rows[v] + x * kStep;
            for (int u = 0; u < kw; ++u)
                acc = AddProduct(dd, acc, LoadStrided<kStep>(df, r + u), hn::Set(df, k[v * kw + u]));
        }
        hn::StoreU(hn::DemoteTo(df, acc), df, out + x);
    }
    for (; x < n; ++x) {
        double sum = 0.0;
        for (int v = 0; v < kh; ++v) {
            const float* r = rows[v] + x * kStep;
            for (int u = 0; u < kw; ++u) sum += r[u] * k[v * kw + u];
        }
        out[x] = static_cast<float>(sum);
    }
}

void Decimate(const float* k, int kw, int kh, const float* const* rows, int step, float* out, int n) {
    switch (step) {
        case 1:
            return DecimateT<1>(k, kw, kh, rows, out, n);
        case 2:
            return DecimateT<2>(k, kw, kh, rows, out, n);
        case 3:
            return DecimateT<3>(k, kw, kh, rows, out, n);
        case 4:
            return DecimateT<4>(k, kw, kh, rows, out, n);
        default:
            return ssimfeat::decimate_row(k, kw, kh, rows, step, out, n);
    }
}

void FillSsimKernels(SsimKernels& t) {
    t.conv_h = &ConvH;
    t.conv_v = &ConvV;
    t.ssim_row = &SsimRow;
    t.decimate_row = &Decimate;
}

[[maybe_unused]] const bool kRegistered = ssim_registry().add(HWY_TARGET, &FillSsimKernels);

}  // namespace
}  // namespace vmaf::ssimfeat::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
#endif  // HWY_TARGET != HWY_SCALAR

#if HWY_ONCE
namespace vmaf::ssimfeat {

simd::KernelRegistry<SsimKernels>& ssim_registry() {
    static simd::KernelRegistry<SsimKernels> registry;
    return registry;
}

}  // namespace vmaf::ssimfeat
#endif
