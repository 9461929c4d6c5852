// Integer motion ("motion"): temporal activity of the reference luma.
//
// Per frame i (written in frame order from finish()):
//   VMAF_integer_feature_motion_sad_score[i] = motion between frame i - d and
//     frame i (d = 1, or 2 with motion_five_frame_window), 0 for i < d.
//   VMAF_integer_feature_motion_score[i]     = the same value, only with debug=true.
// Derived from those (upstream computes them at flush; here each frame is
// emitted as soon as the frames it depends on are known, same values):
//   VMAF_integer_feature_motion2_score[i]    = min of adjacent SAD scores.
//   VMAF_integer_feature_motion3_score[i]    = blended / clipped / averaged motion2.
#include <cfloat>
#include <memory>
#include <vector>

#include "core/feature_extractor.hpp"
#include "features/motion/motion_kernels.hpp"
#include "features/motion/motion_temporal.hpp"

namespace vmaf {

extern const ExtractorInfo kMotionInfo;

namespace {

enum Opt : std::size_t {
    kForceZero,
    kBlendFactor,
    kBlendOffset,
    kFpsWeight,
    kMaxVal,
    kFiveFrameWindow,
    kMovingAverage,
    kDebug,
};

// Same names, aliases, defaults, ranges and feature-parameter flags as upstream.
constexpr OptionSpec kOptions[] = {
    {"motion_force_zero", "force_0", OptType::Bool, false, 0, 0, true, "forcing motion score to zero"},
    {"motion_blend_factor", "mbf", OptType::Double, 1.0, 0.0, 1.0, true, "blend motion score given an offset"},
    {"motion_blend_offset", "mbo", OptType::Double, 40.0, 0.0, 1000.0, true,
     "blend motion score starting from this offset"},
    {"motion_fps_weight", "mfw", OptType::Double, 1.0, 0.0, 5.0, true, "fps-aware multiplicative weight/correction"},
    {"motion_max_val", "mmxv", OptType::Double, 10000.0, 0.0, 10000.0, true,
     "maximum value allowed; larger values will be clipped to this value"},
    {"motion_five_frame_window", "mffw", OptType::Bool, false, 0, 0, true, "use five-frame temporal window"},
    {"motion_moving_average", "mma", OptType::Bool, false, 0, 0, true,
     "use moving average for motion scores after first frame"},
    {"debug", "", OptType::Bool, false, 0, 0, false, "debug mode: enable additional output"},
};

enum Out : unsigned { kSad, kMotion, kMotion2, kMotion3 };

constexpr std::string_view kOutputs[] = {
    "VMAF_integer_feature_motion_sad_score",
    "VMAF_integer_feature_motion_score",
    "VMAF_integer_feature_motion2_score",
    "VMAF_integer_feature_motion3_score",
};

/// compute() result: the frame's reference picture (shared, not copied;
/// empty under force_zero), kept by finish() while later frames need it.
struct MotionFrame final : FrameState {
    Picture ref;
};

class MotionExtractor final : public FeatureExtractor {
public:
    MotionExtractor(const OptionValues& o, const VideoGeometry& g, unsigned cpumask)
        : kernels_(motion::motion_registry().select(cpumask)),
          w_(g.width),
          h_(g.height),
          bpc_(g.bpc),
          force_zero_(o.b(kForceZero)),
          blend_factor_(o.d(kBlendFactor)),
          blend_offset_(o.d(kBlendOffset)),
          fps_weight_(o.d(kFpsWeight)),
          max_val_(o.d(kMaxVal)),
          five_(o.b(kFiveFrameWindow)),
          moving_average_(o.b(kMovingAverage)),
          debug_(o.b(kDebug)),
          distance_(five_ ? 2u : 1u),
          temporal_(distance_, blend_factor_, blend_offset_, max_val_, moving_average_) {}

    std::unique_ptr<FrameState> compute(unsigned /*index*/, const Picture& ref, const Picture& /*dist*/) const override {
        auto st = std::make_unique<MotionFrame>();
        if (!force_zero_) st->ref = ref;
        return st;
    }

    void finish(unsigned index, FrameState& state, ScoreWriter& out) override {
        auto& st = static_cast<MotionFrame&>(state);
        const unsigned pos = temporal_.frames();  // frames arrive 0, 1, 2, ...
        double score = 0.;
        if (!force_zero_) {
            if (pos >= distance_) {
                const Picture& earlier = history_[history_.size() - distance_];
                row_.resize(motion::sad_scratch_size(w_));
                const std::uint64_t sad =
                    kernels_.blurred_difference_sad(earlier.plane(0), st.ref.plane(0), bpc_, row_.data());
                score = motion::sad_to_score(sad, w_, h_, fps_weight_, max_val_);
            }
            // Keep the last `distance_` frames' pictures.
            if (history_.size() == distance_) history_.erase(history_.begin());
            history_.push_back(std::move(st.ref));
        }
        out.write(index, kSad, score);
        if (debug_) out.write(index, kMotion, score);
        temporal_.push(score);
        emit(false, out);
    }

    void flush(ScoreWriter& out) override {
        emit(true, out);
        history_.clear();
    }

private:
    /// Writes motion2/motion3 of every frame whose inputs are known.
    void emit(bool at_end, ScoreWriter& out) {
        temporal_.drain(at_end, [&](unsigned i, double motion2, double motion3) {
            out.write(i, kMotion2, motion2);
            out.write(i, kMotion3, motion3);
        });
    }

    const motion::MotionKernels kernels_;  ///< selected once for ctx.cpumask
    const unsigned w_, h_, bpc_;
    const bool force_zero_;
    const double blend_factor_, blend_offset_, fps_weight_, max_val_;
    const bool five_, moving_average_, debug_;
    const unsigned distance_;  ///< frames between the two compared frames

    // Ordered-stage state.
    std::vector<Picture> history_;   ///< reference pictures of the last distance_ frames
    std::vector<std::int32_t> row_;                     ///< scratch of the horizontal stage
    motion::TemporalScores temporal_;  ///< SAD history -> motion2/motion3
};

std::unique_ptr<FeatureExtractor> create(const OptionValues& opts, const VideoGeometry& geom, const ExtractorContext& ctx) {
    return std::make_unique<MotionExtractor>(opts, geom, ctx.cpumask);
}

}  // namespace

// Upstream writes motion2/motion3 at flush; here they are written earlier, same values.
constexpr unsigned kFlushOutputs[] = {kMotion2, kMotion3};

const ExtractorInfo kMotionInfo{
    .name = "motion",
    .options = kOptions,
    .outputs = kOutputs,
    .flush_outputs = kFlushOutputs,
    .needs_chroma = false,
    .temporal = true,
    .create = &create,
};

}  // namespace vmaf
