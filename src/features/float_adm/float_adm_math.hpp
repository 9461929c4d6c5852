// Float ADM ("float_adm") arithmetic: upstream's float path (db2 DWT,
// decoupling, CSF, contrast masking) step by step, 4 scales.
#pragma once

#include <array>

#include "features/float_common/float_image.hpp"
#include "features/float_common/float_kernels.hpp"

namespace vmaf::floatfeat {

/// Contrast sensitivity models of the float adm_csf_mode option (any other value: Watson).
enum class FloatAdmCsf : int { Watson97 = 0, Barten = 1, AdmNative = 2 };

struct FloatAdmParams {
    double enhn_gain_limit = 100.0;
    double norm_view_dist = 3.0;
    int ref_display_height = 1080;
    int csf_mode = 0;
    double csf_scale = 1.0, csf_diag_scale = 1.0;
    double noise_weight = 0.03125;
    bool bypass_cm = false;
    double p_norm = 3.0;
    double f1[4] = {-1, -1, -1, -1};  ///< per-scale overrides of the H/V CSF factor (< 0: none)
    double f2[4] = {-1, -1, -1, -1};  ///< per-scale overrides of the diagonal CSF factor
    int skip_aim_scale = -1;          ///< scale left out of the AIM sums (-1: none)
    bool skip_scale0 = false;
};

struct FloatAdmResult {
    double score = 0, num = 0, den = 0, aim = 0;
    std::array<double, 8> scales{};  ///< num, den of scales 0..3
};

/// CSF factors [H/V, diagonal] of `scale` (before the f1/f2 overrides).
void float_adm_csf_factors(const FloatAdmParams& p, int scale, float out[2]);

/// Upstream's 1/30 as a double literal (the masking contributions are taken in double).
inline constexpr double kFloatAdmOneBy30 = 0.0333333351;

/// The per-band CSF factors [h, v, d] of `scale`, f1/f2 overrides applied.
void float_adm_factors(const FloatAdmParams& p, int scale, float out[3]);

/// Region [left, right) x [top, bottom) of a w x h band, as upstream derives
/// it from the 10% border; `extended` widens it by the 3x3 masking support.
struct AdmRegion {
    int left, top, right, bottom;
};
AdmRegion float_adm_region(int w, int h, bool extended);

/// A scale's pooled value from the float sums acc[3] (rows added in order)
/// of the per-pixel p-th powers over a rw x rh region: sum over the bands of
/// powf(acc, 1 / p) + the noise constant of (rw, rh, noise_weight, p).
float float_adm_pool(const float acc[3], int rw, int rh, double noise_weight, double p_norm);

/// x^p as the pooling takes it: x * x * x for p = 3, else powf(x, (float)p).
float float_adm_pow(float x, double p_norm);

/// Per-scale num, den and AIM num (the float values of a scale) into the
/// frame's result, for a w x h luma.
FloatAdmResult float_adm_combine(const float num[4], const float den[4], const float aim_num[4], unsigned w,
                                 unsigned h, const FloatAdmParams& p);

/// Whether decoupling divides as upstream does on x86 (n times the
/// Newton-refined reciprocal estimate of rcpss) rather than with n / d.
bool float_adm_rcp_division();
/// The host's raw reciprocal estimate of d (rcpss); only with float_adm_rcp_division().
float float_adm_rcp_estimate(float d);

/// ADM of a luma pair (float samples offset by -128).
FloatAdmResult float_adm(const FloatKernels& k, const FloatImage& ref, const FloatImage& dis, const FloatAdmParams& p);

}  // namespace vmaf::floatfeat
