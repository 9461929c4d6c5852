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
    DeviceBuffer sums{adm::cuda::kSums * sizeof(unsigned long long)};
    PinnedBuffer host{adm::cuda::kSums * sizeof(unsigned long long)};
    Event done;
};

/// Batched dispatch: the frame's work in flight, finished in finish().
struct Pending final : FrameState {
    std::unique_ptr<Work> work;
};

class AdmCuda final : public FeatureExtractor {
public:
    AdmCuda(Session& s, const OptionValues& o, const VideoGeometry& g)
        : session_(s),
          w_(g.width),
          h_(g.height),
          settings_(adm::settings_from(o, g)),
          mode_(dispatch_for(std::getenv("VMAF_CUDA_DISPATCH"), "adm", g.width, g.height)),
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
        std::unique_ptr<Work> w = pool_.acquire();
        cudaStream_t s = w->stream.get();
        check(cudaStreamWaitEvent(s, f.ready, 0), "cudaStreamWaitEvent");
        adm::cuda::launch_adm(f.ref[0].data, f.dist[0].data, f.ref[0].pitch, fp_, w->scratch.get(),
                              lut_.get<std::int32_t>() + 32768, w->sums.get<unsigned long long>(), s);
        check(cudaGetLastError(), "adm kernel launch");
        check(cudaMemcpyAsync(w->host.get(), w->sums.get(), adm::cuda::kSums * sizeof(unsigned long long),
                              cudaMemcpyDeviceToHost, s),
              "readback");
        if (mode_ == Dispatch::Batched) {
            check(cudaEventRecord(w->done.get(), s), "cudaEventRecord");
            session_.add_reader(index, w->done.get());
            auto st = std::make_unique<Pending>();
            st->work = std::move(w);
            return st;
        }
        w->stream.sync();
        auto st = std::make_unique<FrameState>();
        adm::append_scores(adm::cuda::finish(settings_.params, fp_, w->host.get<unsigned long long>(), w_, h_), settings_,
                           st->scores);
        pool_.release(std::move(w));
        return st;
    }

    void finish(unsigned index, FrameState& state, ScoreWriter& out) override {
        if (auto* p = dynamic_cast<Pending*>(&state); p && p->work) {
            check(cudaEventSynchronize(p->work->done.get()), "cudaEventSynchronize");
            adm::append_scores(adm::cuda::finish(settings_.params, fp_, p->work->host.get<unsigned long long>(), w_, h_),
                               settings_, state.scores);
            pool_.release(std::move(p->work));
        }
        FeatureExtractor::finish(index, state, out);
    }

private:
    Session& session_;
    const unsigned w_, h_;
    const adm::Settings settings_;
    const Dispatch mode_;
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
