#include "tune/shots.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>

namespace vmaf::tune {

namespace {

/// Sum of |a - b| over two planes of one size.
template <typename T>
double plane_sad(const Plane& a, const Plane& b) {
    double sad = 0;
    for (unsigned y = 0; y < a.height; ++y) {
        const T* pa = a.row<T>(y);
        const T* pb = b.row<T>(y);
        std::uint64_t s = 0;
        for (unsigned x = 0; x < a.width; ++x) s += static_cast<std::uint64_t>(std::abs(int(pa[x]) - int(pb[x])));
        sad += static_cast<double>(s);
    }
    return sad;
}

}  // namespace

std::vector<double> scene_scores(VideoSource& src) {
    ReadPlan plan;
    plan.luma_only = true;
    plan.in_flight = 3;
    src.plan(plan);
    const VideoGeometry& g = src.geometry();
    const double full_scale = static_cast<double>(1u << g.bpc);
    std::vector<double> scores;
    std::optional<Picture> prev;
    double prev_mafd = 0;
    while (std::optional<Picture> cur = src.read()) {
        if (!prev) {
            scores.push_back(0);
        } else {
            const Plane& a = prev->plane(0);
            const double sad =
                g.bpc > 8 ? plane_sad<std::uint16_t>(a, cur->plane(0)) : plane_sad<std::uint8_t>(a, cur->plane(0));
            const double mafd = sad * 100.0 / (static_cast<double>(a.width) * a.height) / full_scale;
            scores.push_back(std::clamp(std::min(mafd, std::fabs(mafd - prev_mafd)), 0.0, 100.0));
            prev_mafd = mafd;
        }
        prev = std::move(cur);
    }
    return scores;
}

std::vector<Shot> split_shots(const std::vector<double>& scores, double threshold, unsigned min_frames) {
    if (!(threshold > 0 && threshold <= 100)) throw std::invalid_argument("--scene-threshold must be within (0, 100]");
    if (min_frames == 0) throw std::invalid_argument("--min-shot-frames must be at least 1");
    std::vector<Shot> shots;
    if (scores.empty()) return shots;
    shots.push_back(Shot{0, 0, 0});
    for (unsigned i = 1; i < scores.size(); ++i)
        if (scores[i] >= threshold && i - shots.back().first >= min_frames) {
            shots.back().end = i;
            shots.push_back(Shot{i, 0, scores[i]});
        }
    shots.back().end = static_cast<unsigned>(scores.size());
    if (shots.size() > 1 && shots.back().end - shots.back().first < min_frames) {
        const unsigned end = shots.back().end;
        shots.pop_back();
        shots.back().end = end;
    }
    return shots;
}

}  // namespace vmaf::tune
