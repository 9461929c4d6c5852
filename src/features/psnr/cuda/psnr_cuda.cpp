// psnr_cuda: the CUDA twin of "psnr". The device sums squared errors per
// plane (exact integers); the host turns them into scores with the CPU's code.
#include <memory>

#include "backends/cuda/session.hpp"
#include "backends/cuda/twin_util.hpp"
#include "features/psnr/cuda/psnr_cuda_kernels.hpp"
#include "features/psnr/psnr_kernels.hpp"

namespace vmaf::cuda {

namespace {

struct PsnrFrame final : FrameState {
    std::uint64_t sse[3] = {};
    std::uint64_t samples[3] = {};
};

struct Work {
    Stream stream;
    DeviceBuffer sums{3 * sizeof(unsigned long long)};
    PinnedBuffer host{3 * sizeof(unsigned long long)};
};

class PsnrCuda final : public FeatureExtractor {
public:
    PsnrCuda(Session& s, const ExtractorInfo& kind, const OptionValues& o, const VideoGeometry& g)
        : session_(s),
          bpc_(g.bpc),
          planes_(o.b(option_index(o, "enable_chroma")) && g.format != PixelFormat::Yuv400 ? 3u : 1u),
          enable_mse_(o.b(option_index(o, "enable_mse"))),
          enable_apsnr_(o.b(option_index(o, "enable_apsnr"))),
          peak_(psnr::peak(g.bpc, o.b(option_index(o, "reduced_hbd_peak")))),
          out_psnr_(output_index(kind, "psnr_y")),
          out_mse_(output_index(kind, "mse_y")),
          out_apsnr_(output_index(kind, "apsnr_y")),
          pool_([this] {
              session_.bind();
              return std::make_unique<Work>();
          }) {
        const bool ss_hor = g.format != PixelFormat::Yuv444;
        const bool ss_ver = g.format == PixelFormat::Yuv420;
        const double min_sse = o.d(option_index(o, "min_sse"));
        for (unsigned p = 0; p < 3; ++p) {
            const unsigned w = (p && ss_hor) ? g.width / 2 : g.width;
            const unsigned h = (p && ss_ver) ? g.height / 2 : g.height;
            psnr_max_[p] = psnr::psnr_max(g.bpc, peak_, min_sse, w, h);
        }
    }

    std::unique_ptr<FrameState> compute(unsigned index, const Picture& /*ref*/, const Picture& /*dist*/) const override {
        session_.bind();
        const DeviceFrame& f = session_.frame(index);
        Lease<Work> w(pool_);
        cudaStream_t s = w->stream.get();
        check(cudaStreamWaitEvent(s, f.ready, 0), "cudaStreamWaitEvent");
        check(cudaMemsetAsync(w->sums.get(), 0, 3 * sizeof(unsigned long long), s), "cudaMemsetAsync");
        auto* sums = w->sums.get<unsigned long long>();
        for (unsigned p = 0; p < planes_; ++p)
            psnr::cuda::launch_sse(f.ref[p].data, f.dist[p].data, f.ref[p].pitch, f.ref[p].width, f.ref[p].height, bpc_,
                                   sums + p, s);
        check(cudaGetLastError(), "psnr kernel launch");
        check(cudaMemcpyAsync(w->host.get(), sums, 3 * sizeof(unsigned long long), cudaMemcpyDeviceToHost, s), "readback");
        w->stream.sync();

        auto st = std::make_unique<PsnrFrame>();
        const auto* h = w->host.get<unsigned long long>();
        for (unsigned p = 0; p < planes_; ++p) {
            st->sse[p] = h[p];
            st->samples[p] = static_cast<unsigned>(f.ref[p].width * f.ref[p].height);
            const double mse = static_cast<double>(st->sse[p]) / static_cast<double>(f.ref[p].width * f.ref[p].height);
            st->scores.emplace_back(out_psnr_ + p, psnr::frame_psnr(mse, peak_, psnr_max_[p]));
            if (enable_mse_) st->scores.emplace_back(out_mse_ + p, mse);
        }
        return st;
    }

    void finish(unsigned index, FrameState& state, ScoreWriter& out) override {
        const auto& st = static_cast<const PsnrFrame&>(state);
        for (auto [o, v] : st.scores) out.write(index, o, v);
        if (enable_apsnr_)
            for (unsigned p = 0; p < planes_; ++p) {
                sse_[p] += st.sse[p];
                samples_[p] += st.samples[p];
            }
    }

    void flush(ScoreWriter& out) override {
        if (!enable_apsnr_) return;
        for (unsigned p = 0; p < 3; ++p)
            out.write_aggregate(out_apsnr_ + p, psnr::aggregate_psnr(sse_[p], samples_[p], peak_));
    }

private:
    Session& session_;
    const unsigned bpc_, planes_;
    const bool enable_mse_, enable_apsnr_;
    const std::uint32_t peak_;
    const unsigned out_psnr_, out_mse_, out_apsnr_;
    double psnr_max_[3] = {};
    mutable Pool<Work> pool_;
    std::uint64_t sse_[3] = {};
    std::uint64_t samples_[3] = {};
};

std::unique_ptr<FeatureExtractor> create(Session& s, const ExtractorInfo& kind, const OptionValues& o,
                                         const VideoGeometry& g, const ExtractorContext& /*ctx*/) {
    return std::make_unique<PsnrCuda>(s, kind, o, g);
}

}  // namespace

extern const TwinDescriptor kPsnrCudaTwin;
const TwinDescriptor kPsnrCudaTwin{.kind = "psnr", .create = &create};

}  // namespace vmaf::cuda
