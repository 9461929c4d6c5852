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

// Upstream's names, in its write order (the last eleven only in debug mode).
enum : unsigned {
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

void check_geometry(unsigned bpc, unsigned w, unsigned h) {
    if (bpc < vif::kMinBpc || bpc > vif::kMaxBpc)
        throw Error(ErrorKind::Input, "vif: unsupported bit depth " + std::to_string(bpc) + " (8..16 supported)");
    if (w < vif::kMinDimension || h < vif::kMinDimension)
        throw Error(ErrorKind::Input, "vif: frame " + std::to_string(w) + "x" + std::to_string(h) +
                                          " is too small (at least " + std::to_string(vif::kMinDimension) + "x" +
                                          std::to_string(vif::kMinDimension) + " needed)");
}

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
        check_geometry(geom.bpc, geom.width, geom.height);
    }

    std::unique_ptr<FrameState> compute(unsigned /*index*/, const Picture& ref, const Picture& dist) const override {
        if (ref.bpc() != dist.bpc() || ref.width() != dist.width() || ref.height() != dist.height())
            throw Error(ErrorKind::Input, "vif: reference and distorted pictures differ in size or bit depth");
        check_geometry(ref.bpc(), ref.width(), ref.height());

        const std::array<vif::ScaleStat, vif::kScales> stats =
            ref.bpc() == 8 ? vif::compute_vif(luma_view<std::uint8_t>(ref), luma_view<std::uint8_t>(dist), 8,
                                              enhn_gain_limit_, skip_scale0_, kernels_)
                           : vif::compute_vif(luma_view<std::uint16_t>(ref), luma_view<std::uint16_t>(dist), ref.bpc(),
                                              enhn_gain_limit_, skip_scale0_, kernels_);

        auto state = std::make_unique<FrameState>();
        write_scores(stats, state->scores);
        return state;
    }

private:
    void write_scores(const std::array<vif::ScaleStat, vif::kScales>& st, ScoreList& out) const {
        // Each score is the float ratio, widened to double afterwards.
        auto ratio = [](const vif::ScaleStat& s) { return static_cast<double>(s.num / s.den); };

        out.emplace_back(kOutScale0, skip_scale0_ ? 0.0 : ratio(st[0]));
        out.emplace_back(kOutScale1, ratio(st[1]));
        out.emplace_back(kOutScale2, ratio(st[2]));
        out.emplace_back(kOutScale3, ratio(st[3]));
        if (!debug_) return;

        // Totals over the scales in double, summed from scale 0 (or 1) upward.
        double num = 0.0, den = 0.0;
        if (skip_scale0_) {
            num = static_cast<double>(st[1].num) + static_cast<double>(st[2].num) + static_cast<double>(st[3].num);
            den = static_cast<double>(st[1].den) + static_cast<double>(st[2].den) + static_cast<double>(st[3].den);
        } else {
            num = static_cast<double>(st[0].num) + static_cast<double>(st[1].num) + static_cast<double>(st[2].num) +
                  static_cast<double>(st[3].num);
            den = static_cast<double>(st[0].den) + static_cast<double>(st[1].den) + static_cast<double>(st[2].den) +
                  static_cast<double>(st[3].den);
        }
        out.emplace_back(kOutVif, den == 0.0 ? 1.0 : num / den);
        out.emplace_back(kOutNum, num);
        out.emplace_back(kOutDen, den);
        // A skipped scale 0 reports num 0 and den -1, as upstream does.
        out.emplace_back(kOutNumScale0, skip_scale0_ ? 0.0 : static_cast<double>(st[0].num));
        out.emplace_back(kOutDenScale0, skip_scale0_ ? -1.0 : static_cast<double>(st[0].den));
        for (unsigned s = 1; s < vif::kScales; ++s) {
            out.emplace_back(kOutNumScale0 + 2 * s, static_cast<double>(st[s].num));
            out.emplace_back(kOutDenScale0 + 2 * s, static_cast<double>(st[s].den));
        }
    }

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

extern const ExtractorInfo kVifInfo;
const ExtractorInfo kVifInfo{
    .name = "vif",
    .options = kOptions,
    .outputs = kOutputs,
    .aggregate_outputs = {},
    .needs_chroma = false,
    .temporal = false,
    .create = &create_vif,
};

}  // namespace vmaf
