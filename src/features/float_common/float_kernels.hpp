// Kernel table of the float features' separable convolution (the hot loop of
// float_vif and float_motion). Every variant is bit-identical to the scalar
// reference: each output is its own float accumulation over the taps in
// order; SIMD variants compute several outputs at once, never reorder taps.
#pragma once

#include "core/simd.hpp"

namespace vmaf::floatfeat {

/// What a filter pass convolves at each tap.
enum class Tap { Value, Square, Product };

/// Vertical pass of one output row: out[j] = sum over k of f[k] * g(k, j),
/// accumulated in float from 0 in tap order, where g is a[k][j],
/// a[k][j] * a[k][j] (Square) or a[k][j] * b[k][j] (Product); a and b hold
/// `fw` row pointers (already mirrored), j in [0, w).
void conv_rows(const float* f, int fw, const float* const* a, const float* const* b, Tap tap, float* out, int w);

/// Horizontal pass of one row: out[j] = sum over k of f[k] * in[m(j - fw/2 + k)]
/// in tap order, m mirroring without repeating the edge (-1 -> 1, w -> w - 2).
/// Requires fw / 2 < w.
void conv_cols(const float* f, int fw, const float* in, float* out, int w);

struct FloatKernels {
    using RowsFn = void (*)(const float*, int, const float* const*, const float* const*, Tap, float*, int);
    using ColsFn = void (*)(const float*, int, const float*, float*, int);
    RowsFn conv_rows = &floatfeat::conv_rows;
    ColsFn conv_cols = &floatfeat::conv_cols;
};

/// The SIMD targets compiled for the float features (float_simd.cpp).
simd::KernelRegistry<FloatKernels>& float_registry();

}  // namespace vmaf::floatfeat
