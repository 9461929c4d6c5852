// Feature and model names the user typed that this build does not have: the
// error names the nearest known name (a likely typo) and the listing option
// that shows them all.
#pragma once

#include <string>
#include <vector>

namespace vmaf::cli {

/// The candidate nearest to `name` in edits (case-insensitive) when it is
/// close enough to be a typo of it (at most max(1, size/3) edits); "" when
/// none is.
std::string nearest_name(const std::string& name, const std::vector<std::string>& candidates);
/// Whether `version` is a built-in model (or model collection) of this build.
bool is_builtin_model(const std::string& version);
/// Throws vmaf::Error(Usage) when neither `name` nor, for a GPU-pinned name
/// (psnr_cuda), its feature is a feature of this build.
void check_feature_name(const std::string& name);
/// Throws vmaf::Error(Usage) when `version` is no built-in model.
void check_model_version(const std::string& version);

}  // namespace vmaf::cli
