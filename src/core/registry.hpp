// The table of every extractor kind compiled into the library.
#pragma once

#include <span>
#include <string_view>

#include "core/feature_extractor.hpp"

namespace vmaf {

/// All registered extractor kinds, in a fixed order.
std::span<const ExtractorInfo* const> extractor_registry();

/// The kind named `name` (CLI name), or nullptr.
const ExtractorInfo* find_extractor(std::string_view name);

/// The kind that emits upstream score name `feature` (e.g.
/// "VMAF_integer_feature_vif_scale0_score"), with its output index; nullptr if none.
const ExtractorInfo* find_extractor_by_output(std::string_view feature, unsigned* output_index = nullptr);

}  // namespace vmaf
