// SpEED on frame differences of the luma ("speed_temporal"): frame i scores
// (ref[i-1] - ref[i]) against (dis[i-1] - dis[i]) (or - ref[i] with
// speed_use_ref_diff); frame 0 scores 0. As upstream, speed_max_val is
// accepted but not applied to this score.
#include <memory>
#include <optional>

#include "core/feature_extractor.hpp"
#include "features/speed/speed_options.hpp"

namespace vmaf {

extern const ExtractorInfo kSpeedTemporalInfo;

namespace {

constexpr std::size_t kUseRefDiff = speed::kMaxVal + 1;

const OptionSpec kOptions[] = {
    VMAF_SPEED_SHARED_OPTIONS,
    {"speed_use_ref_diff", "urd", OptType::Bool, false, 0, 0, true, "use dis[i-1] - ref[i] as the distorted difference"},
};

constexpr std::string_view kOutputs[] = {"Speed_temporal_feature_speed_temporal_score"};

/// compute() result: the frame's luma as float (-128 offset).
struct TemporalFrame final : FrameState {
    speed::Image ref, dis;
};

class SpeedTemporalExtractor final : public FeatureExtractor {
public:
    SpeedTemporalExtractor(const OptionValues& o, const VideoGeometry& g, unsigned cpumask)
        : w_(g.width), h_(g.height), bpc_(g.bpc), use_ref_diff_(o.b(kUseRefDiff)), est_(speed::shared_options(o), w_, h_, speed::speed_registry().select(cpumask)) {}

    std::unique_ptr<FrameState> compute(unsigned /*index*/, const Picture& ref, const Picture& dist) const override {
        auto st = std::make_unique<TemporalFrame>();
        est_.shape(st->ref);
        est_.shape(st->dis);
        est_.load(st->ref, ref.plane(0), bpc_, -128);
        est_.load(st->dis, dist.plane(0), bpc_, -128);
        return st;
    }

    void finish(unsigned index, FrameState& state, ScoreWriter& out) override {
        auto& cur = static_cast<TemporalFrame&>(state);
        double score = 0.0;
        if (prev_) {
            // The previous frame's images become the differences (consumed by the score).
            est_.subtract(prev_->ref, cur.ref);
            est_.subtract(prev_->dis, use_ref_diff_ ? cur.ref : cur.dis);
            bool err = false;
            score = est_.score(prev_->ref, prev_->dis, err);
        }
        out.write(index, 0, score);
        prev_.emplace(TemporalFrame{});
        prev_->ref = std::move(cur.ref);
        prev_->dis = std::move(cur.dis);
    }

    void flush(ScoreWriter& /*out*/) override { prev_.reset(); }

private:
    const unsigned w_, h_, bpc_;
    const bool use_ref_diff_;
    const speed::Estimator est_;
    std::optional<TemporalFrame> prev_;  ///< ordered-stage state: the last frame
};

std::unique_ptr<FeatureExtractor> create(const OptionValues& opts, const VideoGeometry& geom,
                                         const ExtractorContext& ctx) {
    return std::make_unique<SpeedTemporalExtractor>(opts, geom, ctx.cpumask);
}

}  // namespace

const ExtractorInfo kSpeedTemporalInfo{
    .name = "speed_temporal",
    .options = kOptions,
    .outputs = kOutputs,
    .needs_chroma = false,
    .temporal = true,
    .create = &create,
};

}  // namespace vmaf
