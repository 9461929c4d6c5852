// adm_cuda: the CUDA twin of "adm". The device runs the integer pipeline of
// all four scales and sums each scale's rows exactly; the host finishes the
// per-scale float math as the CPU kind does (adm_finish.*) and writes the CPU
// kind's outputs in its order.
#include <memory>

#include "backends/cuda/sums_twin.hpp"
#include "features/adm/adm_kernels.hpp"
#include "features/adm/adm_scores.hpp"
#include "features/adm/adm_simd.hpp"
#include "features/adm/cuda/adm_cuda_kernels.hpp"
#include "features/adm/cuda/adm_finish.hpp"

namespace vmaf::cuda {

namespace {

class AdmCuda final : public SumsTwin<DeviceBuffer> {
public:
    AdmCuda(Session& s, const OptionValues& o, const VideoGeometry& g)
        : SumsTwin(s, "adm", g, adm::cuda::kSums * sizeof(unsigned long long),
                   [this] { return DeviceBuffer(adm::cuda::scratch_bytes(w_, h_)); }),
          w_(g.width),
          h_(g.height),
          settings_(adm::settings_from(o, g)) {
        fp_ = adm::cuda::make_params(settings_.params, w_, h_, g.bpc);
        // The CPU's reciprocal table, entries -32768..32768.
        const std::int32_t* lut = adm::div_lut() - 32768;
        lut_ = DeviceBuffer(65537 * sizeof(std::int32_t));
        check(cudaMemcpy(lut_.get(), lut, 65537 * sizeof(std::int32_t), cudaMemcpyHostToDevice), "div table upload");
    }

private:
    void launch(const DeviceFrame& f, DeviceBuffer& scratch, void* sums, cudaStream_t s,
                FrameState& /*st*/) const override {
        adm::cuda::launch_adm(f.ref[0].data, f.dist[0].data, f.ref[0].pitch, fp_, scratch.get(),
                              lut_.get<std::int32_t>() + 32768, static_cast<unsigned long long*>(sums), s);
    }

    /// The CPU's float finishing of the device's exact per-scale sums.
    void score(const void* sums, FrameState& st) const override {
        adm::append_scores(
            adm::cuda::finish(settings_.params, fp_, static_cast<const unsigned long long*>(sums), w_, h_), settings_,
            st.scores);
    }

    const unsigned w_, h_;
    const adm::Settings settings_;
    adm::cuda::FrameParams fp_{};
    DeviceBuffer lut_;
};

std::unique_ptr<FeatureExtractor> create(Session& s, const ExtractorInfo& /*kind*/, const OptionValues& o,
                                         const VideoGeometry& g, const ExtractorContext& /*ctx*/) {
    return std::make_unique<AdmCuda>(s, o, g);
}

}  // namespace

extern const TwinDescriptor kAdmCudaTwin;
const TwinDescriptor kAdmCudaTwin{.kind = "adm", .create = &create};

}  // namespace vmaf::cuda
