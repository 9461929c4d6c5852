// float_psnr_cuda: the CUDA twin of "float_psnr". Why its score equals the CPU's:
//   8 to 12 bits: the CPU itself scores from the integer sum of squared sample
//   differences (float_psnr_exact_sum, exact there); the device forms that sum
//   with the psnr twin's kernel, exact in any order, and the host calls the
//   same function.
//   16 bits: upstream sums float squares in double in raster order. Every
//   square is a multiple of 2^-16 below 2^16, so while the total stays below
//   2^53 units of 2^-16 every partial sum is exact and equals the device's
//   exact integer total; above that (a huge error on a large frame) the device
//   repeats upstream's sequential double sum itself.
#include <memory>

#include "backends/cuda/sums_twin.hpp"
#include "features/float_common/float_peak.hpp"
#include "features/float_psnr/cuda/float_psnr_cuda_kernels.hpp"
#include "features/float_psnr/float_psnr.hpp"
#include "features/psnr/cuda/psnr_cuda_kernels.hpp"

namespace vmaf::cuda {

namespace {

struct NoScratch {};
using floatfeat::cuda::PsnrSums16;

class FloatPsnrCuda final : public SumsTwin<NoScratch> {
public:
    FloatPsnrCuda(Session& s, const VideoGeometry& g)
        : SumsTwin(s, "float_psnr", g, sizeof(PsnrSums16), [] { return NoScratch{}; }),
          w_(g.width),
          h_(g.height),
          bpc_(g.bpc),
          peak_(floatfeat::psnr_peak(g.bpc)) {}

private:
    void launch(const DeviceFrame& f, NoScratch& /*scratch*/, void* sums, cudaStream_t s,
                FrameState& /*st*/) const override {
        auto* out = static_cast<PsnrSums16*>(sums);
        if (bpc_ <= 12)
            psnr::cuda::launch_sse(f.ref[0].data, f.dist[0].data, f.ref[0].pitch, w_, h_, bpc_, &out->units, s);
        else
            floatfeat::cuda::launch_float_psnr16(f.ref[0].data, f.dist[0].data, f.ref[0].pitch, w_, h_, out, s);
    }

    void score(const void* sums, FrameState& st) const override {
        const auto& v = *static_cast<const PsnrSums16*>(sums);
        double score = 0;
        if (bpc_ <= 12) {
            score = floatfeat::float_psnr_exact_sum(v.units, bpc_, w_, h_, peak_.peak, peak_.psnr_max);
        } else {
            const double noise = v.units < (1ull << 53) ? static_cast<double>(v.units) / 65536.0 : v.seq;
            score = floatfeat::float_psnr_from_noise(noise, w_, h_, peak_.peak, peak_.psnr_max);
        }
        st.scores.emplace_back(0, score);
    }

    const unsigned w_, h_, bpc_;
    const floatfeat::PsnrPeak peak_;
};

std::unique_ptr<FeatureExtractor> create(Session& s, const ExtractorInfo& kind, const OptionValues& o,
                                         const VideoGeometry& g, const ExtractorContext& ctx) {
    (void)kind.create(o, g, ctx);  // the CPU kind's checks of the geometry and options
    return std::make_unique<FloatPsnrCuda>(s, g);
}

}  // namespace

extern const TwinDescriptor kFloatPsnrCudaTwin;
const TwinDescriptor kFloatPsnrCudaTwin{.kind = "float_psnr", .create = &create};

}  // namespace vmaf::cuda
