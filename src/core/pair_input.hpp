// The read stage: frame pairs from a reference and a distorted source.
// Sources with random access (raw files) hand out frame numbers in order and
// are read by the parallel stage (load), several frames at once; the others
// are read in order by the serial stage (next). Private to the library.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/extractors.hpp"
#include "vmaf/engine.hpp"
#include "vmaf/video_source.hpp"

namespace vmaf::engine_detail {

class PairInput {
public:
    /// Applies the limits' skips. `concurrent`: read the two sources of a
    /// pair at once (worker threads exist). End-of-input warnings go to `warnings`.
    PairInput(VideoSource& ref, VideoSource& dist, const RunLimits& limits, bool concurrent,
              std::vector<std::string>& warnings);
    /// Serial stage: the next pair (with random access, only its number);
    /// false at the end of either input or the frame limit.
    bool next(Token& t);
    /// Parallel stage: reads the numbered pair (random access; no-op otherwise).
    /// Fed: checks the pair is whole and leaves the reading to the token's feed.
    void load(Token& t);
    /// Whether both sources hand out their plane bytes (VideoSource::has_plane_bytes).
    static bool can_feed(const VideoSource& ref, const VideoSource& dist);
    /// From now on pairs are read by whoever calls the tokens' feed (a
    /// backend, in pieces). Requires can_feed().
    void feed_backend();
    /// After the last pair: random access ends where in-order reading would
    /// (the longer input's next frame is still read, a partial one is an
    /// error, then the warning). Throws Error(Input) when no pair was read.
    /// Returns the pairs read.
    unsigned end();

private:
    VideoSource& ref_;
    VideoSource& dist_;
    RunLimits limits_;
    bool concurrent_;
    std::vector<std::string>& warnings_;
    std::optional<std::uint64_t> ref_left_, dist_left_;
    bool random_ = false;
    PlaneFeed feed_;  ///< set by feed_backend()
    std::uint64_t total_ = 0;  ///< pairs to read, with random access
    unsigned next_ = 0;
};

}  // namespace vmaf::engine_detail
