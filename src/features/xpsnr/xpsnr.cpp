// XPSNR ("xpsnr"): FFmpeg's extended perceptually weighted PSNR (the `xpsnr`
// filter of FFmpeg 7.1), the reference being the filter's first ("main")
// input, whose activity weights the error.
//
// compute() (concurrent) sums each block's squared error and spatial activity;
// finish() (in frame order) adds the temporal activity against the previous
// reference frames, then weights and scores with the filter's arithmetic.
#include <cfloat>
#include <cstring>
#include <deque>
#include <memory>
#include <vector>

#include "core/feature_extractor.hpp"
#include "features/xpsnr/xpsnr_kernels.hpp"
#include "features/xpsnr/xpsnr_scoring.hpp"

namespace vmaf {

extern const ExtractorInfo kXpsnrInfo;

namespace {

using namespace xpsnr;

const OptionSpec kOptions[] = {
    {"fps", "", OptType::Double, 0.0, 0.0, 1e6, false,
     "frame rate the filter sees (its integer part: 2nd-order temporal activity from 32 on); 0: the input's, "
     "25 when it has none (raw YUV)"},
    {"stats_file", "", OptType::String, std::string(), 0, 0, false,
     "file the filter's per-frame lines and averages are written to ('-': stdout)"},
    {"f", "", OptType::String, std::string(), 0, 0, false, "same as stats_file"},
};

constexpr std::string_view kOutputs[] = {
    "xpsnr_y", "xpsnr_u", "xpsnr_v", "xpsnr_average_y", "xpsnr_average_u", "xpsnr_average_v", "xpsnr_minimum",
    "xpsnr_weighted",
};
constexpr unsigned kAggregates[] = {kAvgY, kAvgU, kAvgV, kMinimum, kWeighted};

struct Frame final : XpsnrFrame {
    Picture ref;  ///< kept for finish()'s temporal activity
};

/// Squared errors of every block of a plane partitioned into bw x bh blocks
/// (nx per row), into out[] in raster order.
void block_sse(const XpsnrKernels& k, const Layout& l, const Plane& a, const Plane& b, unsigned bw, unsigned bh,
               unsigned nx, std::uint64_t* out) {
    std::vector<std::uint32_t> col(a.width);
    std::vector<unsigned> begin(nx), end(nx);
    for (unsigned i = 0; i < nx; ++i) {
        begin[i] = i * bw;
        end[i] = begin[i] + bw < a.width ? begin[i] + bw : a.width;
    }
    const unsigned step = l.sse_rows_per_call();
    for (unsigned y = 0, j = 0; y < a.height; y += bh, ++j) {
        const unsigned y_end = y + bh < a.height ? y + bh : a.height;
        std::uint64_t* row_out = out + std::size_t{j} * nx;
        if (l.x86_sse()) {
            for (unsigned r = y; r < y_end; ++r)
                for (unsigned i = 0; i < nx; ++i)
                    row_out[i] += sse_line_x86(a.row<const std::uint16_t>(r) + begin[i],
                                               b.row<const std::uint16_t>(r) + begin[i], end[i] - begin[i]);
            continue;
        }
        for (unsigned r = y; r < y_end; r += step) {
            std::memset(col.data(), 0, col.size() * sizeof(std::uint32_t));
            k.sse_cols(a, b, l.bpc, r, r + step < y_end ? r + step : y_end, col.data());
            add_columns(col.data(), begin.data(), end.data(), nx, row_out);
        }
    }
}

class XpsnrExtractor final : public FeatureExtractor {
public:
    XpsnrExtractor(const OptionValues& o, const VideoGeometry& g, const ExtractorContext& ctx)
        : kernels_(xpsnr_registry().select(ctx.cpumask)), layout_(g, frame_rate(o, ctx)), scoring_(o, layout_) {}

    std::unique_ptr<FrameState> compute(unsigned /*index*/, const Picture& ref, const Picture& dist) const override {
        auto st = std::make_unique<Frame>();
        const Layout& l = layout_;
        if (!l.weighted) {
            st->sse.assign(3, 0);
            for (unsigned c = 0; c < l.planes; ++c) {
                const Plane& a = ref.plane(c);
                block_sse(kernels_, l, a, dist.plane(c), a.width, a.height, 1, &st->sse[c]);
            }
            return st;
        }
        const std::size_t n = l.blocks.size();
        st->sse.assign(n, 0);
        st->spatial.assign(n, 0);
        block_sse(kernels_, l, ref.plane(0), dist.plane(0), l.b, l.b, l.nbx, st->sse.data());
        for (unsigned c = 1; c < l.planes; ++c) {
            st->chroma[c - 1].assign(n, 0);
            block_sse(kernels_, l, ref.plane(c), dist.plane(c), l.cbx, l.cby, l.ncx, st->chroma[c - 1].data());
        }
        spatial(ref.plane(0), st->spatial.data());
        st->ref = ref;
        return st;
    }

    void finish(unsigned index, FrameState& state, ScoreWriter& out) override {
        auto& st = static_cast<Frame&>(state);
        if (layout_.weighted) {
            temporal(st.ref, st.temporal);
            if (history_.size() == layout_.order) history_.pop_front();
            history_.push_back(std::move(st.ref));
        }
        scoring_.score(st);
        scoring_.finish(index, st, out);
    }

    void flush(ScoreWriter& out) override {
        scoring_.flush(out);
        history_.clear();
    }

private:
    /// Spatial activity of every luma block (the filter's window per block).
    void spatial(const Plane& p, std::uint64_t* out) const {
        const Layout& l = layout_;
        std::vector<std::uint32_t> col(l.w);
        std::vector<std::int32_t> scratch(spatial_scratch_size(l.w));
        std::vector<unsigned> begin(l.nbx), end(l.nbx);
        for (unsigned j = 0; j < l.nby; ++j) {
            unsigned y0, y1;
            l.spatial_rows(j, y0, y1);
            if (y1 <= y0) continue;
            for (unsigned i = 0; i < l.nbx; ++i) {
                const Block& k = l.blocks[std::size_t{j} * l.nbx + i];
                // Downsampled: the filter leaves blocks of an activity window up to 12 wide at 0.
                const bool none = k.small() || (l.down && k.w_act <= 12);
                begin[i] = k.x0 + static_cast<unsigned>(k.x_act);
                end[i] = none ? begin[i] : k.x0 + static_cast<unsigned>(k.w_act);
            }
            std::memset(col.data(), 0, col.size() * sizeof(std::uint32_t));
            if (l.down)
                kernels_.spatial_down(p, l.bpc, y0, y1, col.data(), scratch.data());
            else
                kernels_.spatial_plain(p, l.bpc, y0, y1, col.data());
            add_columns(col.data(), begin.data(), end.data(), l.nbx, out + std::size_t{j} * l.nbx);
        }
    }

    /// Temporal activity of every luma block against the previous reference frames.
    void temporal(const Picture& cur, std::vector<std::uint64_t>& out) {
        const Layout& l = layout_;
        out.assign(l.blocks.size(), 0);
        if (zero_.empty()) {
            zero_ = Picture(PixelFormat::Yuv400, l.bpc, l.w, l.h);
            const Plane& z = zero_.plane(0);
            for (unsigned y = 0; y < l.h; ++y) std::memset(z.row<std::uint8_t>(y), 0, std::size_t{l.w} * (l.bpc > 8 ? 2 : 1));
        }
        const std::size_t have = history_.size();
        const Plane& p1 = have >= 1 ? history_[have - 1].plane(0) : zero_.plane(0);
        const Plane& p2 = have >= 2 ? history_[have - 2].plane(0) : zero_.plane(0);
        col_.resize(l.w);
        scratch_.resize(temporal_scratch_size(l.w));
        std::vector<unsigned> begin(l.nbx), end(l.nbx);
        for (unsigned j = 0; j < l.nby; ++j) {
            bool any = false;
            for (unsigned i = 0; i < l.nbx; ++i) {
                const Block& k = l.blocks[std::size_t{j} * l.nbx + i];
                begin[i] = k.x0;
                end[i] = k.small() ? k.x0 : k.x0 + k.w;
                any |= !k.small();
            }
            if (!any) continue;
            const Block& first = l.blocks[std::size_t{j} * l.nbx];
            std::memset(col_.data(), 0, col_.size() * sizeof(std::uint32_t));
            if (l.down)
                kernels_.temporal_down(cur.plane(0), p1, p2, l.bpc, l.order, first.y0, first.y0 + first.h, col_.data(),
                                       scratch_.data());
            else
                kernels_.temporal_plain(cur.plane(0), p1, p2, l.bpc, l.order, first.y0, first.y0 + first.h,
                                        col_.data());
            add_columns(col_.data(), begin.data(), end.data(), l.nbx, out.data() + std::size_t{j} * l.nbx);
        }
    }

    const XpsnrKernels kernels_;  ///< selected once for ctx.cpumask
    const Layout layout_;
    Scoring scoring_;

    // Ordered-stage state.
    std::deque<Picture> history_;  ///< the last `order` reference pictures
    Picture zero_;                 ///< stands for frames before the first (the filter's zeroed buffers)
    std::vector<std::uint32_t> col_;
    std::vector<std::int32_t> scratch_;
};

std::unique_ptr<FeatureExtractor> create(const OptionValues& opts, const VideoGeometry& geom,
                                         const ExtractorContext& ctx) {
    return std::make_unique<XpsnrExtractor>(opts, geom, ctx);
}

}  // namespace

const ExtractorInfo kXpsnrInfo{
    .name = "xpsnr",
    .options = kOptions,
    .outputs = kOutputs,
    .aggregate_outputs = kAggregates,
    .needs_chroma = true,
    .temporal = true,
    .create = &create,
};

}  // namespace vmaf
