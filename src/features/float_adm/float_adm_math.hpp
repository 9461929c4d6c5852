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

/// ADM of a luma pair (float samples offset by -128).
FloatAdmResult float_adm(const FloatKernels& k, const FloatImage& ref, const FloatImage& dis, const FloatAdmParams& p);

}  // namespace vmaf::floatfeat
