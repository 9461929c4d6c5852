// The vif feature's reported scores: output order, and the scores of a frame
// from its four per-scale num/den pairs. Shared by the CPU extractor and its
// CUDA twin, which differ only in how they compute the per-scale sums.
#pragma once

#include <array>

#include "core/feature_extractor.hpp"
#include "features/vif/vif_kernels.hpp"

namespace vmaf::vif {

/// Output indices, upstream's names in its write order (the last eleven only in debug mode).
enum Output : unsigned {
    kOutScale0,
    kOutScale1,
    kOutScale2,
    kOutScale3,
    kOutVif,
    kOutNum,
    kOutDen,
    kOutNumScale0,
    kOutDenScale0,
    kOutNumScale1,
    kOutDenScale1,
    kOutNumScale2,
    kOutDenScale2,
    kOutNumScale3,
    kOutDenScale3,
    kOutCount,
};

/// Appends a frame's scores: each scale's float ratio num/den widened to
/// double (scale 0 reports 0 when skipped), and in debug mode the totals and
/// per-scale num/den (a skipped scale 0 reports num 0 and den -1, as upstream).
void append_scores(const std::array<ScaleStat, kScales>& st, bool skip_scale0, bool debug, ScoreList& out);

/// Throws vmaf::Error for a bit depth or frame size the feature cannot handle.
void check_geometry(unsigned bpc, unsigned w, unsigned h);

}  // namespace vmaf::vif
