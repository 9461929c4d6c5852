// `vmaf-tune ladder`: an adaptive-streaming ladder from a sweep of encode
// sizes x CRFs. Each encode is scaled down with ffmpeg's scale filter and
// scored after scaling back up to the source's (display) size with the same
// libswscale filter; the ladder's candidates are the upper convex hull of
// every (bitrate, VMAF) point across all sizes, and its rungs are picked
// along that hull. Written as JSON, an HLS master playlist and a DASH MPD.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "tune/corpus.hpp"
#include "tune/rows.hpp"

namespace vmaf::tune {

/// One encode of the sweep, as the ladder sees it.
struct LadderPoint {
    unsigned width = 0, height = 0;
    double crf = 0;
    double kbps = 0, vmaf = 0;
};

/// Parses "1920x1080,1280x720": distinct sizes in the order given. Throws
/// std::invalid_argument for an empty list, a malformed entry, a size larger
/// than the source's in either dimension, or an odd size where the source's
/// chroma is subsampled in that direction (`even_w`, `even_h`).
std::vector<std::pair<unsigned, unsigned>> parse_resolutions(const std::string& text, unsigned src_w, unsigned src_h,
                                                             bool even_w, bool even_h);

/// Indices of the points on the upper convex hull of (kbps, VMAF) across all
/// sizes, by rising bitrate, ending at the highest VMAF (report.hpp's upper_hull).
std::vector<std::size_t> ladder_hull(const std::vector<LadderPoint>& points);

/// `n` rungs spread evenly along the hull in log bitrate: the hull's cheapest
/// and its best point, and between them, for k = 1..n-2, the hull point
/// closest in log bitrate to exp(log(lo) + k/(n-1) * (log(hi) - log(lo)))
/// not already taken. Every hull point when the hull has n or fewer.
/// `hull` is ladder_hull()'s answer; returns a subset of it, by rising bitrate.
/// Throws std::invalid_argument for n == 0.
std::vector<std::size_t> rungs_by_count(const std::vector<LadderPoint>& points, const std::vector<std::size_t>& hull,
                                        unsigned n);

/// One rung per VMAF target: the cheapest hull point whose VMAF reaches it, or
/// (met false) the hull's best point when none does.
struct TargetRung {
    double target = 0;
    std::size_t point = 0;
    bool met = false;
};
std::vector<TargetRung> rungs_by_targets(const std::vector<LadderPoint>& points, const std::vector<std::size_t>& hull,
                                         const std::vector<double>& targets);

/// What the playlists say about each rung.
struct Rung {
    std::string id, uri;  ///< a name, and the media URI the manifests point at
    unsigned width = 0, height = 0;
    double kbps = 0;
    std::string codecs;  ///< RFC 6381; empty: left out
};

/// HLS master playlist: one #EXT-X-STREAM-INF per rung (BANDWIDTH and
/// AVERAGE-BANDWIDTH = the measured average bitrate in bit/s, RESOLUTION,
/// FRAME-RATE, CODECS).
std::string hls_master(const std::vector<Rung>& rungs, double fps);
/// A frame rate as DASH's FrameRateType wants it: "24", "30000/1001", "25/2" (an integer or a reduced fraction).
std::string dash_frame_rate(double fps);
/// DASH MPD (static, on-demand profile): one Period, one video AdaptationSet,
/// one Representation per rung with its BaseURL.
std::string dash_mpd(const std::vector<Rung>& rungs, double fps, double duration_s, const std::string& mime_type);

struct LadderOptions {
    CorpusOptions corpus;  ///< one source, one encoder, one preset, the CRFs
    std::string resolutions;
    std::string scale_filter = "bicubic";
    unsigned rungs = 0;                ///< 0 with no targets: one rung per resolution
    std::vector<double> target_vmafs;  ///< instead of rungs
    std::string ladder_dir = "ladder";
};

/// Runs the sweep (resumable, cached, `jobs` at a time, like corpus), then
/// writes LADDER_DIR/ladder.json, master.m3u8, manifest.mpd and report.html.
/// Returns the exit status (0, 1 when a cell failed or a target was not met,
/// 130 interrupted). Throws std::invalid_argument for bad options before
/// anything is encoded.
int run_ladder(const LadderOptions& opt);

}  // namespace vmaf::tune
