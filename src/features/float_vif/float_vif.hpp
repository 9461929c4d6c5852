// float_vif's options and scores, shared by the CPU kind and its CUDA twin.
#pragma once

#include <array>

#include "core/feature_extractor.hpp"
#include "features/float_common/float_scale.hpp"

namespace vmaf::floatfeat {

struct FloatVifParams {
    bool debug = false;
    double gain_limit = 100.0;
    float kernelscale = 1.0f;
    double min_val[4] = {0, 0, 0, 0};  ///< per-scale floors (scale 0's unused)
    double sigma_nsq = 2.0;
    bool skip0 = false;
    ScaleMethod method = ScaleMethod::Nearest;
    unsigned sw = 0, sh = 0;  ///< the prescaled luma size
};

/// The kind's parameters for frames of `g`; throws vmaf::Error as the kind
/// does for a bad option or a frame too small for the filters.
FloatVifParams float_vif_params(const OptionValues& o, const VideoGeometry& g);

/// A frame's scores from its per-scale (num, den) (vif_scores' result).
void float_vif_scores(const std::array<double, 8>& s, const FloatVifParams& p, ScoreList& out);

}  // namespace vmaf::floatfeat
