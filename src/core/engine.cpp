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
#include <limits>
#include <variant>

#include "backends/backend.hpp"
#include "core/collector.hpp"
#include "core/feature_name.hpp"
#include "core/registry.hpp"
#include "model/model.hpp"
#include "output/writers.hpp"
#include "vmaf/error.hpp"

namespace vmaf {

const char* version() { return "3.2.0"; }

namespace {

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
bool split_pinned(const std::string& name, std::string& kind, std::string& backend) {
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

std::string ended_first(const VideoSource& shorter, const VideoSource& longer, unsigned frames) {
    return "\"" + shorter.name() + "\" ended before \"" + longer.name() + "\"; scored the first " +
           std::to_string(frames) + " frames";
}

/// A started backend session (null: the CPU), with why "auto" fell back.
struct Started {
    std::unique_ptr<BackendSession> session;
    std::string fallback_reason;
};

/// Starts the backend `c` asks for; throws BackendError when an explicit one cannot start.
Started start_backend(const EngineConfig& c) {
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
bool known_backend(const std::string& name) {
    bool known = name == "auto" || name == "cpu";
    for (std::string_view n : kGpuBackendNames) known |= n == name;
    return known;
}

/// The backend start_backend(c) tries first, if it is compiled in and a GPU one.
const BackendDescriptor* first_backend(const EngineConfig& c) {
    if (c.backend == "auto") {
        for (const BackendDescriptor* b : backend_registry())
            if (!(b->name == "cuda" && c.no_cuda)) return b;
        return nullptr;
    }
    if (c.backend == "cpu" || (c.backend == "cuda" && c.no_cuda)) return nullptr;
    return find_backend(c.backend);
}

std::string geometry_text(const VideoGeometry& g) {
    return std::to_string(g.width) + "x" + std::to_string(g.height) + " " + pixel_format_name(g.format) + " " +
           std::to_string(g.bpc) + "-bit";
}

}  // namespace

struct Engine::Impl {
    EngineConfig cfg;
    FeatureCollector fc;
    std::vector<Instance> instances;
    std::vector<ModelEntry> models;
    unsigned frames = 0;
    double fps = 0;
    std::vector<std::string> warnings;
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

Engine::Engine(EngineConfig cfg) : impl_(std::make_unique<Impl>()) {
    if (cfg.subsample == 0) cfg.subsample = 1;
    impl_->cfg = cfg;
    if (known_backend(cfg.backend) && cfg.backend != "cpu") {
        impl_->starting_backend = first_backend(cfg);
        impl_->starting = std::async(std::launch::async, [cfg] { return start_backend(cfg); });
    }
}

Engine::~Engine() = default;

void Engine::add_feature(const FeatureRequest& req) {
    const ExtractorInfo* info = find_extractor(req.name);
    std::string kind, pinned;
    if (!info && split_pinned(req.name, kind, pinned)) info = find_extractor(kind);
    if (!info) throw Error(ErrorKind::Usage, "unknown feature '" + req.name + "' (see --help for the list)");
    impl_->use_extractor(info, req.options, pinned);
}

const BackendSelection& Engine::select_backend() {
    Impl& d = *impl_;
    if (d.selection) return *d.selection;
    const EngineConfig& c = d.cfg;
    if (!known_backend(c.backend)) throw Error(ErrorKind::Usage, "unsupported backend '" + c.backend + "'");
    Started st = d.starting.valid() ? d.starting.get() : start_backend(c);
    d.session = std::move(st.session);
    BackendSelection sel;
    sel.fallback_reason = std::move(st.fallback_reason);
    if (d.session) sel.used = std::string(d.session->name());
    for (const Instance& inst : d.instances) {
        if (inst.pinned.empty()) continue;
        const std::string fname = std::string(inst.info->name) + "_" + inst.pinned;
        if (sel.used != inst.pinned)
            throw BackendError(inst.pinned, -ENODEV,
                               "feature '" + fname + "' needs the " + inst.pinned + " backend, which is not active" +
                                   (sel.fallback_reason.empty() ? "" : " (" + sel.fallback_reason + ")"));
        if (!d.session->has_twin(inst.info->name))
            throw BackendError(inst.pinned, -ENOSYS, "feature '" + fname + "' is not implemented on " + inst.pinned);
    }
    d.selection = std::move(sel);
    return *d.selection;
}

void Engine::add_model(const ModelRequest& req) {
    if (req.version.empty() == req.path.empty())
        throw Error(ErrorKind::Usage, "--model needs exactly one of version=NAME or path=FILE");
    auto configure = [&](auto& m) {
        if (!req.name.empty()) m.set_name(req.name);
        if (req.disable_clip) m.set_clip_enabled(false);
        if (req.enable_transform) m.set_transform_enabled(true);
        for (const auto& [key, value] : req.overrides) {
            const auto dot = key.find('.');
            if (dot == std::string::npos || dot == 0 || dot + 1 == key.size())
                throw Error(ErrorKind::Usage, "bad model option '" + key + "' (expected <feature>.<option>=<value>)");
            m.override_option(key.substr(0, dot), key.substr(dot + 1), value);
        }
    };
    if (!req.version.empty()) {
        if (ModelCollection::is_builtin_collection(req.version)) {
            auto c = ModelCollection::builtin(req.version);
            configure(c);
            impl_->add_model_entry(std::move(c));
        } else {
            auto m = Model::builtin(req.version);
            configure(m);
            impl_->add_model_entry(std::move(m));
        }
        return;
    }
    std::FILE* f = std::fopen(req.path.c_str(), "rb");
    if (!f) throw Error(ErrorKind::Usage, "cannot open model file '" + req.path + "'");
    std::string text;
    char buf[65536];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
    std::fclose(f);
    if (ModelCollection::is_collection_json(text)) {
        auto c = ModelCollection::from_json(text, req.path);
        configure(c);
        impl_->add_model_entry(std::move(c));
    } else {
        auto m = Model::from_json(text, req.path);
        configure(m);
        impl_->add_model_entry(std::move(m));
    }
}

unsigned Engine::run(VideoSource& ref, VideoSource& dist, const RunLimits& limits) {
    Impl& d = *impl_;
    if (!(ref.geometry() == dist.geometry()))
        throw Error(ErrorKind::Input, "reference and distorted differ: " + ref.name() + " is " +
                                          geometry_text(ref.geometry()) + ", " + dist.name() + " is " +
                                          geometry_text(dist.geometry()));
    if (d.instances.empty()) throw Error(ErrorKind::Usage, "nothing to compute: no model and no feature");
    d.geom = ref.geometry();
    d.warnings.clear();
    bool luma_only = true;  // read only what some extractor needs
    for (const Instance& inst : d.instances) luma_only &= !inst.info->needs_chroma;

    // A GPU backend's page-locked frame buffers take tens of ms to set up:
    // while it is still starting, fill the readers' pools with its upload
    // memory (pages are touched now; registration waits for its runtime).
    // Planned again below should that backend not be the one that starts.
    std::shared_ptr<PictureAllocator> early_alloc;
    std::exception_ptr early_error;
    if (!d.selection && d.starting.valid() && d.starting_backend && d.starting_backend->upload_allocator) {
        early_alloc = d.starting_backend->upload_allocator(BackendStartOptions{d.cfg.device, d.cfg.backend_state});
        if (early_alloc) {
            try {
                const ReadPlan plan{luma_only, early_alloc, d.tokens(luma_only, true) + 2, true};
                ref.plan(plan);
                dist.plan(plan);
            } catch (const std::exception&) {
                early_error = std::current_exception();
            }
        }
    }
    select_backend();
    const ExtractorContext ctx{d.cfg.cpumask};
    bool backend_chroma = false;
    for (Instance& inst : d.instances) {
        inst.extractor.reset();
        inst.on_backend = d.session && d.session->has_twin(inst.info->name);
        backend_chroma |= inst.on_backend && inst.info->needs_chroma;
    }
    if (d.session) d.session->run_begin(d.geom, backend_chroma);
    struct RunEnd {
        BackendSession* s;
        ~RunEnd() {
            if (s) s->run_end();
        }
    } run_end{d.session.get()};
    for (Instance& inst : d.instances)
        inst.extractor = inst.on_backend ? d.session->create_extractor(*inst.info, inst.opts, d.geom, ctx)
                                         : inst.info->create(inst.opts, d.geom, ctx);

    // Pictures in the backend's upload memory when it has one, as many in
    // flight as the pipeline holds.
    const unsigned tokens = d.tokens(luma_only, d.session != nullptr);
    if (early_alloc && d.session && d.session->name() == d.starting_backend->name) {
        if (early_error) std::rethrow_exception(early_error);
    } else {
        const ReadPlan plan{luma_only, d.session ? d.session->picture_allocator() : nullptr, tokens + 2,
                            d.session != nullptr};
        ref.plan(plan);
        dist.plan(plan);
    }

    if (limits.skip_ref) ref.skip(limits.skip_ref);
    if (limits.skip_dist) dist.skip(limits.skip_dist);

    // Inputs with random access (raw files) are read by the parallel stage,
    // several frames at once; the others in order by the serial input stage.
    const std::optional<std::uint64_t> ref_left = ref.frames_left(), dist_left = dist.frames_left();
    const bool random = ref_left && dist_left;
    std::uint64_t total = 0;
    if (random) {
        total = std::min(*ref_left, *dist_left);
        if (limits.frame_count) total = std::min<std::uint64_t>(total, *limits.frame_count);
    }

    const auto t0 = std::chrono::steady_clock::now();
    unsigned next = 0;
    // Reads the next pair (or, with random access, numbers it for load());
    // false at the end of either input or the frame limit.
    auto read_pair = [&](Impl::Token& t) {
        if (random) {
            if (next >= total) return false;
            t.index = next++;
            return true;
        }
        if (limits.frame_count && next >= *limits.frame_count) return false;
        // The input stage is serial: with worker threads, read the two
        // sources concurrently (independent readers) to halve its latency.
        std::optional<Picture> r, s;
        if (d.cfg.threads > 1) {
            tbb::parallel_invoke([&] { r = ref.read(); }, [&] { s = dist.read(); });
        } else {
            r = ref.read();
            s = dist.read();
        }
        if (!r || !s) {
            if (r || s)
                d.warnings.push_back(ended_first(r ? dist : ref, r ? ref : dist, next));
            return false;
        }
        t.index = next++;
        t.ref = std::move(*r);
        t.dist = std::move(*s);
        return true;
    };
    auto load = [&](Impl::Token& t) {
        if (!random) return;
        t.ref = ref.read_frame(t.index);
        t.dist = dist.read_frame(t.index);
    };

    if (d.cfg.threads == 0) {
        Impl::Token t;
        while (read_pair(t)) {
            load(t);
            d.compute(t, false);
            d.finish(t);
        }
    } else {
        tbb::task_arena arena(static_cast<int>(d.cfg.threads));
        arena.execute([&] {
            tbb::parallel_pipeline(
                tokens,
                tbb::make_filter<void, std::shared_ptr<Impl::Token>>(
                    tbb::filter_mode::serial_in_order,
                    [&](tbb::flow_control& fcl) -> std::shared_ptr<Impl::Token> {
                        auto t = std::make_shared<Impl::Token>();
                        if (!read_pair(*t)) {
                            fcl.stop();
                            return nullptr;
                        }
                        return t;
                    }) &
                    tbb::make_filter<std::shared_ptr<Impl::Token>, std::shared_ptr<Impl::Token>>(
                        tbb::filter_mode::parallel,
                        [&](std::shared_ptr<Impl::Token> t) {
                            load(*t);
                            d.compute(*t, true);
                            return t;
                        }) &
                    tbb::make_filter<std::shared_ptr<Impl::Token>, void>(
                        tbb::filter_mode::serial_in_order, [&](std::shared_ptr<Impl::Token> t) { d.finish(*t); }));
        });
    }
    // Random access ends where in-order reading would: the longer input's
    // next frame is still read (a partial one is an error), then the warning.
    if (random && (!limits.frame_count || *limits.frame_count > total) && *ref_left != *dist_left) {
        VideoSource& longer = *ref_left > total ? ref : dist;
        longer.read_frame(total);
        d.warnings.push_back(ended_first(*ref_left > total ? dist : ref, longer, next));
    }
    if (next == 0) throw Error(ErrorKind::Input, "no frames to compare: " + ref.name() + " or " + dist.name() + " is empty");

    for (Instance& inst : d.instances) {
        InstanceWriter w(d.fc, inst);
        inst.extractor->flush(w);
    }
    d.predict_ready(next);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    d.frames = next;
    d.fps = secs > 0 ? next / secs : 0;
    for (const ModelEntry& e : d.models)
        if (!d.cfg.no_prediction && e.next_frame < next)
            throw Error(ErrorKind::Internal, "model features incomplete at frame " + std::to_string(e.next_frame));
    return next;
}

void Engine::write_report(const std::string& path, OutputFormat fmt, const Precision& prec) const {
    ReportContext ctx{impl_->fc, impl_->frames, impl_->cfg.subsample, impl_->fps, impl_->geom.width, impl_->geom.height,
                      backend_used(), prec};
    write_report_file(path, fmt, ctx);
}

std::optional<double> Engine::pooled_mean(const std::string& key) const {
    auto s = impl_->fc.find(key);
    if (!s) return std::nullopt;
    return impl_->fc.pool(*s, PoolMethod::Mean, impl_->frames, impl_->cfg.subsample);
}

std::vector<std::string> Engine::score_keys() const {
    std::vector<std::string> out;
    for (Slot s : impl_->fc.written_order()) out.push_back(impl_->fc.key(s));
    return out;
}

std::vector<double> Engine::frame_scores(const std::string& key) const {
    const auto s = impl_->fc.find(key);
    if (!s) return {};
    std::vector<double> out(impl_->frames, std::numeric_limits<double>::quiet_NaN());
    for (unsigned f = 0; f < impl_->frames; ++f)
        if (impl_->fc.has(*s, f)) out[f] = impl_->fc.get(*s, f);
    return out;
}

std::vector<std::pair<std::string, bool>> Engine::model_keys() const {
    std::vector<std::pair<std::string, bool>> out;
    for (const ModelEntry& e : impl_->models)
        out.emplace_back(std::visit([](const auto& m) { return m.name(); }, e.model),
                         std::holds_alternative<ModelCollection>(e.model));
    return out;
}

const std::vector<std::string>& Engine::warnings() const { return impl_->warnings; }

double Engine::fps() const { return impl_->fps; }

std::string Engine::backend_used() const { return impl_->session ? std::string(impl_->session->name()) : "cpu"; }

}  // namespace vmaf
