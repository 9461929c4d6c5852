// --aom_ctc / --nflx_ctc: the feature and model sets of the AOM and Netflix
// common test conditions, as upstream's CLI defines them.
#pragma once

#include <string>
#include <vector>

namespace vmaf::cli {

/// argv with each `--aom_ctc VERSION` / `--nflx_ctc VERSION` (or `=VERSION`)
/// replaced, in place, by the --model and --feature options it stands for
/// (so they take their place in the report's key order as upstream's).
/// Throws UsageError for an unknown or withdrawn version.
std::vector<std::string> expand_ctc_presets(int argc, char** argv);

/// The versions each preset accepts, for --help.
std::string ctc_versions_text();

}  // namespace vmaf::cli
