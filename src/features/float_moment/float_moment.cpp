// Float moments ("float_moment"): mean and mean square of the reference and
// distorted luma (float samples in the 8-bit scale), summed in double.
// Scores: float_moment_ref1st, float_moment_dis1st, float_moment_ref2nd, float_moment_dis2nd.
#include <memory>

#include "core/feature_extractor.hpp"
#include "features/float_common/float_image.hpp"

namespace vmaf {

extern const ExtractorInfo kFloatMomentInfo;

namespace {

double moment(const floatfeat::FloatImage& p, bool second) {
    double cum = 0;
    for (unsigned i = 0; i < p.h; ++i) {
        const float* r = p.row(i);
        for (unsigned j = 0; j < p.w; ++j) {
            const float v = r[j];
            if (second)
                cum += v * v;  // product in float, as upstream
            else
                cum += v;
        }
    }
    return cum / static_cast<int>(p.w * p.h);
}

constexpr std::string_view kOutputs[] = {"float_moment_ref1st", "float_moment_dis1st", "float_moment_ref2nd",
                                         "float_moment_dis2nd"};

class FloatMoment final : public FeatureExtractor {
public:
    explicit FloatMoment(const VideoGeometry& g) : bpc_(g.bpc) {}

    std::unique_ptr<FrameState> compute(unsigned, const Picture& ref, const Picture& dist) const override {
        auto st = std::make_unique<FrameState>();
        const auto r = floatfeat::to_float(ref.plane(0), bpc_, 0), d = floatfeat::to_float(dist.plane(0), bpc_, 0);
        st->scores = {{0, moment(r, false)}, {1, moment(d, false)}, {2, moment(r, true)}, {3, moment(d, true)}};
        return st;
    }

private:
    const unsigned bpc_;
};

std::unique_ptr<FeatureExtractor> create(const OptionValues&, const VideoGeometry& geom, const ExtractorContext&) {
    return std::make_unique<FloatMoment>(geom);
}

}  // namespace

const ExtractorInfo kFloatMomentInfo{
    .name = "float_moment",
    .options = {},
    .outputs = kOutputs,
    .create = &create,
};

}  // namespace vmaf
