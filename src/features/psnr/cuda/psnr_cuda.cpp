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
    Event done;
};

/// The frame's sums (read back with the frame's results), scored in finish().
struct Pending final : psnr::PsnrFrame {
    Results sums;
};

class PsnrCuda final : public FeatureExtractor {
public:
    PsnrCuda(Session& s, const OptionValues& o, const VideoGeometry& g)
        : session_(s),
          bpc_(g.bpc),
          scoring_(o, g),
          mode_(dispatch_for(std::getenv("VMAF_CUDA_DISPATCH"), "psnr", g.width, g.height)),
          area_(s.reserve_results(3 * sizeof(unsigned long long))),
          pool_([this] {
              session_.bind();
              return std::make_unique<Work>();
          }) {}

    std::unique_ptr<FrameState> compute(unsigned index, const Picture& /*ref*/, const Picture& /*dist*/) const override {
        session_.bind();
        const DeviceFrame& f = session_.frame(index);
        Lease<Work> w(pool_);
        cudaStream_t s = w->stream.get();
        check(cudaStreamWaitEvent(s, f.ready, 0), "cudaStreamWaitEvent");
        auto* sums = static_cast<unsigned long long*>(session_.results_device(index, area_));
        for (unsigned p = 0; p < scoring_.planes(); ++p)
            psnr::cuda::launch_sse(f.ref[p].data, f.dist[p].data, f.ref[p].pitch, f.ref[p].width, f.ref[p].height, bpc_,
                                   sums + p, s);
        check(cudaGetLastError(), "psnr kernel launch");
        auto st = std::make_unique<Pending>();
        for (unsigned p = 0; p < scoring_.planes(); ++p)
            st->samples[p] = std::uint64_t{f.ref[p].width} * f.ref[p].height;
        st->sums = session_.submit(index, area_, s, w->done.get(), mode_);
        if (mode_ == Dispatch::Serial) collect(*st);
        return st;
    }

    void finish(unsigned index, FrameState& state, ScoreWriter& out) override {
        auto& st = static_cast<Pending&>(state);
        if (st.sums) collect(st);
        scoring_.finish(index, st, out);
    }

    void flush(ScoreWriter& out) override { scoring_.flush(out); }

private:
    /// The device's sums into the frame's scores (the CPU's code).
    void collect(Pending& st) const {
        const auto* h = st.sums.get<unsigned long long>();
        for (unsigned p = 0; p < scoring_.planes(); ++p) st.sse[p] = h[p];
        scoring_.score(st);
        st.sums = Results();
    }

    Session& session_;
    const unsigned bpc_;
    psnr::Scoring scoring_;
    const Dispatch mode_;
    const ResultArea area_;
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
