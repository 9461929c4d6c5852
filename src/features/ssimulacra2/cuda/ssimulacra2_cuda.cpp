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
// adds in double one pixel after another over the whole map, are added on the
// device by one thread per sum in that same order. The host then finishes
// them with the CPU's own add_channel_norms and score_from_norms.
#include <cmath>
#include <memory>
#include <vector>

#include "backends/cuda/sums_twin.hpp"
#include "backends/cuda/twin_util.hpp"
#include "features/ssimulacra2/cuda/ssimulacra2_cuda_kernels.hpp"
#include "features/ssimulacra2/ssimulacra2_constants.hpp"
#include "features/ssimulacra2/ssimulacra2_core.hpp"

namespace vmaf::cuda {

namespace {

namespace s2 = ssimulacra2;

struct S2ScratchMem {
    DeviceBuffer memory;
    s2::cuda::S2Scratch layout{};
};

s2::cuda::S2Constants make_constants(s2::YuvMatrix m, unsigned bpc) {
    s2::cuda::S2Constants k{};
    const s2::YuvCoeffs y = s2::yuv_coeffs(m, bpc);
    k.y_offset = y.y_offset;
    k.y_scale = y.y_scale;
    k.c_offset = y.c_offset;
    k.c_scale = y.c_scale;
    k.cr_r = y.cr_r;
    k.cb_g = y.cb_g;
    k.cr_g = y.cr_g;
    k.cb_b = y.cb_b;
    for (int i = 0; i < 5; ++i) {
        k.srgb_p[i] = s2::kSrgbP[i];
        k.srgb_q[i] = s2::kSrgbQ[i];
    }
    k.srgb_threshold = s2::kSrgbThreshold;
    k.srgb_low_slope = s2::kSrgbLowSlope;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) k.opsin[i][j] = s2::kOpsin[i][j];
    k.opsin_bias = s2::kOpsinBias;
    k.neg_cbrt_bias = -std::cbrt(s2::kOpsinBias);  // xyb_row's expression, same call
    const s2::BlurCoeffs& b = s2::blur_coeffs();
    k.radius = b.radius;
    for (int i = 0; i < 3; ++i) {
        k.n2[i] = b.n2[i];
        k.d1[i] = b.d1[i];
        for (int j = 0; j < 4; ++j) {
            k.mul_in[i][j] = b.mul_in[i][j];
            k.mul_prev[i][j] = b.mul_prev[i][j];
            k.mul_prev2[i][j] = b.mul_prev2[i][j];
        }
    }
    k.c2 = s2::kC2;
    return k;
}

class Ssimulacra2Cuda final : public SumsTwin<S2ScratchMem> {
public:
    Ssimulacra2Cuda(Session& s, const OptionValues& o, const VideoGeometry& g)
        : SumsTwin(s, "ssimulacra2", g, s2::cuda::kS2Sums * sizeof(double),
                   [this] {
                       S2ScratchMem m;
                       m.memory = DeviceBuffer(s2::cuda::s2_scratch_bytes(geom_));
                       m.layout = s2::cuda::s2_scratch_layout(m.memory.get(), geom_);
                       return m;
                   }),
          k_(make_constants(static_cast<s2::YuvMatrix>(o.i(option_index(o, "yuv_matrix"))), g.bpc)) {
        const ChromaShift cs = chroma_shift(g.format);
        geom_.w = g.width;
        geom_.h = g.height;
        geom_.bpc = g.bpc;
        geom_.cx = cs.x;
        geom_.cy = cs.y;
        geom_.chroma = g.format != PixelFormat::Yuv400;
        geom_.scales = s2::scale_count(g.width, g.height);
    }

private:
    void launch(const DeviceFrame& f, S2ScratchMem& scratch, void* sums, cudaStream_t s,
                FrameState& /*st*/) const override {
        if (geom_.chroma && f.planes < 3) throw Error(ErrorKind::Internal, "ssimulacra2_cuda: chroma planes not staged");
        const void* ref[3] = {f.ref[0].data, geom_.chroma ? f.ref[1].data : nullptr,
                              geom_.chroma ? f.ref[2].data : nullptr};
        const void* dist[3] = {f.dist[0].data, geom_.chroma ? f.dist[1].data : nullptr,
                               geom_.chroma ? f.dist[2].data : nullptr};
        const std::size_t pitch[3] = {f.ref[0].pitch, geom_.chroma ? f.ref[1].pitch : 0,
                                      geom_.chroma ? f.ref[2].pitch : 0};
        s2::cuda::launch_ssimulacra2(ref, dist, pitch, geom_, k_, scratch.layout, static_cast<double*>(sums), s);
    }

    void score(const void* sums, FrameState& st) const override {
        const auto* v = static_cast<const double*>(sums);
        std::vector<s2::ScaleNorms> scales;
        unsigned sw = geom_.w, sh = geom_.h;
        for (int scale = 0; scale < geom_.scales; ++scale) {
            if (scale > 0) {
                sw = (sw + 1) / 2;
                sh = (sh + 1) / 2;
            }
            s2::ScaleNorms norms;
            for (int c = 0; c < 3; ++c) {
                s2::MapSums m;
                for (int k = 0; k < 6; ++k) m.s[k] = v[(scale * 3 + c) * 6 + k];
                s2::add_channel_norms(norms, c, m, sw, sh);
            }
            scales.push_back(norms);
        }
        st.scores.emplace_back(0, s2::score_from_norms(scales));
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
