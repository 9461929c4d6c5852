// Number formatting of report values.
#pragma once

#include <string>

#include "vmaf/engine.hpp"

namespace vmaf {

/// Formats `v` per `prec`. Upstream mode: "%.6f", or "%.16f" when the
/// fractional part has more than six leading zeros. Digits mode: "%.<N>g".
/// Non-finite values print as printf does ("nan", "inf"); JSON writers map them to null.
std::string format_number(double v, const Precision& prec);

}  // namespace vmaf
