#include "tune/score.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "vmaf/engine.hpp"
#include "vmaf/error.hpp"

namespace vmaf::tune {

double percentile(std::vector<double> values, double p) {
    if (values.empty()) return std::nan("");
    std::sort(values.begin(), values.end());
    const double pos = p / 100.0 * static_cast<double>(values.size() - 1);
    const std::size_t lo = static_cast<std::size_t>(std::floor(pos));
    const std::size_t hi = std::min(lo + 1, values.size() - 1);
    return values[lo] + (values[hi] - values[lo]) * (pos - static_cast<double>(lo));
}

ScoreSummary score_encode(const SourceSpec& source, const FrameWindow& window, const std::string& encode_path,
                          const ScoreSetup& setup, const std::string& scale_filter) {
    const auto t0 = std::chrono::steady_clock::now();
    // The source delivers exactly the window's frames, so an encode of other
    // frames (an ffmpeg option that undid the trim) ends on another count.
    auto ref = window_video(open_source(source), window);
    auto dist = open_video(encode_path);
    if (!scale_filter.empty())
        dist = scale_video(std::move(dist), ref->geometry().width, ref->geometry().height, scale_filter);
    // A 10-bit encode of an 8-bit source (or the reverse) is scored at the
    // deeper bit depth, as upstream's common_bitdepth does.
    common_bitdepth(ref, dist);
    EngineConfig cfg;
    cfg.threads = setup.threads;
    cfg.backend = setup.backend;
    cfg.backend_state = setup.backend_state;
    Engine engine(cfg);
    ModelRequest m;
    m.version = setup.model_version;
    m.path = setup.model_path;
    engine.add_model(m);
    for (const TargetMetric* metric : setup.metrics) {
        if (*metric->feature) {
            engine.add_feature(FeatureRequest{metric->feature, {}});
        } else {
            ModelRequest extra;
            extra.version = setup.model_version == "vmaf_4k_v0.6.1" ? metric->model_4k : metric->model;
            extra.name = metric->key;
            engine.add_model(extra);
        }
    }
    const unsigned frames = engine.run(*ref, *dist, RunLimits{});
    if (!engine.warnings().empty())
        throw Error(ErrorKind::Input, encode_path + " does not have the " +
                                          (window.whole() ? std::string("source's") : std::to_string(window.frames())) +
                                          " frames to score: " + engine.warnings().front());

    ScoreSummary s;
    s.frames = frames;
    s.backend_used = engine.backend_used();
    const std::string key = engine.model_keys().at(0).first;
    s.vmaf = engine.frame_scores(key);
    double inv = 0;
    s.min = s.vmaf.empty() ? 0 : s.vmaf.front();
    for (double v : s.vmaf) {
        inv += 1.0 / (v + 1.0);
        s.min = std::min(s.min, v);
    }
    s.mean = *engine.pooled_mean(key);
    s.harmonic_mean = static_cast<double>(s.vmaf.size()) / inv - 1.0;  // upstream's harmonic pooling
    s.p1 = percentile(s.vmaf, 1);
    s.p5 = percentile(s.vmaf, 5);
    for (const TargetMetric* metric : setup.metrics) s.metric_frames[metric->name] = engine.frame_scores(metric->key);
    for (const std::string& k : engine.score_keys()) {
        if (k == key) continue;
        if (const auto mean = engine.pooled_mean(k)) s.feature_means[k] = *mean;
    }
    s.score_time_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return s;
}

}  // namespace vmaf::tune
