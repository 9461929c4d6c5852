#include "features/vif/vif_scores.hpp"

#include <string>

#include "vmaf/error.hpp"

namespace vmaf::vif {

void append_scores(const std::array<ScaleStat, kScales>& st, bool skip_scale0, bool debug, ScoreList& out) {
    // Each score is the float ratio, widened to double afterwards.
    auto ratio = [](const ScaleStat& s) { return static_cast<double>(s.num / s.den); };
    out.emplace_back(kOutScale0, skip_scale0 ? 0.0 : ratio(st[0]));
    out.emplace_back(kOutScale1, ratio(st[1]));
    out.emplace_back(kOutScale2, ratio(st[2]));
    out.emplace_back(kOutScale3, ratio(st[3]));
    if (!debug) return;

    // Totals over the scales in double, summed from scale 0 (or 1) upward.
    double num = 0.0, den = 0.0;
    if (skip_scale0) {
        num = static_cast<double>(st[1].num) + static_cast<double>(st[2].num) + static_cast<double>(st[3].num);
        den = static_cast<double>(st[1].den) + static_cast<double>(st[2].den) + static_cast<double>(st[3].den);
    } else {
        num = static_cast<double>(st[0].num) + static_cast<double>(st[1].num) + static_cast<double>(st[2].num) +
              static_cast<double>(st[3].num);
        den = static_cast<double>(st[0].den) + static_cast<double>(st[1].den) + static_cast<double>(st[2].den) +
              static_cast<double>(st[3].den);
    }
    out.emplace_back(kOutVif, den == 0.0 ? 1.0 : num / den);
    out.emplace_back(kOutNum, num);
    out.emplace_back(kOutDen, den);
    out.emplace_back(kOutNumScale0, skip_scale0 ? 0.0 : static_cast<double>(st[0].num));
    out.emplace_back(kOutDenScale0, skip_scale0 ? -1.0 : static_cast<double>(st[0].den));
    for (unsigned s = 1; s < kScales; ++s) {
        out.emplace_back(kOutNumScale0 + 2 * s, static_cast<double>(st[s].num));
        out.emplace_back(kOutDenScale0 + 2 * s, static_cast<double>(st[s].den));
    }
}

void check_geometry(unsigned bpc, unsigned w, unsigned h) {
    if (bpc < kMinBpc || bpc > kMaxBpc)
        throw Error(ErrorKind::Input, "vif: unsupported bit depth " + std::to_string(bpc) + " (8..16 supported)");
    if (w < kMinDimension || h < kMinDimension)
        throw Error(ErrorKind::Input, "vif: frame " + std::to_string(w) + "x" + std::to_string(h) +
                                          " is too small (at least " + std::to_string(kMinDimension) + "x" +
                                          std::to_string(kMinDimension) + " needed)");
}

}  // namespace vmaf::vif
