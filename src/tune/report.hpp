// `vmaf-tune report`: one self-contained HTML file (no network) with SVG
// plots of a corpus — bitrate vs VMAF per encoder/preset with its upper
// convex hull, CRF vs VMAF, CRF vs bitrate, per-frame VMAF of a chosen cell —
// and a sortable table of every row.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "tune/rows.hpp"

namespace vmaf::tune {

/// The HTML document for `rows`; `title` names it.
std::string render_report(const std::vector<Row>& rows, const std::string& title);

/// Upper convex hull of (x, y) points, left to right, keeping only the part
/// where y rises (the efficient frontier of a rate-quality curve).
std::vector<std::pair<double, double>> upper_hull(std::vector<std::pair<double, double>> pts);

}  // namespace vmaf::tune
