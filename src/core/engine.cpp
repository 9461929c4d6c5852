#include "vmaf/engine.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <optional>

#include "core/engine_impl.hpp"
#include "core/pair_input.hpp"
#include "core/pipeline.hpp"
#include "core/registry.hpp"
#include "output/writers.hpp"

namespace vmaf {

namespace engine_detail {

bool split_pinned(const std::string& name, std::string& kind, std::string& backend) {
    for (std::string_view b : kGpuBackendNames) {
        // name ends in "_" + b, with something before it
        if (name.size() <= b.size() + 1) continue;
        const std::size_t underscore = name.size() - b.size() - 1;
        if (name[underscore] == '_' && std::string_view(name).substr(underscore + 1) == b) {
            kind = name.substr(0, underscore);
            backend = b;
            return true;
        }
    }
    return false;
}

std::string geometry_text(const VideoGeometry& g) {
    return std::to_string(g.width) + "x" + std::to_string(g.height) + " " + pixel_format_name(g.format) + " " +
           std::to_string(g.bpc) + "-bit";
}

namespace {

/// Stage/upload, planned before the backend has started: a GPU backend's
/// page-locked frame buffers take tens of ms to set up, so while it is
/// still starting the readers' pools are filled with its upload memory
/// (pages are touched now; registration waits for its runtime).
struct EarlyPlan {
    std::shared_ptr<PictureAllocator> allocator;
    std::exception_ptr error;
};

/// The sources' pictures: in the backend's upload memory when it has one,
/// as many as the pipeline holds (planned early already if that backend started).
void plan_pictures(Engine::Impl& d, VideoSource& ref, VideoSource& dist, bool luma_only, unsigned in_flight,
                   const EarlyPlan& early) {
    if (early.allocator && d.session && d.session->name() == d.starting_backend->name) {
        if (early.error) std::rethrow_exception(early.error);
        return;
    }
    const ReadPlan plan{luma_only, d.session ? d.session->picture_allocator() : nullptr, in_flight + 2,
                        d.session != nullptr};
    ref.plan(plan);
    dist.plan(plan);
}

}  // namespace

}  // namespace engine_detail

const char* version() { return "3.2.0"; }

Engine::Engine(EngineConfig cfg) : impl_(std::make_unique<Impl>()) {
    if (cfg.subsample == 0) cfg.subsample = 1;
    impl_->cfg = cfg;
    const BackendRequest req = impl_->request();
    if (is_backend_name(req.name) && req.name != "cpu") {
        impl_->starting_backend = first_candidate(req);
        impl_->starting = std::async(std::launch::async, [req] { return start_chosen_backend(req, true); });
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
    impl_->x.use(info, req.options, pinned);
}

const BackendSelection& Engine::select_backend() { return impl_->select(); }

const BackendSelection& Engine::Impl::select() {
    if (selection) return *selection;
    StartedBackend st = starting.valid() ? starting.get() : start_chosen_backend(request(), true);
    session = std::move(st.session);
    BackendSelection sel;
    sel.fallback_reason = std::move(st.choice.fallback_reason);
    if (session) sel.used = std::string(session->name());
    for (const Instance& inst : x.instances()) {
        if (inst.pinned.empty()) continue;
        const std::string fname = std::string(inst.info->name) + "_" + inst.pinned;
        if (sel.used != inst.pinned)
            throw BackendError(inst.pinned, -ENODEV,
                               "feature '" + fname + "' needs the " + inst.pinned + " backend, which is not active" +
                                   (sel.fallback_reason.empty() ? "" : " (" + sel.fallback_reason + ")"));
        if (!session->has_twin(inst.info->name))
            throw BackendError(inst.pinned, -ENOSYS, "feature '" + fname + "' is not implemented on " + inst.pinned);
    }
    selection = std::move(sel);
    return *selection;
}

RunScope Engine::Impl::begin_run(const VideoGeometry& g, const ExtractorContext& ctx) {
    select();
    geom = g;
    const PlaneNeeds needs = x.place(session.get());
    if (session) session->run_begin(geom, needs);
    RunScope scope(session.get());
    x.create(session.get(), geom, ctx);
    return scope;
}

unsigned Engine::Impl::in_flight(bool luma_only, bool gpu, std::optional<std::uint64_t> pairs) const {
    const unsigned n = pairs_in_flight(geom, luma_only, cfg.threads, gpu);
    // A short clip needs no more pictures than it has pairs (a GPU run allocates them page-locked up front).
    return pairs ? static_cast<unsigned>(std::clamp<std::uint64_t>(*pairs, 1, n)) : n;
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
    auto add = [&](auto m) {
        configure(m);
        impl_->predictor.add(std::move(m), impl_->x);
    };
    if (!req.version.empty()) {
        if (ModelCollection::is_builtin_collection(req.version))
            add(ModelCollection::builtin(req.version));
        else
            add(Model::builtin(req.version));
        return;
    }
    std::FILE* f = std::fopen(req.path.c_str(), "rb");
    if (!f) throw Error(ErrorKind::Usage, "cannot open model file '" + req.path + "'");
    std::string text;
    char buf[65536];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
    std::fclose(f);
    if (ModelCollection::is_collection_json(text))
        add(ModelCollection::from_json(text, req.path));
    else
        add(Model::from_json(text, req.path));
}

unsigned Engine::run(VideoSource& ref, VideoSource& dist, const RunLimits& limits) {
    Impl& d = *impl_;
    if (!(ref.geometry() == dist.geometry()))
        throw Error(ErrorKind::Input, "reference and distorted differ: " + ref.name() + " is " +
                                          geometry_text(ref.geometry()) + ", " + dist.name() + " is " +
                                          geometry_text(dist.geometry()));
    if (d.x.empty()) throw Error(ErrorKind::Usage, "nothing to compute: no model and no feature");
    d.geom = ref.geometry();
    d.warnings.clear();
    d.notices.clear();
    const bool luma_only = d.x.luma_only();  // read only what some extractor needs
    std::optional<std::uint64_t> most;  // pairs at most, when both sources know their length
    if (ref.frames_left() && dist.frames_left()) {
        most = std::min(*ref.frames_left(), *dist.frames_left());
        if (limits.frame_count) most = std::min<std::uint64_t>(*most, *limits.frame_count);
    }

    // Raw files can be read by a GPU backend itself, in pieces, when it runs
    // every extractor: no pictures then (decided once the backend is up).
    const bool can_feed = PairInput::can_feed(ref, dist);
    EarlyPlan early;  // planned again below should that backend not be the one that starts
    if (!can_feed && !d.selection && d.starting.valid() && d.starting_backend &&
        d.starting_backend->upload_allocator) {
        early.allocator = d.starting_backend->upload_allocator(BackendStartOptions{d.cfg.device, d.cfg.backend_state});
        if (early.allocator) try {
                const ReadPlan plan{luma_only, early.allocator, d.in_flight(luma_only, true, most) + 2, true};
                ref.plan(plan);
                dist.plan(plan);
            } catch (const std::exception&) {
                early.error = std::current_exception();
            }
    }
    RunScope scope =
        d.begin_run(ref.geometry(), ExtractorContext{d.cfg.cpumask, ref.info().fps_num, ref.info().fps_den});
    // Every extractor on the GPU: the sources may decode there too and hand
    // over pictures in device memory (a source that could but cannot says why).
    if (d.session && d.cfg.gpu_decode && d.x.all_on_backend())
        if (const std::optional<DeviceTarget> target = d.session->device_target())
            for (VideoSource* s : {&ref, &dist}) {
                std::string why;
                if (!s->decode_on_device(*target, why) && !why.empty()) d.notices.push_back(s->name() + ": " + why);
            }
    const bool fed = can_feed && d.session && d.session->takes_plane_feed() && d.x.all_on_backend();
    // A fed backend holds no pictures: the CPU's count in flight.
    const unsigned in_flight = d.in_flight(luma_only, d.session != nullptr && !fed, most);
    if (!fed) plan_pictures(d, ref, dist, luma_only, in_flight, early);

    PairInput input(ref, dist, limits, d.cfg.threads > 1, d.warnings);
    if (fed) input.feed_backend();
    const auto t0 = std::chrono::steady_clock::now();
    const Stages stages{
        [&](Token& t) { return input.next(t); },
        [&](Token& t) { input.load(t); },
        [&](Token& t, bool parallel) { d.compute(t, parallel); },
        [&](Token& t) { d.collect(t); },
    };
    run_stages(stages, d.cfg.threads, in_flight);
    const unsigned pairs = input.end();
    d.flush(pairs);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    d.frames = pairs;
    d.fps = secs > 0 ? pairs / secs : 0;
    d.predictor.check_complete(pairs, d.cfg.no_prediction);
    return pairs;
}

void Engine::write_report(const std::string& path, OutputFormat fmt, const Precision& prec,
                          const PairingReport* pairing) const {
    ReportContext ctx{impl_->fc, impl_->frames, impl_->cfg.subsample, impl_->fps, impl_->geom.width, impl_->geom.height,
                      backend_used(), prec, pairing, feature_backends()};
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
    for (const ModelEntry& e : impl_->predictor.models())
        out.emplace_back(e.name(), std::holds_alternative<ModelCollection>(e.model));
    return out;
}

const std::vector<std::string>& Engine::warnings() const { return impl_->warnings; }
const std::vector<std::string>& Engine::notices() const { return impl_->notices; }

double Engine::fps() const { return impl_->fps; }

std::string Engine::backend_used() const { return impl_->session ? std::string(impl_->session->name()) : "cpu"; }

std::vector<FeatureBackend> Engine::feature_backends() const {
    std::vector<FeatureBackend> out;
    for (const Instance& inst : impl_->x.instances())
        out.push_back({std::string(inst.info->name),
                       inst.on_backend && impl_->session ? std::string(impl_->session->name()) : "cpu"});
    return out;
}

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
