// float_ms_ssim_cuda: the CUDA twin of "float_ms_ssim". Why its scores equal
// the CPU's: the luma conversion and the four 9x9 low-pass decimations are
// the CPU's float and double expressions evaluated in the same order (no
// contraction, the host's filter table, edges mirrored as decimate_rows), so
// every scale's images equal the CPU's; each scale's SSIM is the shared
// device SSIM (ssim_common/cuda), whose map sums give the CPU's float means
// of l, c and s bit for bit (its file comment says why); the host combines
// those means with the CPU's own functions (ms_ssim_combine, the dB cap).
#include <algorithm>
#include <array>
#include <memory>

#include "backends/cuda/sums_twin.hpp"
#include "features/float_ms_ssim/cuda/float_ms_ssim_cuda_kernels.hpp"
#include "features/float_ms_ssim/float_ms_ssim.hpp"
#include "features/ssim_common/cuda/ssim_cuda_kernels.hpp"
#include "features/ssim_common/ssim_core.hpp"

namespace vmaf::cuda {

namespace {

using ssimfeat::cuda::kMsScales;
static_assert(kMsScales == ssimfeat::kScales);

struct MsSsimScratchMem {
    DeviceBuffer memory;
    ssimfeat::cuda::MsSsimScratch layout{};
};

class FloatMsSsimCuda final : public SumsTwin<MsSsimScratchMem> {
public:
    FloatMsSsimCuda(Session& s, const OptionValues& o, const VideoGeometry& g)
        : SumsTwin(s, "float_ms_ssim", g, 3 * kMsScales * sizeof(double),
                   [this] {
                       MsSsimScratchMem m;
                       m.memory = DeviceBuffer(ssimfeat::cuda::ms_ssim_scratch_bytes(geom_));
                       m.layout = ssimfeat::cuda::ms_ssim_scratch_layout(m.memory.get(), geom_);
                       return m;
                   }),
          p_(ssimfeat::float_ms_ssim_params(o, g)) {
        geom_.bpc = g.bpc;
        unsigned w = g.width, h = g.height;
        for (int i = 0; i < kMsScales; ++i) {
            if (i > 0) {
                w = ssimfeat::decimated_size(w, 2);
                h = ssimfeat::decimated_size(h, 2);
            }
            geom_.scale[i] = ssimfeat::cuda::iqa_geometry(w, h);
        }
        k_.iqa = ssimfeat::cuda::iqa_constants();
        std::copy(std::begin(ssimfeat::kLpf2d), std::end(ssimfeat::kLpf2d), k_.lpf);
    }

private:
    void launch(const DeviceFrame& f, MsSsimScratchMem& scratch, void* sums, cudaStream_t s,
                FrameState& /*st*/) const override {
        ssimfeat::cuda::launch_float_ms_ssim(f.ref[0].data, f.dist[0].data, f.ref[0].pitch, geom_, k_, scratch.layout,
                                             static_cast<double*>(sums), s);
    }

    void score(const void* sums, FrameState& st) const override {
        const auto* v = static_cast<const double*>(sums);
        std::array<ssimfeat::SsimLcs, ssimfeat::kScales> means{};
        for (int i = 0; i < kMsScales; ++i) {
            ssimfeat::SsimSums total;
            total.l = v[3 * i];
            total.c = v[3 * i + 1];
            total.s = v[3 * i + 2];
            means[static_cast<std::size_t>(i)] =
                ssimfeat::ssim_means(total, static_cast<int>(geom_.scale[i].dw), static_cast<int>(geom_.scale[i].dh));
        }
        ssimfeat::float_ms_ssim_scores(ssimfeat::ms_ssim_combine(means), p_, st.scores);
    }

    ssimfeat::FloatMsSsimParams p_;
    ssimfeat::cuda::MsSsimGeometry geom_{};
    ssimfeat::cuda::MsSsimConstants k_{};
};

std::unique_ptr<FeatureExtractor> create(Session& s, const ExtractorInfo& kind, const OptionValues& o,
                                         const VideoGeometry& g, const ExtractorContext& ctx) {
    (void)kind.create(o, g, ctx);  // the CPU kind's checks of the geometry and options
    return std::make_unique<FloatMsSsimCuda>(s, o, g);
}

}  // namespace

extern const TwinDescriptor kFloatMsSsimCudaTwin;
const TwinDescriptor kFloatMsSsimCudaTwin{.kind = "float_ms_ssim", .create = &create};

}  // namespace vmaf::cuda
