// "adm": upstream libvmaf's integer ADM extractor (DLM, AIM, ADM3 and the
// per-scale ratios). The numerics live in adm_kernels.*; this file maps
// options to parameters and kernel results to named scores.
#include <memory>
#include <string>

#include "core/feature_extractor.hpp"
#include "features/adm/adm_kernels.hpp"
#include "features/adm/adm_simd.hpp"
#include "vmaf/error.hpp"

namespace vmaf {

namespace {

// Option indices (positions in kOptions).
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

// Names, aliases, types, defaults, ranges and feature-parameter flags as in
// upstream's table (they determine the key suffixes, e.g. "_egl_1").
constexpr OptionSpec kOptions[] = {
    {"debug", "", OptType::Bool, false, 0, 0, false, "debug mode: enable additional output"},
    {"adm_csf_scale", "scf", OptType::Double, 1.0, 0.0, 50.0, true,
     "scale coefficient for the horizontal & vertical direction terms of CSF"},
    {"adm_csf_diag_scale", "scfd", OptType::Double, 1.0, 0.0, 50.0, true,
     "scale coefficient for the diagonal direction term of CSF"},
    {"adm_dlm_weight", "dlmw", OptType::Double, 0.5, 0.0, 1.0, true,
     "linear weighting between DLM and AIM; 1 corresponds to DLM-only"},
    {"adm_enhn_gain_limit", "egl", OptType::Double, 100.0, 1.0, 100.0, true,
     "enhancement gain imposed on adm, must be >= 1.0, where 1.0 means the gain is completely disabled"},
    {"adm_norm_view_dist", "nvd", OptType::Double, 3.0, 0.75, 24.0, true,
     "normalized viewing distance = viewing distance / ref display's physical height"},
    {"adm_ref_display_height", "rdh", OptType::Int, 1080, 1, 4320, true, "reference display height in pixels"},
    {"adm_csf_mode", "csf", OptType::Int, 0, 0, 3, true, "contrast sensitivity function"},
    {"adm_noise_weight", "nw", OptType::Double, 0.03125, 0.0, 1500.0, true, "noise weight"},
    {"adm_skip_aim", "", OptType::Bool, false, 0, 0, false, "skip the calculation of AIM"},
    {"adm_skip_scale0", "ssz", OptType::Bool, false, 0, 0, true, "skip the calculation of scale 0"},
    {"adm_min_val", "min", OptType::Double, 0.0, 0.0, 1.0, true,
     "minimum value allowed; lower values will be clipped to this value"},
};

// Upstream's score names, in its write order; the last 11 only with debug.
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
};
constexpr unsigned kRegularOutputs = 7;

constexpr std::string_view kOutputs[] = {
    "VMAF_integer_feature_adm2_score",
    "VMAF_integer_feature_aim_score",
    "VMAF_integer_feature_adm3_score",
    "integer_adm_scale0",
    "integer_adm_scale1",
    "integer_adm_scale2",
    "integer_adm_scale3",
    "integer_adm",
    "integer_adm_num",
    "integer_adm_den",
    "integer_adm_num_scale0",
    "integer_adm_den_scale0",
    "integer_adm_num_scale1",
    "integer_adm_den_scale1",
    "integer_adm_num_scale2",
    "integer_adm_den_scale2",
    "integer_adm_num_scale3",
    "integer_adm_den_scale3",
};

class AdmExtractor final : public FeatureExtractor {
public:
    AdmExtractor(const OptionValues& o, const VideoGeometry& geom, const ExtractorContext& ctx)
        : kernels_(adm::adm_registry().select(ctx.cpumask)) {
        p_.csf_scale = o.d(kCsfScale);
        p_.csf_diag_scale = o.d(kCsfDiagScale);
        p_.enhn_gain_limit = o.d(kEnhnGainLimit);
        p_.norm_view_dist = o.d(kNormViewDist);
        p_.ref_display_height = o.i(kRefDisplayHeight);
        p_.csf_mode = static_cast<adm::CsfMode>(o.i(kCsfMode));
        p_.noise_weight = o.d(kNoiseWeight);
        p_.skip_aim = o.b(kSkipAim);
        p_.skip_scale0 = o.b(kSkipScale0);
        dlm_weight_ = o.d(kDlmWeight);
        min_val_ = o.d(kMinVal);
        debug_ = o.b(kDebug);

        if (const char* why = adm::params_problem(p_)) throw Error(ErrorKind::Usage, std::string("adm: ") + why);
        if (geom.width < adm::kMinSize || geom.height < adm::kMinSize)
            throw Error(ErrorKind::Input, "adm: frames of " + std::to_string(geom.width) + "x" +
                                              std::to_string(geom.height) + " are too small (minimum " +
                                              std::to_string(adm::kMinSize) + "x" +
                                              std::to_string(adm::kMinSize) + ")");
        if (geom.bpc < 8 || geom.bpc > 16)
            throw Error(ErrorKind::Input, "adm: unsupported bit depth " + std::to_string(geom.bpc));
    }

    std::unique_ptr<FrameState> compute(unsigned /*index*/, const Picture& ref, const Picture& dist) const override {
        const adm::Result r = adm::compute(ref.plane(0), dist.plane(0), ref.bpc(), p_, kernels_);
        auto st = std::make_unique<FrameState>();
        auto& s = st->scores;
        s.reserve(debug_ ? std::size(kOutputs) : kRegularOutputs);
        s.emplace_back(kAdm2, r.score);
        s.emplace_back(kAim, r.score_aim);
        const double adm3 = r.score * dlm_weight_ + (1 - r.score_aim) * (1 - dlm_weight_);
        s.emplace_back(kAdm3, adm3 > min_val_ ? adm3 : min_val_);
        for (unsigned k = 0; k < 4; ++k)
            s.emplace_back(kScale0 + k, static_cast<double>(r.num_scale[k]) / static_cast<double>(r.den_scale[k]));
        if (debug_) {
            s.emplace_back(kDbgAdm, r.score);
            s.emplace_back(kDbgNum, r.num);
            s.emplace_back(kDbgDen, r.den);
            for (unsigned k = 0; k < 4; ++k) {
                s.emplace_back(kDbgNumScale0 + 2 * k, r.num_scale[k]);
                s.emplace_back(kDbgNumScale0 + 2 * k + 1, r.den_scale[k]);
            }
        }
        return st;
    }

private:
    adm::AdmKernels kernels_;  ///< selected once for the run's cpumask
    adm::Params p_;
    double dlm_weight_ = 0.5;
    double min_val_ = 0.0;
    bool debug_ = false;
};

std::unique_ptr<FeatureExtractor> create_adm(const OptionValues& opts, const VideoGeometry& geom, const ExtractorContext& ctx) {
    return std::make_unique<AdmExtractor>(opts, geom, ctx);
}

}  // namespace

extern const ExtractorInfo kAdmInfo;
const ExtractorInfo kAdmInfo{
    .name = "adm",
    .options = kOptions,
    .outputs = kOutputs,
    .aggregate_outputs = {},
    .needs_chroma = false,
    .temporal = false,
    .create = create_adm,
};

}  // namespace vmaf
