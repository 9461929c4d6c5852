// Netflix VMAF model format: load, configure, predict.
//
// A prediction is a pure staged pipeline over one frame's feature values:
// normalise (linear_rescale) -> predict (libsvm nu-SVR, RBF kernel) ->
// denormalise -> transform (polynomial + out_gte_in/out_lte_in rules) -> clip.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/options.hpp"

namespace vmaf {

/// A feature a model reads: the upstream score name (e.g.
/// "VMAF_integer_feature_adm2_score") and the options of its extractor.
struct ModelFeature {
    std::string name;
    OptionDict options;
};

class Model {
public:
    /// Parses a model JSON document (single model). `origin` names the source
    /// in error messages. Throws vmaf::Error(Model) if it is not a valid model.
    static Model from_json(std::string_view json_text, std::string_view origin);
    /// A model embedded at build time, by version name (e.g. "vmaf_v0.6.1").
    /// Throws vmaf::Error(Usage) for an unknown name.
    static Model builtin(std::string_view version);

    Model(Model&&) noexcept;
    Model& operator=(Model&&) noexcept;
    ~Model();

    std::span<const ModelFeature> features() const;

    /// Report key of the score (default "vmaf").
    const std::string& name() const;
    void set_name(std::string name);
    void set_clip_enabled(bool on);       ///< `disable_clip` turns clipping off
    /// `enable_transform` forces the score transform on (when the model has
    /// one); false leaves it as the model file says.
    void set_transform_enabled(bool on);
    /// `<feature>.<option>=<value>` override: `feature` is the extractor's CLI
    /// name (vif, adm, motion, ...). Applies to every model feature of that extractor.
    void override_option(std::string_view extractor, std::string_view option, std::string_view value);

    /// Full pipeline for one frame; `values` follow features() order.
    double predict(std::span<const double> values) const;

private:
    struct Impl;
    explicit Model(std::unique_ptr<Impl>);
    std::unique_ptr<Impl> impl_;
    friend class ModelCollection;
};

/// Scores of a bootstrap collection for one frame.
struct CollectionScore {
    double score = 0;                ///< the collection's first model (its own name)
    std::vector<double> submodels;   ///< models 1..n-1, reported as name_0001 ...
    double bagging = 0, stddev = 0, ci_p95_lo = 0, ci_p95_hi = 0;
};

/// A bootstrap model collection (e.g. vmaf_b_v0.6.3): several models over the same features.
class ModelCollection {
public:
    static ModelCollection from_json(std::string_view json_text, std::string_view origin);
    static ModelCollection builtin(std::string_view version);
    /// True when `json_text` is a collection document rather than a single model.
    static bool is_collection_json(std::string_view json_text);
    /// True when `version` names a built-in collection.
    static bool is_builtin_collection(std::string_view version);

    ModelCollection(ModelCollection&&) noexcept;
    ModelCollection& operator=(ModelCollection&&) noexcept;
    ~ModelCollection();

    std::span<const ModelFeature> features() const;
    const std::string& name() const;
    void set_name(std::string name);
    void set_clip_enabled(bool on);
    void set_transform_enabled(bool on);
    void override_option(std::string_view extractor, std::string_view option, std::string_view value);
    /// Number of models, the first one included.
    std::size_t size() const;

    CollectionScore predict(std::span<const double> values) const;

private:
    ModelCollection() = default;
    std::vector<Model> models_;  ///< models_[0] is the collection's own model
    std::string name_ = "vmaf";
};

/// Names of every built-in model and collection, sorted.
std::vector<std::string> builtin_model_names();
/// JSON text of a built-in model, or empty view if unknown.
std::string_view builtin_model_json(std::string_view version);

}  // namespace vmaf
