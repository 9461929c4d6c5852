// Float ADM ("float_adm"): detail-loss (DLM) and additive-impairment (AIM)
// measures on float luma (offset -128), 4 DWT scales. Scores:
//   VMAF_feature_adm2_score (DLM), VMAF_feature_aim_score, VMAF_feature_adm3_score
//   (DLM/AIM blend, or their harmonic mean with adm_adm3_apply_hm, floored at
//   adm_min_val), VMAF_feature_adm_scale{0..3}_score, and with debug: adm,
//   adm_num, adm_den, adm_num_scaleN, adm_den_scaleN.
#include <algorithm>
#include <memory>

#include "core/feature_extractor.hpp"
#include "features/float_adm/float_adm.hpp"
#include "features/float_adm/float_adm_math.hpp"
#include "features/float_common/float_image.hpp"

namespace vmaf {

extern const ExtractorInfo kFloatAdmInfo;

namespace {

enum Opt : std::size_t {
    kDebug,
    kGainLimit,
    kNormViewDist,
    kNoiseWeight,
    kCsfScale,
    kCsfDiagScale,
    kRefDisplayHeight,
    kCsfMode,
    kBypassCm,
    kApplyHm,
    kPNorm,
    kDlmWeight,
    kMinVal,
    kF1s0,  // .. kF1s3, then kF2s0 .. kF2s3
    kF2s0 = kF1s0 + 4,
    kSkipAimScale = kF2s0 + 4,
    kSkipScale0,
};

// Same names, aliases, order, defaults, ranges and feature-parameter flags as upstream.
constexpr OptionSpec kOptions[] = {
    {"debug", "", OptType::Bool, false, 0, 0, false, "debug mode: enable additional output"},
    {"adm_enhn_gain_limit", "egl", OptType::Double, 100.0, 1.0, 100.0, true,
     "enhancement gain imposed on adm, must be >= 1.0, where 1.0 means the gain is completely disabled"},
    {"adm_norm_view_dist", "nvd", OptType::Double, 3.0, 0.75, 24.0, true,
     "normalized viewing distance = viewing distance / ref display's physical height"},
    {"adm_noise_weight", "nw", OptType::Double, 0.03125, 0.0, 1500.0, true, "noise multiplicative weight"},
    {"adm_csf_scale", "scf", OptType::Double, 1.0, 0.0, 50.0, true, "CSF scale factor"},
    {"adm_csf_diag_scale", "scfd", OptType::Double, 1.0, 0.0, 50.0, true, "CSF diagonal scale factor"},
    {"adm_ref_display_height", "rdf", OptType::Int, 1080, 1, 4320, true, "reference display height in pixels"},
    {"adm_csf_mode", "csf", OptType::Int, 0, 0, 9, true, "contrast sensitivity function (0 Watson, 1 Barten, 2 ADM)"},
    {"adm_bypass_cm", "bcm", OptType::Int, 0, 0, 1, true, "bypass contrast masking"},
    {"adm_adm3_apply_hm", "aah", OptType::Bool, false, 0, 0, true, "adm3 as harmonic mean of adm2 and 1 - aim"},
    {"adm_p_norm", "apn", OptType::Double, 3.0, 1.0, 20.0, true, "p-norm of the pooling"},
    {"adm_dlm_weight", "dlmw", OptType::Double, 0.5, 0.0, 1.0, true, "weight of DLM in adm3"},
    {"adm_min_val", "min", OptType::Double, 0.0, 0.0, 1.0, true, "minimum value allowed for adm3"},
    {"adm_f1s0", "f1s0", OptType::Double, -1.0, -1.0, 10.0, true, "H/V CSF factor of scale 0 (< 0: model's)"},
    {"adm_f1s1", "f1s1", OptType::Double, -1.0, -1.0, 10.0, true, "H/V CSF factor of scale 1 (< 0: model's)"},
    {"adm_f1s2", "f1s2", OptType::Double, -1.0, -1.0, 10.0, true, "H/V CSF factor of scale 2 (< 0: model's)"},
    {"adm_f1s3", "f1s3", OptType::Double, -1.0, -1.0, 10.0, true, "H/V CSF factor of scale 3 (< 0: model's)"},
    {"adm_f2s0", "f2s0", OptType::Double, -1.0, -1.0, 10.0, true, "diagonal CSF factor of scale 0 (< 0: model's)"},
    {"adm_f2s1", "f2s1", OptType::Double, -1.0, -1.0, 10.0, true, "diagonal CSF factor of scale 1 (< 0: model's)"},
    {"adm_f2s2", "f2s2", OptType::Double, -1.0, -1.0, 10.0, true, "diagonal CSF factor of scale 2 (< 0: model's)"},
    {"adm_f2s3", "f2s3", OptType::Double, -1.0, -1.0, 10.0, true, "diagonal CSF factor of scale 3 (< 0: model's)"},
    {"adm_skip_aim_scale", "sasc", OptType::Int, -1, 0, 3, true, "scale left out of AIM"},
    {"adm_skip_scale0", "ssz", OptType::Bool, false, 0, 0, true, "skip scale 0"},
};

constexpr std::string_view kOutputs[] = {
    "VMAF_feature_adm2_score",
    "VMAF_feature_aim_score",
    "VMAF_feature_adm3_score",
    "VMAF_feature_adm_scale0_score",
    "VMAF_feature_adm_scale1_score",
    "VMAF_feature_adm_scale2_score",
    "VMAF_feature_adm_scale3_score",
    "adm",
    "adm_num",
    "adm_den",
    "adm_num_scale0",
    "adm_den_scale0",
    "adm_num_scale1",
    "adm_den_scale1",
    "adm_num_scale2",
    "adm_den_scale2",
    "adm_num_scale3",
    "adm_den_scale3",
};
// Upstream names "adm" (debug) outside its feature-name dictionary (it is
// not among float_adm's provided_features): no option suffix.
constexpr unsigned kVerbatim[] = {7};
static_assert(kOutputs[7] == "adm");

class FloatAdm final : public FeatureExtractor {
public:
    FloatAdm(const OptionValues& o, const VideoGeometry& g, unsigned cpumask)
        : kernels_(floatfeat::float_registry().select(cpumask)), bpc_(g.bpc), o_(floatfeat::float_adm_options(o, g)) {}

    std::unique_ptr<FrameState> compute(unsigned, const Picture& ref, const Picture& dist) const override {
        auto st = std::make_unique<FrameState>();
        const auto r = floatfeat::float_adm(kernels_, floatfeat::to_float(ref.plane(0), bpc_, -128),
                                            floatfeat::to_float(dist.plane(0), bpc_, -128), o_.p);
        floatfeat::float_adm_scores(r, o_, st->scores);
        return st;
    }

private:
    const floatfeat::FloatKernels kernels_;  ///< selected once for ctx.cpumask
    const unsigned bpc_;
    const floatfeat::FloatAdmOptions o_;
};

std::unique_ptr<FeatureExtractor> create(const OptionValues& opts, const VideoGeometry& geom,
                                         const ExtractorContext& ctx) {
    return std::make_unique<FloatAdm>(opts, geom, ctx.cpumask);
}

}  // namespace

namespace floatfeat {

FloatAdmOptions float_adm_options(const OptionValues& o, const VideoGeometry& g) {
    FloatAdmOptions r;
    r.debug = o.b(kDebug);
    r.apply_hm = o.b(kApplyHm);
    r.dlm_weight = o.d(kDlmWeight);
    r.min_val = o.d(kMinVal);
    FloatAdmParams& p = r.p;
    p.enhn_gain_limit = o.d(kGainLimit);
    p.norm_view_dist = o.d(kNormViewDist);
    p.noise_weight = o.d(kNoiseWeight);
    p.csf_scale = o.d(kCsfScale);
    p.csf_diag_scale = o.d(kCsfDiagScale);
    p.ref_display_height = o.i(kRefDisplayHeight);
    p.csf_mode = o.i(kCsfMode);
    p.bypass_cm = o.i(kBypassCm) != 0;
    p.p_norm = o.d(kPNorm);
    for (int s = 0; s < 4; ++s) {
        p.f1[s] = o.d(kF1s0 + s);
        p.f2[s] = o.d(kF2s0 + s);
    }
    p.skip_aim_scale = o.i(kSkipAimScale);
    p.skip_scale0 = o.b(kSkipScale0);
    // The 4-tap DWT and the 3x3 masking need bands of >= 2 samples at scale 3.
    require_size("float_adm", g.width, g.height, 17, 17);
    return r;
}

void float_adm_scores(const FloatAdmResult& r, const FloatAdmOptions& o, ScoreList& out) {
    out.emplace_back(0, r.score);
    out.emplace_back(1, r.aim);
    const double adm3 = o.apply_hm ? 2 * r.score * r.aim / (r.score + r.aim)
                                   : r.score * o.dlm_weight + (1 - r.aim) * (1 - o.dlm_weight);
    out.emplace_back(2, std::max(adm3, o.min_val));
    for (unsigned k = 0; k < 4; ++k) out.emplace_back(3 + k, r.scales[2 * k] / r.scales[2 * k + 1]);
    if (!o.debug) return;
    out.emplace_back(7, r.score);
    out.emplace_back(8, r.num);
    out.emplace_back(9, r.den);
    for (unsigned k = 0; k < 8; ++k) out.emplace_back(10 + k, r.scales[k]);
}

}  // namespace floatfeat

/// The float VMAF and VMAF NEG models differ only in this limit: backends
/// with a group twin (CUDA) compute both in one pass; the CPU kind has no
/// groups (each set its own extractor).
constexpr std::string_view kGroupOptions[] = {"adm_enhn_gain_limit"};

const ExtractorInfo kFloatAdmInfo{
    .name = "float_adm",
    .options = kOptions,
    .outputs = kOutputs,
    .verbatim_outputs = kVerbatim,
    .create = &create,
    .group_options = kGroupOptions,
};

}  // namespace vmaf
