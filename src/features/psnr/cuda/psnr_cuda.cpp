// psnr_cuda: the CUDA twin of "psnr". The device sums squared errors per
// plane (exact integers); the host turns them into scores with the CPU's code.
#include <memory>

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
};

class PsnrCuda final : public FeatureExtractor {
public:
    PsnrCuda(Session& s, const OptionValues& o, const VideoGeometry& g)
        : session_(s),
          bpc_(g.bpc),
          scoring_(o, g),
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
        check(cudaMemsetAsync(w->sums.get(), 0, 3 * sizeof(unsigned long long), s), "cudaMemsetAsync");
        auto* sums = w->sums.get<unsigned long long>();
        for (unsigned p = 0; p < scoring_.planes(); ++p)
            psnr::cuda::launch_sse(f.ref[p].data, f.dist[p].data, f.ref[p].pitch, f.ref[p].width, f.ref[p].height, bpc_,
                                   sums + p, s);
        check(cudaGetLastError(), "psnr kernel launch");
        check(cudaMemcpyAsync(w->host.get(), sums, 3 * sizeof(unsigned long long), cudaMemcpyDeviceToHost, s), "readback");
        w->stream.sync();

        auto st = std::make_unique<psnr::PsnrFrame>();
        const auto* h = w->host.get<unsigned long long>();
        for (unsigned p = 0; p < scoring_.planes(); ++p) {
            st->sse[p] = h[p];
            st->samples[p] = std::uint64_t{f.ref[p].width} * f.ref[p].height;
        }
        scoring_.score(*st);
        return st;
    }

    void finish(unsigned index, FrameState& state, ScoreWriter& out) override {
        scoring_.finish(index, static_cast<const psnr::PsnrFrame&>(state), out);
    }

    void flush(ScoreWriter& out) override { scoring_.flush(out); }

private:
    Session& session_;
    const unsigned bpc_;
    psnr::Scoring scoring_;
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
