// Resampling of float images as upstream's vif_scale_frame does it (used by
// float_vif's prescale and float_motion's motion_add_scale1).
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "features/float_common/float_image.hpp"

namespace vmaf::floatfeat {

enum class ScaleMethod { Nearest, Bilinear, Bicubic, Lanczos4 };

/// "nearest", "bilinear", "bicubic", "lanczos4"; nullopt for anything else.
std::optional<ScaleMethod> parse_scale_method(std::string_view name);

/// Widest output bilinear scaling accepts (upstream's limit, 8K).
constexpr unsigned kBilinearMaxWidth = 7680;

/// Bilinear scaling's taps along one axis of src_n -> dst_n samples: output i
/// is (1 - d[i]) * s[lo[i]] + d[i] * s[hi[i]] along that axis (upstream's
/// source positions, mirrored at the edges), as scale_frame uses them.
struct BilinearAxis {
    std::vector<int> lo, hi;
    std::vector<float> d;
};
BilinearAxis bilinear_axis(unsigned src_n, unsigned dst_n);

/// The taps of bicubic (4), lanczos4 (9) or nearest (1) scaling along one
/// axis of src_n -> dst_n samples, as scale_frame evaluates them: output i
/// reads source indices idx[i * taps + t] (mirrored) with weights
/// w[i * taps + t] (empty for nearest), t in scale_frame's order. (Bilinear: bilinear_axis.)
struct ScaleAxis {
    int taps = 0;
    std::vector<int> idx;
    std::vector<float> w;
};
ScaleAxis scale_axis(ScaleMethod m, unsigned src_n, unsigned dst_n);

/// `src` resampled to dst_w x dst_h (a copy when the size is unchanged).
FloatImage scale_frame(ScaleMethod m, const FloatImage& src, unsigned dst_w, unsigned dst_h);

}  // namespace vmaf::floatfeat
