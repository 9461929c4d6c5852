// The frames of a source a cell encodes and scores: the whole source, one
// range (a sample, a shot) or several ranges spread over it (pooled samples).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "vmaf/video_source.hpp"

namespace vmaf::tune {

/// Source frames [first, end).
struct FrameRange {
    unsigned first = 0, end = 0;
    unsigned frames() const { return end - first; }
    bool operator==(const FrameRange&) const = default;
};

/// Ascending, non-overlapping, non-empty ranges; none: the whole source.
struct FrameWindow {
    std::vector<FrameRange> ranges;
    bool whole() const { return ranges.empty(); }
    /// Frames in the window (0 for the whole source, whose length the window does not know).
    unsigned frames() const;
    /// ffmpeg's video filter that keeps exactly these frames, renumbered from
    /// 0 on the source's frame grid: `trim` for one range, `select` for several.
    std::string ffmpeg_filter() const;
};

/// `src` delivering only the window's frames, in order (by index too, when
/// `src` has random access), then the end of the stream. Throws
/// vmaf::Error(Input) when the source ends inside the window.
std::unique_ptr<VideoSource> window_video(std::unique_ptr<VideoSource> src, const FrameWindow& window);

/// `count` ranges of `length` frames spread evenly over `total` frames: the
/// source cut into `count` equal parts, a range centred in each (one range:
/// the centre). Ranges that would touch are merged; when they cover the
/// whole source the window is the whole source (no ranges).
FrameWindow spread_windows(unsigned total, unsigned count, unsigned length);

}  // namespace vmaf::tune
