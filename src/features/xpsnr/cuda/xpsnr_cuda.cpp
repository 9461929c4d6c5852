// xpsnr_cuda: the CUDA twin of "xpsnr". compute() (concurrent per frame)
// keeps a copy of the reference luma and sums each block's squared error and
// spatial activity on the device; finish() (in frame order) sums the temporal
// activity against the previous frames' copies, reads the frame's sums back
// and scores them with the CPU's host code (xpsnr_scoring).
#include <cstring>
#include <deque>
#include <memory>
#include <vector>

#include "backends/cuda/session.hpp"
#include "features/xpsnr/cuda/xpsnr_cuda_kernels.hpp"
#include "features/xpsnr/xpsnr_scoring.hpp"

namespace vmaf::cuda {

namespace {

using xpsnr::cuda::Rect;

/// One frame's device sums, their host copy, and the event after compute()'s kernels.
struct Sums {
    DeviceBuffer dev;
    PinnedBuffer host;
    Event computed;
};

/// A copy of a frame's reference luma (rows packed); `free` is recorded after
/// the last temporal kernel reading it.
struct Luma {
    DeviceBuffer pix;
    Event free;
};

struct Frame final : xpsnr::XpsnrFrame {
    std::unique_ptr<Sums> sums;
    std::unique_ptr<Luma> luma;
};

struct Work {
    Stream stream;
};

class XpsnrCuda final : public FeatureExtractor {
public:
    XpsnrCuda(Session& s, const OptionValues& o, const VideoGeometry& g, const ExtractorContext& ctx)
        : session_(s),
          layout_(g, xpsnr::frame_rate(o, ctx)),
          scoring_(o, layout_),
          n_(static_cast<unsigned>(layout_.blocks.size())),
          row_bytes_(std::size_t{g.width} * (g.bpc > 8 ? 2 : 1)),
          work_([this] {
              session_.bind();
              return std::make_unique<Work>();
          }),
          sums_([this] {
              session_.bind();
              auto p = std::make_unique<Sums>();
              p->dev = DeviceBuffer(sum_count() * sizeof(unsigned long long));
              p->host = PinnedBuffer(sum_count() * sizeof(unsigned long long));
              return p;
          }),
          lumas_([this] {
              session_.bind();
              auto p = std::make_unique<Luma>();
              p->pix = DeviceBuffer(row_bytes_ * layout_.h);
              return p;
          }) {
        if (!layout_.weighted) return;
        session_.bind();
        // The CPU's windows, uploaded once: spatial (empty where the filter
        // has none) and temporal (empty for blocks too small for an activity).
        std::vector<Rect> rects(2 * std::size_t{n_});
        for (unsigned i = 0; i < n_; ++i) {
            const xpsnr::Block& k = layout_.blocks[i];
            const bool none = k.small() || (layout_.down && k.w_act <= 12);
            const int x0 = static_cast<int>(k.x0), y0 = static_cast<int>(k.y0);
            rects[i] = none ? Rect{0, 0, 0, 0} : Rect{x0 + k.x_act, x0 + k.w_act, y0 + k.y_act, y0 + k.h_act};
            rects[n_ + i] = k.small() ? Rect{0, 0, 0, 0}
                                      : Rect{x0, x0 + static_cast<int>(k.w), y0, y0 + static_cast<int>(k.h)};
        }
        rects_ = DeviceBuffer(rects.size() * sizeof(Rect));
        check(cudaMemcpy(rects_.get(), rects.data(), rects.size() * sizeof(Rect), cudaMemcpyHostToDevice), "upload");
        zero_ = DeviceBuffer(row_bytes_ * layout_.h);
        check(cudaMemset(zero_.get(), 0, row_bytes_ * layout_.h), "cudaMemset");
    }

    ~XpsnrCuda() override {
        history_.clear();
        lumas_.clear();
        sums_.clear();
    }

    std::unique_ptr<FrameState> compute(unsigned index, const Picture& /*ref*/,
                                        const Picture& /*dist*/) const override {
        session_.bind();
        const DeviceFrame& f = session_.frame(index);
        const xpsnr::Layout& l = layout_;
        Lease<Work> w(work_);
        const cudaStream_t s = w->stream.get();
        auto st = std::make_unique<Frame>();
        st->sums = sums_.acquire();
        auto* out = st->sums->dev.get<unsigned long long>();
        check(cudaStreamWaitEvent(s, f.ready, 0), "cudaStreamWaitEvent");
        check(cudaMemsetAsync(out, 0, sum_count() * sizeof(unsigned long long), s), "cudaMemsetAsync");
        if (!l.weighted) {
            for (unsigned c = 0; c < l.planes; ++c)
                xpsnr::cuda::launch_block_sse(f.ref[c].data, f.dist[c].data, f.ref[c].pitch, f.ref[c].width,
                                              f.ref[c].height, f.ref[c].width, f.ref[c].height, 1, 1, l.bpc,
                                              l.x86_sse(), out + c, s);
        } else {
            st->luma = lumas_.acquire();
            check(cudaStreamWaitEvent(s, st->luma->free.get(), 0), "cudaStreamWaitEvent");
            check(cudaMemcpy2DAsync(st->luma->pix.get(), row_bytes_, f.ref[0].data, f.ref[0].pitch, row_bytes_, l.h,
                                    cudaMemcpyDeviceToDevice, s),
                  "cudaMemcpy2DAsync");
            xpsnr::cuda::launch_block_sse(f.ref[0].data, f.dist[0].data, f.ref[0].pitch, l.w, l.h, l.b, l.b, l.nbx,
                                          n_, l.bpc, l.x86_sse(), out, s);
            xpsnr::cuda::launch_spatial(f.ref[0].data, f.ref[0].pitch, l.w, l.h, l.bpc, l.down, rects_.get<Rect>(),
                                        n_, out + n_, s);
            for (unsigned c = 1; c < l.planes; ++c)
                xpsnr::cuda::launch_block_sse(f.ref[c].data, f.dist[c].data, f.ref[c].pitch, l.cw, l.ch, l.cbx, l.cby,
                                              l.ncx, n_, l.bpc, l.x86_sse(), out + (1 + c) * std::size_t{n_}, s);
        }
        check(cudaGetLastError(), "xpsnr kernel launch");
        check(cudaEventRecord(st->sums->computed.get(), s), "cudaEventRecord");
        session_.add_reader(index, st->sums->computed.get());
        return st;
    }

    void finish(unsigned index, FrameState& state, ScoreWriter& out) override {
        auto& st = static_cast<Frame&>(state);
        session_.bind();
        const xpsnr::Layout& l = layout_;
        const cudaStream_t s = ordered_.get();
        auto* dev = st.sums->dev.get<unsigned long long>();
        check(cudaStreamWaitEvent(s, st.sums->computed.get(), 0), "cudaStreamWaitEvent");
        if (l.weighted) {
            const std::size_t have = history_.size();
            const void* p1 = have >= 1 ? history_[have - 1]->pix.get() : zero_.get();
            const void* p2 = have >= 2 ? history_[have - 2]->pix.get() : zero_.get();
            xpsnr::cuda::launch_temporal(st.luma->pix.get(), p1, p2, row_bytes_, l.w, l.h, l.bpc, l.order, l.down,
                                         rects_.get<Rect>() + n_, n_, dev + 4 * std::size_t{n_}, s);
            check(cudaGetLastError(), "xpsnr kernel launch");
            if (history_.size() == l.order) {
                check(cudaEventRecord(history_.front()->free.get(), s), "cudaEventRecord");
                lumas_.release(std::move(history_.front()));
                history_.pop_front();
            }
            history_.push_back(std::move(st.luma));
        }
        check(cudaMemcpyAsync(st.sums->host.get(), dev, sum_count() * sizeof(unsigned long long),
                              cudaMemcpyDeviceToHost, s),
              "readback");
        ordered_.sync();
        const auto* h = st.sums->host.get<unsigned long long>();
        if (!l.weighted) {
            st.sse.assign(h, h + 3);
        } else {
            st.sse.assign(h, h + n_);
            st.spatial.assign(h + n_, h + 2 * std::size_t{n_});
            for (unsigned c = 1; c < l.planes; ++c)
                st.chroma[c - 1].assign(h + (1 + c) * std::size_t{n_}, h + (2 + c) * std::size_t{n_});
            st.temporal.assign(h + 4 * std::size_t{n_}, h + 5 * std::size_t{n_});
        }
        sums_.release(std::move(st.sums));
        scoring_.score(st);
        scoring_.finish(index, st, out);
    }

    void flush(ScoreWriter& out) override {
        session_.bind();
        scoring_.flush(out);
        for (auto& b : history_) lumas_.release(std::move(b));
        history_.clear();
    }

private:
    /// Sums per frame: luma SSE, spatial, chroma u, chroma v, temporal (n each), or 3 plane SSEs.
    std::size_t sum_count() const { return layout_.weighted ? 5 * std::size_t{n_} : 3; }

    Session& session_;
    const xpsnr::Layout layout_;
    xpsnr::Scoring scoring_;
    const unsigned n_;
    const std::size_t row_bytes_;
    mutable Pool<Work> work_;
    mutable Pool<Sums> sums_;
    mutable Pool<Luma> lumas_;
    DeviceBuffer rects_;  ///< 2n Rects: spatial windows, then temporal rectangles
    DeviceBuffer zero_;   ///< a zero luma plane: the frames before the first

    // Ordered-stage state.
    Stream ordered_;
    std::deque<std::unique_ptr<Luma>> history_;  ///< the last `order` frames' luma copies
};

std::unique_ptr<FeatureExtractor> create(Session& s, const ExtractorInfo& /*kind*/, const OptionValues& o,
                                         const VideoGeometry& g, const ExtractorContext& ctx) {
    return std::make_unique<XpsnrCuda>(s, o, g, ctx);
}

}  // namespace

extern const TwinDescriptor kXpsnrCudaTwin;
const TwinDescriptor kXpsnrCudaTwin{.kind = "xpsnr", .create = &create};

}  // namespace vmaf::cuda
