// "vif": libvmaf's integer VIF extractor. Turns the four per-scale
// statistics of vif_kernels into upstream's named scores.
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/feature_extractor.hpp"
#include "core/options.hpp"
#include "features/vif/vif_kernels.hpp"
#include "features/vif/vif_scores.hpp"
#include "vmaf/error.hpp"
#include "vmaf/picture.hpp"

namespace vmaf {

namespace {

// Option indices into kOptions.
enum : std::size_t { kOptDebug, kOptEnhnGainLimit, kOptSkipScale0 };

const OptionSpec kOptions[] = {
    {"debug", "", OptType::Bool, false, 0, 0, false, "debug mode: enable additional output"},
    {"vif_enhn_gain_limit", "egl", OptType::Double, vif::kDefaultEnhnGainLimit, 1.0, vif::kDefaultEnhnGainLimit, true,
     "enhancement gain imposed on vif, must be >= 1.0, where 1.0 means the gain is completely disabled"},
    {"vif_skip_scale0", "ssclz", OptType::Bool, false, 0, 0, true, "when set, skip scale 0 calculations"},
};

using vif::kOutCount;

constexpr std::string_view kOutputs[kOutCount] = {
    "VMAF_integer_feature_vif_scale0_score",
    "VMAF_integer_feature_vif_scale1_score",
    "VMAF_integer_feature_vif_scale2_score",
    "VMAF_integer_feature_vif_scale3_score",
    "integer_vif",
    "integer_vif_num",
    "integer_vif_den",
    "integer_vif_num_scale0",
    "integer_vif_den_scale0",
    "integer_vif_num_scale1",
    "integer_vif_den_scale1",
    "integer_vif_num_scale2",
    "integer_vif_den_scale2",
    "integer_vif_num_scale3",
    "integer_vif_den_scale3",
};


template <typename T>
vif::SampleView<T> luma_view(const Picture& pic) {
    const Plane& p = pic.plane(0);
    return {static_cast<const T*>(p.data), p.stride, p.width, p.height};
}

/// One extractor for one option set, or for a group of sets that differ
/// only in vif_enhn_gain_limit (VMAF + VMAF NEG). A group shares, per frame,
/// every decimation, each scale's vertical statistic pass and the horizontal
/// pass up to the gain clamp (vif::compute_vif over the limits); only the
/// numerator's log term is per limit. Set k's output o is output
/// k * kOutCount + o.
class VifExtractor final : public FeatureExtractor {
public:
    VifExtractor(std::span<const OptionValues* const> sets, const VideoGeometry& geom,
                 const vif::VifKernels& kernels)
        : kernels_(kernels), debug_(sets[0]->b(kOptDebug)), skip_scale0_(sets[0]->b(kOptSkipScale0)) {
        for (const OptionValues* o : sets) limits_.push_back(o->d(kOptEnhnGainLimit));
        vif::check_geometry(geom.bpc, geom.width, geom.height);
    }

    std::unique_ptr<FrameState> compute(unsigned /*index*/, const Picture& ref, const Picture& dist) const override {
        if (ref.bpc() != dist.bpc() || ref.width() != dist.width() || ref.height() != dist.height())
            throw Error(ErrorKind::Input, "vif: reference and distorted pictures differ in size or bit depth");
        vif::check_geometry(ref.bpc(), ref.width(), ref.height());

        std::array<vif::FrameStats, kMaxSets> stats;
        const std::span<vif::FrameStats> out(stats.data(), limits_.size());
        if (ref.bpc() == 8)
            vif::compute_vif(luma_view<std::uint8_t>(ref), luma_view<std::uint8_t>(dist), 8, limits_, skip_scale0_,
                             out, kernels_);
        else
            vif::compute_vif(luma_view<std::uint16_t>(ref), luma_view<std::uint16_t>(dist), ref.bpc(), limits_,
                             skip_scale0_, out, kernels_);

        auto state = std::make_unique<FrameState>();
        ScoreList one;
        for (std::size_t k = 0; k < out.size(); ++k) {
            one.clear();
            vif::append_scores(out[k], skip_scale0_, debug_, one);
            for (auto [o, v] : one) state->scores.emplace_back(static_cast<unsigned>(k * kOutCount) + o, v);
        }
        return state;
    }

    /// Most option sets one extractor computes (create_group declines more).
    static constexpr std::size_t kMaxSets = 8;

private:
    vif::VifKernels kernels_;  ///< selected once, for the run's cpumask
    bool debug_;
    bool skip_scale0_;
    std::vector<double> limits_;  ///< gain limit of each option set, in set order
};

std::unique_ptr<FeatureExtractor> create_vif(const OptionValues& opts, const VideoGeometry& geom,
                                             const ExtractorContext& ctx) {
    const OptionValues* sets[] = {&opts};
    return std::make_unique<VifExtractor>(sets, geom, vif::select_kernels(ctx.cpumask));
}

std::unique_ptr<FeatureExtractor> create_vif_group(std::span<const OptionValues* const> sets,
                                                   const VideoGeometry& geom, const ExtractorContext& ctx) {
    if (sets.empty() || sets.size() > VifExtractor::kMaxSets) return nullptr;
    return std::make_unique<VifExtractor>(sets, geom, vif::select_kernels(ctx.cpumask));
}

}  // namespace

/// VMAF and VMAF NEG differ only in this limit: one extractor (CPU:
/// create_vif_group; CUDA: its twin) computes both in one pass.
constexpr std::string_view kGroupOptions[] = {"vif_enhn_gain_limit"};

extern const ExtractorInfo kVifInfo;
const ExtractorInfo kVifInfo{
    .name = "vif",
    .options = kOptions,
    .outputs = kOutputs,
    .aggregate_outputs = {},
    .needs_chroma = false,
    .temporal = false,
    .create = &create_vif,
    .group_options = kGroupOptions,
    .create_group = &create_vif_group,
};

}  // namespace vmaf
