// Float PSNR ("float_psnr"): luma PSNR computed on float samples in the 8-bit
// scale (high bit depths divided down), capped at psnr_max. Score: float_psnr.
#include <algorithm>
#include <cmath>
#include <memory>

#include "core/feature_extractor.hpp"
#include "features/float_common/float_image.hpp"
#include "features/float_common/float_peak.hpp"

namespace vmaf {

extern const ExtractorInfo kFloatPsnrInfo;

namespace floatfeat {

/// Upstream's float PSNR of two equally sized images (noise summed in double).
double float_psnr(const FloatImage& ref, const FloatImage& dis, double peak, double psnr_max) {
    double noise = 0;
    for (unsigned i = 0; i < ref.h; ++i) {
        const float *r = ref.row(i), *d = dis.row(i);
        for (unsigned j = 0; j < ref.w; ++j) {
            const float diff = r[j] - d[j];
            noise += diff * diff;
        }
    }
    noise /= static_cast<int>(ref.w * ref.h);
    const double eps = 1e-10;
    return std::min(10 * std::log10(peak * peak / std::max(noise, eps)), psnr_max);
}

}  // namespace floatfeat

namespace {

constexpr std::string_view kOutputs[] = {"float_psnr"};

class FloatPsnr final : public FeatureExtractor {
public:
    explicit FloatPsnr(const VideoGeometry& g) : bpc_(g.bpc), peak_(floatfeat::psnr_peak(g.bpc)) {}

    std::unique_ptr<FrameState> compute(unsigned, const Picture& ref, const Picture& dist) const override {
        auto st = std::make_unique<FrameState>();
        const auto r = floatfeat::to_float(ref.plane(0), bpc_, 0), d = floatfeat::to_float(dist.plane(0), bpc_, 0);
        st->scores.emplace_back(0, floatfeat::float_psnr(r, d, peak_.peak, peak_.psnr_max));
        return st;
    }

private:
    const unsigned bpc_;
    const floatfeat::PsnrPeak peak_;
};

std::unique_ptr<FeatureExtractor> create(const OptionValues&, const VideoGeometry& geom, const ExtractorContext&) {
    return std::make_unique<FloatPsnr>(geom);
}

}  // namespace

const ExtractorInfo kFloatPsnrInfo{
    .name = "float_psnr",
    .options = {},
    .outputs = kOutputs,
    .create = &create,
};

}  // namespace vmaf
