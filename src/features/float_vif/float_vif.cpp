// Float VIF ("float_vif"): visual information fidelity at 4 scales on float
// luma samples (offset -128), optionally prescaled. Scores:
//   VMAF_feature_vif_scale{0..3}_score = num/den of each scale (scales 1-3
//   floored at vif_scaleN_min_val; scale 0 is 0 with vif_skip_scale0), and
//   with debug: vif, vif_num, vif_den, vif_num_scaleN, vif_den_scaleN.
#include <algorithm>
#include <memory>

#include "core/feature_extractor.hpp"
#include "features/float_common/float_image.hpp"
#include "features/float_common/float_scale.hpp"
#include "features/float_vif/float_vif.hpp"
#include "features/float_vif/float_vif_math.hpp"
#include "vmaf/error.hpp"

namespace vmaf {

extern const ExtractorInfo kFloatVifInfo;

namespace {

enum Opt : std::size_t {
    kDebug,
    kGainLimit,
    kKernelscale,
    kPrescale,
    kS1Min,
    kS2Min,
    kS3Min,
    kPrescaleMethod,
    kSigmaNsq,
    kSkipScale0,
};

// Same names, aliases, order, defaults, ranges and feature-parameter flags as upstream.
const OptionSpec kOptions[] = {
    {"debug", "", OptType::Bool, false, 0, 0, false, "debug mode: enable additional output"},
    {"vif_enhn_gain_limit", "egl", OptType::Double, 100.0, 1.0, 100.0, true,
     "enhancement gain imposed on vif, must be >= 1.0, where 1.0 means the gain is completely disabled"},
    {"vif_kernelscale", "ks", OptType::Double, 1.0, 0.1, 4.0, true, "scaling factor for the gaussian kernel"},
    {"vif_prescale", "ps", OptType::Double, 1.0, 0.1, 4.0, true, "scaling factor for the frame"},
    {"vif_scale1_min_val", "s1miv", OptType::Double, 0.0, 0.0, 1.0, true, "minimum value allowed for scale 1"},
    {"vif_scale2_min_val", "s2miv", OptType::Double, 0.0, 0.0, 1.0, true, "minimum value allowed for scale 2"},
    {"vif_scale3_min_val", "s3miv", OptType::Double, 0.0, 0.0, 1.0, true, "minimum value allowed for scale 3"},
    {"vif_prescale_method", "pm", OptType::String, std::string("nearest"), 0, 0, true,
     "scaling method for the frame: nearest, bilinear, bicubic, lanczos4"},
    {"vif_sigma_nsq", "snsq", OptType::Double, 2.0, 0.0, 5.0, true, "neural noise variance"},
    {"vif_skip_scale0", "ssclz", OptType::Bool, false, 0, 0, true, "when set, skip scale 0 calculation"},
};

constexpr std::string_view kOutputs[] = {
    "VMAF_feature_vif_scale0_score",
    "VMAF_feature_vif_scale1_score",
    "VMAF_feature_vif_scale2_score",
    "VMAF_feature_vif_scale3_score",
    "vif",
    "vif_num",
    "vif_den",
    "vif_num_scale0",
    "vif_den_scale0",
    "vif_num_scale1",
    "vif_den_scale1",
    "vif_num_scale2",
    "vif_den_scale2",
    "vif_num_scale3",
    "vif_den_scale3",
};

class FloatVif final : public FeatureExtractor {
public:
    FloatVif(const OptionValues& o, const VideoGeometry& g, unsigned cpumask)
        : kernels_(floatfeat::float_registry().select(cpumask)), bpc_(g.bpc), p_(floatfeat::float_vif_params(o, g)) {}

    std::unique_ptr<FrameState> compute(unsigned, const Picture& ref, const Picture& dist) const override {
        auto st = std::make_unique<FrameState>();
        const auto r = floatfeat::scale_frame(p_.method, floatfeat::to_float(ref.plane(0), bpc_, -128), p_.sw, p_.sh);
        const auto d = floatfeat::scale_frame(p_.method, floatfeat::to_float(dist.plane(0), bpc_, -128), p_.sw, p_.sh);
        const auto s = floatfeat::vif_scores(kernels_, r, d, p_.gain_limit, p_.kernelscale, p_.skip0 ? 1 : 0,
                                             p_.sigma_nsq);
        floatfeat::float_vif_scores(s, p_, st->scores);
        return st;
    }

private:
    const floatfeat::FloatKernels kernels_;  ///< selected once for ctx.cpumask
    const unsigned bpc_;
    const floatfeat::FloatVifParams p_;
};

std::unique_ptr<FeatureExtractor> create(const OptionValues& opts, const VideoGeometry& geom,
                                         const ExtractorContext& ctx) {
    return std::make_unique<FloatVif>(opts, geom, ctx.cpumask);
}

}  // namespace

namespace floatfeat {

FloatVifParams float_vif_params(const OptionValues& o, const VideoGeometry& g) {
    FloatVifParams p;
    p.debug = o.b(kDebug);
    p.gain_limit = o.d(kGainLimit);
    p.kernelscale = static_cast<float>(o.d(kKernelscale));
    p.min_val[1] = o.d(kS1Min);
    p.min_val[2] = o.d(kS2Min);
    p.min_val[3] = o.d(kS3Min);
    p.sigma_nsq = o.d(kSigmaNsq);
    p.skip0 = o.b(kSkipScale0);
    const auto m = parse_scale_method(o.s(kPrescaleMethod));
    if (!m)
        throw Error(ErrorKind::Usage, "float_vif: vif_prescale_method must be nearest, bilinear, bicubic or lanczos4");
    p.method = *m;
    const double ps = o.d(kPrescale);
    p.sw = static_cast<unsigned>(static_cast<int>(g.width * ps + 0.5));
    p.sh = static_cast<unsigned>(static_cast<int>(g.height * ps + 0.5));
    if (p.method == ScaleMethod::Bilinear && p.sw > kBilinearMaxWidth)
        throw Error(ErrorKind::Usage, "float_vif: bilinear prescale supports output widths up to 7680");
    if (!vif_kernelscale_valid(p.kernelscale)) throw Error(ErrorKind::Usage, "float_vif: invalid vif_kernelscale");
    // Scale s filters floor(size / 2^s) samples (and, before decimating,
    // twice that): its mirrored filter needs radius + 1 <= size / 2^s.
    unsigned need = 1;
    for (int sc = p.skip0 ? 1 : 0; sc < 4; ++sc) {
        const auto r = static_cast<unsigned>(vif_filter(sc, p.kernelscale).size() / 2);
        need = std::max(need, (r + 1) << sc);
    }
    require_size("float_vif", p.sw, p.sh, need, need);
    return p;
}

void float_vif_scores(const std::array<double, 8>& s, const FloatVifParams& p, ScoreList& out) {
    out.emplace_back(0, p.skip0 ? 0.0 : s[0] / s[1]);
    for (unsigned k = 1; k < 4; ++k) out.emplace_back(k, std::max(s[2 * k] / s[2 * k + 1], p.min_val[k]));
    if (!p.debug) return;
    double num = 0, den = 0;
    for (unsigned k = p.skip0 ? 1 : 0; k < 4; ++k) {
        num += s[2 * k];
        den += s[2 * k + 1];
    }
    out.emplace_back(4, den == 0.0 ? 1.0 : num / den);
    out.emplace_back(5, num);
    out.emplace_back(6, den);
    out.emplace_back(7, p.skip0 ? 0.0 : s[0]);
    out.emplace_back(8, p.skip0 ? -1.0 : s[1]);
    for (unsigned k = 2; k < 8; ++k) out.emplace_back(7 + k, s[k]);
}

}  // namespace floatfeat

/// The float VMAF and VMAF NEG models differ only in this limit: backends
/// with a group twin (CUDA) compute both in one pass; the CPU kind has no
/// groups (each set its own extractor).
constexpr std::string_view kGroupOptions[] = {"vif_enhn_gain_limit"};

const ExtractorInfo kFloatVifInfo{
    .name = "float_vif",
    .options = kOptions,
    .outputs = kOutputs,
    .create = &create,
    .group_options = kGroupOptions,
};

}  // namespace vmaf
