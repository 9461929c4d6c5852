// Engine::Impl and its parts, shared by the pull-mode pipeline (engine.cpp)
// and the push-mode interface (engine_push.cpp). Private to the library.
#pragma once

#include "vmaf/engine.hpp"
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <future>
#include <variant>
#include "backends/backend.hpp"
#include "core/collector.hpp"
#include "core/feature_name.hpp"
#include "core/registry.hpp"
#include "model/model.hpp"
#include "output/writers.hpp"
#include "vmaf/error.hpp"

namespace vmaf {

namespace engine_detail {

/// One configured extractor: kind + resolved options; the instance itself is
/// created at run() time, when the geometry is known.
struct Instance {
    const ExtractorInfo* info = nullptr;
    OptionValues opts;
    std::string identity;
    std::vector<Slot> slots;  ///< by output index (aggregates: unused)
    std::unique_ptr<FeatureExtractor> extractor;
    std::string pinned;      ///< backend a GPU-pinned name asked for ("cuda" for psnr_cuda), or empty
    bool on_backend = false;  ///< this run's extractor is the backend's twin
};

/// Splits a GPU-pinned feature name ("vif_cuda") into kind and backend.
inline bool split_pinned(const std::string& name, std::string& kind, std::string& backend) {
    for (std::string_view b : kGpuBackendNames) {
        const std::string suffix = "_" + std::string(b);
        if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
            kind = name.substr(0, name.size() - suffix.size());
            backend = b;
            return true;
        }
    }
    return false;
}

struct ModelEntry {
    std::variant<Model, ModelCollection> model;
    std::vector<Slot> feature_slots;
    std::vector<Slot> out_slots;  ///< model: {name}; collection: name, submodels, bagging, stddev, lo, hi
    unsigned next_frame = 0;
};

/// Routes an instance's writes to collector slots.
class InstanceWriter final : public ScoreWriter {
public:
    InstanceWriter(FeatureCollector& fc, const Instance& inst) : fc_(fc), inst_(inst) {}
    void write(unsigned frame, unsigned output, double value) override {
        fc_.write(inst_.slots.at(output), frame, value);
    }
    void write_aggregate(unsigned output, double value) override {
        fc_.write_aggregate(inst_.info->outputs[output], value);
    }

private:
    FeatureCollector& fc_;
    const Instance& inst_;
};

inline std::string ended_first(const VideoSource& shorter, const VideoSource& longer, unsigned frames) {
    return "\"" + shorter.name() + "\" ended before \"" + longer.name() + "\"; scored the first " +
           std::to_string(frames) + " frames";
}

/// A started backend session (null: the CPU), with why "auto" fell back.
struct Started {
    std::unique_ptr<BackendSession> session;
    std::string fallback_reason;
};

/// Starts the backend `c` asks for; throws BackendError when an explicit one cannot start.
inline Started start_backend(const EngineConfig& c) {
    auto start = [&](const std::string& name) -> std::unique_ptr<BackendSession> {
        if (name == "cuda" && c.no_cuda) throw BackendError(name, -ENODEV, "CUDA is disabled (--no_cuda)");
        const BackendDescriptor* b = find_backend(name);
        if (!b) throw BackendError(name, -ENOSYS, "the " + name + " backend is not compiled into this build");
        BackendStartOptions o;
        o.device = c.device;
        o.external = c.backend_state;
        return b->start(o);
    };
    Started st;
    if (c.backend == "auto") {
        for (const BackendDescriptor* b : backend_registry()) {
            if (b->name == "cuda" && c.no_cuda) continue;
            try {
                st.session = start(std::string(b->name));
                st.fallback_reason.clear();
                break;
            } catch (const BackendError& e) {
                if (st.fallback_reason.empty()) st.fallback_reason = e.what();
            }
        }
    } else if (c.backend != "cpu") {
        st.session = start(c.backend);
    }
    return st;
}

/// "auto", "cpu" or a GPU backend name (compiled in or not).
inline bool known_backend(const std::string& name) {
    bool known = name == "auto" || name == "cpu";
    for (std::string_view n : kGpuBackendNames) known |= n == name;
    return known;
}

/// The backend start_backend(c) tries first, if it is compiled in and a GPU one.
inline const BackendDescriptor* first_backend(const EngineConfig& c) {
    if (c.backend == "auto") {
        for (const BackendDescriptor* b : backend_registry())
            if (!(b->name == "cuda" && c.no_cuda)) return b;
        return nullptr;
    }
    if (c.backend == "cpu" || (c.backend == "cuda" && c.no_cuda)) return nullptr;
    return find_backend(c.backend);
}

inline std::string geometry_text(const VideoGeometry& g) {
    return std::to_string(g.width) + "x" + std::to_string(g.height) + " " + pixel_format_name(g.format) + " " +
           std::to_string(g.bpc) + "-bit";
}

}  // namespace engine_detail

using namespace engine_detail;

struct Engine::Impl {
    EngineConfig cfg;
    FeatureCollector fc;
    std::vector<Instance> instances;
    std::vector<ModelEntry> models;
    unsigned frames = 0;
    double fps = 0;
    std::vector<std::string> warnings;
    std::vector<std::string> notices;
    VideoGeometry geom;
    std::optional<BackendSelection> selection;
    std::unique_ptr<BackendSession> session;
    /// The backend starting in the background since construction (GPU
    /// runtimes take a few hundred ms to start); select_backend() takes it.
    std::future<Started> starting;
    const BackendDescriptor* starting_backend = nullptr;

    /// Index of the instance computing (info, opts), adding it if new.
    std::size_t use_extractor(const ExtractorInfo* info, const OptionDict& dict, const std::string& pinned = {}) {
        OptionValues ov(info->options, dict, info->name);
        std::string id = std::string(info->name) + "|" + ov.identity();
        for (std::size_t i = 0; i < instances.size(); ++i)
            if (instances[i].identity == id) {
                if (!pinned.empty()) instances[i].pinned = pinned;
                return i;
            }
        Instance inst;
        inst.info = info;
        inst.pinned = pinned;
        inst.identity = std::move(id);
        for (unsigned o = 0; o < info->outputs.size(); ++o) {
            const bool verbatim = std::find(info->verbatim_outputs.begin(), info->verbatim_outputs.end(), o) !=
                                  info->verbatim_outputs.end();
            inst.slots.push_back(fc.slot(verbatim ? std::string(info->outputs[o]) : feature_key(info->outputs[o], ov)));
        }
        for (unsigned o : info->flush_outputs) fc.order_after_frames(inst.slots[o]);
        inst.opts = std::move(ov);
        instances.push_back(std::move(inst));
        return instances.size() - 1;
    }

    template <typename M>
    void add_model_entry(M&& m) {
        const std::string name = m.name();
        for (const auto& e : models) {
            const std::string& other = std::visit([](const auto& x) -> const std::string& { return x.name(); }, e.model);
            if (other == name) throw Error(ErrorKind::Usage, "two models are named '" + name + "': give each a distinct name=");
        }
        ModelEntry e{std::forward<M>(m), {}, {}, 0};
        const auto feats = std::visit([](const auto& x) { return x.features(); }, e.model);
        for (const ModelFeature& f : feats) {
            unsigned out = 0;
            const ExtractorInfo* info = find_extractor_by_output(f.name, &out);
            if (!info) throw Error(ErrorKind::Model, "model '" + name + "' needs feature '" + f.name + "', which no extractor provides");
            const std::size_t idx = use_extractor(info, f.options);
            e.feature_slots.push_back(instances[idx].slots[out]);
        }
        if constexpr (std::is_same_v<std::decay_t<M>, ModelCollection>) {
            const auto& c = std::get<ModelCollection>(e.model);
            e.out_slots.push_back(fc.slot(name));
            for (std::size_t k = 1; k < c.size(); ++k) {
                char suffix[32];
                std::snprintf(suffix, sizeof suffix, "_%04zu", k);
                e.out_slots.push_back(fc.slot(name + suffix));
            }
            for (const char* s : {"_bagging", "_stddev", "_ci_p95_lo", "_ci_p95_hi"}) e.out_slots.push_back(fc.slot(name + s));
        } else {
            e.out_slots.push_back(fc.slot(name));
        }
        for (Slot s : e.out_slots) fc.order_after_frames(s);  // upstream predicts after flushing
        models.push_back(std::move(e));
    }

    /// Frame pairs in flight in the threaded pipeline. A GPU backend keeps
    /// them in page-locked memory, which is costly to allocate, and needs
    /// only enough to overlap reading, upload and kernels: 4 to 12 within a budget.
    unsigned tokens(bool luma_only, bool gpu) const {
        const unsigned cpu = cfg.threads * 2 + 1;
        if (!gpu) return cpu;
        const Picture probe(geom.format, geom.bpc, geom.width, 1);
        const std::size_t row = static_cast<std::size_t>(probe.plane(0).stride);
        const std::size_t pair = 2 * row * geom.height * (luma_only || geom.format == PixelFormat::Yuv400 ? 1 : 3);
        constexpr std::size_t kBudget = std::size_t{160} << 20;
        const std::size_t fit = std::clamp<std::size_t>(kBudget / pair, 4, 12);
        return static_cast<unsigned>(std::min<std::size_t>(cpu, fit));
    }

    bool counted(unsigned frame) const { return cfg.subsample <= 1 || frame % cfg.subsample == 0; }

    /// Predicts every model frame whose features are complete, up to `upto` (exclusive).
    void predict_ready(unsigned upto) {
        if (cfg.no_prediction) return;
        std::vector<double> values;
        for (ModelEntry& e : models) {
            for (; e.next_frame < upto; ++e.next_frame) {
                const unsigned f = e.next_frame;
                if (!counted(f)) continue;
                values.clear();
                bool complete = true;
                for (Slot s : e.feature_slots) {
                    if (!fc.has(s, f)) {
                        complete = false;
                        break;
                    }
                    values.push_back(fc.get(s, f));
                }
                if (!complete) break;
                if (auto* m = std::get_if<Model>(&e.model)) {
                    fc.write(e.out_slots[0], f, m->predict(values));
                } else {
                    const CollectionScore cs = std::get<ModelCollection>(e.model).predict(values);
                    std::size_t k = 0;
                    fc.write(e.out_slots[k++], f, cs.score);
                    for (double v : cs.submodels) fc.write(e.out_slots[k++], f, v);
                    fc.write(e.out_slots[k++], f, cs.bagging);
                    fc.write(e.out_slots[k++], f, cs.stddev);
                    fc.write(e.out_slots[k++], f, cs.ci_p95_lo);
                    fc.write(e.out_slots[k++], f, cs.ci_p95_hi);
                }
            }
        }
    }

    bool runs_on(const Instance& inst, unsigned frame) const { return inst.info->temporal || counted(frame); }

    struct Token {
        unsigned index = 0;
        Picture ref, dist;
        std::vector<std::unique_ptr<FrameState>> states;
    };

    void compute(Token& t, bool parallel) {
        if (t.ref.memory() == MemoryKind::Device || t.dist.memory() == MemoryKind::Device)
            for (const Instance& inst : instances)
                if (!inst.on_backend)
                    throw Error(ErrorKind::Usage, "feature '" + std::string(inst.info->name) +
                                                      "' runs on the CPU, which cannot read pictures in device memory");
        bool staged = false;
        if (session)
            for (const Instance& inst : instances)
                if (inst.on_backend && runs_on(inst, t.index)) staged = true;
        if (staged) session->frame_begin(t.index, t.ref, t.dist);
        struct Release {
            BackendSession* s;
            unsigned i;
            ~Release() {
                if (s) s->frame_end(i);
            }
        } release{staged ? session.get() : nullptr, t.index};
        t.states.resize(instances.size());
        auto one = [&](std::size_t k) {
            if (runs_on(instances[k], t.index)) t.states[k] = instances[k].extractor->compute(t.index, t.ref, t.dist);
        };
        if (parallel && instances.size() > 1)
            tbb::parallel_for(std::size_t{0}, instances.size(), one);
        else
            for (std::size_t k = 0; k < instances.size(); ++k) one(k);
    }

    void finish(Token& t) {
        for (std::size_t k = 0; k < instances.size(); ++k) {
            if (!t.states[k]) continue;
            InstanceWriter w(fc, instances[k]);
            instances[k].extractor->finish(t.index, *t.states[k], w);
        }
        t.ref = Picture();
        t.dist = Picture();
        predict_ready(t.index + 1);
    }
};

/// Push mode's state (engine_push.cpp).
struct Engine::PushState {
    std::unique_ptr<tbb::task_arena> arena;  ///< worker threads, when configured
    bool ended = false;
    bool backend_running = false;
};

}  // namespace vmaf
