#include "tune/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "tune/score.hpp"
#include "vmaf/catalog.hpp"

namespace vmaf::tune {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

const TargetMetric kMetrics[] = {
    {"vmaf", "", "-", "-", "vmaf", true, 0, 100},
    {"vmaf_neg", "", "vmaf_v0.6.1neg", "vmaf_4k_v0.6.1neg", "vmaf_neg", true, 0, 100},
    {"psnr", "psnr", "", "", "psnr_y", true, 0, kInf},
    {"float_ssim", "float_ssim", "", "", "float_ssim", true, 0, 1},
    {"float_ms_ssim", "float_ms_ssim", "", "", "float_ms_ssim", true, 0, 1},
    {"ssimulacra2", "ssimulacra2", "", "", "ssimulacra2", true, -kInf, 100},
    {"cambi", "cambi", "", "", "cambi", false, 0, kInf},
    {"xpsnr", "xpsnr", "", "", "xpsnr_y", true, 0, kInf},
};

bool in_build(const TargetMetric& m) {
    if (!*m.feature) return true;
    for (const FeatureInfo& f : list_features())
        if (f.name == m.feature) return true;
    return false;
}

}  // namespace

const TargetMetric& find_metric(const std::string& name) {
    for (const TargetMetric& m : kMetrics)
        if (name == m.name) {
            if (!in_build(m))
                throw std::invalid_argument("--target-metric " + name + ": this build has no '" + m.feature +
                                            "' feature");
            return m;
        }
    std::string known;
    for (const std::string& n : metric_names()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("--target-metric '" + name + "': expected " + known);
}

std::vector<std::string> metric_names() {
    std::vector<std::string> out;
    for (const TargetMetric& m : kMetrics)
        if (in_build(m)) out.push_back(m.name);
    return out;
}

void check_pool(const TargetMetric& m, const std::string& pool) {
    if (pool != "mean" && pool != "harmonic" && pool != "p1" && pool != "p5" && pool != "min")
        throw std::invalid_argument("--pool '" + pool + "': expected mean, harmonic, p1, p5 or min");
    if (pool == "harmonic" && !m.higher_is_better)
        throw std::invalid_argument(std::string("--pool harmonic: lower ") + m.name +
                                    " is better, and its harmonic mean leans toward the best frames; use mean, p1, "
                                    "p5 or min (the worst frames)");
}

Row pool_frames(const std::vector<double>& frames) {
    Row out = Row::object();
    if (frames.empty()) return out;
    double sum = 0, inv = 0;
    for (double v : frames) {
        sum += v;
        inv += 1.0 / (v + 1.0);
    }
    const double n = static_cast<double>(frames.size());
    out["mean"] = sum / n;
    out["harmonic_mean"] = n / inv - 1.0;
    out["min"] = *std::min_element(frames.begin(), frames.end());
    out["max"] = *std::max_element(frames.begin(), frames.end());
    static const std::pair<const char*, double> kPercentiles[] = {{"p1", 1}, {"p5", 5}, {"p95", 95}, {"p99", 99}};
    for (const auto& [key, p] : kPercentiles) out[key] = percentile(frames, p);
    return out;
}

double pooled_value(const Row& row, const TargetMetric& m, const std::string& pool) {
    if (std::string(m.model) == "-") {
        static const char* const kKeys[][2] = {{"mean", "vmaf_mean"},
                                               {"harmonic", "vmaf_harmonic_mean"},
                                               {"p1", "vmaf_p1"},
                                               {"p5", "vmaf_p5"},
                                               {"min", "vmaf_min"}};
        for (const auto& [p, k] : kKeys)
            if (pool == p) return row_number(row, k);
        return std::nan("");
    }
    const auto scores = row.find("metric_scores");
    if (scores == row.end() || !scores->is_object() || !scores->contains(m.name)) return std::nan("");
    const Row& s = (*scores)[m.name];
    std::string stat = pool == "harmonic" ? "harmonic_mean" : pool;
    if (!m.higher_is_better) stat = pool == "min" ? "max" : pool == "p1" ? "p99" : pool == "p5" ? "p95" : stat;
    return row_number(s, stat);
}

}  // namespace vmaf::tune
