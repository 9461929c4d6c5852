// float_ms_ssim's options and scores, shared by the CPU kind and its CUDA twin.
#pragma once

#include "core/feature_extractor.hpp"
#include "features/ssim_common/ssim_core.hpp"

namespace vmaf::ssimfeat {

struct FloatMsSsimParams {
    bool lcs, db;
    double max_db;  ///< the dB cap (infinite without clip_db)
};

/// The kind's parameters for frames of `g`; throws vmaf::Error as the kind
/// does for an unsupported bit depth or a frame below the minimum size.
FloatMsSsimParams float_ms_ssim_params(const OptionValues& o, const VideoGeometry& g);

/// A frame's scores: float_ms_ssim (in dB with enable_db, capped), then with
/// enable_lcs each scale's l, c and s (upstream's order).
void float_ms_ssim_scores(const MsSsim& v, const FloatMsSsimParams& p, ScoreList& out);

}  // namespace vmaf::ssimfeat
