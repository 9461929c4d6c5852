// "vif": libvmaf's integer VIF extractor. Turns the four per-scale
// statistics of vif_kernels into upstream's named scores.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

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

class VifExtractor final : public FeatureExtractor {
public:
    VifExtractor(const OptionValues& opts, const VideoGeometry& geom, const vif::VifKernels& kernels)
        : kernels_(kernels),
          debug_(opts.b(kOptDebug)),
          enhn_gain_limit_(opts.d(kOptEnhnGainLimit)),
          skip_scale0_(opts.b(kOptSkipScale0)) {
        vif::check_geometry(geom.bpc, geom.width, geom.height);
    }

    std::unique_ptr<FrameState> compute(unsigned /*index*/, const Picture& ref, const Picture& dist) const override {
        if (ref.bpc() != dist.bpc() || ref.width() != dist.width() || ref.height() != dist.height())
            throw Error(ErrorKind::Input, "vif: reference and distorted pictures differ in size or bit depth");
        vif::check_geometry(ref.bpc(), ref.width(), ref.height());

        const std::array<vif::ScaleStat, vif::kScales> stats =
            ref.bpc() == 8 ? vif::compute_vif(luma_view<std::uint8_t>(ref), luma_view<std::uint8_t>(dist), 8,
                                              enhn_gain_limit_, skip_scale0_, kernels_)
                           : vif::compute_vif(luma_view<std::uint16_t>(ref), luma_view<std::uint16_t>(dist), ref.bpc(),
                                              enhn_gain_limit_, skip_scale0_, kernels_);

        auto state = std::make_unique<FrameState>();
        vif::append_scores(stats, skip_scale0_, debug_, state->scores);
        return state;
    }

private:
    vif::VifKernels kernels_;  ///< selected once, for the run's cpumask
    bool debug_;
    double enhn_gain_limit_;
    bool skip_scale0_;
};

std::unique_ptr<FeatureExtractor> create_vif(const OptionValues& opts, const VideoGeometry& geom,
                                             const ExtractorContext& ctx) {
    return std::make_unique<VifExtractor>(opts, geom, vif::select_kernels(ctx.cpumask));
}

}  // namespace

/// VMAF and VMAF NEG differ only in this limit: a backend may compute both in one pass.
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
};

}  // namespace vmaf
