// Kernel table of SpEED: the row primitive of its separable Gaussian filters.
#pragma once

#include <cstddef>

#include "core/simd.hpp"

namespace vmaf::speed {

/// acc[j] += c * src[j] for j < n, each as a float multiply then a float add
/// (no fused multiply-add): the filter's taps accumulated in upstream's order.
void scale_add(float* acc, const float* src, float c, std::size_t n);

/// Kernel table: scalar reference by default, overridden per SIMD target
/// (speed_simd.cpp). Every entry gives bit-identical results for every input.
struct SpeedKernels {
    using ScaleAddFn = void (*)(float* acc, const float* src, float c, std::size_t n);
    ScaleAddFn scale_add = &speed::scale_add;
};

/// The SIMD targets compiled for SpEED (defined in speed_simd.cpp).
simd::KernelRegistry<SpeedKernels>& speed_registry();

}  // namespace vmaf::speed
