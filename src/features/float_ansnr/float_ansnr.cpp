// Float ANSNR ("float_ansnr"): SNR of the reference smoothed by a 3x3 filter
// against the distorted smoothed by a 5x5 filter (luma, samples offset by
// -128). Scores: float_ansnr (signal/noise in dB) and float_anpsnr (peak/noise).
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "core/feature_extractor.hpp"
#include "features/float_ansnr/float_ansnr.hpp"
#include "features/float_common/float_image.hpp"
#include "features/float_common/float_peak.hpp"

namespace vmaf {

extern const ExtractorInfo kFloatAnsnrInfo;

namespace floatfeat {

namespace {

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

AnsnrScores float_ansnr(const FloatKernels& k, const FloatImage& ref, const FloatImage& dis, double peak,
                        double psnr_max) {
    const FloatImage rf = filter2d(k, kAnsnrRef3, 3, ref), df = filter2d(k, kAnsnrDis5, 5, dis);
    std::vector<float> sig(ref.h), noise(ref.h);
    for (unsigned i = 0; i < ref.h; ++i) {
        float si = 0, ni = 0;
        const float *a = rf.row(i), *b = df.row(i);
        for (unsigned j = 0; j < ref.w; ++j) {
            si += a[j] * a[j];
            ni += (a[j] - b[j]) * (a[j] - b[j]);
        }
        sig[i] = si;
        noise[i] = ni;
    }
    return ansnr_from_rows(sig.data(), noise.data(), ref.w, ref.h, peak, psnr_max);
}

AnsnrScores ansnr_from_rows(const float* sig_rows, const float* noise_rows, unsigned w, unsigned h, double peak,
                            double psnr_max) {
    float sig = 0, noise = 0;
    for (unsigned i = 0; i < h; ++i) {
        sig += sig_rows[i];
        noise += noise_rows[i];
    }
    AnsnrScores s;
    s.ansnr = noise == 0 ? psnr_max : 10.0 * std::log10(static_cast<double>(sig / noise));
    const double eps = 1e-10;
    const double n = noise > eps ? static_cast<double>(noise) : eps;
    s.anpsnr = std::min(10 * std::log10(peak * peak * static_cast<int>(w) * static_cast<int>(h) / n), psnr_max);
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
