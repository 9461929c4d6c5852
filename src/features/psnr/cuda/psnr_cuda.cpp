// psnr_cuda: the CUDA twin of "psnr". The device sums squared errors per
// plane (exact integers); the host turns them into scores with the CPU's code.
#include <cstdlib>
#include <memory>

#include "backends/cuda/dispatch.hpp"
#include "backends/cuda/session.hpp"
#include "backends/cuda/twin_util.hpp"
#include "features/psnr/cuda/psnr_cuda_kernels.hpp"
#include "features/psnr/psnr_kernels.hpp"
#include "features/psnr/psnr_scoring.hpp"

namespace vmaf::cuda {

namespace {

struct Work {
    Stream stream;
    DeviceBuffer sums{3 * sizeof(unsigned long long)};
    PinnedBuffer host{3 * sizeof(unsigned long long)};
    Event done;
};

/// Batched dispatch: the frame's sums in flight, scored in finish().
struct Pending final : psnr::PsnrFrame {
    std::unique_ptr<Work> work;
};

class PsnrCuda final : public FeatureExtractor {
public:
    PsnrCuda(Session& s, const OptionValues& o, const VideoGeometry& g)
        : session_(s),
          bpc_(g.bpc),
          scoring_(o, g),
          mode_(dispatch_for(std::getenv("VMAF_CUDA_DISPATCH"), "psnr", g.width, g.height)),
          pool_([this] {
              session_.bind();
              return std::make_unique<Work>();
          }) {}

    std::unique_ptr<FrameState> compute(unsigned index, const Picture& /*ref*/, const Picture& /*dist*/) const override {
        session_.bind();
        const DeviceFrame& f = session_.frame(index);
        std::unique_ptr<Work> w = pool_.acquire();
        cudaStream_t s = w->stream.get();
        check(cudaStreamWaitEvent(s, f.ready, 0), "cudaStreamWaitEvent");
        check(cudaMemsetAsync(w->sums.get(), 0, 3 * sizeof(unsigned long long), s), "cudaMemsetAsync");
        auto* sums = w->sums.get<unsigned long long>();
        for (unsigned p = 0; p < scoring_.planes(); ++p)
            psnr::cuda::launch_sse(f.ref[p].data, f.dist[p].data, f.ref[p].pitch, f.ref[p].width, f.ref[p].height, bpc_,
                                   sums + p, s);
        check(cudaGetLastError(), "psnr kernel launch");
        check(cudaMemcpyAsync(w->host.get(), sums, 3 * sizeof(unsigned long long), cudaMemcpyDeviceToHost, s), "readback");
        auto st = std::make_unique<Pending>();
        for (unsigned p = 0; p < scoring_.planes(); ++p)
            st->samples[p] = std::uint64_t{f.ref[p].width} * f.ref[p].height;
        st->work = std::move(w);
        if (mode_ == Dispatch::Batched) {
            check(cudaEventRecord(st->work->done.get(), s), "cudaEventRecord");
            session_.add_reader(index, st->work->done.get());
            return st;
        }
        st->work->stream.sync();
        collect(*st);
        return st;
    }

    void finish(unsigned index, FrameState& state, ScoreWriter& out) override {
        auto& st = static_cast<Pending&>(state);
        if (st.work) {
            check(cudaEventSynchronize(st.work->done.get()), "cudaEventSynchronize");
            collect(st);
        }
        scoring_.finish(index, st, out);
    }

    void flush(ScoreWriter& out) override { scoring_.flush(out); }

private:
    /// The device's sums into the frame's scores (the CPU's code); returns the work to the pool.
    void collect(Pending& st) const {
        const auto* h = st.work->host.get<unsigned long long>();
        for (unsigned p = 0; p < scoring_.planes(); ++p) st.sse[p] = h[p];
        scoring_.score(st);
        pool_.release(std::move(st.work));
    }

    Session& session_;
    const unsigned bpc_;
    psnr::Scoring scoring_;
    const Dispatch mode_;
    mutable Pool<Work> pool_;
};

std::unique_ptr<FeatureExtractor> create(Session& s, const ExtractorInfo& /*kind*/, const OptionValues& o,
                                         const VideoGeometry& g, const ExtractorContext& /*ctx*/) {
    return std::make_unique<PsnrCuda>(s, o, g);
}

}  // namespace

extern const TwinDescriptor kPsnrCudaTwin;
const TwinDescriptor kPsnrCudaTwin{.kind = "psnr", .create = &create};

}  // namespace vmaf::cuda
