// speed_temporal_cuda: the CUDA twin of "speed_temporal". compute() loads the
// frame's luma planes (reference, distorted) as the CPU's floats into a
// device buffer kept for the next frame, concurrently per frame; finish()
// forms, in frame order, the differences with the previous frame's planes
// and runs the SpEED filtering and block covariance on them on the device
// (speed_cuda_kernels.cu). The results are read back several frames at a
// time (BatchedReadback: batched, a frame's score is written up to two
// batches later) and finished by the CPU kind's code
// (Estimator::finish_estimate and combine; a batch's images concurrently):
// every value is the CPU's bit for bit. Frame 0 scores 0 at once, as on the
// CPU.
#include <cstdlib>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "backends/cuda/batched_readback.hpp"
#include "backends/cuda/dispatch.hpp"
#include "backends/cuda/session.hpp"
#include "backends/cuda/twin_util.hpp"
#include "features/speed/cuda/speed_cuda_plan.hpp"
#include "features/speed/speed_options.hpp"

namespace vmaf::cuda {

namespace {

/// One frame's loaded luma (reference, then distorted; w x h floats each).
/// `free` is recorded after the last kernel that reads them.
struct Planes {
    DeviceBuffer px;
    Event free;
};

struct TemporalFrame final : FrameState {
    std::unique_ptr<Planes> planes;
};

struct Work {
    Stream stream;
    Event done;
};

class SpeedTemporalCuda final : public FeatureExtractor {
public:
    SpeedTemporalCuda(Session& s, const OptionValues& o, const VideoGeometry& g, unsigned cpumask)
        : session_(s),
          w_(g.width),
          h_(g.height),
          bpc_(g.bpc),
          use_ref_diff_(o.b(option_index(o, "speed_use_ref_diff"))),
          mode_(dispatch_for(std::getenv("VMAF_CUDA_DISPATCH"), "speed_temporal", g.width, g.height)),
          est_(speed::shared_options(o), w_, h_, speed::speed_registry().select(cpumask)),
          plan_((s.bind(), est_)) {
        speed::check_depth(g.bpc);
        const std::size_t plane = std::size_t{w_} * h_;
        work_ = std::make_unique<Pool<Work>>([this] {
            session_.bind();
            return std::make_unique<Work>();
        });
        buffers_ = std::make_unique<Pool<Planes>>([this, plane] {
            session_.bind();
            auto b = std::make_unique<Planes>();
            b->px = DeviceBuffer(2 * plane * sizeof(float));
            return b;
        });
        scratch_ = DeviceBuffer(plan_.scratch_bytes(2));
        results_.emplace(2 * plan_.result_floats(), mode_);
    }

    ~SpeedTemporalCuda() override {
        history_.reset();
        if (buffers_) buffers_->clear();
    }

    std::unique_ptr<FrameState> compute(unsigned index, const Picture& /*ref*/,
                                        const Picture& /*dist*/) const override {
        auto st = std::make_unique<TemporalFrame>();
        session_.bind();
        const DeviceFrame& f = session_.frame(index);
        Lease<Work> w(*work_);
        st->planes = buffers_->acquire();
        const cudaStream_t s = w->stream.get();
        check(cudaStreamWaitEvent(s, f.ready, 0), "cudaStreamWaitEvent");
        check(cudaStreamWaitEvent(s, st->planes->free.get(), 0), "cudaStreamWaitEvent");
        float* px = st->planes->px.get<float>();
        speed::cuda::launch_load(f.ref[0].data, f.ref[0].pitch, w_, h_, bpc_, -128.0f, px, s);
        speed::cuda::launch_load(f.dist[0].data, f.dist[0].pitch, w_, h_, bpc_, -128.0f, px + std::size_t{w_} * h_, s);
        check(cudaGetLastError(), "speed_temporal kernel launch");
        if (mode_ == Dispatch::Batched) {
            // finish()'s work on ordered_ follows this frame's loads; the
            // staged frame is kept until they are done.
            check(cudaEventRecord(w->done.get(), s), "cudaEventRecord");
            check(cudaStreamWaitEvent(ordered_.get(), w->done.get(), 0), "cudaStreamWaitEvent");
            session_.add_reader(index, w->done.get());
        } else {
            w->stream.sync();
        }
        return st;
    }

    void finish(unsigned index, FrameState& state, ScoreWriter& out) override {
        auto& st = static_cast<TemporalFrame&>(state);
        if (!history_) {
            // The first frame (no earlier frame) scores 0 at once, so that
            // the report's keys come in the CPU kind's order.
            out.write(index, 0, 0.0);
            history_ = std::move(st.planes);
            return;
        }
        session_.bind();
        const cudaStream_t s = ordered_.get();
        const std::size_t plane = std::size_t{w_} * h_;
        float* res = results_->next();
        const float* prev = history_->px.get<float>();
        const float* cur = st.planes->px.get<float>();
        // As the CPU: (ref[i-1] - ref[i]) against (dis[i-1] - dis[i]), or - ref[i] with speed_use_ref_diff.
        const speed::cuda::DiffIn diffs[2] = {{prev, cur}, {prev + plane, use_ref_diff_ ? cur : cur + plane}};
        speed::cuda::launch_bands(plan_.plan(), diffs, 2, scratch_.get(), res, s);
        speed::cuda::launch_moments(plan_.plan(), res, 2, scratch_.get(), s);
        check(cudaGetLastError(), "speed_temporal kernel launch");
        // The previous frame's planes are reusable once the work enqueued so far has read them.
        check(cudaEventRecord(history_->free.get(), s), "cudaEventRecord");
        buffers_->release(std::move(history_));
        history_ = std::move(st.planes);
        results_->add(index, s, [&](auto frames, auto* res) { score(frames, res, out); });
    }

    void flush(ScoreWriter& out) override {
        session_.bind();  // a call of its own: the thread may have another context current
        results_->flush(ordered_.get(), [&](auto frames, auto* res) { score(frames, res, out); });
        if (history_) buffers_->release(std::move(history_));
    }

private:
    /// Finishes read-back frames (their images concurrently) and writes their scores, in frame order.
    void score(std::span<const unsigned> frames, const float* results, ScoreWriter& out) {
        finished_.resize(2 * frames.size());
        plan_.finish(results, static_cast<unsigned>(finished_.size()), finished_.data());
        for (std::size_t f = 0; f < frames.size(); ++f) {
            const auto &r = finished_[2 * f], &d = finished_[2 * f + 1];
            bool err = false;
            const double value = est_.combine(r.entropy, r.variance, r.ok, d.entropy, d.variance, d.ok, err);
            out.write(frames[f], 0, value);
        }
    }

    Session& session_;
    const unsigned w_, h_, bpc_;
    const bool use_ref_diff_;
    const Dispatch mode_;
    const speed::Estimator est_;
    const speed::cuda::DevicePlan plan_;
    std::unique_ptr<Pool<Work>> work_;
    std::unique_ptr<Pool<Planes>> buffers_;  ///< planes in flight + history

    // Ordered-stage state.
    Stream ordered_;
    DeviceBuffer scratch_;
    std::optional<BatchedReadback<float>> results_;            ///< per frame: the two images' results
    std::vector<speed::cuda::DevicePlan::Finished> finished_;  ///< score()'s per-image statistics
    std::unique_ptr<Planes> history_;                          ///< the previous frame's planes
};

std::unique_ptr<FeatureExtractor> create(Session& s, const ExtractorInfo& kind, const OptionValues& o,
                                         const VideoGeometry& g, const ExtractorContext& ctx) {
    (void)kind.create(o, g, ctx);  // the CPU kind's checks of the geometry and options
    return std::make_unique<SpeedTemporalCuda>(s, o, g, ctx.cpumask);
}

}  // namespace

extern const TwinDescriptor kSpeedTemporalCudaTwin;
const TwinDescriptor kSpeedTemporalCudaTwin{.kind = "speed_temporal", .create = &create};

}  // namespace vmaf::cuda
