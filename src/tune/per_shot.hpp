// `vmaf-tune per-shot`: shots by scene-change detection (shots.hpp), the
// highest CRF per shot that meets --target-vmaf (the recommend search over
// that shot's frames only), and an encode plan — per-shot CRFs, one segment
// encode command per shot, a concat list — as JSON and as a POSIX shell
// script. With `execute`, the plan runs, the segments are joined with
// ffmpeg's concat demuxer, and the joined encode is scored against the whole
// source next to the single-CRF encode whose size is closest to it.
#pragma once

#include <string>

#include "tune/corpus.hpp"
#include "tune/rows.hpp"

namespace vmaf::tune {

struct PerShotOptions {
    CorpusOptions corpus;         ///< one source, one encoder, one preset; crf_specs and sample_seconds unused
    std::string metric = "vmaf";  ///< --target-metric (metrics.hpp)
    double target = -1;           ///< the pooled score every shot must reach (for cambi: stay at or below)
    std::string pool = "mean";    ///< as recommend's --pool
    double scene_threshold = 10;  ///< (0, 100], scdet's scale
    unsigned min_shot_frames = 6;
    double crf_min = -1, crf_max = -1;  ///< default: the encoder's range
    double crf_step = 1;                ///< as recommend's --crf-step
    std::string plan_dir = "per-shot";
    bool execute = false;
};

/// Runs the searches, writes PLAN_DIR/plan.json, encode.sh and concat.txt
/// (and with `execute` the segments, the joined encode and the plan's
/// "execution" part). Returns the exit status: 0 every shot met the target,
/// 1 some shot cannot reach it (its lowest CRF is planned) or an execution
/// step failed. Throws Interrupted on Ctrl-C, std::invalid_argument for bad
/// options (a target outside the metric's range, a
/// threshold outside (0, 100], a source shorter than one minimum shot) before
/// anything is encoded.
int run_per_shot(const PerShotOptions& opt);

}  // namespace vmaf::tune
