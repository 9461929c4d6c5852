// `vmaf-tune corpus`: encode every cell of the grid with the ffmpeg CLI,
// score each encode against its source in this process, append one JSONL row
// per cell. Resumable (cells already in the output are skipped), cached,
// `jobs` encodes at a time while finished ones are scored, shardable.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tune/grid.hpp"
#include "tune/lists.hpp"
#include "tune/rows.hpp"
#include "tune/score.hpp"
#include "tune/source.hpp"

namespace vmaf::tune {

struct CorpusOptions {
    std::vector<SourceSpec> sources;
    std::vector<std::string> encoders;   ///< default {"libx264"}
    std::vector<std::string> presets;    ///< empty: each encoder's default preset
    std::vector<std::string> crf_specs;  ///< as --crf: "23", "18:40:2"
    /// Encoders with their own presets and CRFs (compare's ENCODER:PRESET:CRFS);
    /// when given, these are the sweep's encoders instead of encoders x presets.
    std::vector<EncoderRun> runs;
    std::vector<EncodeShape> shapes;  ///< innermost grid dimension (e.g. ladder sizes); empty: one plain encode
    std::string model;  ///< --vmaf-model: built-in name or a .json path; empty: v0.6.1 (4K model at >= 2160p)
    /// Metrics scored beside VMAF (names of metrics.hpp's table, not "vmaf"); in
    /// each row's "metric_scores" and part of its cell's identity.
    std::vector<std::string> metrics;
    std::string score_backend = "auto";
    unsigned jobs = 1;
    unsigned threads = 0;       ///< scoring threads; 0: every core
    double sample_seconds = 0;  ///< > 0: encode and score only samples of S seconds each
    unsigned samples = 1;       ///< how many samples, spread evenly over the source (one: its centre)
    std::vector<std::string> extra_ffmpeg_args;
    bool keep_encodes = false;
    std::string encode_dir;  ///< default: <out>.encodes
    std::string out = "corpus.jsonl";
    Shard shard;
    bool use_cache = true;
    std::string cache_dir;
    std::uint64_t cache_max_bytes = std::uint64_t{256} << 20;
    std::string ffmpeg = "ffmpeg";
};

/// Runs the sweep. Returns the process exit status: 0 when every cell of this
/// shard has a successful row, 1 when some cell failed (its row says why; the
/// sweep went on), 130 when interrupted (the file stays resumable). Throws std::runtime_error /
/// vmaf::Error for bad options, which the CLI reports with exit 2.
/// `grid_rows`, when given, receives the row of every cell of this shard's
/// grid (those found in the output and those run now), and nothing else.
int run_corpus(const CorpusOptions& opt, std::vector<Row>* grid_rows = nullptr);

}  // namespace vmaf::tune
