// Float moments ("float_moment"): mean and mean square of the reference and
// distorted luma (float samples in the 8-bit scale), summed in double.
// Scores: float_moment_ref1st, float_moment_dis1st, float_moment_ref2nd, float_moment_dis2nd.
#include <array>
#include <cstdint>
#include <memory>

#include "core/feature_extractor.hpp"
#include "features/float_common/float_image.hpp"
#include "features/float_moment/float_moment.hpp"

namespace vmaf {

extern const ExtractorInfo kFloatMomentInfo;

namespace {

/// The four moments in one pass: each is its own double sum in raster order
/// (upstream makes four passes; the sums and their order are the same).
/// Returns ref 1st, dis 1st, ref 2nd, dis 2nd.
template <typename T>
std::array<double, 4> moments(const Plane& ref, const Plane& dis, float scaler) {
    double r1 = 0, d1 = 0, r2 = 0, d2 = 0;
    for (unsigned i = 0; i < ref.height; ++i) {
        const T *r = ref.row<const T>(i), *d = dis.row<const T>(i);
        for (unsigned j = 0; j < ref.width; ++j) {
            const float a = floatfeat::sample_to_float(r[j], scaler), b = floatfeat::sample_to_float(d[j], scaler);
            r1 += a;
            d1 += b;
            r2 += a * a;  // products in float, as upstream
            d2 += b * b;
        }
    }
    return floatfeat::moment_scores(r1, d1, r2, d2, ref.width, ref.height);
}

constexpr std::string_view kOutputs[] = {"float_moment_ref1st", "float_moment_dis1st", "float_moment_ref2nd",
                                         "float_moment_dis2nd"};

class FloatMoment final : public FeatureExtractor {
public:
    explicit FloatMoment(const VideoGeometry& g) : bpc_(g.bpc) {}

    std::unique_ptr<FrameState> compute(unsigned, const Picture& ref, const Picture& dist) const override {
        auto st = std::make_unique<FrameState>();
        const auto m = bpc_ == 8 ? moments<std::uint8_t>(ref.plane(0), dist.plane(0), 1.0f)
                                 : moments<std::uint16_t>(ref.plane(0), dist.plane(0), floatfeat::hbd_scaler(bpc_));
        st->scores = {{0, m[0]}, {1, m[1]}, {2, m[2]}, {3, m[3]}};
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
