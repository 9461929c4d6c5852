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
        : kernels_(floatfeat::float_registry().select(cpumask)),
          bpc_(g.bpc),
          debug_(o.b(kDebug)),
          gain_limit_(o.d(kGainLimit)),
          kernelscale_(static_cast<float>(o.d(kKernelscale))),
          min_val_{0.0, o.d(kS1Min), o.d(kS2Min), o.d(kS3Min)},
          sigma_nsq_(o.d(kSigmaNsq)),
          skip0_(o.b(kSkipScale0)) {
        const auto m = floatfeat::parse_scale_method(o.s(kPrescaleMethod));
        if (!m)
            throw Error(ErrorKind::Usage,
                        "float_vif: vif_prescale_method must be nearest, bilinear, bicubic or lanczos4");
        method_ = *m;
        const double ps = o.d(kPrescale);
        sw_ = static_cast<unsigned>(static_cast<int>(g.width * ps + 0.5));
        sh_ = static_cast<unsigned>(static_cast<int>(g.height * ps + 0.5));
        if (method_ == floatfeat::ScaleMethod::Bilinear && sw_ > floatfeat::kBilinearMaxWidth)
            throw Error(ErrorKind::Usage, "float_vif: bilinear prescale supports output widths up to 7680");
        if (!floatfeat::vif_kernelscale_valid(kernelscale_))
            throw Error(ErrorKind::Usage, "float_vif: invalid vif_kernelscale");
        // Scale s filters floor(size / 2^s) samples (and, before decimating,
        // twice that): its mirrored filter needs radius + 1 <= size / 2^s.
        unsigned need = 1;
        for (int sc = skip0_ ? 1 : 0; sc < 4; ++sc) {
            const auto r = static_cast<unsigned>(floatfeat::vif_filter(sc, kernelscale_).size() / 2);
            need = std::max(need, (r + 1) << sc);
        }
        floatfeat::require_size("float_vif", sw_, sh_, need, need);
    }

    std::unique_ptr<FrameState> compute(unsigned, const Picture& ref, const Picture& dist) const override {
        auto st = std::make_unique<FrameState>();
        const auto r = floatfeat::scale_frame(method_, floatfeat::to_float(ref.plane(0), bpc_, -128), sw_, sh_);
        const auto d = floatfeat::scale_frame(method_, floatfeat::to_float(dist.plane(0), bpc_, -128), sw_, sh_);
        const auto s = floatfeat::vif_scores(kernels_, r, d, gain_limit_, kernelscale_, skip0_ ? 1 : 0, sigma_nsq_);
        auto& out = st->scores;
        out.emplace_back(0, skip0_ ? 0.0 : s[0] / s[1]);
        for (unsigned k = 1; k < 4; ++k) out.emplace_back(k, std::max(s[2 * k] / s[2 * k + 1], min_val_[k]));
        if (!debug_) return st;
        double num = 0, den = 0;
        for (unsigned k = skip0_ ? 1 : 0; k < 4; ++k) {
            num += s[2 * k];
            den += s[2 * k + 1];
        }
        out.emplace_back(4, den == 0.0 ? 1.0 : num / den);
        out.emplace_back(5, num);
        out.emplace_back(6, den);
        out.emplace_back(7, skip0_ ? 0.0 : s[0]);
        out.emplace_back(8, skip0_ ? -1.0 : s[1]);
        for (unsigned k = 2; k < 8; ++k) out.emplace_back(7 + k, s[k]);
        return st;
    }

private:
    const floatfeat::FloatKernels kernels_;  ///< selected once for ctx.cpumask
    const unsigned bpc_;
    const bool debug_;
    const double gain_limit_;
    const float kernelscale_;
    const double min_val_[4];
    const double sigma_nsq_;
    const bool skip0_;
    floatfeat::ScaleMethod method_{};
    unsigned sw_ = 0, sh_ = 0;
};

std::unique_ptr<FeatureExtractor> create(const OptionValues& opts, const VideoGeometry& geom,
                                         const ExtractorContext& ctx) {
    return std::make_unique<FloatVif>(opts, geom, ctx.cpumask);
}

}  // namespace

const ExtractorInfo kFloatVifInfo{
    .name = "float_vif",
    .options = kOptions,
    .outputs = kOutputs,
    .create = &create,
};

}  // namespace vmaf
