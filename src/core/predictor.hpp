// The predict stage: the models of an engine, the feature slots each reads,
// and their per-frame scores, written as soon as a frame's features are
// complete. Private to the library.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "core/collector.hpp"
#include "core/extractors.hpp"
#include "model/model.hpp"

namespace vmaf::engine_detail {

struct ModelEntry {
    std::variant<Model, ModelCollection> model;
    std::vector<Slot> feature_slots;
    std::vector<Slot> out_slots;  ///< model: {name}; collection: name, submodels, bagging, stddev, lo, hi
    unsigned next_frame = 0;
    const std::string& name() const;
};

class Predictor {
public:
    explicit Predictor(FeatureCollector& fc) : fc_(fc) {}
    /// Adds a model; the extractors it needs are added to `x`. Throws
    /// Error(Usage) for a second model of the same name, Error(Model) for a
    /// feature no extractor provides.
    void add(std::variant<Model, ModelCollection> m, Extractors& x);
    const std::vector<ModelEntry>& models() const { return models_; }
    /// Predicts every frame below `upto` whose features are complete (frames
    /// the subsample leaves out are skipped). No-op when `disabled`.
    void predict_ready(unsigned upto, unsigned subsample, bool disabled);
    /// Throws Error(Internal) when a model has a frame below `frames` left unpredicted.
    void check_complete(unsigned frames, bool disabled) const;

private:
    FeatureCollector& fc_;
    std::vector<ModelEntry> models_;
};

}  // namespace vmaf::engine_detail
