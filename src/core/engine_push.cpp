// Push mode: the caller hands over pairs one at a time (the C API's
// vmaf_read_pictures); shares Impl's extractors, compute/finish and prediction
// with run(). Pictures are released as soon as a pair is finished, so memory
// stays bounded however long the stream; the collector keeps the scores.
#include "core/engine_impl.hpp"
#include "vmaf/engine.hpp"

namespace vmaf {

void Engine::push_begin(const VideoGeometry& geom) {
    Impl& d = *impl_;
    if (push_) throw Error(ErrorKind::Usage, "push_begin() called twice");
    if (d.x.empty()) throw Error(ErrorKind::Usage, "nothing to compute: no model and no feature");
    if (geom.width == 0 || geom.height == 0 || geom.bpc < 8 || geom.bpc > 16)
        throw Error(ErrorKind::Input, "unsupported picture geometry " + geometry_text(geom));
    d.select();
    d.warnings.clear();
    d.frames = 0;
    auto st = std::make_unique<PushState>();
    st->run = d.begin_run(geom, ExtractorContext{d.cfg.cpumask});
    if (d.cfg.threads > 0) st->arena = std::make_unique<tbb::task_arena>(static_cast<int>(d.cfg.threads));
    push_ = std::move(st);
}

void Engine::push(Picture ref, Picture dist) {
    Impl& d = *impl_;
    if (!push_) throw Error(ErrorKind::Usage, "pictures pushed before push_begin()");
    if (push_->ended) throw Error(ErrorKind::Usage, "pictures pushed after the flush");
    auto geometry = [](const Picture& p) { return VideoGeometry{p.format(), p.bpc(), p.width(), p.height()}; };
    for (const Picture* p : {&ref, &dist})
        if (p->empty() || !(geometry(*p) == d.geom))
            throw Error(ErrorKind::Input, std::string(p == &ref ? "reference" : "distorted") + " picture is " +
                                              (p->empty() ? std::string("empty") : geometry_text(geometry(*p))) +
                                              ", expected " + geometry_text(d.geom));
    Token t;
    t.index = d.frames;
    t.ref = std::move(ref);
    t.dist = std::move(dist);
    if (push_->arena)
        push_->arena->execute([&] { d.compute(t, true); });
    else
        d.compute(t, false);
    d.collect(t);
    ++d.frames;
}

unsigned Engine::push_flush() {
    Impl& d = *impl_;
    if (!push_) throw Error(ErrorKind::Usage, "flush before any picture");
    if (push_->ended) return d.frames;
    push_->ended = true;
    struct EndRun {
        RunScope& run;
        ~EndRun() { run.end(); }
    } end_run{push_->run};
    if (d.frames == 0) return 0;
    d.flush(d.frames);
    return d.frames;
}

unsigned Engine::pushed() const { return impl_->frames; }

bool Engine::pushing() const { return push_ && !push_->ended; }

void Engine::import_score(const std::string& key, unsigned index, double value) {
    Impl& d = *impl_;
    d.fc.write(d.fc.slot(key), index, value);
    d.predictor.predict_ready(d.frames, d.cfg.subsample, d.cfg.no_prediction);
}

std::optional<double> Engine::score_at(const std::string& key, unsigned index) const {
    const auto s = impl_->fc.find(key);
    if (!s || !impl_->fc.has(*s, index)) return std::nullopt;
    return impl_->fc.get(*s, index);
}

std::optional<double> Engine::pooled(const std::string& key, Pool method, unsigned low, unsigned high) const {
    const auto s = impl_->fc.find(key);
    if (!s || low > high) return std::nullopt;
    static constexpr PoolMethod kMethods[] = {PoolMethod::Min, PoolMethod::Max, PoolMethod::Mean,
                                              PoolMethod::HarmonicMean};
    return impl_->fc.pool_range(*s, kMethods[static_cast<int>(method)], low, high, impl_->cfg.subsample);
}

}  // namespace vmaf
