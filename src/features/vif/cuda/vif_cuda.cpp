// vif_cuda: the CUDA twin of "vif". The device computes the four scales'
// integer sums (exact); the host finishes each scale's float num/den and the
// scores exactly as the CPU kind does.
#include <array>
#include <cstdlib>
#include <memory>
#include <string>

#include "backends/cuda/dispatch.hpp"
#include "backends/cuda/session.hpp"
#include "backends/cuda/twin_util.hpp"
#include "features/vif/cuda/vif_cuda_kernels.hpp"
#include "features/vif/vif_kernels.hpp"
#include "features/vif/vif_scores.hpp"

namespace vmaf::cuda {

namespace {

struct Work {
    Stream stream;
    DeviceBuffer scratch;
    vif::cuda::Scratch layout{};
    Event done;
};

/// The frame's sums (read back with the frame's results), finished in finish().
struct Pending final : FrameState {
    Results sums;
};

class VifCuda final : public FeatureExtractor {
public:
    VifCuda(Session& s, const OptionValues& o, const VideoGeometry& g)
        : session_(s),
          w_(g.width),
          h_(g.height),
          bpc_(g.bpc),
          debug_(o.b(option_index(o, "debug"))),
          egl_(o.d(option_index(o, "vif_enhn_gain_limit"))),
          skip0_(o.b(option_index(o, "vif_skip_scale0"))),
          mode_(dispatch_for(std::getenv("VMAF_CUDA_DISPATCH"), "vif", g.width, g.height)),
          area_(s.reserve_results(16 * sizeof(long long))),
          pool_([this] {
              session_.bind();
              auto w = std::make_unique<Work>();
              w->scratch = DeviceBuffer(vif::cuda::scratch_bytes(w_, h_));
              w->layout = vif::cuda::scratch_layout(w->scratch.get(), w_, h_, table_.get<std::uint16_t>());
              return w;
          }) {
        vif::check_geometry(g.bpc, g.width, g.height);
        const auto& t = vif::log2_table();
        table_ = DeviceBuffer(t.size() * sizeof(std::uint16_t));
        check(cudaMemcpy(table_.get(), t.data(), t.size() * sizeof(std::uint16_t), cudaMemcpyHostToDevice),
              "log2 table upload");
    }

    std::unique_ptr<FrameState> compute(unsigned index, const Picture& /*ref*/, const Picture& /*dist*/) const override {
        session_.bind();
        const DeviceFrame& f = session_.frame(index);
        Lease<Work> w(pool_);
        cudaStream_t s = w->stream.get();
        check(cudaStreamWaitEvent(s, f.ready, 0), "cudaStreamWaitEvent");
        vif::cuda::launch_vif(f.ref[0].data, f.dist[0].data, f.ref[0].pitch, w_, h_, bpc_, egl_, skip0_, w->layout,
                              static_cast<long long*>(session_.results_device(index, area_)), s);
        check(cudaGetLastError(), "vif kernel launch");
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
        const long long* sums = st.sums.get<long long>();
        std::array<vif::ScaleStat, vif::kScales> stat;
        for (unsigned k = 0; k < vif::kScales; ++k)
            stat[k] = vif::finish_statistic(vif::StatSums{sums[4 * k], sums[4 * k + 1], sums[4 * k + 2], sums[4 * k + 3]});
        vif::append_scores(stat, skip0_, debug_, st.scores);
        st.sums = Results();
    }

    Session& session_;
    const unsigned w_, h_, bpc_;
    const bool debug_;
    const double egl_;
    const bool skip0_;
    const Dispatch mode_;
    const ResultArea area_;
    DeviceBuffer table_;
    mutable Pool<Work> pool_;
};

std::unique_ptr<FeatureExtractor> create(Session& s, const ExtractorInfo& /*kind*/, const OptionValues& o,
                                         const VideoGeometry& g, const ExtractorContext& /*ctx*/) {
    return std::make_unique<VifCuda>(s, o, g);
}

}  // namespace

extern const TwinDescriptor kVifCudaTwin;
const TwinDescriptor kVifCudaTwin{.kind = "vif", .create = &create};

}  // namespace vmaf::cuda
