// A CRF search whose probes are cells of a sweep: the cells already in the
// sweep's output seed it, every probe is an ordinary cell (encoded, scored,
// appended, answered from the score cache when it can be). recommend,
// per-shot's per-shot and single-CRF searches all run through it.
#pragma once

#include <functional>
#include <map>
#include <string>

#include "tune/search.hpp"
#include "tune/sweep.hpp"

namespace vmaf::tune {

/// What a search looks for.
enum class Goal {
    AtLeast,  ///< the highest CRF whose value reaches the target (a quality falling with CRF: VMAF)
    AtMost,   ///< the highest CRF whose value stays at or below it (a quality rising with CRF: CAMBI)
    Closest,  ///< the CRF whose value is closest to the target in log scale (a bitrate)
};

struct CellSearch {
    Sweep* sweep = nullptr;
    std::function<Job(double crf)> job;       ///< the cell probed at a CRF
    std::function<double(const Row&)> value;  ///< the searched value of a successful row (NaN: none)
    std::string what;                         ///< names the cells in errors and probe lines ("shot 2"); may be empty
    std::string label;                        ///< names the value in probe lines ("vmaf (mean)", "psnr (p5)")
    double lo = 0, hi = 0;                    ///< CRF range
    double step = 1;                          ///< CRFs searched: lo, lo + step, ... up to hi
    /// Called with each probe's row as it is measured; may throw to stop the search.
    std::function<void(const Row&)> on_probe;
};

struct CellSearchResult {
    SearchResult search;      ///< over grid indices: index k is CRF lo + k * step
    std::map<int, Row> rows;  ///< every row the search knew, by index
    double lo = 0, step = 1;
    unsigned encodes = 0;  ///< cells encoded now (cache hits not counted)
    unsigned known = 0;    ///< cells it started with
    bool met() const { return search.crf.has_value(); }
    /// The answer's index, or the best candidate's when the target was not met.
    int index() const { return search.crf ? *search.crf : search.best_crf; }
    double crf_at(int k) const;
    double crf() const { return crf_at(index()); }
    const Row& row() const { return rows.at(index()); }
};

/// Runs the search; each probe, as it finishes, prints one stderr line: its
/// CRF, value, bitrate and time (encode and score), "(cached)" for a cache
/// hit. Throws std::invalid_argument for an empty range or a
/// step that is not positive, std::runtime_error when a probe's encode or
/// scoring fails (naming `what` and the CRF), Interrupted on Ctrl-C.
CellSearchResult cached_search(const CellSearch& s, Goal goal, double target);

}  // namespace vmaf::tune
