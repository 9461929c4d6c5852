#include "features/adm/adm_scores.hpp"

#include <string>

#include "vmaf/error.hpp"

namespace vmaf::adm {

Settings settings_from(const OptionValues& o, const VideoGeometry& geom) {
    Settings s;
    Params& p = s.params;
    p.csf_scale = o.d(kCsfScale);
    p.csf_diag_scale = o.d(kCsfDiagScale);
    p.enhn_gain_limit = o.d(kEnhnGainLimit);
    p.norm_view_dist = o.d(kNormViewDist);
    p.ref_display_height = o.i(kRefDisplayHeight);
    p.csf_mode = static_cast<CsfMode>(o.i(kCsfMode));
    p.noise_weight = o.d(kNoiseWeight);
    p.skip_aim = o.b(kSkipAim);
    p.skip_scale0 = o.b(kSkipScale0);
    s.dlm_weight = o.d(kDlmWeight);
    s.min_val = o.d(kMinVal);
    s.debug = o.b(kDebug);

    if (const char* why = params_problem(p)) throw Error(ErrorKind::Usage, std::string("adm: ") + why);
    if (geom.width < kMinSize || geom.height < kMinSize)
        throw Error(ErrorKind::Input, "adm: frames of " + std::to_string(geom.width) + "x" +
                                          std::to_string(geom.height) + " are too small (minimum " +
                                          std::to_string(kMinSize) + "x" + std::to_string(kMinSize) + ")");
    if (geom.bpc < 8 || geom.bpc > 16)
        throw Error(ErrorKind::Input, "adm: unsupported bit depth " + std::to_string(geom.bpc));
    return s;
}

void append_scores(const Result& r, const Settings& s, ScoreList& out) {
    out.reserve(out.size() + (s.debug ? kOutCount : kRegularOutputs));
    out.emplace_back(kAdm2, r.score);
    out.emplace_back(kAim, r.score_aim);
    const double adm3 = r.score * s.dlm_weight + (1 - r.score_aim) * (1 - s.dlm_weight);
    out.emplace_back(kAdm3, adm3 > s.min_val ? adm3 : s.min_val);
    for (unsigned k = 0; k < 4; ++k)
        out.emplace_back(kScale0 + k, static_cast<double>(r.num_scale[k]) / static_cast<double>(r.den_scale[k]));
    if (!s.debug) return;
    out.emplace_back(kDbgAdm, r.score);
    out.emplace_back(kDbgNum, r.num);
    out.emplace_back(kDbgDen, r.den);
    for (unsigned k = 0; k < 4; ++k) {
        out.emplace_back(kDbgNumScale0 + 2 * k, r.num_scale[k]);
        out.emplace_back(kDbgNumScale0 + 2 * k + 1, r.den_scale[k]);
    }
}

}  // namespace vmaf::adm
