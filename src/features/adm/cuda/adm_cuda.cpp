// adm_cuda: the CUDA twin of "adm". The device runs the integer pipeline of
// all four scales and sums each scale's rows exactly; the host finishes the
// per-scale float math as the CPU kind does (adm_finish.*) and writes the CPU
// kind's outputs in its order.
#include <cstdlib>
#include <memory>
#include <string>

#include "backends/cuda/dispatch.hpp"
#include "backends/cuda/session.hpp"
#include "backends/cuda/twin_util.hpp"
#include "features/adm/adm_kernels.hpp"
#include "features/adm/adm_scores.hpp"
#include "features/adm/adm_simd.hpp"
#include "features/adm/cuda/adm_cuda_kernels.hpp"
#include "features/adm/cuda/adm_finish.hpp"

namespace vmaf::cuda {

namespace {

struct Work {
    Stream stream;
    DeviceBuffer scratch;
    Event done;
};

/// The frame's sums (read back with the frame's results), finished in finish().
struct Pending final : FrameState {
    Results sums;
};

class AdmCuda final : public FeatureExtractor {
public:
    AdmCuda(Session& s, const OptionValues& o, const VideoGeometry& g)
        : session_(s),
          w_(g.width),
          h_(g.height),
          settings_(adm::settings_from(o, g)),
          mode_(dispatch_for(std::getenv("VMAF_CUDA_DISPATCH"), "adm", g.width, g.height)),
          area_(s.reserve_results(adm::cuda::kSums * sizeof(unsigned long long))),
          pool_([this] {
              session_.bind();
              auto w = std::make_unique<Work>();
              w->scratch = DeviceBuffer(adm::cuda::scratch_bytes(w_, h_));
              return w;
          }) {
        fp_ = adm::cuda::make_params(settings_.params, w_, h_, g.bpc);
        // The CPU's reciprocal table, entries -32768..32768.
        const std::int32_t* lut = adm::div_lut() - 32768;
        lut_ = DeviceBuffer(65537 * sizeof(std::int32_t));
        check(cudaMemcpy(lut_.get(), lut, 65537 * sizeof(std::int32_t), cudaMemcpyHostToDevice), "div table upload");
    }

    std::unique_ptr<FrameState> compute(unsigned index, const Picture& /*ref*/, const Picture& /*dist*/) const override {
        session_.bind();
        const DeviceFrame& f = session_.frame(index);
        Lease<Work> w(pool_);
        cudaStream_t s = w->stream.get();
        check(cudaStreamWaitEvent(s, f.ready, 0), "cudaStreamWaitEvent");
        adm::cuda::launch_adm(f.ref[0].data, f.dist[0].data, f.ref[0].pitch, fp_, w->scratch.get(),
                              lut_.get<std::int32_t>() + 32768,
                              static_cast<unsigned long long*>(session_.results_device(index, area_)), s);
        check(cudaGetLastError(), "adm kernel launch");
        auto st = std::make_unique<Pending>();
        st->sums = session_.submit(index, area_, s, w->done.get(), mode_);
        if (mode_ == Dispatch::Serial) collect(*st);
        return st;
    }

    void finish(unsigned index, FrameState& state, ScoreWriter& out) override {
        auto& st = static_cast<Pending&>(state);
        if (st.sums) collect(st);
        FeatureExtractor::finish(index, state, out);
    }

private:
    /// The CPU's float finishing of the device's exact per-scale sums.
    void collect(Pending& st) const {
        adm::append_scores(adm::cuda::finish(settings_.params, fp_, st.sums.get<unsigned long long>(), w_, h_), settings_,
                           st.scores);
        st.sums = Results();
    }

    Session& session_;
    const unsigned w_, h_;
    const adm::Settings settings_;
    const Dispatch mode_;
    const ResultArea area_;
    adm::cuda::FrameParams fp_{};
    DeviceBuffer lut_;
    mutable Pool<Work> pool_;
};

std::unique_ptr<FeatureExtractor> create(Session& s, const ExtractorInfo& /*kind*/, const OptionValues& o,
                                         const VideoGeometry& g, const ExtractorContext& /*ctx*/) {
    return std::make_unique<AdmCuda>(s, o, g);
}

}  // namespace

extern const TwinDescriptor kAdmCudaTwin;
const TwinDescriptor kAdmCudaTwin{.kind = "adm", .create = &create};

}  // namespace vmaf::cuda
