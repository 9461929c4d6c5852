// motion2 / motion3 from the per-frame SAD scores, by upstream's rules
// (minimum of neighbouring SADs, five-frame window, blend, clip, moving
// average). Shared by the CPU extractor and its CUDA twin, which differ only
// in how they compute each frame's SAD score.
#pragma once

#include <vector>

#include "features/motion/motion_kernels.hpp"

namespace vmaf::motion {

class TemporalScores {
public:
    /// `distance`: frames between the two compared frames (2 with the five-frame window, else 1).
    TemporalScores(unsigned distance, double blend_factor, double blend_offset, double max_val, bool moving_average)
        : distance_(distance), blend_factor_(blend_factor), blend_offset_(blend_offset), max_val_(max_val),
          moving_average_(moving_average) {}

    /// SAD scores received so far (frame i at index i).
    unsigned frames() const { return static_cast<unsigned>(sad_.size()); }
    /// Appends the SAD score of the next frame.
    void push(double sad) { sad_.push_back(sad); }

    /// Calls emit(frame, motion2, motion3), in frame order, for every frame
    /// whose inputs are known; `at_end`: no more frames will come. With n
    /// frames, m = distance and SAD scores s[]:
    ///   i < m:  motion2 = 0; motion3 = "stamp" = min(blend(s[m]), max) if n > m, else 0
    ///   i >= m: lo = i - (m - 1), hi = i + 1
    ///           motion2 = s[i] if hi >= n; else min(s[lo], s[hi]) if lo >= m; else s[hi]
    ///           processed = min(blend(motion2), max)
    ///           motion3 = moving_average ? (processed + previous processed) / 2 : processed
    /// where "previous processed" starts as the stamp.
    template <typename Emit>
    void drain(bool at_end, Emit&& emit) {
        const unsigned n = frames();
        const unsigned m = distance_;
        while (next_ < n) {
            const unsigned i = next_;
            if (!at_end && (i < m ? n <= m : i + 1 >= n)) break;  // frame m / frame i+1 not seen yet
            double motion2 = 0., motion3 = 0.;
            if (i < m) {
                const double stamp = n > m ? clip(blend(sad_[m], blend_factor_, blend_offset_)) : 0.;
                motion3 = stamp;
                prev_processed_ = stamp;
            } else {
                const int lo = static_cast<int>(i) - static_cast<int>(m - 1);
                const unsigned hi = i + 1;
                if (hi >= n)
                    motion2 = sad_[i];
                else if (lo >= static_cast<int>(m))
                    motion2 = sad_[static_cast<unsigned>(lo)] < sad_[hi] ? sad_[static_cast<unsigned>(lo)] : sad_[hi];
                else
                    motion2 = sad_[hi];
                const double processed = clip(blend(motion2, blend_factor_, blend_offset_));
                motion3 = moving_average_ ? (processed + prev_processed_) / 2.0 : processed;
                prev_processed_ = processed;
            }
            emit(i, motion2, motion3);
            ++next_;
        }
    }

private:
    double clip(double v) const { return v < max_val_ ? v : max_val_; }

    const unsigned distance_;
    const double blend_factor_, blend_offset_, max_val_;
    const bool moving_average_;
    std::vector<double> sad_;  ///< SAD score of every frame so far
    unsigned next_ = 0;        ///< first frame without motion2/motion3
    double prev_processed_ = 0.;
};

}  // namespace vmaf::motion
