// The shape most CUDA twins share: per frame, kernels that add exact integer
// sums to the twin's part of the frame's results area, and host code (the
// CPU kind's) that turns the read-back sums into scores. VMAF_CUDA_DISPATCH
// decides whether compute() waits for them (serial) or finish() does, on the
// frame's one readback (batched).
#pragma once

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string_view>

#include "backends/cuda/dispatch.hpp"
#include "backends/cuda/session.hpp"

namespace vmaf::cuda {

/// `Scratch`: per-stream device memory of the kernels (default-constructible,
/// movable). `State`: the frame's state (a FrameState) the scores are finished in.
template <typename Scratch, typename State = FrameState>
class SumsTwin : public FeatureExtractor {
public:
    std::unique_ptr<FrameState> compute(unsigned index, const Picture& /*ref*/, const Picture& /*dist*/) const final {
        session_.bind();
        const DeviceFrame& f = session_.frame(index);
        auto st = std::make_unique<Pending>();
        {
            Lease<Lane> lane(lanes_);
            const cudaStream_t s = lane->stream.get();
            check(cudaStreamWaitEvent(s, f.ready, 0), "cudaStreamWaitEvent");
            launch(f, lane->scratch, session_.results_device(index, area_), s, *st);
            check(cudaGetLastError(), "kernel launch");
            st->sums = session_.submit(index, area_, s, lane->done.get(), mode_);
        }  // the lane's next user enqueues on the same stream, after this frame's kernels
        if (mode_ == Dispatch::Serial) collect(*st);
        return st;
    }

    void finish(unsigned index, FrameState& state, ScoreWriter& out) final {
        auto& st = static_cast<Pending&>(state);
        if (st.sums) {
            session_.bind();  // waits on the frame's readback, on whichever thread finishes it
            collect(st);
        }
        write(index, st, out);
    }

protected:
    /// Lanes (stream + scratch) at most: a lane is held only while a frame's
    /// kernels are enqueued, and its scratch is the twin's largest memory
    /// (4K: ADM about 60 MiB, ssimulacra2 0.9 GB). One a worker made memory
    /// grow with --threads: 4K ssimulacra2 took 7.3 GB at 8 threads and
    /// 10.4 GB at 16 on an H100, 4.0 and 4.9 GB with 4 lanes, at the same speed.
    static constexpr std::size_t kLanes = 4;
    /// Lanes for a twin whose scratch takes `scratch_bytes` a lane: 2 to
    /// kLanes, within kLaneBudget. 4K VMAF+NEG (H200, session 18): ADM's
    /// 60 MiB lanes at 2, 3 or 4 gave the same GPU-side and engine fps; its
    /// peak device memory at 8 threads went 1066 -> 802 MiB at 2.
    static constexpr std::size_t kLaneBudget = std::size_t{128} << 20;
    static constexpr std::size_t lanes_within_budget(std::size_t scratch_bytes) {
        return std::clamp<std::size_t>(kLaneBudget / std::max<std::size_t>(scratch_bytes, 1), 2, kLanes);
    }

    /// `kind`: the CPU kind's name (for VMAF_CUDA_DISPATCH); `sum_bytes`: the
    /// twin's part of each frame's results area; `make_scratch` runs with the
    /// session's device current.
    SumsTwin(Session& s, std::string_view kind, const VideoGeometry& g, std::size_t sum_bytes,
             std::function<Scratch()> make_scratch, std::size_t lanes = kLanes)
        : session_(s),
          mode_(dispatch_for(std::getenv("VMAF_CUDA_DISPATCH"), kind, g.width, g.height)),
          area_(s.reserve_results(sum_bytes)),
          lanes_(
              [this, make = std::move(make_scratch)] {
                  session_.bind();
                  auto lane = std::make_unique<Lane>();
                  lane->scratch = make();
                  return lane;
              },
              lanes) {}

    /// Enqueues the frame's kernels on `s`; they add to `sums` (device, zeroed).
    /// May note per-frame facts the scoring needs in `st`.
    virtual void launch(const DeviceFrame& f, Scratch& scratch, void* sums, cudaStream_t s, State& st) const = 0;
    /// The frame's read-back sums into `st` (the CPU kind's host code).
    virtual void score(const void* sums, State& st) const = 0;
    /// Ordered stage: writes the frame's scores (default: st.scores).
    virtual void write(unsigned index, State& st, ScoreWriter& out) { FeatureExtractor::finish(index, st, out); }

    Session& session_;

private:
    struct Lane {
        Stream stream;
        Event done;
        Scratch scratch;
    };
    struct Pending final : State {
        Results sums;
    };

    void collect(Pending& st) const {
        score(st.sums.template get<void>(), st);
        st.sums = Results();
    }

    const Dispatch mode_;
    const ResultArea area_;
    mutable Pool<Lane> lanes_;
};

}  // namespace vmaf::cuda
