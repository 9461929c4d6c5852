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
    std::vector<std::optional<double>> kbps_at;  ///< per target; empty outside the curve
};

struct Comparison {
    std::vector<double> targets;
    std::vector<EncoderCurve> curves;  ///< the first is the anchor
};

/// Builds the comparison from successful rows, one curve per (encoder, preset)
/// in `encoder_order` order (encoders of the rows not listed are ignored).
Comparison compare_rows(const std::vector<Row>& rows, const std::vector<std::string>& encoder_order,
                        const std::vector<double>& targets);

/// "markdown", "json" or "csv"; throws std::invalid_argument for another.
std::string render_comparison(const Comparison& c, const std::string& format);

}  // namespace vmaf::tune
