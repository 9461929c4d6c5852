// Luminance model CAMBI uses for its visibility thresholds: a 10-bit
// limited-range code value -> display luminance in cd/m^2 through an EOTF.
// Arithmetic (double, pow) follows upstream libvmaf's luminance tools exactly.
#pragma once

#include <string_view>

namespace vmaf::cambi {

/// Electro-optical transfer function: normalized signal [0, 1] -> cd/m^2.
using Eotf = double (*)(double v);

double bt1886_eotf(double v);  ///< BT.1886, Lw = 300, Lb = 0.01, gamma 2.4
double pq_eotf(double v);      ///< SMPTE ST 2084

/// "bt1886" or "pq"; nullptr for any other name.
Eotf eotf_by_name(std::string_view name);

/// Code-value range of limited-range video at `bitdepth` (16..235 scaled).
struct LumaRange {
    int foot = 0, head = 0;
};
LumaRange limited_range(int bitdepth);

/// Luminance of `sample` (clipped to the range) through `eotf`.
double luminance(int sample, LumaRange range, Eotf eotf);

}  // namespace vmaf::cambi
