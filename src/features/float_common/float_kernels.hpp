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

/// Constants of the VIF statistic (float_vif).
struct VifStatParams {
    double sigma_nsq;     ///< neural noise variance (compared and divided in double)
    float gain_limit;     ///< enhancement gain limit
    float sigma_max_inv;  ///< sigma_nsq^2 / 255^2
    float nsq_threshold;  ///< smallest float t with (s < t) == ((double)s < sigma_nsq) for every float s
};
VifStatParams vif_stat_params(double sigma_nsq, double gain_limit);

/// Upstream's polynomial log2 approximation (VIF_OPT_FAST_LOG2).
float vif_log2(float x);

/// VIF's per-pixel information terms of one row: num[j], den[j] from the
/// local means mu1/mu2 and filtered squares/product xx, yy, xy (j in [0, w)).
void vif_stat_row(const float* mu1, const float* mu2, const float* xx, const float* yy, const float* xy, int w,
                  const VifStatParams& p, float* num, float* den);

/// ANSNR's 2-D filter of one output row: out[j] = sum over fi of (sum over fj
/// of f[fi * fw + fj] * rows[fi][m(j - fw/2 + fj)]), inner sums first, in
/// float; m reflects as -1 -> 1, w -> w - 1. Requires fw / 2 < w.
void filter2d_row(const float* f, int fw, const float* const* rows, float* out, int w);

/// ADM contrast masking of one band row (p-norm 3), columns [j0, j1) of a
/// w-wide band: for each column j, thr = sum over the 3 orientations t of the
/// 3x3 neighbourhood sum of flt[t] (rows flt[3t + 0..2] = above, this, below;
/// columns mirrored at 0 (-1 -> 1), repeated at w - 1) whose centre term is
/// |mask[t][j]| / 15 (taken in double), in upstream's order; then
/// out[t][j] = max(|src[t][j] * fac[t]| - thr, 0)^3 (thr = 0 with bypass).
void adm_cm_row(const float* const* flt, const float* const* mask, const float* const* src, const float* fac, int j0,
                int j1, int w, bool bypass, float* const* out);

/// One vertical db2 pass of the ADM DWT: lo[j] and hi[j] from the 4 rows r
/// (lo = sum f_lo[k] * r[k][j], hi likewise, taps in order, in float), j in [0, w).
void adm_dwt_rows(const float* const* r, int w, float* lo, float* hi);

struct FloatKernels {
    using RowsFn = void (*)(const float*, int, const float* const*, const float* const*, Tap, float*, int);
    using ColsFn = void (*)(const float*, int, const float*, float*, int);
    using VifStatFn = void (*)(const float*, const float*, const float*, const float*, const float*, int,
                               const VifStatParams&, float*, float*);
    using Filter2dFn = void (*)(const float*, int, const float* const*, float*, int);
    RowsFn conv_rows = &floatfeat::conv_rows;
    ColsFn conv_cols = &floatfeat::conv_cols;
    VifStatFn vif_stat_row = &floatfeat::vif_stat_row;
    Filter2dFn filter2d_row = &floatfeat::filter2d_row;
    using AdmCmFn = void (*)(const float* const*, const float* const*, const float* const*, const float*, int, int, int,
                             bool, float* const*);
    AdmCmFn adm_cm_row = &floatfeat::adm_cm_row;
    using AdmDwtFn = void (*)(const float* const*, int, float*, float*);
    AdmDwtFn adm_dwt_rows = &floatfeat::adm_dwt_rows;
};

/// db2 analysis filters of the float ADM (upstream's constants, as float).
inline constexpr float kAdmDb2Lo[4] = {0.482962913144690f, 0.836516303737469f, 0.224143868041857f, -0.129409522550921f};
inline constexpr float kAdmDb2Hi[4] = {-0.129409522550921f, -0.224143868041857f, 0.836516303737469f,
                                       -0.482962913144690f};
/// Upstream's 1/15 as a double literal (the masking centre term is taken in double).
inline constexpr double kAdmOneBy15 = 0.0666666701;

/// The SIMD targets compiled for the float features (float_simd.cpp).
simd::KernelRegistry<FloatKernels>& float_registry();

}  // namespace vmaf::floatfeat
