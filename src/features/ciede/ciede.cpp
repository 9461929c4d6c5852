// CIEDE2000 ("ciede"): 45 - 20 log10 of the mean CIEDE2000 colour difference
// of the two pictures, 4:2:0 / 4:2:2 chroma brought to 4:4:4 as upstream does.
#include <memory>
#include <optional>
#include <string>

#include "core/feature_extractor.hpp"
#include "features/ciede/ciede_frame.hpp"
#include "vmaf/error.hpp"

namespace vmaf {

extern const ExtractorInfo kCiedeInfo;

namespace {

constexpr std::string_view kOutputs[] = {"ciede2000"};

class CiedeExtractor final : public FeatureExtractor {
public:
    CiedeExtractor(const VideoGeometry& g, unsigned cpumask) : kernels_(ciede::ciede_registry().select(cpumask)) {
        if (g.format != PixelFormat::Yuv444) upsampler_.emplace(g.format, g.width, g.height);
    }

    std::unique_ptr<FrameState> compute(unsigned /*index*/, const Picture& ref, const Picture& dist) const override {
        auto st = std::make_unique<FrameState>();
        const double sum = ciede::frame_sum(kernels_, ref, dist, upsampler_ ? &*upsampler_ : nullptr);
        st->scores.emplace_back(0, ciede::frame_score(sum, ref.width(), ref.height()));
        return st;
    }

private:
    const ciede::CiedeKernels kernels_;  ///< selected once for ctx.cpumask
    std::optional<ciede::ChromaUpsampler> upsampler_;
};

std::unique_ptr<FeatureExtractor> create(const OptionValues& /*opts*/, const VideoGeometry& geom,
                                         const ExtractorContext& ctx) {
    if (geom.format == PixelFormat::Yuv400)
        throw Error(ErrorKind::Input, "ciede: needs chroma planes (4:0:0 input is not supported)");
    if (geom.bpc != 8 && geom.bpc != 10 && geom.bpc != 12 && geom.bpc != 16)
        throw Error(ErrorKind::Input,
                    "ciede: unsupported bit depth " + std::to_string(geom.bpc) + " (8, 10, 12 or 16)");
    return std::make_unique<CiedeExtractor>(geom, ctx.cpumask);
}

}  // namespace

const ExtractorInfo kCiedeInfo{
    .name = "ciede",
    .options = {},
    .outputs = kOutputs,
    .needs_chroma = true,
    .create = &create,
};

}  // namespace vmaf
