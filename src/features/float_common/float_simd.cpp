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
            tb[k] = b ? b[k] + j : nullptr;
        }
        floatfeat::conv_rows(f, fw, ta, tb, kTap, out + j, w - j);
    }
}

void Rows(const float* f, int fw, const float* const* a, const float* const* b, Tap tap, float* out, int w) {
    if (fw > 128) return floatfeat::conv_rows(f, fw, a, b, tap, out, w);
    switch (tap) {
        case Tap::Value: return RowsT<Tap::Value>(f, fw, a, b, out, w);
        case Tap::Square: return RowsT<Tap::Square>(f, fw, a, b, out, w);
        case Tap::Product: return RowsT<Tap::Product>(f, fw, a, b, out, w);
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

void FillFloatKernels(FloatKernels& k) {
    k.conv_rows = &Rows;
    k.conv_cols = &Cols;
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
