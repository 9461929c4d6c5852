// SpEED on the chroma planes ("speed_chroma"): speed_chroma_u, _v and their
// combination _uv, each clipped to speed_max_val. Odd sizes use upstream's
// floor-sized chroma (w >> 1, h >> 1): the last chroma column/row is not read.
#include <algorithm>
#include <memory>

#include "core/feature_extractor.hpp"
#include "features/speed/speed_options.hpp"
#include "vmaf/error.hpp"

namespace vmaf {

extern const ExtractorInfo kSpeedChromaInfo;

namespace {

using speed::kMaxVal;
constexpr std::size_t kWeightVarMode = speed::kMaxVal + 1;

const OptionSpec kOptions[] = {
    VMAF_SPEED_SHARED_OPTIONS,
    {"speed_weight_var_mode", "wvm", OptType::Int, 0, 0, 6, true, "which variances weight the entropies (0..6)"},
};

constexpr std::string_view kOutputs[] = {
    "Speed_chroma_feature_speed_chroma_u_score",
    "Speed_chroma_feature_speed_chroma_v_score",
    "Speed_chroma_feature_speed_chroma_uv_score",
};

struct ChromaSize {
    unsigned w, h;
};

ChromaSize chroma_size(const VideoGeometry& g) {
    switch (g.format) {
        case PixelFormat::Yuv420: return {g.width / 2, g.height / 2};
        case PixelFormat::Yuv422: return {g.width / 2, g.height};
        case PixelFormat::Yuv444: return {g.width, g.height};
        case PixelFormat::Yuv400: break;
    }
    throw Error(ErrorKind::Usage, "speed_chroma: needs chroma planes (the input is 4:0:0)");
}

speed::Options chroma_options(const OptionValues& o) {
    speed::Options s = speed::shared_options(o);
    s.weight_var_mode = o.i(kWeightVarMode);
    return s;
}

class SpeedChromaExtractor final : public FeatureExtractor {
public:
    SpeedChromaExtractor(const OptionValues& o, const VideoGeometry& g, unsigned cpumask)
        : size_(chroma_size(g)), bpc_(g.bpc), max_val_(o.d(kMaxVal)), est_(chroma_options(o), size_.w, size_.h, speed::speed_registry().select(cpumask)) {}

    std::unique_ptr<FrameState> compute(unsigned /*index*/, const Picture& ref, const Picture& dist) const override {
        bool err_u = false, err_v = false;
        const float u = channel(ref, dist, 1, err_u);
        const float v = channel(ref, dist, 2, err_v);
        // One singular channel (e.g. a flat plane): the combined score is the other one.
        float uv;
        if (err_u && !err_v)
            uv = v;
        else if (err_v && !err_u)
            uv = u;
        else
            uv = (u + v) / 2.0;
        auto st = std::make_unique<FrameState>();
        st->scores = {{0, std::min<double>(u, max_val_)}, {1, std::min<double>(v, max_val_)},
                      {2, std::min<double>(uv, max_val_)}};
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

    const ChromaSize size_;
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
