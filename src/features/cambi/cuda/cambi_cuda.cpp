// cambi_cuda: the CUDA twin of "cambi". The device does every per-pixel
// step (10-bit conversion, anti-dithering, spatial mask, decimation, mode
// filter, window histograms, c values; cambi_cuda_kernels.cu); the c values
// equal the CPU's bit for bit (same integer window counts, same float
// expression with one rounding per operation).
//
// Pooling (the mean of the top-k c values of each scale, whose float sum
// upstream forms in its quick_select's order) gives the CPU's bits by one of
// three routes, tried in cambi::pool()'s order:
//  - on the device (cambi_cuda_pool.*) when the total provably stays within
//    2^53 ulps of the smallest nonzero value: every partial sum in any order
//    is then exact, so the exact integer sum of the k largest values is the
//    double upstream's order gives (the CPU's own proof, cambi_core.cpp);
//  - else, where cambi::pool() would take zero_pivot_topk_sum() (c[k] == 0,
//    enough zeros in c[0, k]: one partition around 0 decides the order), the
//    device lists the summands in that order (cambi_cuda_zero_pivot.*) and
//    the host adds them from 0.0 in order, the CPU's very operations;
//  - otherwise, and for every scale when heat maps are written, the scale's
//    c values are read back and pooled by cambi::pool() itself (upstream's
//    quick_select and in-order sum on the same raster-order array).
// Heat maps are made by cambi::to_heatmap() and written by
// cambi::HeatmapFiles, the scales combined by cambi::combine_scales(), the
// outputs by cambi::append_scores(): the CPU kind's code throughout.
//
// compute() queues a frame's work on a lane and returns; the frame's results
// are taken off the lane (its small readback waited for, declined scales read
// back and pooled) by whichever comes first: finish() of that frame, in the
// ordered stage, or the next compute() that takes the lane. So a worker does
// not wait for the device's c values (a v1 1080p pair's worker time was 29%
// that wait), and the lanes stay as many as computes run at once.
//
// Cost (H200, 4K 10-bit, frames on the device, cuda_device_fps, 8 threads):
// 2045 fps, from 251 when the c values took one warp per row segment sliding
// along the row (work per pixel proportional to the window height) and the
// zero-pivot kernels copied their by-value job to local memory in every
// thread. The c-value kernel's work per pixel is the number of runs of
// changed codes in its window row (flat and unmasked areas: next to none);
// on that benchmark's noise frames (no masked pixel) the 10-bit conversion,
// spatial mask and filter/code passes are most of the time. On real content
// it is the other way round: an upscaled 4K 10-bit clip spends about 1.6 ms
// a frame in the c-value kernel on an H100 (8 ms before its loads were issued
// together, its passes kept to their own rows and its windows walked as bit
// masks) and 0.2 ms in everything else (ncu; docs/benchmarks.md, sessions 12
// to 14); the engine reaches about 90% of the device's fps (1605 of 1819 at 4K).
#include <algorithm>
#include <cmath>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backends/cuda/session.hpp"
#include "features/cambi/cambi_core.hpp"
#include "features/cambi/cambi_kernels.hpp"
#include "features/cambi/cambi_setup.hpp"
#include "features/cambi/cuda/cambi_cuda_kernels.hpp"
#include "features/cambi/cuda/cambi_cuda_pool.hpp"
#include "features/cambi/cuda/cambi_cuda_zero_pivot.hpp"

namespace vmaf::cuda {

namespace {

namespace cc = cambi::cuda;
static_assert(cc::kPoolScales == cc::kScales && cc::kScales == cambi::kNumScales);

/// What every frame reads back: the range flags and the device's pooling of each scale.
struct Small {
    unsigned flag[2];  ///< distorted, reference picture
    cc::PoolResult pool[2 * cc::kScales];
};

struct CambiFrame;

/// One frame's device work at a time, and that frame's results until taken.
struct Lane {
    Stream stream;
    DeviceBuffer scratch, pool_scratch, small_dev;
    DeviceBuffer c_dev;                ///< both pictures' c values
    DeviceBuffer seq_dev, zp_scratch;  ///< zero-pivot summands (c_dev's layout) and scratch
    PinnedBuffer small_host, c_host;   ///< c_host: made on first use
    Event done;                        ///< recorded after the last kernel reading the frame's staging
    std::mutex m;                      ///< guards `pending`, and the lane's buffers once its work is queued
    CambiFrame* pending = nullptr;     ///< the frame whose results are still on the lane
};

struct CambiFrame final : FrameState {
    std::vector<cambi::Heatmap> heatmaps;
    Lane* lane = nullptr;   ///< where the frame's work was queued (set once, in compute())
    bool settled = false;   ///< scores (or error) taken off the lane; guarded by lane->m
    std::exception_ptr error;
    ~CambiFrame() override {
        if (!lane) return;
        std::lock_guard lk(lane->m);  // a frame dropped unfinished (an error elsewhere)
        if (lane->pending == this) lane->pending = nullptr;
    }
};

DeviceBuffer upload(const void* data, std::size_t bytes, const char* what) {
    DeviceBuffer b(bytes);
    check(cudaMemcpy(b.get(), data, bytes, cudaMemcpyHostToDevice), what);
    return b;
}

/// A picture the run scores (the distorted one at the encoding resolution,
/// the reference at the source resolution).
struct Target {
    unsigned w = 0, h = 0;
    std::uint16_t window = 0;
    cc::ScaleSizes sizes{};
    DeviceBuffer xmap, ymap;
};

class CambiCuda final : public FeatureExtractor {
public:
    CambiCuda(Session& s, const OptionValues& o, const VideoGeometry& g, unsigned cpumask)
        : session_(s),
          setup_(cambi::make_setup(o, g)),
          kernels_(cambi::cambi_registry().select(cpumask)),
          geom_(g),
          lanes_([this] {
              session_.bind();
              auto lane = std::make_unique<Lane>();
              const unsigned w = std::max(setup_.enc_w, setup_.full_ref ? setup_.src_w : 0u);
              const unsigned h = std::max(setup_.enc_h, setup_.full_ref ? setup_.src_h : 0u);
              lane->scratch = DeviceBuffer(cc::scratch_bytes(w, h));
              lane->pool_scratch = DeviceBuffer(cc::pool_scratch_bytes());
              lane->small_dev = DeviceBuffer(sizeof(Small));
              lane->small_host = PinnedBuffer(sizeof(Small));
              lane->c_dev = DeviceBuffer(c_floats() * sizeof(float));
              lane->seq_dev = DeviceBuffer(c_floats() * sizeof(float));
              std::size_t n0 = std::size_t{dist_.sizes.w[0]} * dist_.sizes.h[0];
              if (setup_.full_ref) n0 = std::max(n0, std::size_t{src_.sizes.w[0]} * src_.sizes.h[0]);
              lane->zp_scratch = DeviceBuffer(cc::zero_pivot_scratch_bytes(n0));
              return lane;
          }) {
        session_.bind();
        const cambi::Params& p = setup_.params;
        active_ = upload(p.active.data(), p.active.size() * sizeof(std::uint32_t), "cambi active table upload");
        recip_ = upload(cambi::reciprocal_table(), cambi::kReciprocalTableSize * sizeof(float),
                        "cambi reciprocal table upload");
        make_target(dist_, setup_.enc_w, setup_.enc_h, setup_.window);
        if (setup_.full_ref) make_target(src_, setup_.src_w, setup_.src_h, setup_.src_window);
        if (!setup_.heatmaps_path.empty())
            heatmaps_ = std::make_unique<cambi::HeatmapFiles>(setup_.heatmaps_path, setup_.enc_w, setup_.enc_h);
        host_pool_ = heatmaps_ != nullptr;
    }

    std::unique_ptr<FrameState> compute(unsigned index, const Picture& /*ref*/,
                                        const Picture& /*dist*/) const override {
        session_.bind();
        const DeviceFrame& f = session_.frame(index);
        auto st = std::make_unique<CambiFrame>();
        Lease<Lane> lease(lanes_);
        Lane& lane = *lease;
        std::lock_guard lk(lane.m);
        if (lane.pending) settle(lane, *lane.pending);
        const cudaStream_t s = lane.stream.get();
        check(cudaStreamWaitEvent(s, f.ready, 0), "cudaStreamWaitEvent");
        auto* c = lane.c_dev.get<float>();
        auto* small = lane.small_dev.get<Small>();
        auto* seq = lane.seq_dev.get<float>();
        launch(f.dist[0], f.bpc, dist_, lane, c, seq, &small->flag[0], small->pool, s);
        if (setup_.full_ref)
            launch(f.ref[0], f.bpc, src_, lane, c + dist_.sizes.total, seq + dist_.sizes.total, &small->flag[1],
                   small->pool + cc::kScales, s);
        check(cudaGetLastError(), "cambi kernel launch");
        check(cudaEventRecord(lane.done.get(), s), "cudaEventRecord");
        session_.add_reader(index, lane.done.get());
        check(cudaMemcpyAsync(lane.small_host.get(), small, sizeof(Small), cudaMemcpyDeviceToHost, s),
              "cambi readback");
        if (host_pool_)
            check(cudaMemcpyAsync(host_c(lane), c, c_floats() * sizeof(float), cudaMemcpyDeviceToHost, s),
                  "cambi readback");
        st->lane = &lane;
        lane.pending = st.get();
        return st;
    }

    void finish(unsigned index, FrameState& state, ScoreWriter& out) override {
        auto& st = static_cast<CambiFrame&>(state);
        {
            std::lock_guard lk(st.lane->m);
            if (!st.settled) {
                session_.bind();
                settle(*st.lane, st);
            }
        }
        if (st.error) std::rethrow_exception(st.error);
        FeatureExtractor::finish(index, st, out);
        if (heatmaps_) heatmaps_->write(index, st.heatmaps);
        st.heatmaps.clear();
    }

private:
    /// Takes frame `st`'s results off `lane` (lane.m held; `st` the lane's
    /// pending frame): waits for its readback, reads back and pools the
    /// scales the device declined, and keeps the scores or the error in `st`.
    void settle(Lane& lane, CambiFrame& st) const {
        try {
            const cudaStream_t s = lane.stream.get();
            check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
            const Small& got = *lane.small_host.get<Small>();
            if (got.flag[0] || (setup_.full_ref && got.flag[1])) {
                const unsigned max = (1u << setup_.bpc) - 1;
                throw Error(ErrorKind::Input, "cambi: input contains values greater than " + std::to_string(max) +
                                                  ", the maximum of a " + std::to_string(setup_.bpc) + "-bit format");
            }
            // The scales the device declined: their c values, for the CPU's pooling.
            float* host = host_pool_ ? host_c(lane) : nullptr;
            if (!host_pool_) {
                bool any = false;
                for (int p = 0; p < (setup_.full_ref ? 2 : 1); ++p) {
                    const Target& t = p ? src_ : dist_;
                    const std::size_t base = p ? dist_.sizes.total : 0;
                    for (int k = 0; k < cc::kScales; ++k) {
                        const cc::PoolResult& r = got.pool[p * cc::kScales + k];
                        if (r.status == cc::kPoolExact) continue;
                        if (!host) host = host_c(lane);
                        const std::size_t off = base + t.sizes.offset[k];
                        // The summands in order, or every c value for the CPU's pooling.
                        const bool listed = r.status == cc::kPoolSequence;
                        const std::size_t count = listed ? r.sum_units : std::size_t{t.sizes.w[k]} * t.sizes.h[k];
                        check(cudaMemcpyAsync(host + off, (listed ? lane.seq_dev.get<float>() : lane.c_dev.get<float>()) + off,
                                              count * sizeof(float), cudaMemcpyDeviceToHost, s),
                              "cambi readback");
                        any = true;
                    }
                }
                if (any) check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
            }
            const double dist_score = finish_picture(dist_, host, got.pool, heatmaps_ ? &st.heatmaps : nullptr);
            const double src_score = setup_.full_ref ? finish_picture(src_, host ? host + dist_.sizes.total : nullptr,
                                                                      got.pool + cc::kScales, nullptr)
                                                     : 0.0;
            cambi::append_scores(setup_, dist_score, src_score, st.scores);
        } catch (...) {
            st.error = std::current_exception();
        }
        st.settled = true;
        lane.pending = nullptr;
    }

    float* host_c(Lane& lane) const {
        if (!lane.c_host.get()) lane.c_host = PinnedBuffer(c_floats() * sizeof(float));
        return lane.c_host.get<float>();
    }

    std::size_t c_floats() const { return dist_.sizes.total + (setup_.full_ref ? src_.sizes.total : 0); }

    void make_target(Target& t, unsigned w, unsigned h, std::uint16_t window) {
        t.w = w, t.h = h, t.window = window;
        t.sizes = cc::scale_sizes(w, h, setup_.params.high_res_speedup);
        const std::vector<unsigned> xs = cambi::nearest_samples(geom_.width, w),
                                    ys = cambi::nearest_samples(geom_.height, h);
        t.xmap = upload(xs.data(), xs.size() * sizeof(unsigned), "cambi column map upload");
        t.ymap = upload(ys.data(), ys.size() * sizeof(unsigned), "cambi row map upload");
    }

    /// One picture's kernels: c values into `c`, its range flag, and (unless the
    /// host pools) the device's pooling of each scale into pool[0, kScales).
    void launch(const DevicePlane& luma, unsigned bpc, const Target& t, Lane& lane, float* c, float* seq,
                unsigned* flag, cc::PoolResult* pool, cudaStream_t s) const {
        const cambi::Params& p = setup_.params;
        cc::PictureArgs a;
        a.luma = luma.data;
        a.pitch = luma.pitch;
        a.in_w = luma.width, a.in_h = luma.height, a.bpc = bpc;
        a.xmap = t.xmap.get<unsigned>(), a.ymap = t.ymap.get<unsigned>();
        a.w = t.w, a.h = t.h;
        a.anti_dither = p.enc_bitdepth < 10;
        a.speedup = p.high_res_speedup;
        a.window = t.window;
        a.mask_threshold = cambi::mask_threshold(t.w, t.h);
        a.band_base = p.band_base, a.band_size = p.band_size;
        a.num_diffs = p.num_diffs;
        const cc::Tables tables{active_.get<std::uint32_t>(), recip_.get<float>()};
        if (host_pool_) {
            cc::launch_picture(a, tables, lane.scratch.get(), c, flag, nullptr, s);
            return;
        }
        cc::PoolJob job{};
        cc::PoolStats* stats[cc::kScales];
        for (int k = 0; k < cc::kScales; ++k) {
            const unsigned w = t.sizes.w[k], h = t.sizes.h[k];
            job.c[k] = c + t.sizes.offset[k];
            job.n[k] = std::size_t{w} * h;
            job.k[k] = static_cast<std::uint32_t>(cambi::topk_count(p.topk, w, h));
            stats[k] = cc::pool_stats(lane.pool_scratch.get(), k);
        }
        // The c-value kernel gathers the pooling's stats as it writes the values.
        cc::launch_pool_reset(job, lane.pool_scratch.get(), pool, s);
        cc::launch_picture(a, tables, lane.scratch.get(), c, flag, stats, s);
        cc::launch_pool(job, lane.pool_scratch.get(), pool, s);
        cc::SeqOut out{};
        for (int k = 0; k < cc::kScales; ++k) out.seq[k] = seq + t.sizes.offset[k];
        cc::launch_zero_pivot(job, out, lane.zp_scratch.get(), pool, s);
    }

    /// The picture's score: each scale's pooled mean (the device's exact sum,
    /// else cambi::pool() on the read-back c values), the heat maps, the CPU's
    /// scale combination. `c`: the picture's read-back c values (null when
    /// no scale needed them).
    double finish_picture(const Target& t, float* c, const cc::PoolResult* pooled,
                          std::vector<cambi::Heatmap>* heatmaps) const {
        thread_local std::vector<float> tmp;
        double scores[cambi::kNumScales];
        for (int k = 0; k < cambi::kNumScales; ++k) {
            float* ck = c ? c + t.sizes.offset[k] : nullptr;  // read back: host pooling, declined scales
            const unsigned w = t.sizes.w[k], h = t.sizes.h[k];
            if (heatmaps) heatmaps->push_back(cambi::to_heatmap(ck, w, h, t.window, setup_.params));
            if (!host_pool_ && pooled[k].status == cc::kPoolExact) {
                // sum_units < 2^53: the double and its scaling are exact.
                const double sum = std::ldexp(static_cast<double>(pooled[k].sum_units), pooled[k].q_exp);
                scores[k] = sum / cambi::topk_count(setup_.params.topk, w, h);
            } else if (!host_pool_ && pooled[k].status == cc::kPoolSequence) {
                // zero_pivot_topk_sum()'s sum: its summands, in its order, from 0.
                double sum = 0.0;
                for (std::uint64_t i = 0; i < pooled[k].sum_units; ++i) sum += ck[i];
                scores[k] = sum / cambi::topk_count(setup_.params.topk, w, h);
            } else {
                scores[k] = cambi::pool(ck, setup_.params.topk, w, h, tmp, kernels_);
            }
        }
        return cambi::combine_scales(scores, t.window);
    }

    Session& session_;
    const cambi::Setup setup_;
    const cambi::CambiKernels kernels_;
    const VideoGeometry geom_;
    DeviceBuffer active_, recip_;
    Target dist_, src_;
    std::unique_ptr<cambi::HeatmapFiles> heatmaps_;
    bool host_pool_ = false;  ///< heat maps need every c value on the host: pool there too
    mutable Pool<Lane> lanes_;
};

std::unique_ptr<FeatureExtractor> create(Session& s, const ExtractorInfo& /*kind*/, const OptionValues& o,
                                         const VideoGeometry& g, const ExtractorContext& ctx) {
    return std::make_unique<CambiCuda>(s, o, g, ctx.cpumask);
}

}  // namespace

extern const TwinDescriptor kCambiCudaTwin;
const TwinDescriptor kCambiCudaTwin{.kind = "cambi", .create = &create};

}  // namespace vmaf::cuda
