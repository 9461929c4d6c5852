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
};

struct Recommendation {
    bool met = false;
    Row row;               ///< the recommended cell (met), else the best candidate
    double value = 0;      ///< its pooled score of the metric (or its bitrate)
    unsigned encodes = 0;  ///< cells encoded and scored by this search (cache hits not counted)
    unsigned known = 0;    ///< cells the search started with
};

/// Throws std::invalid_argument for bad options (two or no targets, a target
/// outside the metric's range, an unknown metric or pool, an empty range),
/// like the corpus sweep.
Recommendation recommend(const RecommendOptions& opt);

}  // namespace vmaf::tune
