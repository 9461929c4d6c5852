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

namespace vmaf::cuda {

namespace {

struct Work {
    Stream stream;
    DeviceBuffer scratch;
    PinnedBuffer host{16 * sizeof(long long)};
    vif::cuda::Scratch layout{};
    Event done;
};

/// Batched dispatch: the frame's work in flight, finished in finish().
struct Pending final : FrameState {
    std::unique_ptr<Work> work;
};

struct Stat {
    float num = 0.f, den = 0.f;
};

/// The CPU kind's float finishing of one scale's integer sums.
Stat finish_scale(const long long* s) {
    const long long num_log = s[0], den_log = s[1], num_non_log = s[2], den_non_log = s[3];
    Stat out;
    out.num = static_cast<float>(static_cast<double>(num_log) / 2048.0 +
                                 (static_cast<double>(den_non_log) - (static_cast<double>(num_non_log) / 16384.0) / 65025.0));
    out.den = static_cast<float>(static_cast<double>(den_log) / 2048.0 + static_cast<double>(den_non_log));
    return out;
}

class VifCuda final : public FeatureExtractor {
public:
    VifCuda(Session& s, const ExtractorInfo& kind, const OptionValues& o, const VideoGeometry& g)
        : session_(s),
          w_(g.width),
          h_(g.height),
          bpc_(g.bpc),
          debug_(o.b(option_index(o, "debug"))),
          egl_(o.d(option_index(o, "vif_enhn_gain_limit"))),
          skip0_(o.b(option_index(o, "vif_skip_scale0"))),
          out_scale0_(output_index(kind, "VMAF_integer_feature_vif_scale0_score")),
          out_vif_(output_index(kind, "integer_vif")),
          out_num_(output_index(kind, "integer_vif_num")),
          out_den_(output_index(kind, "integer_vif_den")),
          out_num0_(output_index(kind, "integer_vif_num_scale0")),
          mode_(dispatch_for(std::getenv("VMAF_CUDA_DISPATCH"), "vif", g.width, g.height)),
          pool_([this] {
              session_.bind();
              auto w = std::make_unique<Work>();
              w->scratch = DeviceBuffer(vif::cuda::scratch_bytes(w_, h_));
              w->layout = vif::cuda::scratch_layout(w->scratch.get(), w_, h_, table_.get<std::uint16_t>());
              return w;
          }) {
        if (g.bpc < vif::kMinBpc || g.bpc > vif::kMaxBpc)
            throw Error(ErrorKind::Input, "vif: unsupported bit depth " + std::to_string(g.bpc) + " (8..16 supported)");
        if (g.width < vif::kMinDimension || g.height < vif::kMinDimension)
            throw Error(ErrorKind::Input, "vif: frame " + std::to_string(g.width) + "x" + std::to_string(g.height) +
                                              " is too small (at least " + std::to_string(vif::kMinDimension) + "x" +
                                              std::to_string(vif::kMinDimension) + " needed)");
        const auto& t = vif::log2_table();
        table_ = DeviceBuffer(t.size() * sizeof(std::uint16_t));
        check(cudaMemcpy(table_.get(), t.data(), t.size() * sizeof(std::uint16_t), cudaMemcpyHostToDevice),
              "log2 table upload");
    }

    std::unique_ptr<FrameState> compute(unsigned index, const Picture& /*ref*/, const Picture& /*dist*/) const override {
        session_.bind();
        const DeviceFrame& f = session_.frame(index);
        std::unique_ptr<Work> w = pool_.acquire();
        cudaStream_t s = w->stream.get();
        check(cudaStreamWaitEvent(s, f.ready, 0), "cudaStreamWaitEvent");
        check(cudaMemsetAsync(w->layout.sums, 0, 16 * sizeof(long long), s), "cudaMemsetAsync");
        vif::cuda::launch_vif(f.ref[0].data, f.dist[0].data, f.ref[0].pitch, w_, h_, bpc_, egl_, skip0_, w->layout, s);
        check(cudaGetLastError(), "vif kernel launch");
        check(cudaMemcpyAsync(w->host.get(), w->layout.sums, 16 * sizeof(long long), cudaMemcpyDeviceToHost, s),
              "readback");
        if (mode_ == Dispatch::Batched) {
            check(cudaEventRecord(w->done.get(), s), "cudaEventRecord");
            session_.add_reader(index, w->done.get());
            auto st = std::make_unique<Pending>();
            st->work = std::move(w);
            return st;
        }
        w->stream.sync();
        auto state = std::make_unique<FrameState>();
        finish_scores(w->host.get<long long>(), state->scores);
        pool_.release(std::move(w));
        return state;
    }

    void finish(unsigned index, FrameState& state, ScoreWriter& out) override {
        if (auto* p = dynamic_cast<Pending*>(&state); p && p->work) {
            check(cudaEventSynchronize(p->work->done.get()), "cudaEventSynchronize");
            finish_scores(p->work->host.get<long long>(), state.scores);
            pool_.release(std::move(p->work));
        }
        FeatureExtractor::finish(index, state, out);
    }

private:
    void finish_scores(const long long* sums, ScoreList& out) const {
        std::array<Stat, 4> st;
        for (unsigned k = 0; k < 4; ++k) st[k] = finish_scale(sums + 4 * k);
        if (skip0_) st[0] = Stat{};
        write_scores(st, out);
    }

    void write_scores(const std::array<Stat, 4>& st, ScoreList& out) const {
        auto ratio = [](const Stat& s) { return static_cast<double>(s.num / s.den); };
        out.emplace_back(out_scale0_ + 0, skip0_ ? 0.0 : ratio(st[0]));
        out.emplace_back(out_scale0_ + 1, ratio(st[1]));
        out.emplace_back(out_scale0_ + 2, ratio(st[2]));
        out.emplace_back(out_scale0_ + 3, ratio(st[3]));
        if (!debug_) return;
        double num = 0.0, den = 0.0;
        if (skip0_) {
            num = static_cast<double>(st[1].num) + static_cast<double>(st[2].num) + static_cast<double>(st[3].num);
            den = static_cast<double>(st[1].den) + static_cast<double>(st[2].den) + static_cast<double>(st[3].den);
        } else {
            num = static_cast<double>(st[0].num) + static_cast<double>(st[1].num) + static_cast<double>(st[2].num) +
                  static_cast<double>(st[3].num);
            den = static_cast<double>(st[0].den) + static_cast<double>(st[1].den) + static_cast<double>(st[2].den) +
                  static_cast<double>(st[3].den);
        }
        out.emplace_back(out_vif_, den == 0.0 ? 1.0 : num / den);
        out.emplace_back(out_num_, num);
        out.emplace_back(out_den_, den);
        out.emplace_back(out_num0_, skip0_ ? 0.0 : static_cast<double>(st[0].num));
        out.emplace_back(out_num0_ + 1, skip0_ ? -1.0 : static_cast<double>(st[0].den));
        for (unsigned s = 1; s < 4; ++s) {
            out.emplace_back(out_num0_ + 2 * s, static_cast<double>(st[s].num));
            out.emplace_back(out_num0_ + 2 * s + 1, static_cast<double>(st[s].den));
        }
    }

    Session& session_;
    const unsigned w_, h_, bpc_;
    const bool debug_;
    const double egl_;
    const bool skip0_;
    const unsigned out_scale0_, out_vif_, out_num_, out_den_, out_num0_;
    const Dispatch mode_;
    DeviceBuffer table_;
    mutable Pool<Work> pool_;
};

std::unique_ptr<FeatureExtractor> create(Session& s, const ExtractorInfo& kind, const OptionValues& o,
                                         const VideoGeometry& g, const ExtractorContext& /*ctx*/) {
    return std::make_unique<VifCuda>(s, kind, o, g);
}

}  // namespace

extern const TwinDescriptor kVifCudaTwin;
const TwinDescriptor kVifCudaTwin{.kind = "vif", .create = &create};

}  // namespace vmaf::cuda
