// float_adm's options and scores, shared by the CPU kind and its CUDA twin.
#pragma once

#include "core/feature_extractor.hpp"
#include "features/float_adm/float_adm_math.hpp"

namespace vmaf::floatfeat {

struct FloatAdmOptions {
    FloatAdmParams p;
    bool debug = false, apply_hm = false;
    double dlm_weight = 0.5, min_val = 0.0;
};

/// The kind's parameters for frames of `g`; throws vmaf::Error as the kind
/// does for a frame too small for the DWT.
FloatAdmOptions float_adm_options(const OptionValues& o, const VideoGeometry& g);

/// A frame's scores from its ADM result.
void float_adm_scores(const FloatAdmResult& r, const FloatAdmOptions& o, ScoreList& out);

}  // namespace vmaf::floatfeat
