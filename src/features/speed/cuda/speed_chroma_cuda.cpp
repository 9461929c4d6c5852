// speed_chroma_cuda: the CUDA twin of "speed_chroma". Per frame the device
// prescales, filters and decimates both chroma planes of reference and
// distorted, removes the local means and forms each image's 5x5-block
// covariance, the four images in the same launches (speed_cuda_kernels.cu);
// the read-back band-passed images and covariances are finished on the host
// by the CPU kind's own code (Estimator::finish_estimate, combine,
// speed::chroma_scores; the four images concurrently): eigenvalues, the
// linear solve and the entropies, so the scores are the CPU's bit for bit.
#include <memory>
#include <vector>

#include "backends/cuda/sums_twin.hpp"
#include "backends/cuda/twin_util.hpp"
#include "features/speed/cuda/speed_cuda_plan.hpp"
#include "features/speed/speed_chroma.hpp"

namespace vmaf::cuda {

namespace {

/// What SumsTwin's constructor needs sized before it runs (base-from-member).
struct ChromaCore {
    ChromaCore(Session& s, const OptionValues& o, const VideoGeometry& g, unsigned cpumask)
        : size(speed::chroma_size(g)),
          est(speed::chroma_options(o), size.w, size.h, speed::speed_registry().select(cpumask)),
          plan((s.bind(), est)) {}
    const speed::ChromaSize size;
    const speed::Estimator est;
    const speed::cuda::DevicePlan plan;
};

/// Results per frame: u ref, u dis, v ref, v dis (each DevicePlan::result_floats()).
class SpeedChromaCuda final : private ChromaCore, public SumsTwin<DeviceBuffer> {
public:
    SpeedChromaCuda(Session& s, const OptionValues& o, const VideoGeometry& g, unsigned cpumask)
        : ChromaCore(s, o, g, cpumask),
          SumsTwin(s, "speed_chroma", g, 4 * plan.result_floats() * sizeof(float),
                   [this] { return DeviceBuffer(plan.scratch_bytes(4)); }),
          bpc_(g.bpc),
          max_val_(o.d(speed::kMaxVal)) {
        speed::check_depth(g.bpc);
    }

private:
    void launch(const DeviceFrame& f, DeviceBuffer& scratch, void* sums, cudaStream_t s,
                FrameState& /*st*/) const override {
        float* out = static_cast<float*>(sums);
        const speed::cuda::PlaneIn planes[4] = {{f.ref[1].data, f.ref[1].pitch},
                                                {f.dist[1].data, f.dist[1].pitch},
                                                {f.ref[2].data, f.ref[2].pitch},
                                                {f.dist[2].data, f.dist[2].pitch}};
        speed::cuda::launch_bands(plan.plan(), planes, 4, bpc_, -128.0f, scratch.get(), out, s);
        speed::cuda::launch_moments(plan.plan(), out, 4, scratch.get(), s);
    }

    void score(const void* sums, FrameState& st) const override {
        speed::cuda::DevicePlan::Finished img[4];  // u ref, u dis, v ref, v dis
        plan.finish(static_cast<const float*>(sums), 4, img);
        float value[2];
        bool err[2];
        for (unsigned c = 0; c < 2; ++c) {
            const auto &r = img[2 * c], &d = img[2 * c + 1];
            value[c] = est.combine(r.entropy, r.variance, r.ok, d.entropy, d.variance, d.ok, err[c]);
        }
        st.scores = speed::chroma_scores(value[0], err[0], value[1], err[1], max_val_);
    }

    const unsigned bpc_;
    const double max_val_;
};

std::unique_ptr<FeatureExtractor> create(Session& s, const ExtractorInfo& kind, const OptionValues& o,
                                         const VideoGeometry& g, const ExtractorContext& ctx) {
    (void)kind.create(o, g, ctx);  // the CPU kind's checks of the geometry and options
    return std::make_unique<SpeedChromaCuda>(s, o, g, ctx.cpumask);
}

}  // namespace

extern const TwinDescriptor kSpeedChromaCudaTwin;
const TwinDescriptor kSpeedChromaCudaTwin{.kind = "speed_chroma", .create = &create};

}  // namespace vmaf::cuda
