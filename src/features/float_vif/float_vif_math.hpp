// Float VIF ("float_vif") arithmetic, upstream's float path step by step.
#pragma once

#include <array>
#include <vector>

#include "features/float_common/float_image.hpp"

namespace vmaf::floatfeat {

/// Upstream's table of accepted vif_kernelscale values (matched within 1e-3).
bool vif_kernelscale_valid(float kernelscale);

/// Gaussian filter of `scale` (0..3) for `kernelscale`: odd width >= 3.
std::vector<float> vif_filter(int scale, float kernelscale);

/// Per-scale (num, den) of 4 scales; scales below `first_scale` are left 0.
std::array<double, 8> vif_scores(const FloatKernels& k, const FloatImage& ref, const FloatImage& dis,
                                 double enhn_gain_limit, float kernelscale, int first_scale, double sigma_nsq);

}  // namespace vmaf::floatfeat
