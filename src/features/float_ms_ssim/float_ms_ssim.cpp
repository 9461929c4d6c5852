// Float MS-SSIM ("float_ms_ssim"): multi-scale SSIM (Wang's 5 scales and
// exponents) of the luma planes as float (high bit depths divided down to the
// 8-bit scale). Frames must be at least 176x176. Scores: float_ms_ssim (in dB
// with enable_db, capped with clip_db), and with enable_lcs each scale's mean
// terms float_ms_ssim_{l,c,s}_scale{0..4}.
#include "features/float_ms_ssim/float_ms_ssim.hpp"

#include <cmath>
#include <memory>

#include "core/feature_extractor.hpp"
#include "features/float_common/float_image.hpp"
#include "features/float_common/float_peak.hpp"
#include "features/ssim_common/ssim_core.hpp"

namespace vmaf {

extern const ExtractorInfo kFloatMsSsimInfo;

namespace {

enum Opt : std::size_t { kEnableLcs, kEnableDb, kClipDb };

// Upstream's names and defaults; none is a feature parameter (keys carry no suffix).
const OptionSpec kOptions[] = {
    {"enable_lcs", "", OptType::Bool, false, 0, 0, false,
     "enable luminance, contrast and structure intermediate output"},
    {"enable_db", "", OptType::Bool, false, 0, 0, false, "write MS-SSIM values as dB"},
    {"clip_db", "", OptType::Bool, false, 0, 0, false, "clip dB scores"},
};

// Output 0 is the score; then l, c, s of scales 0-4 (upstream's append order).
constexpr std::string_view kOutputs[] = {
    "float_ms_ssim",          "float_ms_ssim_l_scale0", "float_ms_ssim_l_scale1", "float_ms_ssim_l_scale2",
    "float_ms_ssim_l_scale3", "float_ms_ssim_l_scale4", "float_ms_ssim_c_scale0", "float_ms_ssim_c_scale1",
    "float_ms_ssim_c_scale2", "float_ms_ssim_c_scale3", "float_ms_ssim_c_scale4", "float_ms_ssim_s_scale0",
    "float_ms_ssim_s_scale1", "float_ms_ssim_s_scale2", "float_ms_ssim_s_scale3", "float_ms_ssim_s_scale4",
};

class FloatMsSsim final : public FeatureExtractor {
public:
    FloatMsSsim(const OptionValues& o, const VideoGeometry& g, unsigned cpumask)
        : kernels_(ssimfeat::ssim_registry().select(cpumask)), bpc_(g.bpc), p_(ssimfeat::float_ms_ssim_params(o, g)) {}

    std::unique_ptr<FrameState> compute(unsigned, const Picture& ref, const Picture& dist) const override {
        auto st = std::make_unique<FrameState>();
        const auto r = floatfeat::to_float(ref.plane(0), bpc_, 0);
        const auto d = floatfeat::to_float(dist.plane(0), bpc_, 0);
        ssimfeat::float_ms_ssim_scores(ssimfeat::float_ms_ssim(kernels_, r, d), p_, st->scores);
        return st;
    }

private:
    const ssimfeat::SsimKernels kernels_;  ///< selected once for ctx.cpumask
    const unsigned bpc_;
    const ssimfeat::FloatMsSsimParams p_;
};

std::unique_ptr<FeatureExtractor> create(const OptionValues& opts, const VideoGeometry& geom,
                                         const ExtractorContext& ctx) {
    return std::make_unique<FloatMsSsim>(opts, geom, ctx.cpumask);
}

}  // namespace

namespace ssimfeat {

FloatMsSsimParams float_ms_ssim_params(const OptionValues& o, const VideoGeometry& g) {
    floatfeat::psnr_peak(g.bpc);  // rejects bit depths the float features do not read
    floatfeat::require_size("float_ms_ssim", g.width, g.height, kMsSsimMinSize, kMsSsimMinSize);
    return {o.b(kEnableLcs), o.b(kEnableDb), o.b(kClipDb) ? max_db(g.bpc, g.width, g.height) : INFINITY};
}

void float_ms_ssim_scores(const MsSsim& v, const FloatMsSsimParams& p, ScoreList& out) {
    out.emplace_back(0, p.db ? to_db(v.score, p.max_db) : v.score);
    if (p.lcs) {
        const unsigned n = kScales;
        for (unsigned i = 0; i < n; ++i) out.emplace_back(1 + i, v.l[i]);
        for (unsigned i = 0; i < n; ++i) out.emplace_back(1 + n + i, v.c[i]);
        for (unsigned i = 0; i < n; ++i) out.emplace_back(1 + 2 * n + i, v.s[i]);
    }
}

}  // namespace ssimfeat

const ExtractorInfo kFloatMsSsimInfo{
    .name = "float_ms_ssim",
    .options = kOptions,
    .outputs = kOutputs,
    .create = &create,
};

}  // namespace vmaf
