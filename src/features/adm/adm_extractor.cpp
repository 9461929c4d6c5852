// "adm": upstream libvmaf's integer ADM extractor (DLM, AIM, ADM3 and the
// per-scale ratios). The numerics live in adm_kernels.*; this file maps
// options to parameters and kernel results to named scores.
#include <array>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/feature_extractor.hpp"
#include "features/adm/adm_kernels.hpp"
#include "features/adm/adm_scores.hpp"
#include "features/adm/adm_simd.hpp"
#include "vmaf/error.hpp"

namespace vmaf {

namespace {

using namespace adm;  // option and output indices (adm_scores.hpp)

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

// Upstream's score names, in its write order (indices: adm::Out).
constexpr std::string_view kOutputs[kOutCount] = {
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

/// One extractor for one option set, or for a group of sets that differ
/// only in adm_enhn_gain_limit (VMAF + VMAF NEG): the group's DWTs and
/// denominators are computed once per frame, decouple/CSF/masking per limit
/// (adm::compute over the limits). Set k's output o is output k * kOutCount + o.
class AdmExtractor final : public FeatureExtractor {
public:
    AdmExtractor(std::span<const OptionValues* const> sets, const VideoGeometry& geom, const ExtractorContext& ctx)
        : kernels_(adm::adm_registry().select(ctx.cpumask)) {
        for (const OptionValues* o : sets) {
            settings_.push_back(adm::settings_from(*o, geom));
            limits_.push_back(settings_.back().params.enhn_gain_limit);
        }
    }

    std::unique_ptr<FrameState> compute(unsigned /*index*/, const Picture& ref, const Picture& dist) const override {
        std::array<adm::Result, kMaxSets> r;
        const std::span<adm::Result> out(r.data(), limits_.size());
        adm::compute(ref.plane(0), dist.plane(0), ref.bpc(), settings_[0].params, limits_, out, kernels_);
        auto st = std::make_unique<FrameState>();
        ScoreList one;
        for (std::size_t k = 0; k < out.size(); ++k) {
            one.clear();
            adm::append_scores(out[k], settings_[k], one);
            for (auto [o, v] : one) st->scores.emplace_back(static_cast<unsigned>(k * kOutCount) + o, v);
        }
        return st;
    }

    /// Most option sets one extractor computes (create_group declines more).
    static constexpr std::size_t kMaxSets = 8;

private:
    adm::AdmKernels kernels_;  ///< selected once for the run's cpumask
    std::vector<adm::Settings> settings_;  ///< per option set, equal but in the gain limit
    std::vector<double> limits_;           ///< adm_enhn_gain_limit of each set
};

std::unique_ptr<FeatureExtractor> create_adm(const OptionValues& opts, const VideoGeometry& geom, const ExtractorContext& ctx) {
    const OptionValues* sets[] = {&opts};
    return std::make_unique<AdmExtractor>(sets, geom, ctx);
}

std::unique_ptr<FeatureExtractor> create_adm_group(std::span<const OptionValues* const> sets, const VideoGeometry& geom,
                                                   const ExtractorContext& ctx) {
    if (sets.empty() || sets.size() > AdmExtractor::kMaxSets) return nullptr;
    return std::make_unique<AdmExtractor>(sets, geom, ctx);
}

}  // namespace

/// VMAF and VMAF NEG differ only in this limit: one extractor (CPU:
/// create_adm_group; CUDA: its twin) computes both in one pass.
constexpr std::string_view kGroupOptions[] = {"adm_enhn_gain_limit"};

extern const ExtractorInfo kAdmInfo;
const ExtractorInfo kAdmInfo{
    .name = "adm",
    .options = kOptions,
    .outputs = kOutputs,
    .aggregate_outputs = {},
    .needs_chroma = false,
    .temporal = false,
    .create = create_adm,
    .group_options = kGroupOptions,
    .create_group = &create_adm_group,
};

}  // namespace vmaf
