// float_motion's blur filters and ordered-stage scoring, shared by the CPU
// kind and its CUDA twin: given each frame's motion (its blurred luma's, plus
// chroma's and half-size terms', mean |difference| from the previous frame's)
// in frame order, MotionScores writes motion, motion2 and motion3 in the CPU
// kind's order.
#pragma once

#include <algorithm>
#include <optional>
#include <span>

#include "core/feature_extractor.hpp"

namespace vmaf::floatfeat {

inline constexpr float kMotionFilter5[5] = {0.054488685f, 0.244201342f, 0.402619947f, 0.244201342f, 0.054488685f};
inline constexpr float kMotionFilter3[3] = {0.166378498f, 0.667243004f, 0.166378498f};
inline constexpr float kMotionFilterIdentity[5] = {0.0f, 0.0f, 1.0f, 0.0f, 0.0f};

/// The blur filter of motion_filter_size `size`: 3 taps for 3, the 5-tap
/// identity for 1, else upstream's 5-tap Gaussian.
inline std::span<const float> motion_filter(int size) {
    return size == 1   ? std::span<const float>(kMotionFilterIdentity)
           : size == 3 ? std::span<const float>(kMotionFilter3)
                       : std::span<const float>(kMotionFilter5);
}

/// The mean of the per-row float sums of |a - b| over a w x h plane: rows
/// added in float in order, divided in float (upstream's mean_abs_diff).
inline float mean_of_rows(const float* rows, unsigned w, unsigned h) {
    float acc = 0.0f;
    for (unsigned i = 0; i < h; ++i) acc += rows[i];
    return acc / static_cast<float>(static_cast<int>(w * h));
}

struct MotionParams {
    bool debug, force_zero;
    double fps_weight, blend_factor, blend_offset, max_val;
};

class MotionScores {
public:
    /// Output indices of the kind: motion, motion2, motion3.
    enum Out : unsigned { kMotion, kMotion2, kMotion3 };

    explicit MotionScores(const MotionParams& p) : p_(p) {}

    /// Frame `index`, in frame order. `motion`: its motion against the
    /// previous frame (unused for the run's first frame and with force_zero).
    void frame(unsigned index, std::optional<double> motion, ScoreWriter& out) {
        last_ = index;
        if (p_.force_zero) {
            out.write(index, kMotion2, 0.);
            out.write(index, kMotion3, 0.);
            if (p_.debug) out.write(index, kMotion, 0.);
            return;
        }
        if (seen_ == 0) {
            out.write(index, kMotion2, 0.);
            if (p_.debug) out.write(index, kMotion, 0.);
        } else {
            const double score = *motion;
            if (p_.debug) out.write(index, kMotion, std::min(score * p_.fps_weight, p_.max_val));
            const double earlier = last_score_;
            last_score_ = score;
            if (seen_ == 1) {
                out.write(index - 1, kMotion3, motion3(score));
            } else {
                // Upstream's SAD(blur[i-1], blur[i-2]) is the previous frame's score:
                // |a - b| == |b - a| exactly and the summation order is the same.
                double score2 = earlier;
                score2 = score2 < score ? score2 : score;
                out.write(index - 1, kMotion2, std::min(score2 * p_.fps_weight, p_.max_val));
                out.write(index - 1, kMotion3, motion3(score2));
            }
        }
        ++seen_;
    }

    /// After the last frame: its motion2 and motion3.
    void flush(ScoreWriter& out) {
        if (p_.force_zero || !last_) return;
        if (*last_ > 0) {
            out.write(*last_, kMotion2, std::min(last_score_ * p_.fps_weight, p_.max_val));
            out.write(*last_, kMotion3, motion3(last_score_));
        } else {
            out.write(0, kMotion3, 0.);
        }
    }

    /// Whether the next frame() is the run's first (it needs no motion).
    bool first() const { return seen_ == 0; }

private:
    double motion3(double s) const {
        const double b = s * p_.fps_weight;
        return std::min(b * p_.blend_factor + (1 - p_.blend_factor) * std::min(p_.blend_offset, b), p_.max_val);
    }

    const MotionParams p_;
    unsigned seen_ = 0;  ///< frames seen, force_zero aside
    std::optional<unsigned> last_;
    double last_score_ = 0;
};

}  // namespace vmaf::floatfeat
