// float_ssim_cuda: the CUDA twin of "float_ssim". Why its scores equal the
// CPU's: the decimation is the CPU's float and double expressions evaluated
// in the same order (no contraction, the host's filter value), and the SSIM
// itself is the shared device SSIM (ssim_common/cuda), whose map sums give
// the CPU's float means bit for bit (its file comment says why); the host
// finishes them with the CPU's functions.
#include <memory>

#include "backends/cuda/sums_twin.hpp"
#include "features/float_ssim/cuda/float_ssim_cuda_kernels.hpp"
#include "features/float_ssim/float_ssim.hpp"
#include "features/ssim_common/ssim_core.hpp"

namespace vmaf::cuda {

namespace {

struct SsimScratchMem {
    DeviceBuffer memory;
    floatfeat::cuda::SsimScratch layout{};
};

class FloatSsimCuda final : public SumsTwin<SsimScratchMem> {
public:
    FloatSsimCuda(Session& s, const OptionValues& o, const VideoGeometry& g)
        : SumsTwin(s, "float_ssim", g, 4 * sizeof(double),
                   [this] {
                       SsimScratchMem m;
                       m.memory = DeviceBuffer(floatfeat::cuda::ssim_scratch_bytes(geom_));
                       m.layout = floatfeat::cuda::ssim_scratch_layout(m.memory.get(), geom_);
                       return m;
                   }),
          p_(floatfeat::float_ssim_params(o, g)) {
        geom_.w = g.width;
        geom_.h = g.height;
        geom_.bpc = g.bpc;
        geom_.scale = p_.scale;
        geom_.iqa =
            ssimfeat::cuda::iqa_geometry(p_.scale > 1 ? ssimfeat::decimated_size(g.width, p_.scale) : g.width,
                                         p_.scale > 1 ? ssimfeat::decimated_size(g.height, p_.scale) : g.height);
        geom_.lcs = p_.lcs;
        k_.iqa = ssimfeat::cuda::iqa_constants();
        k_.box = 1.0f / static_cast<float>(p_.scale * p_.scale);  // the CPU's box filter value
    }

private:
    void launch(const DeviceFrame& f, SsimScratchMem& scratch, void* sums, cudaStream_t s,
                FrameState& /*st*/) const override {
        floatfeat::cuda::launch_float_ssim(f.ref[0].data, f.dist[0].data, f.ref[0].pitch, geom_, k_, scratch.layout,
                                           static_cast<double*>(sums), s);
    }

    void score(const void* sums, FrameState& st) const override {
        const auto* v = static_cast<const double*>(sums);
        ssimfeat::SsimSums total;
        total.ssim = v[0];
        if (p_.lcs) {
            total.l = v[1];
            total.c = v[2];
            total.s = v[3];
        }
        const ssimfeat::SsimLcs m =
            ssimfeat::ssim_means(total, static_cast<int>(geom_.iqa.dw), static_cast<int>(geom_.iqa.dh));
        floatfeat::float_ssim_scores(m, p_, st.scores);
    }

    floatfeat::FloatSsimParams p_;
    floatfeat::cuda::SsimGeometry geom_{};
    floatfeat::cuda::SsimConstants k_{};
};

std::unique_ptr<FeatureExtractor> create(Session& s, const ExtractorInfo& kind, const OptionValues& o,
                                         const VideoGeometry& g, const ExtractorContext& ctx) {
    (void)kind.create(o, g, ctx);  // the CPU kind's checks of the geometry and options
    return std::make_unique<FloatSsimCuda>(s, o, g);
}

}  // namespace

extern const TwinDescriptor kFloatSsimCudaTwin;
const TwinDescriptor kFloatSsimCudaTwin{.kind = "float_ssim", .create = &create};

}  // namespace vmaf::cuda
