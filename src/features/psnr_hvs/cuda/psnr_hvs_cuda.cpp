// psnr_hvs_cuda: the CUDA twin of "psnr_hvs". Why its scores equal the CPU's:
// each 8x8 block's weighted errors are psnr_hvs_kernels.cpp's steps in the
// same order, per device thread: the integer DCT is the very same lifting
// sequence (psnr_hvs_dct.inc, included with device qualifiers, int32
// wrapping as the CPU's), the variance and masking sums are float in
// coefficient order, the masking root is taken in double, divisions and
// roots are IEEE (--fmad=false: no contraction), the weights are the host's
// floats. The plane's float sum over the blocks, whose rounding depends on
// its order, is the CPU's sequential sum (block rows, blocks, coefficients),
// taken a chunk at a time where that provably gives the same float
// (float_common/cuda/ordered_sum.cu says why) and term by term elsewhere; the host
// finishes it with the CPU's function.
#include <memory>

#include "backends/cuda/sums_twin.hpp"
#include "features/psnr_hvs/cuda/psnr_hvs_cuda_kernels.hpp"
#include "features/psnr_hvs/psnr_hvs_kernels.hpp"

namespace vmaf::cuda {

namespace {

class PsnrHvsCuda final : public SumsTwin<DeviceBuffer> {
public:
    PsnrHvsCuda(Session& s, const VideoGeometry& g)
        : SumsTwin(s, "psnr_hvs", g, 4 * sizeof(float),
                   [this] { return DeviceBuffer(psnr_hvs::cuda::hvs_scratch_bytes(planes_)); }),
          bpc_(g.bpc) {
        const ChromaShift cs = chroma_shift(g.format);
        for (unsigned p = 0; p < 3; ++p) {
            // As the CPU kind: chroma planes of floor(w / 2^shift) x floor(h / 2^shift).
            const unsigned w = p ? g.width >> cs.x : g.width, h = p ? g.height >> cs.y : g.height;
            planes_[p].nx = psnr_hvs::block_count(w);
            planes_[p].ny = psnr_hvs::block_count(h);
            const psnr_hvs::Weights& wt = psnr_hvs::weights(p);
            for (unsigned k = 0; k < 64; ++k) {
                planes_[p].csf[k] = wt.csf[k];
                planes_[p].mask[k] = wt.mask[k];
            }
        }
    }

private:
    void launch(const DeviceFrame& f, DeviceBuffer& scratch, void* sums, cudaStream_t s,
                FrameState& /*st*/) const override {
        psnr_hvs::cuda::HvsPlane p[3];
        for (unsigned i = 0; i < 3; ++i) {
            p[i] = planes_[i];
            p[i].ref = f.ref[i].data;
            p[i].dist = f.dist[i].data;
            p[i].pitch = f.ref[i].pitch;
        }
        psnr_hvs::cuda::launch_psnr_hvs(p, bpc_, scratch.get(), static_cast<float*>(sums), s);
    }

    void score(const void* sums, FrameState& st) const override {
        const auto* v = static_cast<const float*>(sums);
        double err[3];
        for (unsigned p = 0; p < 3; ++p) {
            err[p] = psnr_hvs::finish_error(v[p], planes_[p].nx, planes_[p].ny, bpc_);
            st.scores.emplace_back(p, psnr_hvs::to_db(err[p]));
        }
        st.scores.emplace_back(3, psnr_hvs::to_db(err[0] * .8 + .1 * (err[1] + err[2])));
    }

    psnr_hvs::cuda::HvsPlane planes_[3]{};
    const unsigned bpc_;
};

std::unique_ptr<FeatureExtractor> create(Session& s, const ExtractorInfo& kind, const OptionValues& o,
                                         const VideoGeometry& g, const ExtractorContext& ctx) {
    (void)kind.create(o, g, ctx);  // the CPU kind's checks (bit depth, chroma)
    return std::make_unique<PsnrHvsCuda>(s, g);
}

}  // namespace

extern const TwinDescriptor kPsnrHvsCudaTwin;
const TwinDescriptor kPsnrHvsCudaTwin{.kind = "psnr_hvs", .create = &create};

}  // namespace vmaf::cuda
