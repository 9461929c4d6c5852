// One sweep's shared state and its cells: validated options, the backend
// started once, facts about the sources, the score cache and the output file.
// `vmaf-tune corpus` runs many cells in parallel through it; the searches
// (`recommend`) run one cell at a time.
#pragma once

#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tune/backend_choice.hpp"
#include "tune/cache.hpp"
#include "tune/codecs.hpp"
#include "tune/corpus.hpp"
#include "tune/encoders.hpp"
#include "tune/metrics.hpp"
#include "tune/process.hpp"
#include "tune/rows.hpp"

namespace vmaf::tune {

/// One encoder of the sweep, checked: its preset and its CRFs.
struct SweepRun {
    const EncoderAdapter* adapter = nullptr;
    std::string preset;
    std::vector<double> crfs;
};

/// Everything about one cell the sweep knows before encoding it.
struct Job {
    std::size_t cell_index = 0;
    Cell cell;
    const EncoderAdapter* adapter = nullptr;
    FrameWindow window;
    std::string clip_mode;
    std::string scale_filter;       ///< set when the encode's size differs from the source's
    StreamShape stream;             ///< the encode's size, rate and layout
    std::vector<std::string> argv;  ///< the ffmpeg command
    std::string encode_path;
    std::string cache_key;
    Row row;  ///< the identity and source part, filled before encoding
};

class Sweep {
public:
    /// Checks every option (encoders in this ffmpeg, CRFs in range, presets),
    /// reads the existing output (a corrupt one is an error, left untouched),
    /// starts the backend and inspects the sources. Throws std::invalid_argument
    /// / std::runtime_error / vmaf::Error before anything is encoded.
    explicit Sweep(const CorpusOptions& opt);

    const CorpusOptions& options() const { return opt_; }
    /// The encoders with their presets and CRFs, in the order given.
    const std::vector<SweepRun>& runs() const { return runs_; }
    /// Every row of the output: those it had, then those appended since (a
    /// copy: other threads may be appending).
    std::vector<Row> existing() const;

    const SourceFacts& facts(std::size_t source) const { return facts_.at(source); }
    const std::string& ffmpeg_version_string() const { return ffmpeg_ver_; }
    const BackendChoice& backend() const { return backend_; }
    /// The setup score_encode() is given for a row's model.
    ScoreSetup score_setup(const std::string& model) const;

    /// The job of `cell` (grid index `index`), shaped by `shape`. Throws
    /// std::invalid_argument for a frame range outside the source.
    Job make_job(std::size_t index, const Cell& cell, const EncodeShape& shape = {});
    /// Whether the output already has a row for the job's cell.
    bool done(const Job& j) const;
    /// Runs the job's encode, or nothing when the cache has its result (exit 0). Thread-safe.
    ProcessResult encode(const Job& j) const;
    /// The job's row once its encode ended: from the cache, or scored now
    /// (filling the cache), or a failed row. Removes the encode unless kept.
    Row finish(const Job& j, const ProcessResult& encode);
    /// Appends a row to the output (flushed) and counts its cell as done.
    void append(const Row& row);
    /// encode() + finish() + append(): one cell, start to end. Throws
    /// Interrupted (the cut-short encode removed, nothing appended) when
    /// Ctrl-C arrived during the encode inside an InterruptScope.
    Row run(const Job& j);
    /// Removes the job's encode file (one cut short or failed).
    void discard(const Job& j) const;

private:
    CorpusOptions opt_;
    std::vector<SweepRun> runs_;
    std::vector<Row> existing_;
    std::set<std::string> done_;
    BackendChoice backend_;
    std::vector<SourceFacts> facts_;
    std::vector<bool> announced_;
    std::string ffmpeg_ver_, vmaf_ver_, run_id_, encode_dir_;
    std::vector<const TargetMetric*> metrics_;
    std::vector<std::string> other_args_;  ///< --extra-ffmpeg-args without its video filters
    std::string user_filters_;             ///< the -vf of --extra-ffmpeg-args, if any
    std::optional<ScoreCache> cache_;
    std::optional<RowWriter> writer_;
    /// Guards what threads running cells at once share: existing_, done_,
    /// announced_, writer_. make_job(), run() and existing() may be called
    /// from several threads (per-shot --jobs).
    mutable std::mutex mu_;
    std::mutex score_mu_;  ///< one score_encode() at a time
};

}  // namespace vmaf::tune
