// CRF search toward a target: the highest CRF whose score meets a quality
// target, or the CRF whose bitrate is closest to a bitrate target, with few
// probes. Scores are assumed to fall (and bitrates to fall) as CRF rises; the
// search interpolates between the closest probes on either side of the target
// (as ab-av1's crf-search and Av1an's target quality do) rather than halving.
#pragma once

#include <functional>
#include <map>
#include <optional>

namespace vmaf::tune {

struct SearchResult {
    std::optional<int> crf;        ///< the answer; empty when the target cannot be met in range
    int best_crf = 0;              ///< the closest probe to the target (the answer when met)
    double best_value = 0;         ///< its measured value
    unsigned probes = 0;           ///< probes made by this search (values already known not counted)
    std::map<int, double> values;  ///< every CRF -> value known at the end
};

/// Measures the value at a CRF (an encode and a score); may throw.
using Probe = std::function<double(int crf)>;

/// Highest CRF in [lo, hi] with value >= target, the value falling with CRF.
/// `known` seeds the search (e.g. from a cache or an earlier corpus).
/// `interpolate` false: plain bisection (for comparison).
SearchResult search_quality(const Probe& probe, int lo, int hi, double target, std::map<int, double> known = {},
                            bool interpolate = true);

/// CRF in [lo, hi] whose value is closest to `target` in log scale, the value
/// (a bitrate) falling with CRF.
SearchResult search_bitrate(const Probe& probe, int lo, int hi, double target, std::map<int, double> known = {});

}  // namespace vmaf::tune
