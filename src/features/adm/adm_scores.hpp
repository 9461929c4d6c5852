// The adm feature's edges: options -> parameters (validated), and a frame's
// adm::Result -> reported scores. Shared by the CPU extractor and its CUDA
// twin, which differ only in how they compute the Result.
#pragma once

#include "core/feature_extractor.hpp"
#include "features/adm/adm_kernels.hpp"

namespace vmaf::adm {

/// Option indices (positions in the adm option table, kAdmInfo.options).
enum Opt : std::size_t {
    kDebug,
    kCsfScale,
    kCsfDiagScale,
    kDlmWeight,
    kEnhnGainLimit,
    kNormViewDist,
    kRefDisplayHeight,
    kCsfMode,
    kNoiseWeight,
    kSkipAim,
    kSkipScale0,
    kMinVal,
};

/// Output indices, upstream's score names in its write order; the last 11 only with debug.
enum Out : unsigned {
    kAdm2,
    kAim,
    kAdm3,
    kScale0,
    kScale1,
    kScale2,
    kScale3,
    kDbgAdm,
    kDbgNum,
    kDbgDen,
    kDbgNumScale0,  // then den_scale0, num_scale1, ... den_scale3
    kOutCount = kDbgNumScale0 + 8,
};
constexpr unsigned kRegularOutputs = 7;

/// One run's settings.
struct Settings {
    Params params;
    double dlm_weight = 0.5;
    double min_val = 0.0;
    bool debug = false;
};

/// Settings from the options; throws vmaf::Error for a parameter set or a
/// geometry (size below kMinSize, bit depth outside 8..16) ADM cannot handle.
Settings settings_from(const OptionValues& o, const VideoGeometry& geom);

/// Appends a frame's scores: adm2, aim, adm3 (DLM/AIM blend clipped below at
/// min_val), the per-scale ratios, and with debug the totals and per-scale num/den.
void append_scores(const Result& r, const Settings& s, ScoreList& out);

}  // namespace vmaf::adm
