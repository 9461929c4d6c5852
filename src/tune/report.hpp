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

/// The HTML document for `rows`; `title` names it. Bitrates are drawn on a
/// log axis with units, legends below the plots, `target_vmafs` as
/// horizontal lines; several encoders/presets of one source get a BD-rate
/// table. Rows of several encode sizes (a ladder) also get a chart of every
/// point with the hull across sizes, `rungs` (indices into `rows`) marked on it.
std::string render_report(const std::vector<Row>& rows, const std::string& title,
                          const std::vector<std::size_t>& rungs = {}, const std::vector<double>& target_vmafs = {});

/// Upper convex hull of (x, y) points, left to right, keeping only the part
/// where y rises (the efficient frontier of a rate-quality curve).
std::vector<std::pair<double, double>> upper_hull(std::vector<std::pair<double, double>> pts);
/// upper_hull() as indices into `pts`, left to right.
std::vector<std::size_t> upper_hull_indices(const std::vector<std::pair<double, double>>& pts);

}  // namespace vmaf::tune
