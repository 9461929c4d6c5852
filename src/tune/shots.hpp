// Shot boundaries by scene-change detection over the source's decoded luma,
// scored as FFmpeg's `scdet` filter scores frames: a frame's change score is
// the smaller of its mean absolute luma difference to the previous frame
// (MAFD, in percent of 2^bitdepth) and how much that MAFD differs from the
// previous frame's; a frame whose score reaches the threshold starts a shot.
// The scores equal scdet's lavfi.scd.score (tests/tune/tune_test.py checks).
#pragma once

#include <vector>

#include "vmaf/video_source.hpp"

namespace vmaf::tune {

/// A shot: source frames [first, end).
struct Shot {
    unsigned first = 0, end = 0;
    double score = 0;  ///< change score of its first frame (0 for the first shot)
};

/// scdet's change score of every frame of `src` (read to its end; frame 0 scores 0),
/// each in [0, 100]. Throws vmaf::Error for an unreadable source.
std::vector<double> scene_scores(VideoSource& src);

/// Shots from per-frame change scores: a frame with score >= `threshold`
/// (in (0, 100]) starts a new shot when the current one already has at least
/// `min_frames` frames; a last shot shorter than `min_frames` joins the one
/// before. Covers every frame, in order. Throws std::invalid_argument for a
/// threshold outside (0, 100] or min_frames 0.
std::vector<Shot> split_shots(const std::vector<double>& scores, double threshold, unsigned min_frames);

}  // namespace vmaf::tune
