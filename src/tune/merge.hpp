// `vmaf-tune merge`: joins the JSONL files of a sharded sweep (or of several
// runs) into one, one row per cell.
#pragma once

#include <string>
#include <vector>

#include "tune/rows.hpp"

namespace vmaf::tune {

/// Rows of every file, one per cell identity (a successful row wins over a
/// failed one; otherwise the first seen), ordered by source, encoder, preset
/// and CRF. Throws std::runtime_error for an unreadable or corrupt input.
std::vector<Row> merge_rows(const std::vector<std::string>& inputs);

}  // namespace vmaf::tune
