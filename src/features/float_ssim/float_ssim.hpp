// float_ssim's options and scores, shared by the CPU kind and its CUDA twin.
#pragma once

#include "core/feature_extractor.hpp"
#include "features/ssim_common/ssim_core.hpp"

namespace vmaf::floatfeat {

struct FloatSsimParams {
    bool lcs, db;
    double max_db;  ///< the dB cap (infinite without clip_db)
    int scale;      ///< decimation factor (1: none), the automatic choice resolved
};

/// The kind's parameters for frames of `g`; throws vmaf::Error as the kind
/// does for an unsupported bit depth or a frame too small after decimation.
FloatSsimParams float_ssim_params(const OptionValues& o, const VideoGeometry& g);

/// A frame's scores from its SSIM means: float_ssim (in dB with enable_db,
/// capped), then with enable_lcs float_ssim_l, _c, _s.
void float_ssim_scores(const ssimfeat::SsimLcs& v, const FloatSsimParams& p, ScoreList& out);

}  // namespace vmaf::floatfeat
