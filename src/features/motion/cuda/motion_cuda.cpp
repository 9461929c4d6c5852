// motion_cuda: the CUDA twin of "motion". compute() forms the frame's vertical
// filter sums on the device (concurrently per frame); finish() takes the SAD
// against the earlier frame on the device in frame order, reads back one
// integer, and derives the scores with the CPU's host code.
#include <cstdlib>
#include <deque>
#include <memory>
#include <vector>

#include "backends/cuda/dispatch.hpp"
#include "backends/cuda/session.hpp"
#include "backends/cuda/twin_util.hpp"
#include "features/motion/cuda/motion_cuda_kernels.hpp"
#include "features/motion/motion_kernels.hpp"
#include "features/motion/motion_temporal.hpp"

namespace vmaf::cuda {

namespace {

struct MotionFrame final : FrameState {
    std::unique_ptr<DeviceBuffer> vsum;
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
              return std::make_unique<DeviceBuffer>(std::size_t{w_} * h_ * sizeof(std::uint32_t));
          }),
          sad_dev_(sizeof(unsigned long long)),
          sad_host_(sizeof(unsigned long long)),
          temporal_(distance_, blend_factor_, blend_offset_, max_val_, moving_average_) {}

    ~MotionCuda() override {
        history_.clear();
        buffers_.clear();
    }

    std::unique_ptr<FrameState> compute(unsigned index, const Picture& /*ref*/, const Picture& /*dist*/) const override {
        auto st = std::make_unique<MotionFrame>();
        if (force_zero_) return st;
        session_.bind();
        const DeviceFrame& f = session_.frame(index);
        Lease<Work> w(work_);
        st->vsum = buffers_.acquire();
        check(cudaStreamWaitEvent(w->stream.get(), f.ready, 0), "cudaStreamWaitEvent");
        motion::cuda::launch_vertical_sums(f.ref[0].data, f.ref[0].pitch, w_, h_, bpc_,
                                           st->vsum->get<std::uint32_t>(), w->stream.get());
        check(cudaGetLastError(), "motion kernel launch");
        if (mode_ == Dispatch::Batched) {
            // finish()'s SAD on ordered_ follows this frame's sums; the
            // staged frame is kept until they are done.
            check(cudaEventRecord(w->done.get(), w->stream.get()), "cudaEventRecord");
            check(cudaStreamWaitEvent(ordered_.get(), w->done.get(), 0), "cudaStreamWaitEvent");
            session_.add_reader(index, w->done.get());
        } else {
            w->stream.sync();
        }
        return st;
    }

    void finish(unsigned index, FrameState& state, ScoreWriter& out) override {
        auto& st = static_cast<MotionFrame&>(state);
        double score = 0.;
        if (!force_zero_) {
            if (temporal_.frames() >= distance_) {
                session_.bind();
                const DeviceBuffer& earlier = *history_[history_.size() - distance_];
                cudaStream_t s = ordered_.get();
                check(cudaMemsetAsync(sad_dev_.get(), 0, sizeof(unsigned long long), s), "cudaMemsetAsync");
                motion::cuda::launch_sad(earlier.get<std::uint32_t>(), st.vsum->get<std::uint32_t>(), w_, h_, bpc_,
                                         sad_dev_.get<unsigned long long>(), s);
                check(cudaGetLastError(), "motion kernel launch");
                check(cudaMemcpyAsync(sad_host_.get(), sad_dev_.get(), sizeof(unsigned long long),
                                      cudaMemcpyDeviceToHost, s),
                      "readback");
                ordered_.sync();
                score = motion::sad_to_score(*sad_host_.get<unsigned long long>(), w_, h_, fps_weight_, max_val_);
            }
            if (history_.size() == distance_) {
                buffers_.release(std::move(history_.front()));
                history_.pop_front();
            }
            history_.push_back(std::move(st.vsum));
        }
        out.write(index, out_sad_, score);
        if (debug_) out.write(index, out_motion_, score);
        temporal_.push(score);
        emit(false, out);
    }

    void flush(ScoreWriter& out) override {
        emit(true, out);
        for (auto& b : history_) buffers_.release(std::move(b));
        history_.clear();
    }

private:
    /// motion2/motion3 of every frame whose inputs are known (the CPU kind's rules).
    void emit(bool at_end, ScoreWriter& out) {
        temporal_.drain(at_end, [&](unsigned i, double motion2, double motion3) {
            out.write(i, out_motion2_, motion2);
            out.write(i, out_motion3_, motion3);
        });
    }

    Session& session_;
    const unsigned w_, h_, bpc_;
    const bool force_zero_;
    const Dispatch mode_;
    const double blend_factor_, blend_offset_, fps_weight_, max_val_;
    const bool moving_average_, debug_;
    const unsigned distance_;
    const unsigned out_sad_, out_motion_, out_motion2_, out_motion3_;
    mutable Pool<Work> work_;
    mutable Pool<DeviceBuffer> buffers_;  ///< vertical sums in flight + history

    // Ordered-stage state.
    Stream ordered_;
    DeviceBuffer sad_dev_;
    PinnedBuffer sad_host_;
    std::deque<std::unique_ptr<DeviceBuffer>> history_;
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
