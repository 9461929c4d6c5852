// SSIMULACRA 2 ("ssimulacra2"): libjxl's perceptual metric per frame, on the
// pictures converted to sRGB with the yuv_matrix option's matrix and range.
#include <memory>
#include <string>

#include "core/feature_extractor.hpp"
#include "features/ssimulacra2/ssimulacra2_constants.hpp"
#include "features/ssimulacra2/ssimulacra2_core.hpp"
#include "vmaf/error.hpp"

namespace vmaf {

extern const ExtractorInfo kSsimulacra2Info;

namespace {

// The fork's option: one integer naming matrix and range.
constexpr OptionSpec kOptions[] = {
    {"yuv_matrix", "", OptType::Int, 0, 0, 3, false,
     "YUV to RGB matrix and range: 0 BT.709 limited, 1 BT.601 limited, 2 BT.709 full, 3 BT.601 full"},
};

constexpr std::string_view kOutputs[] = {"ssimulacra2"};

class Ssimulacra2Extractor final : public FeatureExtractor {
public:
    Ssimulacra2Extractor(const OptionValues& o, const VideoGeometry& g, unsigned cpumask)
        : scorer_(ssimulacra2::ssimulacra2_registry().select(cpumask), static_cast<ssimulacra2::YuvMatrix>(o.i(0)), g) {
    }

    std::unique_ptr<FrameState> compute(unsigned /*index*/, const Picture& ref, const Picture& dist) const override {
        auto st = std::make_unique<FrameState>();
        st->scores.emplace_back(0, scorer_.score(ref, dist));
        return st;
    }

private:
    ssimulacra2::Scorer scorer_;
};

std::unique_ptr<FeatureExtractor> create(const OptionValues& opts, const VideoGeometry& geom,
                                         const ExtractorContext& ctx) {
    // As libjxl's ssimulacra2 program ("Minimum image size is 8x8 pixels.").
    if (geom.width < ssimulacra2::kMinScaleSize || geom.height < ssimulacra2::kMinScaleSize)
        throw Error(ErrorKind::Input, "ssimulacra2: pictures of " + std::to_string(geom.width) + "x" +
                                          std::to_string(geom.height) + " are below the 8x8 minimum");
    return std::make_unique<Ssimulacra2Extractor>(opts, geom, ctx.cpumask);
}

}  // namespace

const ExtractorInfo kSsimulacra2Info{
    .name = "ssimulacra2",
    .options = kOptions,
    .outputs = kOutputs,
    .needs_chroma = true,
    .create = &create,
};

}  // namespace vmaf
