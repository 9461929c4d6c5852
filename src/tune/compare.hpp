// `vmaf-tune compare`: each encoder's rate-quality curve from a sweep, its
// Bjøntegaard deltas against the first encoder (BD-rate, BD-VMAF), and the
// bitrate each needs for a list of VMAF targets; as markdown, JSON or CSV.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tune/bd.hpp"
#include "tune/rows.hpp"

namespace vmaf::tune {

struct EncoderCurve {
    std::string encoder, preset;
    std::vector<RdPoint> points;  ///< (kbps, VMAF), rising: a point that does not improve on a cheaper one is left out
    std::optional<double> bd_rate, bd_vmaf;  ///< against the anchor (the first curve); empty with a reason
    std::string bd_note;
    double overlap_vmaf = 0;                     ///< VMAF span this curve shares with the anchor's (0 when none)
    std::vector<std::optional<double>> kbps_at;  ///< per target; empty outside the curve
};

struct Comparison {
    std::vector<double> targets;
    std::vector<EncoderCurve> curves;  ///< the first is the anchor
};

/// Curves that share fewer VMAF points than this get no BD values by default:
/// a Bjøntegaard delta over a sliver of quality is noise (compare --min-overlap).
inline constexpr double kMinOverlapVmaf = 5;

/// Builds the comparison from successful rows, one curve per (encoder,
/// preset) of `curves`, in that order (rows of other encoders or presets are
/// ignored). A curve whose VMAF range shares less than `min_overlap` points
/// with the anchor's gets no BD values; its bd_note says why and what to do.
Comparison compare_rows(const std::vector<Row>& rows, const std::vector<std::pair<std::string, std::string>>& curves,
                        const std::vector<double>& targets, double min_overlap = kMinOverlapVmaf);

/// "markdown", "json", "csv" or "html" (a <table class="bd">); throws
/// std::invalid_argument for another.
std::string render_comparison(const Comparison& c, const std::string& format);

}  // namespace vmaf::tune
