// Texts of `vmaf --list-features`, `--list-models` and `--version`, made from
// what this build contains (vmaf/catalog.hpp).
#pragma once

#include <string>

namespace vmaf::cli {

/// Every feature extractor: `--feature` name, output keys, options with type,
/// default, range and help.
std::string features_text();
/// Every built-in model, whether it is a bootstrap collection, and whether
/// this build has every feature it needs.
std::string models_text();
/// Upstream's version first (scripts parse it), then this build's own version,
/// commit, backends and SIMD targets.
std::string version_text();

}  // namespace vmaf::cli
