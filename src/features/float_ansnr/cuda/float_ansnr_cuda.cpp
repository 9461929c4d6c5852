// float_ansnr_cuda: the CUDA twin of "float_ansnr". Why its scores equal the
// CPU's: each filtered sample is the same float expression evaluated in the
// same order (no contraction); each row's two float sums are formed on the
// device by one thread adding the row's terms in column order, as the CPU's
// loop; the host adds the rows in order and finishes with the CPU's function.
#include <algorithm>
#include <memory>

#include "backends/cuda/sums_twin.hpp"
#include "features/float_ansnr/cuda/float_ansnr_cuda_kernels.hpp"
#include "features/float_ansnr/float_ansnr.hpp"
#include "features/float_common/float_peak.hpp"

namespace vmaf::cuda {

namespace {

struct NoScratch {};

class FloatAnsnrCuda final : public SumsTwin<NoScratch> {
public:
    FloatAnsnrCuda(Session& s, const VideoGeometry& g)
        : SumsTwin(s, "float_ansnr", g, 2 * std::size_t{g.height} * sizeof(float), [] { return NoScratch{}; }),
          w_(g.width),
          h_(g.height),
          bpc_(g.bpc),
          peak_(floatfeat::psnr_peak(g.bpc)) {
        std::copy(std::begin(floatfeat::kAnsnrRef3), std::end(floatfeat::kAnsnrRef3), filters_.ref3);
        std::copy(std::begin(floatfeat::kAnsnrDis5), std::end(floatfeat::kAnsnrDis5), filters_.dis5);
    }

private:
    void launch(const DeviceFrame& f, NoScratch& /*scratch*/, void* sums, cudaStream_t s,
                FrameState& /*st*/) const override {
        floatfeat::cuda::launch_float_ansnr(f.ref[0].data, f.dist[0].data, f.ref[0].pitch, w_, h_, bpc_, filters_,
                                            static_cast<float*>(sums), s);
    }

    void score(const void* sums, FrameState& st) const override {
        const auto* rows = static_cast<const float*>(sums);
        const auto v = floatfeat::ansnr_from_rows(rows, rows + h_, w_, h_, peak_.peak, peak_.psnr_max);
        st.scores = {{0, v.ansnr}, {1, v.anpsnr}};
    }

    const unsigned w_, h_, bpc_;
    const floatfeat::PsnrPeak peak_;
    floatfeat::cuda::AnsnrFilters filters_{};
};

std::unique_ptr<FeatureExtractor> create(Session& s, const ExtractorInfo& kind, const OptionValues& o,
                                         const VideoGeometry& g, const ExtractorContext& ctx) {
    (void)kind.create(o, g, ctx);  // the CPU kind's checks of the geometry and options
    return std::make_unique<FloatAnsnrCuda>(s, g);
}

}  // namespace

extern const TwinDescriptor kFloatAnsnrCudaTwin;
const TwinDescriptor kFloatAnsnrCudaTwin{.kind = "float_ansnr", .create = &create};

}  // namespace vmaf::cuda
