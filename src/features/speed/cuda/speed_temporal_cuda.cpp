// speed_temporal_cuda: the CUDA twin of "speed_temporal". compute() loads the
// frame's luma planes (reference, distorted) as the CPU's floats into a
// device buffer kept for the next frame, concurrently per frame; finish()
// forms, in frame order, the differences with the previous frame's planes
// and runs the SpEED filtering and block covariance on them on the device
// (speed_cuda_kernels.cu). The results of several frames (kBatch when
// dispatch is batched, one when serial) are read back in one copy and
// finished by the CPU kind's code (Estimator::finish_estimate and combine):
// every value is the CPU's bit for bit. Two halves of the results take turns:
// a full half's readback is queued and the other half's frames are finished
// (their images concurrently) while the device works on the first, so a
// frame's score is written up to two batches later. Frame 0 scores 0 at
// once, as on the CPU.
#include <cstdlib>
#include <memory>
#include <vector>

#include "backends/cuda/dispatch.hpp"
#include "backends/cuda/session.hpp"
#include "backends/cuda/twin_util.hpp"
#include "features/speed/cuda/speed_cuda_plan.hpp"
#include "features/speed/speed_options.hpp"

namespace vmaf::cuda {

namespace {

/// Frames whose results are read back in one copy when dispatch is batched.
constexpr unsigned kBatch = 8;

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
          batch_(mode_ == Dispatch::Batched ? kBatch : 1),
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
        results_dev_ = DeviceBuffer(2 * kBatch * 2 * plan_.result_floats() * sizeof(float));
        results_host_ = PinnedBuffer(2 * kBatch * 2 * plan_.result_floats() * sizeof(float));
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
        const std::size_t plane = std::size_t{w_} * h_, n = plan_.result_floats();
        Half& h = half_[fill_];
        float* res = results_dev_.get<float>() + (fill_ * kBatch + h.frames.size()) * 2 * n;
        const float* prev = history_->px.get<float>();
        const float* cur = st.planes->px.get<float>();
        // As the CPU: (ref[i-1] - ref[i]) against (dis[i-1] - dis[i]), or - ref[i] with speed_use_ref_diff.
        const speed::cuda::DiffIn diffs[2] = {{prev, cur}, {prev + plane, use_ref_diff_ ? cur : cur + plane}};
        speed::cuda::launch_bands(plan_.plan(), diffs, 2, scratch_.get(), res, s);
        speed::cuda::launch_moments(plan_.plan(), res, 2, scratch_.get(), s);
        check(cudaGetLastError(), "speed_temporal kernel launch");
        h.frames.push_back(index);
        // The previous frame's planes are reusable once the work enqueued so far has read them.
        check(cudaEventRecord(history_->free.get(), s), "cudaEventRecord");
        buffers_->release(std::move(history_));
        history_ = std::move(st.planes);
        if (h.frames.size() == batch_) {
            // This half's readback is queued; the other (read back a batch ago) is finished
            // now, while the device works on this one, and takes the next frames.
            read_back(fill_);
            fill_ ^= 1;
            complete(fill_, out);
        }
    }

    void flush(ScoreWriter& out) override {
        session_.bind();  // a call of its own: the thread may have another context current
        if (!half_[fill_].frames.empty()) read_back(fill_);
        complete(fill_ ^ 1, out);  // the older half first: scores in frame order
        complete(fill_, out);
        if (history_) buffers_->release(std::move(history_));
    }

private:
    /// Frames whose results go to one half of the results buffers (slot k: the
    /// k-th), and the event of that half's readback.
    struct Half {
        std::vector<unsigned> frames;
        Event read;
    };

    /// Queues the readback of half k's results on the ordered stream.
    void read_back(unsigned k) {
        const std::size_t n = plan_.result_floats(), at = k * kBatch * 2 * n;
        check(cudaMemcpyAsync(results_host_.get<float>() + at, results_dev_.get<float>() + at,
                              half_[k].frames.size() * 2 * n * sizeof(float), cudaMemcpyDeviceToHost, ordered_.get()),
              "readback");
        check(cudaEventRecord(half_[k].read.get(), ordered_.get()), "cudaEventRecord");
    }

    /// Waits for half k's readback and scores its frames in order (its images finished concurrently).
    void complete(unsigned k, ScoreWriter& out) {
        Half& h = half_[k];
        if (h.frames.empty()) return;
        check(cudaEventSynchronize(h.read.get()), "cudaEventSynchronize");
        finished_.resize(2 * h.frames.size());
        plan_.finish(results_host_.get<float>() + k * kBatch * 2 * plan_.result_floats(),
                     static_cast<unsigned>(finished_.size()), finished_.data());
        for (std::size_t f = 0; f < h.frames.size(); ++f) {
            const auto &r = finished_[2 * f], &d = finished_[2 * f + 1];
            bool err = false;
            const double score = est_.combine(r.entropy, r.variance, r.ok, d.entropy, d.variance, d.ok, err);
            out.write(h.frames[f], 0, score);
        }
        h.frames.clear();
    }

    Session& session_;
    const unsigned w_, h_, bpc_;
    const bool use_ref_diff_;
    const Dispatch mode_;
    const unsigned batch_;  ///< frames per readback
    const speed::Estimator est_;
    const speed::cuda::DevicePlan plan_;
    std::unique_ptr<Pool<Work>> work_;
    std::unique_ptr<Pool<Planes>> buffers_;  ///< planes in flight + history

    // Ordered-stage state.
    Stream ordered_;
    DeviceBuffer scratch_;
    DeviceBuffer results_dev_;
    PinnedBuffer results_host_;
    Half half_[2];                                             ///< results buffers' halves, each up to kBatch frames
    unsigned fill_ = 0;                                        ///< the half taking frames
    std::vector<speed::cuda::DevicePlan::Finished> finished_;  ///< complete()'s per-image statistics
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
