// SpEED on the chroma planes ("speed_chroma"): speed_chroma_u, _v and their
// combination _uv, each clipped to speed_max_val. Odd sizes use upstream's
// floor-sized chroma (w >> 1, h >> 1): the last chroma column/row is not read.
#include <memory>

#include "core/feature_extractor.hpp"
#include "features/speed/speed_chroma.hpp"

namespace vmaf {

extern const ExtractorInfo kSpeedChromaInfo;

namespace {

using speed::kMaxVal;

const OptionSpec kOptions[] = {
    VMAF_SPEED_SHARED_OPTIONS,
    {"speed_weight_var_mode", "wvm", OptType::Int, 0, 0, 6, true, "which variances weight the entropies (0..6)"},
};

constexpr std::string_view kOutputs[] = {
    "Speed_chroma_feature_speed_chroma_u_score",
    "Speed_chroma_feature_speed_chroma_v_score",
    "Speed_chroma_feature_speed_chroma_uv_score",
};

class SpeedChromaExtractor final : public FeatureExtractor {
public:
    SpeedChromaExtractor(const OptionValues& o, const VideoGeometry& g, unsigned cpumask)
        : size_(speed::chroma_size(g)),
          bpc_(g.bpc),
          max_val_(o.d(kMaxVal)),
          est_(speed::chroma_options(o), size_.w, size_.h, speed::speed_registry().select(cpumask)) {}

    std::unique_ptr<FrameState> compute(unsigned /*index*/, const Picture& ref, const Picture& dist) const override {
        bool err_u = false, err_v = false;
        const float u = channel(ref, dist, 1, err_u);
        const float v = channel(ref, dist, 2, err_v);
        auto st = std::make_unique<FrameState>();
        st->scores = speed::chroma_scores(u, err_u, v, err_v, max_val_);
        return st;
    }

private:
    float channel(const Picture& ref, const Picture& dist, unsigned plane, bool& err) const {
        thread_local speed::Image r, d;  // reused per thread; every sample read is written first
        est_.shape(r);
        est_.shape(d);
        est_.load(r, ref.plane(plane), bpc_, -128);
        est_.load(d, dist.plane(plane), bpc_, -128);
        return est_.score(r, d, err);
    }

    const speed::ChromaSize size_;
    const unsigned bpc_;
    const double max_val_;
    const speed::Estimator est_;
};

std::unique_ptr<FeatureExtractor> create(const OptionValues& opts, const VideoGeometry& geom,
                                         const ExtractorContext& ctx) {
    return std::make_unique<SpeedChromaExtractor>(opts, geom, ctx.cpumask);
}

}  // namespace

const ExtractorInfo kSpeedChromaInfo{
    .name = "speed_chroma",
    .options = kOptions,
    .outputs = kOutputs,
    .needs_chroma = true,
    .temporal = false,
    .create = &create,
};

}  // namespace vmaf
