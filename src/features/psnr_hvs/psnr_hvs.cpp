// PSNR-HVS ("psnr_hvs"): per-plane PSNR-HVS-M (psnr_hvs_y/cb/cr) and the
// 0.8 / 0.1 / 0.1 weighted combination (psnr_hvs), each in dB.
#include <memory>
#include <string>

#include "core/feature_extractor.hpp"
#include "features/psnr_hvs/psnr_hvs_kernels.hpp"
#include "vmaf/error.hpp"

namespace vmaf {

extern const ExtractorInfo kPsnrHvsInfo;

namespace {

constexpr std::string_view kOutputs[] = {"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"};

class PsnrHvsExtractor final : public FeatureExtractor {
public:
    PsnrHvsExtractor(const VideoGeometry& g, unsigned cpumask)
        : kernels_(psnr_hvs::psnr_hvs_registry().select(cpumask)), geom_(g) {}

    std::unique_ptr<FrameState> compute(unsigned /*index*/, const Picture& ref, const Picture& dist) const override {
        auto st = std::make_unique<FrameState>();
        const ChromaShift cs = chroma_shift(geom_.format);
        double err[3];
        for (unsigned p = 0; p < 3; ++p) {
            // Upstream's chroma planes are floor(w / 2) (x floor(h / 2)): blocks never reach a last odd column/row.
            const unsigned w = p ? geom_.width >> cs.x : geom_.width, h = p ? geom_.height >> cs.y : geom_.height;
            err[p] =
                psnr_hvs::plane_error(kernels_, ref.plane(p), dist.plane(p), geom_.bpc, w, h, psnr_hvs::weights(p));
            st->scores.emplace_back(p, psnr_hvs::to_db(err[p]));
        }
        st->scores.emplace_back(3, psnr_hvs::to_db(err[0] * .8 + .1 * (err[1] + err[2])));
        return st;
    }

private:
    const psnr_hvs::PsnrHvsKernels kernels_;  ///< selected once for ctx.cpumask
    const VideoGeometry geom_;
};

std::unique_ptr<FeatureExtractor> create(const OptionValues& /*opts*/, const VideoGeometry& geom,
                                         const ExtractorContext& ctx) {
    if (geom.bpc > 12)
        throw Error(ErrorKind::Input, "psnr_hvs: invalid bitdepth (" + std::to_string(geom.bpc) +
                                          "), bpc must be less than or equal to 12");
    if (geom.format == PixelFormat::Yuv400)
        throw Error(ErrorKind::Input, "psnr_hvs: needs chroma planes (4:0:0 input is not supported)");
    return std::make_unique<PsnrHvsExtractor>(geom, ctx.cpumask);
}

}  // namespace

const ExtractorInfo kPsnrHvsInfo{
    .name = "psnr_hvs",
    .options = {},
    .outputs = kOutputs,
    .needs_chroma = true,
    .create = &create,
};

}  // namespace vmaf
