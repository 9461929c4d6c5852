// The live progress line `vmaf` draws on a terminal while it scores: frames
// read, frames per second and, when the frame count is known, the ETA.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "vmaf/video_source.hpp"

namespace vmaf::cli {

/// Counts the frames of a run and draws one stderr line at its first frame,
/// then redraws it at most four times a second ("\r" then the line); clear()
/// erases it before the run's own lines.
class ProgressLine {
public:
    /// `total`: frames the run will score, when known.
    explicit ProgressLine(std::optional<std::uint64_t> total);
    ~ProgressLine();
    ProgressLine(const ProgressLine&) = delete;
    ProgressLine& operator=(const ProgressLine&) = delete;
    /// One more frame read (any thread).
    void tick();
    /// Erases the line if one was drawn.
    void clear();

private:
    struct State;
    std::unique_ptr<State> s_;
};

/// `src` counting each frame it delivers on `line`, forwarding everything else.
std::unique_ptr<VideoSource> with_progress(std::unique_ptr<VideoSource> src, std::shared_ptr<ProgressLine> line);

}  // namespace vmaf::cli
