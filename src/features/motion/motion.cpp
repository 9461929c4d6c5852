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
#include <mutex>
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

/// compute() result: the frame's vertical filter sums (empty under force_zero).
struct MotionFrame final : FrameState {
    /// w*h values; left uninitialised until the kernel writes them (no zero-fill pass).
    std::unique_ptr<std::uint32_t[]> vsum;
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
        if (force_zero_) return st;
        const Plane& y = ref.plane(0);
        st->vsum = take_buffer(static_cast<std::size_t>(y.width) * y.height);
        kernels_.vertical_sums(y, ref.bpc(), st->vsum.get());
        return st;
    }

    void finish(unsigned index, FrameState& state, ScoreWriter& out) override {
        auto& st = static_cast<MotionFrame&>(state);
        const unsigned pos = temporal_.frames();  // frames arrive 0, 1, 2, ...
        double score = 0.;
        if (!force_zero_) {
            if (pos >= distance_) {
                const std::uint32_t* earlier = history_[history_.size() - distance_].get();
                row_.resize(motion::sad_scratch_size(w_));
                const std::uint64_t sad =
                    kernels_.blurred_difference_sad(earlier, st.vsum.get(), w_, h_, bpc_, row_.data());
                score = motion::sad_to_score(sad, w_, h_, fps_weight_, max_val_);
            }
            // Keep the last `distance_` frames' sums.
            if (history_.size() == distance_) {
                give_back(std::move(history_.front()));
                history_.erase(history_.begin());
            }
            history_.push_back(std::move(st.vsum));
        }
        out.write(index, kSad, score);
        if (debug_) out.write(index, kMotion, score);
        temporal_.push(score);
        emit(false, out);
    }

    void flush(ScoreWriter& out) override {
        emit(true, out);
        for (auto& b : history_) give_back(std::move(b));
        history_.clear();
    }

private:
    using Buffer = std::unique_ptr<std::uint32_t[]>;

    /// A vertical-sum plane of `n` values: a recycled one when available
    /// (no allocation, no page faults of fresh memory), else a new one.
    Buffer take_buffer(std::size_t n) const {
        {
            std::lock_guard<std::mutex> lock(pool_mutex_);
            // finish() reads w_ * h_ values of every plane: the luma size.
            if (!pool_.empty() && n == static_cast<std::size_t>(w_) * h_) {
                Buffer b = std::move(pool_.back());
                pool_.pop_back();
                return b;
            }
        }
        return Buffer(new std::uint32_t[n]);
    }

    /// Returns a plane no longer needed by finish() to the pool.
    void give_back(Buffer b) {
        if (!b) return;
        std::lock_guard<std::mutex> lock(pool_mutex_);
        if (pool_.size() < kMaxPooled) pool_.push_back(std::move(b));
    }

    static constexpr std::size_t kMaxPooled = 8;
    mutable std::mutex pool_mutex_;
    mutable std::vector<Buffer> pool_;  ///< free vertical-sum planes of w_ * h_ values
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
    std::vector<std::unique_ptr<std::uint32_t[]>> history_;  ///< vertical sums of the last distance_ frames
    std::vector<std::int32_t> row_;                     ///< scratch of the horizontal stage
    motion::TemporalScores temporal_;  ///< SAD history -> motion2/motion3
};

std::unique_ptr<FeatureExtractor> create(const OptionValues& opts, const VideoGeometry& geom, const ExtractorContext& ctx) {
    return std::make_unique<MotionExtractor>(opts, geom, ctx.cpumask);
}

}  // namespace

const ExtractorInfo kMotionInfo{
    .name = "motion",
    .options = kOptions,
    .outputs = kOutputs,
    .needs_chroma = false,
    .temporal = true,
    .create = &create,
};

}  // namespace vmaf
