#include "core/predictor.hpp"

#include <cstdio>

#include "core/registry.hpp"
#include "vmaf/error.hpp"

namespace vmaf::engine_detail {

const std::string& ModelEntry::name() const {
    return std::visit([](const auto& m) -> const std::string& { return m.name(); }, model);
}

void Predictor::add(std::variant<Model, ModelCollection> m, Extractors& x) {
    ModelEntry e{std::move(m), {}, {}, 0};
    const std::string name = e.name();
    for (const ModelEntry& other : models_)
        if (other.name() == name)
            throw Error(ErrorKind::Usage, "two models are named '" + name + "': give each a distinct name=");
    const auto feats = std::visit([](const auto& v) { return v.features(); }, e.model);
    for (const ModelFeature& f : feats) {
        unsigned out = 0;
        const ExtractorInfo* info = find_extractor_by_output(f.name, &out);
        if (!info)
            throw Error(ErrorKind::Model, "model '" + name + "' needs feature '" + f.name + "', which no extractor provides");
        const std::size_t idx = x.use(info, f.options);
        e.feature_slots.push_back(x.instances()[idx].slots[out]);
    }
    e.out_slots.push_back(fc_.slot(name));
    if (const auto* c = std::get_if<ModelCollection>(&e.model)) {
        for (std::size_t k = 1; k < c->size(); ++k) {
            char suffix[32];
            std::snprintf(suffix, sizeof suffix, "_%04zu", k);
            e.out_slots.push_back(fc_.slot(name + suffix));
        }
        for (const char* s : {"_bagging", "_stddev", "_ci_p95_lo", "_ci_p95_hi"}) e.out_slots.push_back(fc_.slot(name + s));
    }
    for (Slot s : e.out_slots) fc_.order_after_frames(s);  // upstream predicts after flushing
    models_.push_back(std::move(e));
}

void Predictor::predict_ready(unsigned upto, unsigned subsample, bool disabled) {
    if (disabled) return;
    std::vector<double> values;
    for (ModelEntry& e : models_) {
        for (; e.next_frame < upto; ++e.next_frame) {
            const unsigned f = e.next_frame;
            if (subsample > 1 && f % subsample != 0) continue;
            values.clear();
            bool complete = true;
            for (Slot s : e.feature_slots) {
                if (!fc_.has(s, f)) {
                    complete = false;
                    break;
                }
                values.push_back(fc_.get(s, f));
            }
            if (!complete) break;
            if (auto* m = std::get_if<Model>(&e.model)) {
                fc_.write(e.out_slots[0], f, m->predict(values));
            } else {
                const CollectionScore cs = std::get<ModelCollection>(e.model).predict(values);
                std::size_t k = 0;
                fc_.write(e.out_slots[k++], f, cs.score);
                for (double v : cs.submodels) fc_.write(e.out_slots[k++], f, v);
                fc_.write(e.out_slots[k++], f, cs.bagging);
                fc_.write(e.out_slots[k++], f, cs.stddev);
                fc_.write(e.out_slots[k++], f, cs.ci_p95_lo);
                fc_.write(e.out_slots[k++], f, cs.ci_p95_hi);
            }
        }
    }
}

void Predictor::check_complete(unsigned frames, bool disabled) const {
    if (disabled) return;
    for (const ModelEntry& e : models_)
        if (e.next_frame < frames)
            throw Error(ErrorKind::Internal, "model features incomplete at frame " + std::to_string(e.next_frame));
}

}  // namespace vmaf::engine_detail
