// Scores one encode against its source inside this process.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tune/metrics.hpp"
#include "tune/source.hpp"
#include "tune/window.hpp"

namespace vmaf::tune {

/// What every cell's scoring shares: the model, the backend (started once
/// per sweep: `backend_state` is the backend's state every engine reuses,
/// e.g. one CUDA context) and the engine's threads.
struct ScoreSetup {
    std::string model_version = "vmaf_v0.6.1";  ///< built-in name, or empty with model_path
    std::string model_path;
    std::string backend = "cpu";  ///< "cpu" or a GPU backend that must start
    std::shared_ptr<void> backend_state;
    unsigned threads = 0;
    /// Metrics computed beside the model (not "vmaf": the model is that).
    std::vector<const TargetMetric*> metrics;
};

struct ScoreSummary {
    std::vector<double> vmaf;  ///< per frame
    double mean = 0, harmonic_mean = 0, min = 0, p1 = 0, p5 = 0;
    /// Mean of every other per-frame key the model computes (its features), by report key.
    std::map<std::string, double> feature_means;
    /// Per-frame values of each of ScoreSetup::metrics, by metric name.
    std::map<std::string, std::vector<double>> metric_frames;
    std::string backend_used;
    double score_time_ms = 0;
    unsigned frames = 0;
};

/// Scores `encode_path` (any container) against `source` frames `window`.
/// `scale_filter` non-empty: an encode of another size is first resized to the
/// source's with that libswscale filter (as vmaf --scale_dist_to_ref does);
/// empty: the sizes must match. Sides of different bit depths are scored at
/// the deeper one (vmaf::common_bitdepth). Throws vmaf::Error (e.g. an encode
/// with another frame count or size).
ScoreSummary score_encode(const SourceSpec& source, const FrameWindow& window, const std::string& encode_path,
                          const ScoreSetup& setup, const std::string& scale_filter = "");

/// Percentile `p` in [0, 100] of `values` by linear interpolation between
/// closest ranks (numpy's default); NaNs must not be present.
double percentile(std::vector<double> values, double p);

}  // namespace vmaf::tune
