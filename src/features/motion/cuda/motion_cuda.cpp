// motion_cuda: the CUDA twin of "motion". compute() keeps a copy of the
// frame's reference luma on the device (concurrently per frame; the staged
// frame is reused once its extractors are done); finish() takes the SAD
// against the earlier frame's luma on the device in frame order. The SADs are
// read back several frames at a time (BatchedReadback), then scored with the
// CPU's host code: batched, without waiting for the device in the ordered
// stage (waiting at every batch took 47-126 us a 1080p frame on an H100).
//
// Memory: one copy per frame between compute() and its successor's SAD
// (about the frames in flight). It was the frame's 4-byte vertical sums
// before: 33 MB a 4K frame against 16.6 (10-bit) or 8.3 (8-bit) now.
#include <cstdlib>
#include <deque>
#include <memory>
#include <span>
#include <vector>

#include "backends/cuda/batched_readback.hpp"
#include "backends/cuda/dispatch.hpp"
#include "backends/cuda/session.hpp"
#include "backends/cuda/twin_util.hpp"
#include "features/motion/cuda/motion_cuda_kernels.hpp"
#include "features/motion/motion_kernels.hpp"
#include "features/motion/motion_temporal.hpp"

namespace vmaf::cuda {

namespace {

/// One frame's reference luma on the device (rows packed). `free` is
/// recorded after the last SAD that reads it; a frame reusing the buffer waits for it.
struct Luma {
    DeviceBuffer samples;
    Event free;
};

struct MotionFrame final : FrameState {
    std::unique_ptr<Luma> luma;
};

struct Work {
    Stream stream;
    Event done;
};

class MotionCuda final : public FeatureExtractor {
public:
    MotionCuda(Session& s, const ExtractorInfo& kind, const OptionValues& o, const VideoGeometry& g)
        : session_(s),
          w_(g.width),
          h_(g.height),
          bpc_(g.bpc),
          pitch_(std::size_t{g.width} * (g.bpc > 8 ? 2 : 1)),
          force_zero_(o.b(option_index(o, "motion_force_zero"))),
          mode_(dispatch_for(std::getenv("VMAF_CUDA_DISPATCH"), "motion", g.width, g.height)),
          blend_factor_(o.d(option_index(o, "motion_blend_factor"))),
          blend_offset_(o.d(option_index(o, "motion_blend_offset"))),
          fps_weight_(o.d(option_index(o, "motion_fps_weight"))),
          max_val_(o.d(option_index(o, "motion_max_val"))),
          moving_average_(o.b(option_index(o, "motion_moving_average"))),
          debug_(o.b(option_index(o, "debug"))),
          distance_(o.b(option_index(o, "motion_five_frame_window")) ? 2u : 1u),
          out_sad_(output_index(kind, "VMAF_integer_feature_motion_sad_score")),
          out_motion_(output_index(kind, "VMAF_integer_feature_motion_score")),
          out_motion2_(output_index(kind, "VMAF_integer_feature_motion2_score")),
          out_motion3_(output_index(kind, "VMAF_integer_feature_motion3_score")),
          work_([this] {
              session_.bind();
              return std::make_unique<Work>();
          }),
          buffers_([this] {
              session_.bind();
              auto v = std::make_unique<Luma>();
              v->samples = DeviceBuffer(pitch_ * h_);
              return v;
          }),
          sads_(1, mode_),
          rows_dev_(std::size_t{g.height} * sizeof(unsigned)),
          temporal_(distance_, blend_factor_, blend_offset_, max_val_, moving_average_) {
        s.bind();
        check(cudaMemset(rows_dev_.get(), 0, rows_dev_.size()), "cudaMemset");  // the twin's set-up, waited for by the session
    }

    ~MotionCuda() override {
        history_.clear();
        buffers_.clear();
    }

    std::unique_ptr<FrameState> compute(unsigned index, const Picture& /*ref*/,
                                        const Picture& /*dist*/) const override {
        auto st = std::make_unique<MotionFrame>();
        if (force_zero_) return st;
        session_.bind();
        const DeviceFrame& f = session_.frame(index);
        Lease<Work> w(work_);
        st->luma = buffers_.acquire();
        cudaStream_t s = w->stream.get();
        check(cudaStreamWaitEvent(s, f.ready, 0), "cudaStreamWaitEvent");
        check(cudaStreamWaitEvent(s, st->luma->free.get(), 0), "cudaStreamWaitEvent");
        const DevicePlane& y = f.ref[0];
        check(cudaMemcpy2DAsync(st->luma->samples.get(), pitch_, y.data, y.pitch, pitch_, h_, cudaMemcpyDeviceToDevice,
                                s),
              "motion luma copy");
        if (mode_ == Dispatch::Batched) {
            // finish()'s SAD on ordered_ follows this frame's copy; the
            // staged frame is kept until it is done.
            check(cudaEventRecord(w->done.get(), s), "cudaEventRecord");
            check(cudaStreamWaitEvent(ordered_.get(), w->done.get(), 0), "cudaStreamWaitEvent");
            session_.add_reader(index, w->done.get());
        } else {
            w->stream.sync();
        }
        return st;
    }

    void finish(unsigned index, FrameState& state, ScoreWriter& out) override {
        auto& st = static_cast<MotionFrame&>(state);
        if (force_zero_) {
            write(index, 0., out);
            return;
        }
        session_.bind();
        cudaStream_t s = ordered_.get();
        // Once there were `distance_` frames, the history holds the ones before this frame.
        if (history_.size() == distance_) {
            if (sads_.fresh())
                check(cudaMemsetAsync(sads_.area(), 0, sads_.batch() * sizeof(unsigned long long), s), "cudaMemsetAsync");
            const Luma& earlier = *history_.front();  // frame index - distance_
            motion::cuda::launch_sad(earlier.samples.get(), st.luma->samples.get(), pitch_, w_, h_, bpc_,
                                     rows_dev_.get<unsigned>(), sads_.next(), s);
            check(cudaGetLastError(), "motion kernel launch");
            // The oldest sums are reusable once the SADs enqueued so far have read them.
            check(cudaEventRecord(history_.front()->free.get(), s), "cudaEventRecord");
            buffers_.release(std::move(history_.front()));
            history_.pop_front();
            sads_.add(index, s, [&](auto frames, auto* sad) { score(frames, sad, out); });
        } else {
            // The first frames (no earlier frame) score 0 at once, so that the
            // report's keys come in the CPU kind's order.
            write(index, 0., out);
        }
        history_.push_back(std::move(st.luma));
    }

    void flush(ScoreWriter& out) override {
        session_.bind();  // a call of its own: the thread may have another context current
        sads_.flush(ordered_.get(), [&](auto frames, auto* sad) { score(frames, sad, out); });
        emit(true, out);
        for (auto& b : history_) buffers_.release(std::move(b));
        history_.clear();
    }

private:
    /// Scores read-back SADs, in frame order.
    void score(std::span<const unsigned> frames, const unsigned long long* sad, ScoreWriter& out) {
        for (std::size_t f = 0; f < frames.size(); ++f)
            write(frames[f], motion::sad_to_score(sad[f], w_, h_, fps_weight_, max_val_), out);
    }

    /// Frame `index`'s SAD score and every motion2/motion3 it completes.
    void write(unsigned index, double score, ScoreWriter& out) {
        out.write(index, out_sad_, score);
        if (debug_) out.write(index, out_motion_, score);
        temporal_.push(score);
        emit(false, out);
    }

    /// motion2/motion3 of every frame whose inputs are known (the CPU kind's rules).
    void emit(bool at_end, ScoreWriter& out) {
        temporal_.drain(at_end, [&](unsigned i, double motion2, double motion3) {
            out.write(i, out_motion2_, motion2);
            out.write(i, out_motion3_, motion3);
        });
    }

    Session& session_;
    const unsigned w_, h_, bpc_;
    const std::size_t pitch_;  ///< bytes a luma row
    const bool force_zero_;
    const Dispatch mode_;
    const double blend_factor_, blend_offset_, fps_weight_, max_val_;
    const bool moving_average_, debug_;
    const unsigned distance_;
    const unsigned out_sad_, out_motion_, out_motion2_, out_motion3_;
    mutable Pool<Work> work_;
    mutable Pool<Luma> buffers_;  ///< luma copies in flight + history

    // Ordered-stage state.
    Stream ordered_;
    BatchedReadback<unsigned long long> sads_;
    DeviceBuffer rows_dev_;  ///< launch_sad()'s row sums (zero between SADs)
    std::deque<std::unique_ptr<Luma>> history_;
    motion::TemporalScores temporal_;  ///< SAD history -> motion2/motion3
};

std::unique_ptr<FeatureExtractor> create(Session& s, const ExtractorInfo& kind, const OptionValues& o,
                                         const VideoGeometry& g, const ExtractorContext& /*ctx*/) {
    return std::make_unique<MotionCuda>(s, kind, o, g);
}

}  // namespace

extern const TwinDescriptor kMotionCudaTwin;
const TwinDescriptor kMotionCudaTwin{.kind = "motion", .create = &create};

}  // namespace vmaf::cuda
