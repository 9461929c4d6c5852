// Float SSIM ("float_ssim"): SSIM of the luma planes as float (high bit
// depths divided down to the 8-bit scale), after a box-filter decimation by
// `scale` (0: upstream's automatic choice, max(1, round(min(w, h) / 256))).
// Scores: float_ssim (in dB with enable_db, capped with clip_db), and with
// enable_lcs the mean luminance/contrast/structure terms float_ssim_l/_c/_s.
#include <cmath>
#include <memory>

#include "core/feature_extractor.hpp"
#include "features/float_common/float_image.hpp"
#include "features/float_common/float_peak.hpp"
#include "features/float_ssim/float_ssim.hpp"
#include "features/ssim_common/ssim_core.hpp"

namespace vmaf {

extern const ExtractorInfo kFloatSsimInfo;

namespace {

enum Opt : std::size_t { kEnableLcs, kEnableDb, kClipDb, kScale };

// Upstream's names, defaults and range; none is a feature parameter (keys carry no suffix).
const OptionSpec kOptions[] = {
    {"enable_lcs", "", OptType::Bool, false, 0, 0, false,
     "enable luminance, contrast and structure intermediate output"},
    {"enable_db", "", OptType::Bool, false, 0, 0, false, "write SSIM values as dB"},
    {"clip_db", "", OptType::Bool, false, 0, 0, false, "clip dB scores"},
    {"scale", "", OptType::Int, 0, 0, 10, false, "decimation scale factor (0=auto, 1=no downscaling, 2-10=explicit)"},
};

constexpr std::string_view kOutputs[] = {"float_ssim", "float_ssim_l", "float_ssim_c", "float_ssim_s"};

class FloatSsim final : public FeatureExtractor {
public:
    FloatSsim(const OptionValues& o, const VideoGeometry& g, unsigned cpumask)
        : kernels_(ssimfeat::ssim_registry().select(cpumask)), bpc_(g.bpc), p_(floatfeat::float_ssim_params(o, g)) {}

    std::unique_ptr<FrameState> compute(unsigned, const Picture& ref, const Picture& dist) const override {
        auto st = std::make_unique<FrameState>();
        floatfeat::float_ssim_scores(ssimfeat::float_ssim(kernels_, ref.plane(0), dist.plane(0), bpc_, p_.scale), p_,
                                     st->scores);
        return st;
    }

private:
    const ssimfeat::SsimKernels kernels_;  ///< selected once for ctx.cpumask
    const unsigned bpc_;
    const floatfeat::FloatSsimParams p_;
};

std::unique_ptr<FeatureExtractor> create(const OptionValues& opts, const VideoGeometry& geom,
                                         const ExtractorContext& ctx) {
    return std::make_unique<FloatSsim>(opts, geom, ctx.cpumask);
}

}  // namespace

namespace floatfeat {

FloatSsimParams float_ssim_params(const OptionValues& o, const VideoGeometry& g) {
    FloatSsimParams p;
    p.lcs = o.b(kEnableLcs);
    p.db = o.b(kEnableDb);
    p.max_db = o.b(kClipDb) ? ssimfeat::max_db(g.bpc, g.width, g.height) : INFINITY;
    p.scale = o.i(kScale) > 0 ? o.i(kScale) : ssimfeat::auto_scale(g.width, g.height);
    psnr_peak(g.bpc);  // rejects bit depths the float features do not read
    const unsigned sw = p.scale > 1 ? ssimfeat::decimated_size(g.width, p.scale) : g.width;
    const unsigned sh = p.scale > 1 ? ssimfeat::decimated_size(g.height, p.scale) : g.height;
    require_size(p.scale > 1 ? "float_ssim (after decimation by scale)" : "float_ssim", sw, sh, ssimfeat::kWindow,
                 ssimfeat::kWindow);
    return p;
}

void float_ssim_scores(const ssimfeat::SsimLcs& v, const FloatSsimParams& p, ScoreList& out) {
    double score = v.ssim;
    if (p.db) score = ssimfeat::to_db(score, p.max_db);
    out.emplace_back(0, score);
    if (p.lcs) {
        out.emplace_back(1, v.l);
        out.emplace_back(2, v.c);
        out.emplace_back(3, v.s);
    }
}

}  // namespace floatfeat

const ExtractorInfo kFloatSsimInfo{
    .name = "float_ssim",
    .options = kOptions,
    .outputs = kOutputs,
    .create = &create,
};

}  // namespace vmaf
