// `vmaf-tune recommend`: the CRF that meets a target — the highest CRF whose
// pooled score of a metric (VMAF, PSNR, SSIM, CAMBI, ...: metrics.hpp)
// reaches --target, or the CRF whose bitrate is closest to --target-bitrate —
// found with few encodes (cached_search.hpp), seeded by the cells already in
// the output file, or answered from an existing corpus alone.
#pragma once

#include <optional>
#include <string>

#include "tune/corpus.hpp"
#include "tune/rows.hpp"

namespace vmaf::tune {

struct RecommendOptions {
    CorpusOptions corpus;                          ///< one source, one encoder, one preset; crf_specs unused
    std::string metric = "vmaf";                   ///< --target-metric
    std::optional<double> target, target_bitrate;  ///< exactly one: a score of `metric`, or kbps
    std::string pool = "mean";                     ///< mean | harmonic | p1 | p5 | min (metrics.hpp)
    double crf_min = -1, crf_max = -1;             ///< default: the encoder's range
    double crf_step = 1;                           ///< CRFs tried: crf_min, + step, ...; fractions: libx264, libx265
    std::string from_corpus;                       ///< answer from this JSONL without encoding
    /// With samples (--sample-seconds): encode the whole source at the answer
    /// and, when it misses the target there, search on the whole source below it.
    bool verify = false;
    /// > 0: no answer whose full encode would exceed this percentage of the
    /// source file's size; a probe that misses the target above it stops the
    /// search (every CRF that could meet it is larger), as ab-av1's option does.
    double max_encoded_percent = 0;
};

struct Recommendation {
    bool met = false;
    Row row;               ///< the recommended cell (met), else the best candidate
    double value = 0;      ///< its pooled score of the metric (or its bitrate)
    unsigned encodes = 0;  ///< cells encoded and scored by this search (cache hits not counted)
    unsigned known = 0;    ///< cells the search started with
    /// The full encode's bitrate and size as the answer's cell predicts them
    /// (a sample's bitrate over the whole duration; the cell itself when whole).
    double predicted_kbps = 0, predicted_bytes = 0;
    std::string why_not;  ///< when not met: why (the target's reach, or --max-encoded-percent)
    /// --verify: the sampled search's answer; `row` is then the whole-source
    /// cell the answer was checked (or searched again) on.
    std::optional<Row> sample_row;
};

/// Throws std::invalid_argument for bad options (two or no targets, a target
/// outside the metric's range, an unknown metric or pool, an empty range),
/// like the corpus sweep.
Recommendation recommend(const RecommendOptions& opt);

}  // namespace vmaf::tune
