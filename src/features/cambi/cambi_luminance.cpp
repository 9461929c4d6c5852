#include "features/cambi/cambi_luminance.hpp"

#include <algorithm>
#include <cmath>

namespace vmaf::cambi {

namespace {
constexpr double kGamma = 2.4, kWhite = 300.0, kBlack = 0.01;
}

double bt1886_eotf(double v) {
    // Same expression tree as upstream (each pow evaluated where it appears).
    const double a = std::pow(std::pow(kWhite, 1.0 / kGamma) - std::pow(kBlack, 1.0 / kGamma), kGamma);
    const double b =
        std::pow(kBlack, 1.0 / kGamma) / (std::pow(kWhite, 1.0 / kGamma) - std::pow(kBlack, 1.0 / kGamma));
    const double x = v + b;
    return a * std::pow(x > 0 ? x : 0.0, kGamma);
}

double pq_eotf(double v) {
    constexpr double m1 = 0.1593017578125, m2 = 78.84375;
    constexpr double c1 = 0.8359375, c2 = 18.8515625, c3 = 18.6875;
    const double num = std::pow(v, 1.0 / m2) - c1;
    const double num_clipped = num > 0 ? num : 0.0;
    const double den = c2 - c3 * std::pow(v, 1.0 / m2);
    return 10000 * std::pow(num_clipped / den, 1.0 / m1);
}

Eotf eotf_by_name(std::string_view name) {
    if (name == "bt1886") return &bt1886_eotf;
    if (name == "pq") return &pq_eotf;
    return nullptr;
}

LumaRange limited_range(int bitdepth) { return {16 * (1 << (bitdepth - 8)), 235 * (1 << (bitdepth - 8))}; }

double luminance(int sample, LumaRange range, Eotf eotf) {
    const int clipped = std::clamp(sample, range.foot, range.head);
    const double normalized = static_cast<double>(clipped - range.foot) / (range.head - range.foot);
    return eotf(normalized);
}

}  // namespace vmaf::cambi
