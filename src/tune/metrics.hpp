// The metrics a search can target (--target-metric) and how each is pooled
// over frames (--pool). VMAF is the sweep's model; every other metric is
// computed beside it in the same scoring pass and kept in the row under
// "metric_scores". Adding a metric is one row of the table in metrics.cpp.
#pragma once

#include <string>
#include <vector>

#include "tune/rows.hpp"

namespace vmaf::tune {

struct TargetMetric {
    const char* name;       ///< --target-metric value, key under "metric_scores"
    const char* feature;    ///< engine feature that computes it ("" for a model)
    const char* model;      ///< built-in model that computes it ("" for a feature; "-" for the sweep's own model)
    const char* model_4k;   ///< the model at >= 2160 lines when the sweep scores with vmaf_4k_v0.6.1
    const char* key;        ///< per-frame report key
    bool higher_is_better;  ///< false: lower values are better (cambi), searched the other way round
    double lo, hi;          ///< values a --target may take
};

/// The metric called `name`; throws std::invalid_argument naming the known
/// ones (and whether this build lacks the feature).
const TargetMetric& find_metric(const std::string& name);
/// Names of every metric of this build.
std::vector<std::string> metric_names();

/// The pooling methods: mean, harmonic, p1, p5, min. Throws
/// std::invalid_argument for another, or for harmonic on a metric where
/// lower is better (its harmonic mean leans toward the best frames).
void check_pool(const TargetMetric& m, const std::string& pool);

/// Per-frame values pooled every way a row keeps them: mean, harmonic_mean
/// (upstream's: n / sum(1 / (v + 1)) - 1), min, max, p1, p5, p95, p99.
Row pool_frames(const std::vector<double>& frames);

/// A row's value of `m` pooled by `pool`, oriented so that pools name the
/// worst frames: for a metric where lower is better, min is the highest
/// frame and p1/p5 the 99th/95th percentiles. NaN when the row lacks it.
double pooled_value(const Row& row, const TargetMetric& m, const std::string& pool);

}  // namespace vmaf::tune
