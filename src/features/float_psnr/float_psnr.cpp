// Float PSNR ("float_psnr"): luma PSNR computed on float samples in the 8-bit
// scale (high bit depths divided down), capped at psnr_max. Score: float_psnr.
#include "features/float_psnr/float_psnr.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>

#include "core/feature_extractor.hpp"
#include "features/float_common/float_image.hpp"
#include "features/float_common/float_peak.hpp"
#include "features/psnr/psnr_kernels.hpp"

namespace vmaf {

extern const ExtractorInfo kFloatPsnrInfo;

namespace floatfeat {

/// Upstream's float PSNR of two equally sized planes: squared float
/// differences of the converted samples summed in double, in raster order
/// (computed straight from the samples; no float picture is materialised).
template <typename T>
double float_psnr(const Plane& ref, const Plane& dis, float scaler, double peak, double psnr_max) {
    double noise = 0;
    for (unsigned i = 0; i < ref.height; ++i) {
        const T *r = ref.row<const T>(i), *d = dis.row<const T>(i);
        for (unsigned j = 0; j < ref.width; ++j) {
            const float diff = sample_to_float(r[j], scaler) - sample_to_float(d[j], scaler);
            noise += diff * diff;
        }
    }
    return float_psnr_from_noise(noise, ref.width, ref.height, peak, psnr_max);
}
template double float_psnr<std::uint8_t>(const Plane&, const Plane&, float, double, double);
template double float_psnr<std::uint16_t>(const Plane&, const Plane&, float, double, double);

/// The same from the integer sum of squared sample differences, for bpc <= 12
/// and rows of at most 66051 samples: there every float square and every
/// partial double sum of upstream's loop is exact (multiples of 1/16^(bpc>8)
/// far below 2^53), so any summation order gives its result bit for bit.
double float_psnr_exact_sum(std::uint64_t sse, unsigned bpc, unsigned w, unsigned h, double peak, double psnr_max) {
    const double scale2 = bpc == 8 ? 1.0 : bpc == 10 ? 16.0 : 256.0;
    return float_psnr_from_noise(static_cast<double>(sse) / scale2, w, h, peak, psnr_max);
}

double float_psnr_from_noise(double noise, unsigned w, unsigned h, double peak, double psnr_max) {
    noise /= static_cast<int>(w * h);
    const double eps = 1e-10;
    return std::min(10 * std::log10(peak * peak / std::max(noise, eps)), psnr_max);
}

}  // namespace floatfeat

namespace {

constexpr std::string_view kOutputs[] = {"float_psnr"};

class FloatPsnr final : public FeatureExtractor {
public:
    FloatPsnr(const VideoGeometry& g, unsigned cpumask)
        : sse_(psnr::psnr_registry().select(cpumask)), bpc_(g.bpc), peak_(floatfeat::psnr_peak(g.bpc)) {}

    std::unique_ptr<FrameState> compute(unsigned, const Picture& ref, const Picture& dist) const override {
        auto st = std::make_unique<FrameState>();
        const Plane &r = ref.plane(0), &d = dist.plane(0);
        if (bpc_ <= 12 && r.width <= 66051) {
            st->scores.emplace_back(0, floatfeat::float_psnr_exact_sum(psnr::sse(sse_, r, d, bpc_), bpc_, r.width,
                                                                       r.height, peak_.peak, peak_.psnr_max));
            return st;
        }
        const double v = bpc_ == 8 ? floatfeat::float_psnr<std::uint8_t>(r, d, 1.0f, peak_.peak, peak_.psnr_max)
                                   : floatfeat::float_psnr<std::uint16_t>(r, d, floatfeat::hbd_scaler(bpc_), peak_.peak,
                                                                          peak_.psnr_max);
        st->scores.emplace_back(0, v);
        return st;
    }

private:
    const psnr::PsnrKernels sse_;  ///< integer SSE kernels, selected once for ctx.cpumask
    const unsigned bpc_;
    const floatfeat::PsnrPeak peak_;
};

std::unique_ptr<FeatureExtractor> create(const OptionValues&, const VideoGeometry& geom, const ExtractorContext& ctx) {
    return std::make_unique<FloatPsnr>(geom, ctx.cpumask);
}

}  // namespace

const ExtractorInfo kFloatPsnrInfo{
    .name = "float_psnr",
    .options = {},
    .outputs = kOutputs,
    .create = &create,
};

}  // namespace vmaf
