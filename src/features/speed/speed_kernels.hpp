// Kernel table of SpEED: the row primitive of its separable Gaussian filters.
#pragma once

#include <cstddef>

#include "core/simd.hpp"

namespace vmaf::speed {

/// acc[j] += c * src[j] for j < n, each as a float multiply then a float add
/// (no fused multiply-add): the filter's taps accumulated in upstream's order.
void scale_add(float* acc, const float* src, float c, std::size_t n);

/// out[j] = sum over t < taps of coef[t] * rows[t][j] for j < n, accumulated from
/// 0 in tap order, each term a float multiply then a float add (no FMA): one
/// output row of a separable filter pass with its taps' source rows given.
void weighted_rows(float* out, const float* const* rows, const float* coef, int taps, std::size_t n);

/// Kernel table: scalar reference by default, overridden per SIMD target
/// (speed_simd.cpp). Every entry gives bit-identical results for every input.
struct SpeedKernels {
    using ScaleAddFn = void (*)(float* acc, const float* src, float c, std::size_t n);
    ScaleAddFn scale_add = &speed::scale_add;
    using WeightedRowsFn = void (*)(float* out, const float* const* rows, const float* coef, int taps, std::size_t n);
    WeightedRowsFn weighted_rows = &speed::weighted_rows;
};

/// The SIMD targets compiled for SpEED (defined in speed_simd.cpp).
simd::KernelRegistry<SpeedKernels>& speed_registry();

}  // namespace vmaf::speed
