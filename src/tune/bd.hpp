// Bjøntegaard deltas between two rate-quality curves, with piecewise cubic
// Hermite (PCHIP) interpolation as in the JCT-VC common test conditions'
// sheet: log10(rate) interpolated over quality for BD-rate, quality over
// log10(rate) for BD-quality (BD-PSNR, here BD-VMAF), each integrated over
// the range both curves cover.
#pragma once

#include <optional>
#include <vector>

namespace vmaf::tune {

struct RdPoint {
    double rate = 0;     ///< bitrate (any unit, both curves the same), > 0
    double quality = 0;  ///< e.g. VMAF
};

/// Average bitrate difference of `test` against `anchor` at equal quality, as
/// a fraction (-0.1 = test needs 10% fewer bits). Each curve needs at least 4
/// points with distinct rates whose quality rises with rate (points are
/// sorted by rate first). Throws std::invalid_argument otherwise, or when the
/// quality ranges do not overlap.
double bd_rate(std::vector<RdPoint> anchor, std::vector<RdPoint> test);

/// Average quality difference of `test` against `anchor` at equal bitrate
/// (same rules as bd_rate; overlap of the log-rate ranges).
double bd_quality(std::vector<RdPoint> anchor, std::vector<RdPoint> test);

/// Bitrate of a curve at `quality` by PCHIP interpolation of log10(rate)
/// over quality (same rules as bd_rate); nullopt outside the curve's range.
std::optional<double> rate_at_quality(std::vector<RdPoint> curve, double quality);

/// The PCHIP interpolant through (x[i], y[i]) (x strictly increasing, n >= 2)
/// integrated over [lo, hi] (clipped to [x.front(), x.back()]).
double pchip_integral(const std::vector<double>& x, const std::vector<double>& y, double lo, double hi);

}  // namespace vmaf::tune
