// float_motion_cuda: the CUDA twin of "float_motion". compute() blurs the
// frame's reference planes (and, with motion_add_scale1, makes their half-size
// copies) on the device, concurrently per frame; finish() forms, in frame
// order, the per-row sums of |difference| against the previous frame's on the
// device. The row sums are read back several frames at a time
// (BatchedReadback: batched, without waiting for the device in the ordered
// stage) and scored with the CPU kind's code.
//
// Why its scores equal the CPU's: every blurred or scaled sample is the same
// float expression evaluated in the same order (no contraction; the filters
// and the bilinear taps are the host's values); each row's sum of |a - b| is
// formed by one device thread adding the row in column order from 0, as the
// CPU's loop; the host adds the rows in order (floatfeat::mean_of_rows) and
// finishes with floatfeat::MotionScores, which the CPU kind uses too.
#include <bit>
#include <cstdlib>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "backends/cuda/batched_readback.hpp"
#include "backends/cuda/dispatch.hpp"
#include "backends/cuda/session.hpp"
#include "backends/cuda/twin_util.hpp"
#include "features/float_common/float_scale.hpp"
#include "features/float_motion/cuda/float_motion_cuda_kernels.hpp"
#include "features/float_motion/float_motion.hpp"

namespace vmaf::cuda {

namespace {

using floatfeat::cuda::BilinearTaps;

/// Where one plane's images and row sums lie.
struct PlaneLayout {
    unsigned w = 0, h = 0, sw = 0, sh = 0;  ///< full and half size (sw = sh = 0 without scale1)
    std::size_t blur = 0, scaled = 0;       ///< float offsets in a Blur's buffer
    std::size_t rows = 0, scaled_rows = 0;  ///< float offsets in one frame's row sums
    BilinearTaps taps{};                    ///< device tables (scale1)
};

/// One frame's blurred planes (and half-size copies) on the device. `free` is
/// recorded after the last kernel that reads them; a frame reusing the buffer waits for it.
struct Blur {
    DeviceBuffer px;
    Event free;
};

struct MotionFrame final : FrameState {
    std::unique_ptr<Blur> blur;
};

struct Work {
    Stream stream;
    Event done;
    DeviceBuffer tmp;  ///< the vertical pass of the largest plane
};

class FloatMotionCuda final : public FeatureExtractor {
public:
    FloatMotionCuda(Session& s, const OptionValues& o, const VideoGeometry& g)
        : session_(s),
          bpc_(g.bpc),
          force_zero_(o.b(option_index(o, "motion_force_zero"))),
          mode_(dispatch_for(std::getenv("VMAF_CUDA_DISPATCH"), "float_motion", g.width, g.height)),
          scores_({o.b(option_index(o, "debug")), force_zero_, o.d(option_index(o, "motion_fps_weight")),
                   o.d(option_index(o, "motion_blend_factor")), o.d(option_index(o, "motion_blend_offset")),
                   o.d(option_index(o, "motion_max_val"))}) {
        const auto taps = floatfeat::motion_filter(static_cast<int>(o.i(option_index(o, "motion_filter_size"))));
        filter_.taps = static_cast<int>(taps.size());
        for (std::size_t k = 0; k < taps.size(); ++k) filter_.f[k] = taps[k];
        layout(o, g);
        work_ = std::make_unique<Pool<Work>>([this] {
            session_.bind();
            auto w = std::make_unique<Work>();
            w->tmp = DeviceBuffer(std::size_t{planes_[0].w} * planes_[0].h * sizeof(float));
            return w;
        });
        buffers_ = std::make_unique<Pool<Blur>>([this] {
            session_.bind();
            auto b = std::make_unique<Blur>();
            b->px = DeviceBuffer(blur_floats_ * sizeof(float));
            return b;
        });
        rows_.emplace(rows_per_frame_, mode_);
    }

    ~FloatMotionCuda() override {
        history_.reset();
        if (buffers_) buffers_->clear();
    }

    std::unique_ptr<FrameState> compute(unsigned index, const Picture& /*ref*/,
                                        const Picture& /*dist*/) const override {
        auto st = std::make_unique<MotionFrame>();
        if (force_zero_) return st;
        session_.bind();
        const DeviceFrame& f = session_.frame(index);
        Lease<Work> w(*work_);
        st->blur = buffers_->acquire();
        const cudaStream_t s = w->stream.get();
        check(cudaStreamWaitEvent(s, f.ready, 0), "cudaStreamWaitEvent");
        check(cudaStreamWaitEvent(s, st->blur->free.get(), 0), "cudaStreamWaitEvent");
        float* px = st->blur->px.get<float>();
        for (unsigned p = 0; p < planes_.size(); ++p) {
            const PlaneLayout& l = planes_[p];
            floatfeat::cuda::launch_motion_blur(f.ref[p].data, f.ref[p].pitch, l.w, l.h, bpc_, filter_,
                                                w->tmp.get<float>(), px + l.blur, s);
            if (l.sw) floatfeat::cuda::launch_motion_scale(px + l.blur, l.w, px + l.scaled, l.sw, l.sh, l.taps, s);
        }
        check(cudaGetLastError(), "float_motion kernel launch");
        if (mode_ == Dispatch::Batched) {
            // finish()'s row sums on ordered_ follow this frame's images; the
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
        auto& st = static_cast<MotionFrame&>(state);
        if (force_zero_ || !history_) {
            // The first frame (no earlier frame) is scored at once, so that
            // the report's keys come in the CPU kind's order.
            scores_.frame(index, std::nullopt, out);
            history_ = std::move(st.blur);
            return;
        }
        session_.bind();
        const cudaStream_t s = ordered_.get();
        float* rows = rows_->next();
        const float *a = history_->px.get<float>(), *b = st.blur->px.get<float>();
        for (const PlaneLayout& l : planes_) {
            floatfeat::cuda::launch_abs_diff_rows(a + l.blur, b + l.blur, l.w, l.h, rows + l.rows, s);
            if (l.sw)
                floatfeat::cuda::launch_abs_diff_rows(a + l.scaled, b + l.scaled, l.sw, l.sh, rows + l.scaled_rows, s);
        }
        check(cudaGetLastError(), "float_motion kernel launch");
        // The previous frame's images are reusable once the sums enqueued so far have read them.
        check(cudaEventRecord(history_->free.get(), s), "cudaEventRecord");
        buffers_->release(std::move(history_));
        history_ = std::move(st.blur);
        rows_->add(index, s, [&](auto frames, auto* sums) { score(frames, sums, out); });
    }

    void flush(ScoreWriter& out) override {
        session_.bind();  // a call of its own: the thread may have another context current
        rows_->flush(ordered_.get(), [&](auto frames, auto* sums) { score(frames, sums, out); });
        scores_.flush(out);
        if (history_) buffers_->release(std::move(history_));
    }

private:
    /// Plane sizes, buffer offsets and the scale1 tables.
    void layout(const OptionValues& o, const VideoGeometry& g) {
        const bool uv = o.b(option_index(o, "motion_add_uv")), scale1 = o.b(option_index(o, "motion_add_scale1"));
        const unsigned n = uv ? 3 : 1;
        const ChromaShift cs = chroma_shift(g.format);
        std::vector<int> tables;  // host copy of every plane's taps, then uploaded
        std::vector<std::size_t> table_at(n);
        for (unsigned p = 0; p < n; ++p) {
            PlaneLayout l;
            l.w = p ? (g.width + (1u << cs.x) - 1) >> cs.x : g.width;
            l.h = p ? (g.height + (1u << cs.y) - 1) >> cs.y : g.height;
            l.blur = blur_floats_;
            blur_floats_ += std::size_t{l.w} * l.h;
            l.rows = rows_per_frame_;
            rows_per_frame_ += l.h;
            if (scale1) {
                // The CPU's half size: (int)(n * 0.5 + 0.5).
                l.sw = static_cast<unsigned>(static_cast<int>(l.w * 0.5 + 0.5));
                l.sh = static_cast<unsigned>(static_cast<int>(l.h * 0.5 + 0.5));
                l.scaled = blur_floats_;
                blur_floats_ += std::size_t{l.sw} * l.sh;
                l.scaled_rows = rows_per_frame_;
                rows_per_frame_ += l.sh;
                const floatfeat::BilinearAxis ax = floatfeat::bilinear_axis(l.w, l.sw), ay = floatfeat::bilinear_axis(l.h, l.sh);
                table_at[p] = tables.size();
                auto put = [&](const floatfeat::BilinearAxis& a) {
                    tables.insert(tables.end(), a.lo.begin(), a.lo.end());
                    tables.insert(tables.end(), a.hi.begin(), a.hi.end());
                    for (float d : a.d) tables.push_back(std::bit_cast<int>(d));
                };
                put(ax);
                put(ay);
            }
            planes_.push_back(l);
        }
        if (tables.empty()) return;
        tables_ = DeviceBuffer(tables.size() * sizeof(int));
        check(cudaMemcpy(tables_.get(), tables.data(), tables.size() * sizeof(int), cudaMemcpyHostToDevice),
              "float_motion tables upload");
        for (unsigned p = 0; p < n; ++p) {
            PlaneLayout& l = planes_[p];
            const int* t = tables_.get<int>() + table_at[p];
            l.taps.x_lo = t;
            l.taps.x_hi = t + l.sw;
            l.taps.x_d = reinterpret_cast<const float*>(t + 2 * l.sw);
            t += 3 * l.sw;
            l.taps.y_lo = t;
            l.taps.y_hi = t + l.sh;
            l.taps.y_d = reinterpret_cast<const float*>(t + 2 * l.sh);
        }
    }

    /// Scores read-back row sums, in frame order: the CPU's sad(), per plane a
    /// float mean (+ the half size's), planes added in double.
    void score(std::span<const unsigned> frames, const float* sums, ScoreWriter& out) {
        for (std::size_t k = 0; k < frames.size(); ++k) score(frames[k], sums + k * rows_per_frame_, out);
    }
    void score(unsigned index, const float* rows, ScoreWriter& out) {
        double sad = 0;
        for (std::size_t p = 0; p < planes_.size(); ++p) {
            const PlaneLayout& l = planes_[p];
            float m = floatfeat::mean_of_rows(rows + l.rows, l.w, l.h);
            if (l.sw) m = m + floatfeat::mean_of_rows(rows + l.scaled_rows, l.sw, l.sh);
            sad = p == 0 ? static_cast<double>(m) : sad + m;
        }
        scores_.frame(index, sad, out);
    }

    Session& session_;
    const unsigned bpc_;
    const bool force_zero_;
    const Dispatch mode_;
    floatfeat::cuda::MotionFilter filter_{};
    std::vector<PlaneLayout> planes_;
    std::size_t blur_floats_ = 0, rows_per_frame_ = 0;
    DeviceBuffer tables_;
    std::unique_ptr<Pool<Work>> work_;
    std::unique_ptr<Pool<Blur>> buffers_;  ///< images in flight + history

    // Ordered-stage state.
    Stream ordered_;
    std::optional<BatchedReadback<float>> rows_;  ///< per frame: every plane's row sums
    std::unique_ptr<Blur> history_;  ///< the previous frame's images
    floatfeat::MotionScores scores_;
};

std::unique_ptr<FeatureExtractor> create(Session& s, const ExtractorInfo& kind, const OptionValues& o,
                                         const VideoGeometry& g, const ExtractorContext& ctx) {
    (void)kind.create(o, g, ctx);  // the CPU kind's checks of the geometry and options
    return std::make_unique<FloatMotionCuda>(s, o, g);
}

}  // namespace

extern const TwinDescriptor kFloatMotionCudaTwin;
const TwinDescriptor kFloatMotionCudaTwin{.kind = "float_motion", .create = &create};

}  // namespace vmaf::cuda
