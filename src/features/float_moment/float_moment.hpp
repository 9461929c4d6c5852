// Float moments' finishing, shared by the CPU kind and its CUDA twin.
#pragma once

#include <array>

namespace vmaf::floatfeat {

/// The four scores from upstream's double sums over a w x h luma (ref a,
/// dist b, a*a, b*b): each divided by the sample count.
inline std::array<double, 4> moment_scores(double r1, double d1, double r2, double d2, unsigned w, unsigned h) {
    const int n = static_cast<int>(w * h);
    return {r1 / n, d1 / n, r2 / n, d2 / n};
}

}  // namespace vmaf::floatfeat
