// Netflix VMAF model: JSON loading, configuration and the per-frame
// prediction pipeline (normalise -> SVR -> denormalise -> transform -> clip),
// plus bootstrap collections (bagging mean, stddev, 95% confidence interval).
//
// Every arithmetic step keeps upstream libvmaf's operand order so that the
// scores are bit-identical; the comments on each stage give that order.
#include "model/model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>

#include "core/registry.hpp"
#include "model/svm.hpp"
#include "vmaf/error.hpp"

namespace vmaf {

using Json = nlohmann::ordered_json;

namespace {

[[noreturn]] void model_error(std::string_view origin, const std::string& what) {
    throw Error(ErrorKind::Model, std::string(origin) + ": " + what);
}

enum class NormType { None, LinearRescale };

/// The options dictionaries of upstream store numbers in a canonical form:
/// parsed as float and printed with "%g" ("1.0" -> "1", "0.70" -> "0.7").
/// Text that is not entirely one number (surrounding blanks aside) is kept.
std::string normalize_numeric(const std::string& text) {
    const char* s = text.c_str();
    char* end = nullptr;
    const float f = std::strtof(s, &end);
    if (end == s) return text;
    while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r' || *end == '\v' || *end == '\f') ++end;
    if (*end) return text;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", static_cast<double>(f));
    return buf;
}

/// Extractor (CLI name) that provides upstream score `feature`: the registry
/// when the extractor is registered, else upstream's naming conventions.
std::string_view extractor_of(std::string_view feature) {
    if (const ExtractorInfo* info = find_extractor_by_output(feature)) return info->name;
    auto starts = [&](std::string_view p) { return feature.substr(0, p.size()) == p; };
    auto family = [](std::string_view rest, std::string_view prefix) -> std::string_view {
        auto has = [&](std::string_view p) { return rest.substr(0, p.size()) == p; };
        const bool integer = prefix.empty();
        if (has("vif")) return integer ? "vif" : "float_vif";
        if (has("adm") || has("aim")) return integer ? "adm" : "float_adm";
        if (has("motion")) return integer ? "motion" : "float_motion";
        return {};
    };
    if (starts("VMAF_integer_feature_")) return family(feature.substr(21), "");
    if (starts("integer_")) return family(feature.substr(8), "");
    if (starts("VMAF_feature_")) return family(feature.substr(13), "float_");
    if (starts("Cambi_feature_")) return "cambi";
    if (starts("Speed_chroma_feature_")) return "speed_chroma";
    if (starts("Speed_temporal_feature_")) return "speed_temporal";
    if (starts("psnr_")) return "psnr";
    if (starts("ciede")) return "ciede";
    if (feature == "float_ssim" || feature == "float_ms_ssim" || feature == "float_psnr" || feature == "float_ansnr")
        return feature;
    return family(feature, "float_");
}

void set_option(OptionDict& dict, std::string key, std::string value) {
    for (auto& [k, v] : dict)
        if (k == key) {
            v = std::move(value);
            return;
        }
    dict.emplace_back(std::move(key), std::move(value));
}

double number(const Json& j, std::string_view origin, const std::string& what) {
    if (!j.is_number()) model_error(origin, what + " must be a number");
    return j.get<double>();
}

}  // namespace

// ---------------------------------------------------------------------------
// Model

struct Model::Impl {
    std::string name = "vmaf";
    std::vector<ModelFeature> features;
    std::vector<double> slope, intercept;  ///< per feature (linear_rescale)
    double out_slope = 1, out_intercept = 0;
    NormType norm = NormType::LinearRescale;
    bool bootstrap = false;  ///< model_type is one of the bootstrap kinds

    struct {
        bool present = false;  ///< model_dict has score_clip
        double min = 0, max = 0;
    } clip;
    bool clip_on = true;  ///< cleared by disable_clip

    struct {
        bool present = false;  ///< model_dict has score_transform
        bool enabled = false;  ///< its "enabled" field
        std::optional<double> p0, p1, p2;
        std::vector<std::pair<double, double>> knots;
        bool out_lte_in = false, out_gte_in = false;
    } transform;
    bool force_transform = false;  ///< enable_transform

    struct {
        bool enabled = false;
        double parameter = 0;
        std::size_t guiding = 0, guided = 0;  ///< feature indices (adm3, speed_chroma)
    } chroma;

    detail::SvmModel svm;

    bool transform_active() const { return transform.present && (transform.enabled || force_transform); }
    bool clip_active() const { return clip.present && clip_on; }

    // --- stages -----------------------------------------------------------

    /// slope * value + intercept per feature (linear_rescale), else unchanged.
    std::vector<double> normalise(std::span<const double> values) const {
        std::vector<double> x(values.begin(), values.end());
        if (norm == NormType::LinearRescale)
            for (std::size_t i = 0; i < x.size(); ++i) x[i] = slope[i] * x[i] + intercept[i];
        return x;
    }

    /// Chroma-from-luma correction of the v1.0.16 models: when the
    /// speed_chroma feature is exactly 0 (in its original scale), it is
    /// replaced by parameter * (1 - adm3), both recovered from the normalised
    /// values as upstream does ((v - intercept) / slope).
    void correct_chroma(std::vector<double>& x) const {
        if (!chroma.enabled) return;
        double guiding = x[chroma.guiding], guided = x[chroma.guided];
        if (norm == NormType::LinearRescale) {
            guiding = (guiding - intercept[chroma.guiding]) / slope[chroma.guiding];
            guided = (guided - intercept[chroma.guided]) / slope[chroma.guided];
        }
        if (guided != 0.0) return;
        double corrected = (-chroma.parameter * guiding) + chroma.parameter;
        if (norm == NormType::LinearRescale)
            corrected = slope[chroma.guided] * corrected + intercept[chroma.guided];
        x[chroma.guided] = corrected;
    }

    /// (prediction - intercept) / slope with the model-level pair.
    double denormalise(double y) const {
        if (norm == NormType::LinearRescale) return (y - out_intercept) / out_slope;
        return y;
    }

    /// Piecewise-linear map over the knots; like upstream, every segment is
    /// visited and a later matching segment overrides an earlier one.
    double map_knots(double x) const {
        const auto& k = transform.knots;
        if (k.size() <= 1) return x;
        const std::size_t n_seg = k.size() - 1;
        double y = 0.0;
        for (std::size_t i = 0; i < n_seg; ++i) {
            const auto [x0, y0] = k[i];
            const auto [x1, y1] = k[i + 1];
            const bool in = x0 <= x && x <= x1;
            const bool below = i == 0 && x < x0;
            const bool above = i == n_seg - 1 && x > x1;
            if (y0 == y1) {
                if (in || below || above) y = y0;
            } else {
                double alpha, beta;
                if (x0 == 0) {
                    beta = y0;
                    alpha = (y1 - beta) / x1;
                } else {
                    alpha = (y1 - y0) / (x1 - x0);
                    beta = y0 - (x0 * alpha);
                }
                if (in || below || above) y = alpha * x + beta;
            }
        }
        return y;
    }

    /// Polynomial p0 + p1*y + p2*y*y (absent terms skipped), then knots, then
    /// the out_lte_in / out_gte_in rectification against the input.
    double apply_transform(double y_in) const {
        if (!transform_active()) return y_in;
        double y = y_in;
        if (transform.p0 || transform.p1 || transform.p2) {
            y = 0.;
            if (transform.p0) y += *transform.p0;
            if (transform.p1) y += *transform.p1 * y_in;
            if (transform.p2) y += *transform.p2 * y_in * y_in;
        }
        y = map_knots(y);
        if (transform.out_lte_in) y = (y > y_in) ? y_in : y;
        if (transform.out_gte_in) y = (y < y_in) ? y_in : y;
        return y;
    }

    double apply_clip(double y) const {
        if (!clip_active()) return y;
        y = (y < clip.min) ? clip.min : y;
        y = (y > clip.max) ? clip.max : y;
        return y;
    }

    /// The SVR score before transform and clip.
    double raw(std::span<const double> values) const {
        if (values.size() != features.size())
            throw Error(ErrorKind::Internal, "model " + name + ": expected " + std::to_string(features.size()) +
                                                 " feature values, got " + std::to_string(values.size()));
        std::vector<double> x = normalise(values);
        correct_chroma(x);
        return denormalise(svm.predict(x));
    }

    double full(std::span<const double> values) const { return apply_clip(apply_transform(raw(values))); }

    static std::unique_ptr<Impl> parse(const Json& doc, std::string_view origin);
    static void parse_score_transform(const Json& st, Impl& m, std::string_view origin);
};

void Model::Impl::parse_score_transform(const Json& st, Impl& m, std::string_view origin) {
    if (!st.is_object()) model_error(origin, "score_transform must be an object");
    auto& t = m.transform;
    t.present = true;
    for (const auto& [key, v] : st.items()) {
        if (key == "enabled") {
            if (!v.is_boolean()) model_error(origin, "score_transform.enabled must be true or false");
            t.enabled = v.get<bool>();
        } else if (key == "p0" || key == "p1" || key == "p2") {
            std::optional<double>& p = key == "p0" ? t.p0 : key == "p1" ? t.p1 : t.p2;
            if (v.is_null()) p.reset();
            else p = number(v, origin, "score_transform." + key);
        } else if (key == "knots") {
            t.knots.clear();
            if (v.is_null()) continue;
            if (!v.is_array()) model_error(origin, "score_transform.knots must be an array of [x, y] pairs");
            for (const auto& k : v) {
                if (!k.is_array() || k.size() != 2) model_error(origin, "score_transform.knots must be an array of [x, y] pairs");
                t.knots.emplace_back(number(k[0], origin, "a knot coordinate"), number(k[1], origin, "a knot coordinate"));
            }
            for (std::size_t i = 0; i + 1 < t.knots.size(); ++i)
                if (!(t.knots[i].first < t.knots[i + 1].first && t.knots[i].second <= t.knots[i + 1].second))
                    model_error(origin, "score_transform.knots must increase in x and not decrease in y");
        } else if (key == "out_lte_in" || key == "out_gte_in") {
            bool on;
            if (v.is_string()) on = v.get<std::string>() == "true";
            else if (v.is_boolean()) on = v.get<bool>();
            else model_error(origin, "score_transform." + key + " must be \"true\" or \"false\"");
            (key == "out_lte_in" ? t.out_lte_in : t.out_gte_in) = on;
        }
    }
}

namespace {

OptionDict parse_opts_dict(const Json& d, std::string_view origin) {
    if (!d.is_object()) model_error(origin, "feature_opts_dicts entries must be objects");
    OptionDict out;
    for (const auto& [key, v] : d.items()) {
        std::string text;
        if (v.is_boolean()) {
            text = v.get<bool>() ? "true" : "false";
        } else if (v.is_string()) {
            text = v.get<std::string>();
        } else if (v.is_number_integer()) {
            text = normalize_numeric(v.dump());
        } else if (v.is_number_float()) {
            // Upstream converts the token text with strtof; the double nearest
            // to it converted to float gives that same float for these values.
            char buf[64];
            std::snprintf(buf, sizeof buf, "%g", static_cast<double>(static_cast<float>(v.get<double>())));
            text = buf;
        } else {
            model_error(origin, "feature option '" + key + "' must be a number, a boolean or a string");
        }
        set_option(out, key, std::move(text));
    }
    return out;
}

}  // namespace

auto Model::Impl::parse(const Json& doc, std::string_view origin) -> std::unique_ptr<Impl> {
    if (!doc.is_object()) model_error(origin, "a model must be a JSON object");
    const auto md_it = doc.find("model_dict");
    if (md_it == doc.end()) model_error(origin, "no model_dict (not a VMAF model)");
    const Json& md = *md_it;
    if (!md.is_object()) model_error(origin, "model_dict must be an object");

    auto m = std::make_unique<Impl>();
    bool have_norm = false, have_svm = false, have_names = false;
    const Json* slopes = nullptr;
    const Json* intercepts = nullptr;
    const Json* opts = nullptr;

    for (const auto& [key, v] : md.items()) {
        if (key == "model_type") {
            if (!v.is_string()) model_error(origin, "model_type must be a string");
            const auto t = v.get<std::string>();
            if (t == "LIBSVMNUSVR") m->bootstrap = false;
            else if (t == "BOOTSTRAP_LIBSVMNUSVR" || t == "RESIDUEBOOTSTRAP_LIBSVMNUSVR") m->bootstrap = true;
            else model_error(origin, "unknown model_type '" + t + "'");
        } else if (key == "norm_type") {
            if (!v.is_string()) model_error(origin, "norm_type must be a string");
            const auto t = v.get<std::string>();
            if (t == "linear_rescale") m->norm = NormType::LinearRescale;
            else if (t == "none") m->norm = NormType::None;
            else model_error(origin, "unknown norm_type '" + t + "'");
            have_norm = true;
        } else if (key == "score_clip") {
            if (!v.is_array() || v.size() != 2) model_error(origin, "score_clip must be an array [min, max]");
            m->clip.present = true;
            m->clip.min = number(v[0], origin, "score_clip min");
            m->clip.max = number(v[1], origin, "score_clip max");
        } else if (key == "score_transform") {
            parse_score_transform(v, *m, origin);
        } else if (key == "chroma_correction_parameter") {
            m->chroma.parameter = number(v, origin, "chroma_correction_parameter");
            // Upstream skips the correction (and the frame's score) for 0; treat 0 as off.
            m->chroma.enabled = m->chroma.parameter != 0;
        } else if (key == "slopes") {
            slopes = &v;
        } else if (key == "intercepts") {
            intercepts = &v;
        } else if (key == "feature_names") {
            if (!v.is_array()) model_error(origin, "feature_names must be an array of strings");
            for (const auto& n : v) {
                if (!n.is_string()) model_error(origin, "feature_names must be an array of strings");
                m->features.push_back(ModelFeature{n.get<std::string>(), {}});
            }
            have_names = true;
        } else if (key == "feature_opts_dicts") {
            opts = &v;
        } else if (key == "model") {
            if (!v.is_string()) model_error(origin, "model must be a libsvm model string");
            m->svm = detail::SvmModel::parse(v.get_ref<const std::string&>(), origin);
            have_svm = true;
        }
    }

    if (!have_names || m->features.empty()) model_error(origin, "model_dict has no feature_names");
    if (!have_svm) model_error(origin, "model_dict has no model (libsvm text)");
    if (!have_norm) model_error(origin, "model_dict has no norm_type");
    const std::size_t n = m->features.size();

    if (opts && !opts->is_null()) {
        if (!opts->is_array()) model_error(origin, "feature_opts_dicts must be an array of objects");
        if (opts->size() > n)
            model_error(origin, "feature_opts_dicts has " + std::to_string(opts->size()) + " entries but feature_names has " +
                                    std::to_string(n));
        for (std::size_t i = 0; i < opts->size(); ++i) m->features[i].options = parse_opts_dict((*opts)[i], origin);
    }

    // slopes/intercepts: [model-level, feature 1, ..., feature n].
    auto read_coeffs = [&](const Json* arr, const char* what, double& model_level, std::vector<double>& per_feature) {
        if (!arr) {
            if (m->norm == NormType::LinearRescale) model_error(origin, std::string("model_dict has no ") + what);
            return;
        }
        if (!arr->is_array()) model_error(origin, std::string(what) + " must be an array of numbers");
        if (arr->size() != n + 1)
            model_error(origin, std::string(what) + " has " + std::to_string(arr->size()) + " entries, expected " +
                                    std::to_string(n + 1) + " (one for the score and one per feature, " +
                                    std::to_string(n) + " features)");
        model_level = number((*arr)[0], origin, what);
        for (std::size_t i = 1; i <= n; ++i) per_feature.push_back(number((*arr)[i], origin, what));
    };
    read_coeffs(slopes, "slopes", m->out_slope, m->slope);
    read_coeffs(intercepts, "intercepts", m->out_intercept, m->intercept);

    if (m->chroma.enabled) {
        // The correction is guided by the one "adm3" feature and applies to the
        // one "speed_chroma" feature (substring matches, as upstream).
        std::optional<std::size_t> guiding, guided;
        for (std::size_t i = 0; i < n; ++i) {
            const auto& name = m->features[i].name;
            if (name.find("adm3") != std::string::npos) {
                if (guiding) model_error(origin, "chroma correction: more than one feature matches 'adm3'");
                guiding = i;
            }
            if (name.find("speed_chroma") != std::string::npos) {
                if (guided) model_error(origin, "chroma correction: more than one feature matches 'speed_chroma'");
                guided = i;
            }
        }
        if (!guiding || !guided) {
            m->chroma.enabled = false;  // nothing to correct
        } else {
            m->chroma.guiding = *guiding;
            m->chroma.guided = *guided;
        }
    }
    return m;
}

namespace {

Json parse_json(std::string_view text, std::string_view origin) {
    try {
        return Json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::exception& e) {
        // parse_error, and out_of_range for numbers beyond double ("1e999").
        model_error(origin, std::string("not valid JSON (") + e.what() + ")");
    }
}

}  // namespace

Model::Model(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Model::Model(Model&&) noexcept = default;
Model& Model::operator=(Model&&) noexcept = default;
Model::~Model() = default;

Model Model::from_json(std::string_view json_text, std::string_view origin) {
    const Json doc = parse_json(json_text, origin);
    if (doc.is_object() && !doc.contains("model_dict") && doc.contains("0"))
        model_error(origin, "this is a model collection, not a single model");
    return Model(Impl::parse(doc, origin));
}

std::span<const ModelFeature> Model::features() const { return impl_->features; }
const std::string& Model::name() const { return impl_->name; }
void Model::set_name(std::string name) { impl_->name = std::move(name); }
void Model::set_clip_enabled(bool on) { impl_->clip_on = on; }
void Model::set_transform_enabled(bool on) { impl_->force_transform = on; }

void Model::override_option(std::string_view extractor, std::string_view option, std::string_view value) {
    const std::string v = normalize_numeric(std::string(value));
    for (auto& f : impl_->features)
        if (extractor_of(f.name) == extractor) set_option(f.options, std::string(option), v);
}

double Model::predict(std::span<const double> values) const { return impl_->full(values); }

// ---------------------------------------------------------------------------
// ModelCollection

ModelCollection::ModelCollection(ModelCollection&&) noexcept = default;
ModelCollection& ModelCollection::operator=(ModelCollection&&) noexcept = default;
ModelCollection::~ModelCollection() = default;

bool ModelCollection::is_collection_json(std::string_view json_text) {
    const Json doc = Json::parse(json_text.begin(), json_text.end(), nullptr, false);
    return doc.is_object() && !doc.contains("model_dict") && doc.contains("0");
}

ModelCollection ModelCollection::from_json(std::string_view json_text, std::string_view origin) {
    const Json doc = parse_json(json_text, origin);
    if (!doc.is_object()) model_error(origin, "a model collection must be a JSON object");
    if (doc.contains("model_dict")) model_error(origin, "this is a single model, not a model collection");

    // Members "0", "1", ... in document order; other members are ignored.
    ModelCollection c;
    for (const auto& [key, v] : doc.items()) {
        if (key != std::to_string(c.models_.size())) continue;
        const std::string sub = std::string(origin) + "[" + key + "]";
        c.models_.push_back(Model(Model::Impl::parse(v, sub)));
    }
    if (c.models_.empty()) model_error(origin, "no model \"0\" (not a model collection)");
    if (c.models_.size() < 2) model_error(origin, "a model collection needs models \"0\" and \"1\" at least");
    for (std::size_t i = 1; i < c.models_.size(); ++i)
        if (!c.models_[i].impl_->bootstrap)
            model_error(origin, "model \"" + std::to_string(i) + "\" is not a bootstrap model (model_type)");

    const auto& f0 = c.models_[0].impl_->features;
    for (std::size_t i = 1; i < c.models_.size(); ++i) {
        const auto& fi = c.models_[i].impl_->features;
        bool same = fi.size() == f0.size();
        for (std::size_t k = 0; same && k < fi.size(); ++k) same = fi[k].name == f0[k].name && fi[k].options == f0[k].options;
        if (!same) model_error(origin, "model \"" + std::to_string(i) + "\" does not use the same features as model \"0\"");
    }
    c.set_name("vmaf");
    return c;
}

std::span<const ModelFeature> ModelCollection::features() const { return models_.front().features(); }
const std::string& ModelCollection::name() const { return name_; }
std::size_t ModelCollection::size() const { return models_.size(); }

void ModelCollection::set_name(std::string name) {
    name_ = std::move(name);
    models_[0].set_name(name_);
    for (std::size_t i = 1; i < models_.size(); ++i) {
        char suffix[32];
        std::snprintf(suffix, sizeof suffix, "_%04zu", i);
        models_[i].set_name(name_ + suffix);
    }
}

void ModelCollection::set_clip_enabled(bool on) {
    for (auto& m : models_) m.set_clip_enabled(on);
}
void ModelCollection::set_transform_enabled(bool on) {
    for (auto& m : models_) m.set_transform_enabled(on);
}
void ModelCollection::override_option(std::string_view extractor, std::string_view option, std::string_view value) {
    for (auto& m : models_) m.override_option(extractor, option, value);
}

namespace {

/// Linear interpolation between the order statistics around rank
/// perc * (n - 1) / 100 of the sorted `scores`.
double percentile(const std::vector<double>& scores, double perc) {
    const double p = perc * static_cast<double>(scores.size() - 1) / 100.;
    const int lo = static_cast<int>(std::floor(p));
    const int hi = static_cast<int>(std::ceil(p));
    if (lo == hi) return scores[static_cast<std::size_t>(lo)];
    return scores[static_cast<std::size_t>(lo)] * (hi - p) + scores[static_cast<std::size_t>(hi)] * (p - lo);
}

}  // namespace

CollectionScore ModelCollection::predict(std::span<const double> values) const {
    CollectionScore out;
    out.score = models_[0].predict(values);

    // Statistics are over models 1..n-1, on their scores before transform and clip.
    const std::size_t n = models_.size() - 1;
    std::vector<double> raw(n);
    out.submodels.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const Model::Impl& m = *models_[i + 1].impl_;
        raw[i] = m.raw(values);
        out.submodels[i] = m.apply_clip(m.apply_transform(raw[i]));
    }

    double sum = 0.;
    for (double s : raw) sum += s;
    const double mean = sum / static_cast<double>(n);

    double ssd = 0.;
    for (double s : raw) ssd += std::pow(s - mean, 2);
    double stddev = std::sqrt(ssd / static_cast<double>(n));

    std::sort(raw.begin(), raw.end());
    double lo = percentile(raw, 2.5);
    double hi = percentile(raw, 97.5);

    // Mean and interval go through the first bootstrap model's transform and
    // clip; the stddev is scaled by that mapping's slope around the mean.
    const Model::Impl& m1 = *models_[1].impl_;
    auto post = [&](double y) { return m1.apply_clip(m1.apply_transform(y)); };
    const double delta = 0.01;
    const double plus = post(mean + delta);
    const double minus = post(mean - delta);
    const double slope = (plus - minus) / (2.0 * delta);

    out.bagging = post(mean);
    out.ci_p95_lo = post(lo);
    out.ci_p95_hi = post(hi);
    out.stddev = stddev * slope;
    return out;
}

}  // namespace vmaf
