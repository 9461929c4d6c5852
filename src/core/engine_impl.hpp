// Engine::Impl: what an engine holds between calls, and the steps the pull
// pipeline (engine.cpp) and push mode (engine_push.cpp) share. The stages
// themselves have rooms of their own: read (pair_input), compute and collect
// (extractors), predict (predictor), the driver (pipeline), and the backend
// choice (backend_choice). Private to the library.
#pragma once

#include <tbb/task_arena.h>

#include <future>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backends/backend.hpp"
#include "core/backend_choice.hpp"
#include "core/collector.hpp"
#include "core/extractors.hpp"
#include "core/predictor.hpp"
#include "vmaf/engine.hpp"

namespace vmaf {

namespace engine_detail {

/// Splits a GPU-pinned feature name ("vif_cuda") into kind and backend.
bool split_pinned(const std::string& name, std::string& kind, std::string& backend);

std::string geometry_text(const VideoGeometry& g);

/// While alive, the backend is in a run (run_begin() .. run_end()).
class RunScope {
public:
    RunScope() = default;
    explicit RunScope(BackendSession* s) : s_(s) {}
    RunScope(RunScope&& o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
    RunScope& operator=(RunScope&& o) noexcept {
        end();
        s_ = std::exchange(o.s_, nullptr);
        return *this;
    }
    ~RunScope() { end(); }
    void end() noexcept {
        if (!s_) return;
        try {
            s_->run_end();
        } catch (...) {
        }
        s_ = nullptr;
    }

private:
    BackendSession* s_ = nullptr;
};

}  // namespace engine_detail

using namespace engine_detail;

struct Engine::Impl {
    EngineConfig cfg;
    FeatureCollector fc;
    Extractors x{fc};
    Predictor predictor{fc};
    unsigned frames = 0;
    double fps = 0;
    std::vector<std::string> warnings;
    std::vector<std::string> notices;
    VideoGeometry geom;
    std::optional<BackendSelection> selection;
    std::unique_ptr<BackendSession> session;
    /// The backend starting in the background since construction (GPU
    /// runtimes take a few hundred ms to start); select() takes it.
    std::future<StartedBackend> starting;
    const BackendDescriptor* starting_backend = nullptr;

    BackendRequest request() const {
        return {cfg.backend, cfg.device, cfg.no_cuda, {}, cfg.backend_state, cfg.no_hip, cfg.hip_device};
    }
    /// Starts the configured backend once (Engine::select_backend()).
    const BackendSelection& select();
    /// Prepares a run over pictures of `geom`: the backend, where each
    /// extractor runs, the extractors themselves. The backend's run lasts
    /// as long as the returned scope.
    /// `ctx`: the run's cpumask and the reference input's frame rate (0/0 when unknown).
    RunScope begin_run(const VideoGeometry& g, const ExtractorContext& ctx);
    /// Frame pairs in flight in the threaded pipeline (see engine.cpp).
    unsigned in_flight(bool luma_only, bool gpu, std::optional<std::uint64_t> pairs = std::nullopt) const;
    /// Compute stage of one pair.
    void compute(Token& t, bool parallel) { x.compute(t, parallel, session.get(), cfg.subsample); }
    /// Collect and predict stages of one pair (frame order).
    void collect(Token& t) {
        x.finish(t);
        predictor.predict_ready(t.index + 1, cfg.subsample, cfg.no_prediction);
    }
    /// After the last pair: temporal tails, the last predictions.
    void flush(unsigned pairs) {
        x.flush();
        predictor.predict_ready(pairs, cfg.subsample, cfg.no_prediction);
    }
};

/// Push mode's state (engine_push.cpp).
struct Engine::PushState {
    std::unique_ptr<tbb::task_arena> arena;  ///< worker threads, when configured
    bool ended = false;
    RunScope run;
};

}  // namespace vmaf
