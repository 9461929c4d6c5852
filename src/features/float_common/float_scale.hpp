// Resampling of float images as upstream's vif_scale_frame does it (used by
// float_vif's prescale and float_motion's motion_add_scale1).
#pragma once

#include <optional>
#include <string_view>

#include "features/float_common/float_image.hpp"

namespace vmaf::floatfeat {

enum class ScaleMethod { Nearest, Bilinear, Bicubic, Lanczos4 };

/// "nearest", "bilinear", "bicubic", "lanczos4"; nullopt for anything else.
std::optional<ScaleMethod> parse_scale_method(std::string_view name);

/// Widest output bilinear scaling accepts (upstream's limit, 8K).
constexpr unsigned kBilinearMaxWidth = 7680;

/// `src` resampled to dst_w x dst_h (a copy when the size is unchanged).
FloatImage scale_frame(ScaleMethod m, const FloatImage& src, unsigned dst_w, unsigned dst_h);

}  // namespace vmaf::floatfeat
