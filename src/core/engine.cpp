#include "vmaf/engine.hpp"

#include "core/engine_impl.hpp"

#include <limits>

namespace vmaf {

const char* version() { return "3.2.0"; }

Engine::Engine(EngineConfig cfg) : impl_(std::make_unique<Impl>()) {
    if (cfg.subsample == 0) cfg.subsample = 1;
    impl_->cfg = cfg;
    if (known_backend(cfg.backend) && cfg.backend != "cpu") {
        impl_->starting_backend = first_backend(cfg);
        impl_->starting = std::async(std::launch::async, [cfg] { return start_backend(cfg); });
    }
}

Engine::~Engine() {
    if (pushing()) try {
            push_flush();
        } catch (...) {
        }
}

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
    d.notices.clear();
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
    // Every extractor on the GPU: the sources may decode there too and hand
    // over pictures in device memory (a source that could but cannot says why).
    bool all_on_backend = d.session != nullptr && d.cfg.gpu_decode;
    for (const Instance& inst : d.instances) all_on_backend &= inst.on_backend;
    if (all_on_backend)
        if (const std::optional<DeviceTarget> target = d.session->device_target())
            for (VideoSource* s : {&ref, &dist}) {
                std::string why;
                if (!s->decode_on_device(*target, why) && !why.empty()) d.notices.push_back(s->name() + ": " + why);
            }
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

void Engine::write_report(const std::string& path, OutputFormat fmt, const Precision& prec,
                          const PairingReport* pairing) const {
    ReportContext ctx{impl_->fc, impl_->frames, impl_->cfg.subsample, impl_->fps, impl_->geom.width, impl_->geom.height,
                      backend_used(), prec, pairing};
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
const std::vector<std::string>& Engine::notices() const { return impl_->notices; }

double Engine::fps() const { return impl_->fps; }

std::string Engine::backend_used() const { return impl_->session ? std::string(impl_->session->name()) : "cpu"; }

std::function<Picture()> Engine::backend_pictures(const VideoGeometry& geom, MemoryKind kind, unsigned keep) {
    select_backend();
    Impl& d = *impl_;
    if (!d.session) throw BackendError("cpu", -ENODEV, "no GPU backend is running: pictures in GPU memory need one");
    std::function<Picture()> supply = d.session->picture_supply(geom, kind, keep);
    if (!supply)
        throw BackendError(std::string(d.session->name()), -ENOSYS,
                           "the " + std::string(d.session->name()) + " backend has no memory of the kind asked for");
    return supply;
}

}  // namespace vmaf
