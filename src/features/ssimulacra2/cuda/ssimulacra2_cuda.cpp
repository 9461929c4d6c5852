// ssimulacra2_cuda: the CUDA twin of "ssimulacra2" (every yuv_matrix value).
// Why its scores equal the CPU's: every per-sample step (Y'CbCr to linear
// sRGB with the sRGB polynomial, 2x2 downsampling, XYB with our own
// cube_root_plus, the recursive Gaussian's horizontal and vertical passes in
// their phases, the SSIM and edge-difference map values) is the CPU scalar
// reference's float/double expression, evaluated in the same order with
// fused multiply-adds exactly where the CPU calls std::fma and nowhere else
// (--fmad=false), IEEE division; every constant (YUV coefficients, sRGB and
// opsin tables, blur coefficients, cbrt of the bias) is the host's value
// copied bit for bit. The six map sums per scale and channel, which the CPU
// adds in double one pixel after another over the whole map, are that same
// sequential sum computed by float_common/cuda/source_ordered_sum.cuh's chunked walk
// (exact: its comment says why), the terms recomputed from the planes in
// each pass rather than stored. The host then finishes
// them with the CPU's own add_channel_norms and score_from_norms.
#include <memory>

#include "backends/cuda/sums_twin.hpp"
#include "backends/cuda/twin_util.hpp"
#include "features/ssimulacra2/cuda/ssimulacra2_cuda_constants.hpp"
#include "features/ssimulacra2/cuda/ssimulacra2_cuda_kernels.hpp"

namespace vmaf::cuda {

namespace {

namespace s2 = ssimulacra2;

struct S2ScratchMem {
    DeviceBuffer memory, sums;  ///< the planes; the map sums' chunk figures
    s2::cuda::S2Scratch layout{};
};

class Ssimulacra2Cuda final : public SumsTwin<S2ScratchMem> {
public:
    Ssimulacra2Cuda(Session& s, const OptionValues& o, const VideoGeometry& g)
        : SumsTwin(s, "ssimulacra2", g, s2::cuda::kS2Sums * sizeof(double),
                   [this] {
                       S2ScratchMem m;
                       m.memory = DeviceBuffer(s2::cuda::s2_scratch_bytes(geom_));
                       m.layout = s2::cuda::s2_scratch_layout(m.memory.get(), geom_);
                       m.sums = DeviceBuffer(s2::cuda::s2_sums_scratch_bytes(geom_));
                       return m;
                   }),
          geom_(s2::cuda::s2_geometry(g)),
          k_(s2::cuda::s2_constants(static_cast<s2::YuvMatrix>(o.i(option_index(o, "yuv_matrix"))), g.bpc)) {}

private:
    void launch(const DeviceFrame& f, S2ScratchMem& scratch, void* sums, cudaStream_t s,
                FrameState& /*st*/) const override {
        if (geom_.chroma && f.planes < 3)
            throw Error(ErrorKind::Internal, "ssimulacra2_cuda: chroma planes not staged");
        s2::cuda::Planes3 in{};
        for (unsigned p = 0; p < (geom_.chroma ? 3u : 1u); ++p) {
            in.p[0][p] = static_cast<const unsigned char*>(f.ref[p].data);
            in.p[1][p] = static_cast<const unsigned char*>(f.dist[p].data);
            in.pitch[p] = f.ref[p].pitch;
        }
        s2::cuda::launch_ssimulacra2(in, geom_, k_, scratch.layout, scratch.sums.get(), static_cast<double*>(sums), s);
    }

    void score(const void* sums, FrameState& st) const override {
        const auto* v = static_cast<const double*>(sums);
        st.scores.emplace_back(0, s2::score_from_norms(s2::cuda::s2_norms(v, geom_)));
    }

    s2::cuda::S2Geometry geom_{};
    s2::cuda::S2Constants k_{};
};

std::unique_ptr<FeatureExtractor> create(Session& s, const ExtractorInfo& kind, const OptionValues& o,
                                         const VideoGeometry& g, const ExtractorContext& ctx) {
    (void)kind.create(o, g, ctx);  // the CPU kind's checks of the geometry and options
    return std::make_unique<Ssimulacra2Cuda>(s, o, g);
}

}  // namespace

extern const TwinDescriptor kSsimulacra2CudaTwin;
const TwinDescriptor kSsimulacra2CudaTwin{.kind = "ssimulacra2", .create = &create};

}  // namespace vmaf::cuda
