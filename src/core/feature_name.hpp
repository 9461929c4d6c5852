// Upstream's score-key rules: the alias map ("VMAF_integer_feature_adm2_score"
// -> "integer_adm2") and the option suffix ("integer_adm2_egl_1").
#pragma once

#include <string>
#include <string_view>

#include "core/options.hpp"

namespace vmaf {

/// The alias of an upstream score name, or the name itself when it has none.
std::string_view feature_alias(std::string_view name);

/// The key a score is reported under: alias(name) followed by the suffix of
/// its non-default feature parameters.
std::string feature_key(std::string_view name, const OptionValues& opts);

}  // namespace vmaf
