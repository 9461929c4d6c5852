// SIMD kernels of SpEED, one Highway source compiled for every target.
// scale_add: lane-wise Mul then Add (two roundings, as the scalar reference;
// never an FMA), so every output is bit-identical.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/speed/speed_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "features/speed/speed_kernels.hpp"

#if HWY_TARGET != HWY_SCALAR
HWY_BEFORE_NAMESPACE();
namespace vmaf::HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;

void ScaleAdd(float* HWY_RESTRICT acc, const float* HWY_RESTRICT src, float c, std::size_t n) {
    const hn::ScalableTag<float> d;
    const std::size_t lanes = hn::Lanes(d);
    const auto vc = hn::Set(d, c);
    std::size_t j = 0;
    for (; j + lanes <= n; j += lanes)
        hn::StoreU(hn::Add(hn::LoadU(d, acc + j), hn::Mul(vc, hn::LoadU(d, src + j))), d, acc + j);
    for (; j < n; ++j) acc[j] += c * src[j];
}

void WeightedRows(float* HWY_RESTRICT out, const float* const* rows, const float* coef, int taps, std::size_t n) {
    const hn::ScalableTag<float> d;
    const std::size_t lanes = hn::Lanes(d);
    std::size_t j = 0;
    for (; j + lanes <= n; j += lanes) {
        auto acc = hn::Zero(d);
        for (int t = 0; t < taps; ++t) acc = hn::Add(acc, hn::Mul(hn::Set(d, coef[t]), hn::LoadU(d, rows[t] + j)));
        hn::StoreU(acc, d, out + j);
    }
    for (; j < n; ++j) {
        float acc = 0;
        for (int t = 0; t < taps; ++t) acc += coef[t] * rows[t][j];
        out[j] = acc;
    }
}

void FillSpeedKernels(speed::SpeedKernels& k) {
    k.scale_add = &ScaleAdd;
    k.weighted_rows = &WeightedRows;
}

[[maybe_unused]] const bool kRegistered = speed::speed_registry().add(HWY_TARGET, &FillSpeedKernels);

}  // namespace
}  // namespace vmaf::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
#endif  // HWY_TARGET != HWY_SCALAR

#if HWY_ONCE
namespace vmaf::speed {

void scale_add(float* acc, const float* src, float c, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j) acc[j] += c * src[j];
}

void weighted_rows(float* out, const float* const* rows, const float* coef, int taps, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j) {
        float acc = 0;
        for (int t = 0; t < taps; ++t) acc += coef[t] * rows[t][j];
        out[j] = acc;
    }
}

simd::KernelRegistry<SpeedKernels>& speed_registry() {
    static simd::KernelRegistry<SpeedKernels> registry;
    return registry;
}

}  // namespace vmaf::speed
#endif
