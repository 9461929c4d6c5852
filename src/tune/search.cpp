#include "tune/search.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <stdexcept>

namespace vmaf::tune {

namespace {

/// Next CRF strictly between a (meets) and b (misses), the target's position
/// on the line through the two probes, or the middle without interpolation.
int between(int a, double va, int b, double vb, double target, bool interpolate) {
    int next = a + (b - a) / 2;
    if (interpolate && va != vb) {
        const double t = (va - target) / (va - vb);  // 0 at a, 1 at b
        next = static_cast<int>(std::lround(a + t * (b - a)));
    }
    if (next <= a) next = a + 1;
    if (next >= b) next = b - 1;
    return next;
}

}  // namespace

SearchResult search_quality(const Probe& probe, int lo, int hi, double target, std::map<int, double> known,
                            bool interpolate) {
    if (lo > hi) throw std::invalid_argument("empty CRF range");
    SearchResult r;
    r.values = std::move(known);
    auto value = [&](int crf) {
        auto it = r.values.find(crf);
        if (it != r.values.end()) return it->second;
        ++r.probes;
        return r.values[crf] = probe(crf);
    };
    // Bracket: `meet` the highest CRF known to meet the target, `miss` the lowest known to miss.
    auto bracket = [&](std::optional<int>& meet, std::optional<int>& miss) {
        meet.reset();
        miss.reset();
        for (const auto& [crf, v] : r.values) {
            if (crf < lo || crf > hi) continue;
            if (v >= target)
                meet = crf;
            else if (!miss || crf < *miss)
                miss = crf;
        }
        if (meet && miss && *miss < *meet) miss.reset();  // not monotonic there: trust the meeting probe
    };
    std::optional<int> meet, miss;
    bracket(meet, miss);
    if (!meet && !miss) {
        value(lo + (hi - lo) / 2);
        bracket(meet, miss);
    }
    for (;;) {
        if (!meet) {  // everything probed misses: go lower
            if (*miss == lo) break;
            const auto it = r.values.find(*miss);
            // Extrapolate from the two lowest misses when possible, else halve toward lo.
            int next = lo + (*miss - lo) / 2;
            const auto after = std::next(it);
            if (interpolate && after != r.values.end() && after->second != it->second) {
                const double slope = (after->second - it->second) / (after->first - it->first);
                next = static_cast<int>(std::floor(*miss + (target - it->second) / slope));
            }
            value(std::clamp(next, lo, *miss - 1));
        } else if (!miss) {  // everything probed meets: go higher
            if (*meet == hi) break;
            const auto it = r.values.find(*meet);
            int next = *meet + (hi - *meet + 1) / 2;
            if (interpolate && it != r.values.begin()) {
                const auto before = std::prev(it);
                if (before->second != it->second) {
                    const double slope = (it->second - before->second) / (it->first - before->first);
                    next = static_cast<int>(std::ceil(*meet + (target - it->second) / slope));
                }
            }
            value(std::clamp(next, *meet + 1, hi));
        } else {
            if (*miss - *meet <= 1) break;
            value(between(*meet, r.values[*meet], *miss, r.values[*miss], target, interpolate));
        }
        bracket(meet, miss);
    }
    if (meet) r.crf = *meet;
    // Best candidate: the answer, else the probe closest to the target.
    double best_gap = INFINITY;
    for (const auto& [crf, v] : r.values) {
        if (crf < lo || crf > hi) continue;
        const double gap = meet ? (crf == *meet ? 0 : INFINITY) : std::fabs(v - target);
        if (gap < best_gap) {
            best_gap = gap;
            r.best_crf = crf;
            r.best_value = v;
        }
    }
    return r;
}

SearchResult search_bitrate(const Probe& probe, int lo, int hi, double target, std::map<int, double> known) {
    if (!(target > 0)) throw std::invalid_argument("the bitrate target must be positive");
    // Searching log(rate) >= log(target) finds the highest CRF at or above the
    // target; the answer is that CRF or the next one, whichever is closer.
    const Probe log_probe = [&](int crf) { return std::log(probe(crf)); };
    std::map<int, double> log_known;
    for (const auto& [c, v] : known) log_known[c] = std::log(v);
    SearchResult s = search_quality(log_probe, lo, hi, std::log(target), log_known);
    SearchResult r;
    r.probes = s.probes;
    for (const auto& [c, v] : s.values) r.values[c] = std::exp(v);
    std::optional<int> candidates[2] = {
        s.crf, s.crf ? (*s.crf < hi ? std::optional<int>(*s.crf + 1) : std::nullopt) : std::optional<int>(lo)};
    double best_gap = INFINITY;
    for (const auto& c : candidates) {
        if (!c) continue;
        if (!r.values.count(*c)) {
            ++r.probes;
            r.values[*c] = probe(*c);
        }
        const double gap = std::fabs(std::log(r.values[*c]) - std::log(target));
        if (gap < best_gap) {
            best_gap = gap;
            r.best_crf = *c;
            r.best_value = r.values[*c];
        }
    }
    r.crf = r.best_crf;
    return r;
}

}  // namespace vmaf::tune
