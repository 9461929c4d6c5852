// Float ANSNR ("float_ansnr"): SNR of the reference smoothed by a 3x3 filter
// against the distorted smoothed by a 5x5 filter (luma, samples offset by
// -128). Scores: float_ansnr (signal/noise in dB) and float_anpsnr (peak/noise).
#include <algorithm>
#include <cmath>
#include <memory>

#include "core/feature_extractor.hpp"
#include "features/float_common/float_image.hpp"
#include "features/float_common/float_peak.hpp"

namespace vmaf {

extern const ExtractorInfo kFloatAnsnrInfo;

namespace floatfeat {

namespace {

// Upstream's 2-D filters, coefficients rounded to float.
constexpr float kRef3[9] = {1.0 / 16.0, 2.0 / 16.0, 1.0 / 16.0, 2.0 / 16.0, 4.0 / 16.0,
                            2.0 / 16.0, 1.0 / 16.0, 2.0 / 16.0, 1.0 / 16.0};
constexpr float kDis5[25] = {2.0 / 571.0,  7.0 / 571.0,  12.0 / 571.0,  7.0 / 571.0,  2.0 / 571.0,
                             7.0 / 571.0,  31.0 / 571.0, 52.0 / 571.0,  31.0 / 571.0, 7.0 / 571.0,
                             12.0 / 571.0, 52.0 / 571.0, 127.0 / 571.0, 52.0 / 571.0, 12.0 / 571.0,
                             7.0 / 571.0,  31.0 / 571.0, 52.0 / 571.0,  31.0 / 571.0, 7.0 / 571.0,
                             2.0 / 571.0,  7.0 / 571.0,  12.0 / 571.0,  7.0 / 571.0,  2.0 / 571.0};

/// 2-D filter (fw x fw), rows reflected without repeating the edge (-1 -> 1, h -> h - 1).
FloatImage filter2d(const FloatKernels& k, const float* f, int fw, const FloatImage& src) {
    FloatImage dst(src.w, src.h);
    const int h = static_cast<int>(src.h), r = fw / 2;
    const float* rows[5];
    for (int i = 0; i < h; ++i) {
        for (int fi = 0; fi < fw; ++fi) {
            int ii = i - r + fi;
            ii = ii < 0 ? -ii : (ii >= h ? 2 * h - ii - 1 : ii);
            rows[fi] = src.row(ii);
        }
        k.filter2d_row(f, fw, rows, dst.row(i), static_cast<int>(src.w));
    }
    return dst;
}

}  // namespace

struct AnsnrScores {
    double ansnr, anpsnr;
};

AnsnrScores float_ansnr(const FloatKernels& k, const FloatImage& ref, const FloatImage& dis, double peak,
                        double psnr_max) {
    const FloatImage rf = filter2d(k, kRef3, 3, ref), df = filter2d(k, kDis5, 5, dis);
    float sig = 0, noise = 0;
    for (unsigned i = 0; i < ref.h; ++i) {
        float si = 0, ni = 0;
        const float *a = rf.row(i), *b = df.row(i);
        for (unsigned j = 0; j < ref.w; ++j) {
            si += a[j] * a[j];
            ni += (a[j] - b[j]) * (a[j] - b[j]);
        }
        sig += si;
        noise += ni;
    }
    AnsnrScores s;
    s.ansnr = noise == 0 ? psnr_max : 10.0 * std::log10(static_cast<double>(sig / noise));
    const double eps = 1e-10;
    const double n = noise > eps ? static_cast<double>(noise) : eps;
    s.anpsnr = std::min(10 * std::log10(peak * peak * static_cast<int>(ref.w) * static_cast<int>(ref.h) / n), psnr_max);
    return s;
}

}  // namespace floatfeat

namespace {

constexpr std::string_view kOutputs[] = {"float_ansnr", "float_anpsnr"};

class FloatAnsnr final : public FeatureExtractor {
public:
    FloatAnsnr(const VideoGeometry& g, unsigned cpumask)
        : kernels_(floatfeat::float_registry().select(cpumask)), bpc_(g.bpc), peak_(floatfeat::psnr_peak(g.bpc)) {
        floatfeat::require_size("float_ansnr", g.width, g.height, 3, 3);  // 5x5 reflected filter
    }

    std::unique_ptr<FrameState> compute(unsigned, const Picture& ref, const Picture& dist) const override {
        auto st = std::make_unique<FrameState>();
        const auto r = floatfeat::to_float(ref.plane(0), bpc_, -128);
        const auto d = floatfeat::to_float(dist.plane(0), bpc_, -128);
        const auto s = floatfeat::float_ansnr(kernels_, r, d, peak_.peak, peak_.psnr_max);
        st->scores = {{0, s.ansnr}, {1, s.anpsnr}};
        return st;
    }

private:
    const floatfeat::FloatKernels kernels_;  ///< selected once for ctx.cpumask
    const unsigned bpc_;
    const floatfeat::PsnrPeak peak_;
};

std::unique_ptr<FeatureExtractor> create(const OptionValues&, const VideoGeometry& geom, const ExtractorContext& ctx) {
    return std::make_unique<FloatAnsnr>(geom, ctx.cpumask);
}

}  // namespace

const ExtractorInfo kFloatAnsnrInfo{
    .name = "float_ansnr",
    .options = {},
    .outputs = kOutputs,
    .create = &create,
};

}  // namespace vmaf
