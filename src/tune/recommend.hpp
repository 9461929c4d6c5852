// `vmaf-tune recommend`: the CRF that meets a target — the highest CRF whose
// pooled VMAF reaches --target-vmaf, or the CRF whose bitrate is closest to
// --target-bitrate — found with few encodes (search.hpp), seeded by the cells
// already in the output file, or answered from an existing corpus alone.
#pragma once

#include <optional>
#include <string>

#include "tune/corpus.hpp"
#include "tune/rows.hpp"

namespace vmaf::tune {

struct RecommendOptions {
    CorpusOptions corpus;                               ///< one source, one encoder, one preset; crf_specs unused
    std::optional<double> target_vmaf, target_bitrate;  ///< exactly one
    std::string pool = "mean";                          ///< mean | harmonic | p1 | p5 | min
    int crf_min = -1, crf_max = -1;                     ///< default: the encoder's range
    std::string from_corpus;                            ///< answer from this JSONL without encoding
};

struct Recommendation {
    bool met = false;
    Row row;               ///< the recommended cell (met), else the best candidate
    unsigned encodes = 0;  ///< cells encoded and scored by this search (cache hits not counted)
    unsigned known = 0;    ///< cells the search started with
};

/// Throws std::invalid_argument for bad options (two or no targets, a target
/// above 100, an unknown pool, an empty range), like the corpus sweep.
Recommendation recommend(const RecommendOptions& opt);

/// The row key a pool method reads ("mean" -> "vmaf_mean", ...); throws for an unknown one.
std::string pool_key(const std::string& pool);

}  // namespace vmaf::tune
