// Float motion ("float_motion"): temporal activity of the reference luma,
// computed on float samples (offset -128) blurred by a 5-tap (or 3-tap, or
// identity) filter. Per frame i, written in frame order from finish():
//   VMAF_feature_motion_score[i]  = SAD(blur[i-1], blur[i]) (debug, default on), 0 for i = 0
//   VMAF_feature_motion2_score[i] = min(SAD(i-1, i), SAD(i, i+1)); 0 for i = 0,
//                                   SAD(i-1, i) for the last frame
//   VMAF_feature_motion3_score[i] = motion2 blended towards motion_blend_offset;
//                                   frame 0 takes the blend of SAD(0, 1)
// All scores are scaled by motion_fps_weight and clipped to motion_max_val.
#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <vector>

#include "core/feature_extractor.hpp"
#include "features/float_common/float_image.hpp"
#include "features/float_common/float_scale.hpp"
#include "features/float_motion/float_motion.hpp"
#include "vmaf/error.hpp"

namespace vmaf {

extern const ExtractorInfo kFloatMotionInfo;

namespace {

using floatfeat::FloatImage;

enum Opt : std::size_t {
    kDebug,
    kForceZero,
    kFpsWeight,
    kBlendFactor,
    kBlendOffset,
    kAddScale1,
    kFilterSize,
    kAddUv,
    kMaxVal,
};

// Same names, aliases, order, defaults, ranges and feature-parameter flags as upstream.
constexpr OptionSpec kOptions[] = {
    {"debug", "", OptType::Bool, true, 0, 0, false, "debug mode: enable additional output"},
    {"motion_force_zero", "force_0", OptType::Bool, false, 0, 0, true, "forcing motion score to zero"},
    {"motion_fps_weight", "mfw", OptType::Double, 1.0, 0.0, 5.0, true, "fps-aware multiplicative weight/correction"},
    {"motion_blend_factor", "mbf", OptType::Double, 1.0, 0.0, 1.0, true, "blend motion score given an offset"},
    {"motion_blend_offset", "mbo", OptType::Double, 40.0, 0.0, 1000.0, true,
     "blend motion score starting from this offset"},
    {"motion_add_scale1", "mdc", OptType::Bool, false, 0, 0, true, "add motion score from scale1"},
    {"motion_filter_size", "mfs", OptType::Int, 5, 0, 9, true, "filtering size"},
    {"motion_add_uv", "mau", OptType::Bool, false, 0, 0, true, "include U and V terms"},
    {"motion_max_val", "mmxv", OptType::Double, 10000.0, 0.0, 10000.0, true,
     "maximum value allowed; larger values will be clipped to this value"},
};

// Output order: floatfeat::MotionScores::Out.
constexpr std::string_view kOutputs[] = {
    "VMAF_feature_motion_score",
    "VMAF_feature_motion2_score",
    "VMAF_feature_motion3_score",
};

/// Mean absolute difference as upstream sums it: per-row float sums of
/// |a - b|, rows summed in float in order, divided in float. (Upstream adds
/// each |a - b| in double and rounds back to float; for float operands that
/// is the float sum, double having more than twice float's precision.)
/// Rows are summed 8 at a time as independent chains: same sums, more ILP.
float mean_abs_diff(const FloatImage& a, const FloatImage& b) {
    constexpr unsigned kRows = 8;
    float acc = 0.0f;
    unsigned i = 0;
    for (; i + kRows <= a.h; i += kRows) {
        float line[kRows] = {};
        for (unsigned j = 0; j < a.w; ++j)
            for (unsigned r = 0; r < kRows; ++r) line[r] += std::fabs(a.row(i + r)[j] - b.row(i + r)[j]);
        for (unsigned r = 0; r < kRows; ++r) acc += line[r];
    }
    for (; i < a.h; ++i) {
        float line = 0.0f;
        const float *p = a.row(i), *q = b.row(i);
        for (unsigned j = 0; j < a.w; ++j) line += std::fabs(p[j] - q[j]);
        acc += line;
    }
    return acc / static_cast<float>(static_cast<int>(a.w * a.h));
}

/// The blurred planes of one reference frame (luma, then u, v with motion_add_uv).
struct MotionFrame final : FrameState {
    std::vector<FloatImage> blur;
};

class FloatMotion final : public FeatureExtractor {
public:
    FloatMotion(const OptionValues& o, const VideoGeometry& g, unsigned cpumask)
        : kernels_(floatfeat::float_registry().select(cpumask)),
          bpc_(g.bpc),
          force_zero_(o.b(kForceZero)),
          add_scale1_(o.b(kAddScale1)),
          add_uv_(o.b(kAddUv)),
          scores_({o.b(kDebug), o.b(kForceZero), o.d(kFpsWeight), o.d(kBlendFactor), o.d(kBlendOffset), o.d(kMaxVal)}) {
        filter_ = floatfeat::motion_filter(o.i(kFilterSize));
        if (add_scale1_ && static_cast<int>(g.width * 0.5 + 0.5) > static_cast<int>(floatfeat::kBilinearMaxWidth))
            throw Error(ErrorKind::Usage, "float_motion: motion_add_scale1 supports widths up to 15360");
        if (add_uv_ && g.format == PixelFormat::Yuv400)
            throw Error(ErrorKind::Usage, "float_motion: motion_add_uv needs chroma planes");
        floatfeat::require_size("float_motion", g.width, g.height, add_uv_ ? 6 : 3, add_uv_ ? 6 : 3);
    }

    std::unique_ptr<FrameState> compute(unsigned, const Picture& ref, const Picture&) const override {
        auto st = std::make_unique<MotionFrame>();
        if (force_zero_) return st;
        const unsigned planes = add_uv_ ? 3 : 1;
        st->blur.resize(planes);
        for (unsigned p = 0; p < planes; ++p)
            floatfeat::convolve_mirror(kernels_, filter_, floatfeat::to_float(ref.plane(p), bpc_, -128), nullptr,
                                       floatfeat::Tap::Value, st->blur[p]);
        return st;
    }

    void finish(unsigned index, FrameState& state, ScoreWriter& out) override {
        if (force_zero_ || scores_.first()) {
            scores_.frame(index, std::nullopt, out);
        } else {
            scores_.frame(index, sad(prev1_, static_cast<MotionFrame&>(state).blur), out);
        }
        if (!force_zero_) prev1_ = std::move(static_cast<MotionFrame&>(state).blur);
    }

    void flush(ScoreWriter& out) override {
        scores_.flush(out);
        prev1_.clear();
    }

private:
    /// Upstream's motion between two frames: luma (+ u + v), each plane's
    /// mean |difference| plus, with motion_add_scale1, that of half-size copies.
    double sad(const std::vector<FloatImage>& a, const std::vector<FloatImage>& b) const {
        double score = plane_sad(a[0], b[0]);
        for (unsigned p = 1; p < a.size(); ++p) score += plane_sad(a[p], b[p]);
        return score;
    }

    float plane_sad(const FloatImage& a, const FloatImage& b) const {
        const float m0 = mean_abs_diff(a, b);
        if (!add_scale1_) return m0;
        const auto sw = static_cast<unsigned>(static_cast<int>(a.w * 0.5 + 0.5));
        const auto sh = static_cast<unsigned>(static_cast<int>(a.h * 0.5 + 0.5));
        const auto as = floatfeat::scale_frame(floatfeat::ScaleMethod::Bilinear, a, sw, sh);
        const auto bs = floatfeat::scale_frame(floatfeat::ScaleMethod::Bilinear, b, sw, sh);
        return m0 + mean_abs_diff(as, bs);
    }

    const floatfeat::FloatKernels kernels_;  ///< selected once for ctx.cpumask
    const unsigned bpc_;
    const bool force_zero_, add_scale1_, add_uv_;
    std::span<const float> filter_;

    // Ordered-stage state: blurred planes of the previous frame, the scores.
    std::vector<FloatImage> prev1_;
    floatfeat::MotionScores scores_;
};

std::unique_ptr<FeatureExtractor> create(const OptionValues& opts, const VideoGeometry& geom,
                                         const ExtractorContext& ctx) {
    return std::make_unique<FloatMotion>(opts, geom, ctx.cpumask);
}

}  // namespace

const ExtractorInfo kFloatMotionInfo{
    .name = "float_motion",
    .options = kOptions,
    .outputs = kOutputs,
    .needs_chroma = true,
    .temporal = true,
    .create = &create,
};

}  // namespace vmaf
