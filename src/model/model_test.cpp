// Model layer tests. The central check feeds the per-frame feature values of
// upstream's golden-full reports back into our models and requires every
// model score to come out bit-identical.
#include "model/model.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/feature_name.hpp"
#include "core/registry.hpp"
#include "support/extractor_run.hpp"
#include "vmaf/error.hpp"

namespace vmaf {
namespace {

using nlohmann::json;

/// Report key under which the golden holds feature `f`: the extractor's own
/// option table when it is registered, otherwise the key of the golden frame
/// that is the feature's alias (no options) or the alias plus an option suffix.
std::string key_for(const ModelFeature& f, const json& metrics) {
    if (const ExtractorInfo* info = find_extractor_by_output(f.name)) {
        std::string note;
        try {
            const std::string key = feature_key(f.name, OptionValues(info->options, f.options, info->name));
            if (metrics.contains(key)) return key;
            note = "registry key '" + key + "' is not in the golden";
        } catch (const Error& e) {
            note = e.what();
        }
        std::printf("note: %s: %s; using the golden's key\n", f.name.c_str(), note.c_str());
    }
    const std::string alias(feature_alias(f.name));
    if (f.options.empty()) return alias;
    std::string found;
    for (const auto& [k, v] : metrics.items()) {
        if (k.size() > alias.size() + 1 && k.compare(0, alias.size() + 1, alias + "_") == 0) {
            if (!found.empty()) throw std::runtime_error("ambiguous golden key for " + f.name);
            found = k;
        }
    }
    if (found.empty()) throw std::runtime_error("no golden key for " + f.name);
    return found;
}

std::vector<std::string> keys_for(std::span<const ModelFeature> features, const json& golden) {
    const json& metrics = golden.at("frames").at(0).at("metrics");
    std::vector<std::string> keys;
    for (const auto& f : features) keys.push_back(key_for(f, metrics));
    return keys;
}

std::vector<double> frame_values(const json& golden, unsigned frame, const std::vector<std::string>& keys) {
    std::vector<double> v;
    for (const auto& k : keys) v.push_back(test::golden_value(golden, frame, k));
    return v;
}

#define EXPECT_BITS(expected, actual, what) \
    EXPECT_EQ(expected, actual) << (what) << ": expected " << test::g17(expected) << ", got " << test::g17(actual)

/// Replays every frame of golden-full `stem` through built-in `version`; returns frames compared.
unsigned replay_single(const std::string& stem, const std::string& version) {
    const json golden = test::golden_full(stem);
    const Model model = Model::builtin(version);
    const auto keys = keys_for(model.features(), golden);
    const unsigned frames = static_cast<unsigned>(golden.at("frames").size());
    for (unsigned i = 0; i < frames; ++i) {
        const double expected = test::golden_value(golden, i, "vmaf");
        const double got = model.predict(frame_values(golden, i, keys));
        EXPECT_BITS(expected, got, stem + " frame " + std::to_string(i));
    }
    return frames;
}

TEST(ModelGolden, V061EveryPairExact) {
    const char* pairs[] = {"p01_crf23", "p01_crf35", "p02_crf30", "p03_crf28", "p04a_crf30", "p04b_crf30",
                           "p04b_scale", "p05_crf30", "p05_noise", "p06_crf28", "p07_identical", "p08_crf51blur"};
    unsigned total = 0;
    for (const char* p : pairs) {
        const unsigned n = replay_single(std::string(p) + "__vmaf_v0.6.1", "vmaf_v0.6.1");
        EXPECT_GT(n, 0u) << p;
        total += n;
    }
    std::printf("vmaf_v0.6.1: %u frames over %zu pairs reproduced\n", total, std::size(pairs));
}

TEST(ModelGolden, V061NegExact) { EXPECT_GT(replay_single("p01_crf35__vmaf_v0.6.1neg", "vmaf_v0.6.1neg"), 0u); }
TEST(ModelGolden, V4kExact) { EXPECT_GT(replay_single("p06_crf28__vmaf_4k_v0.6.1", "vmaf_4k_v0.6.1"), 0u); }
TEST(ModelGolden, V1016_3d0hExact) { EXPECT_GT(replay_single("p01_crf35__vmaf_v1.0.16_3d0h", "vmaf_v1.0.16_3d0h"), 0u); }
TEST(ModelGolden, V1016_5d0hExact) { EXPECT_GT(replay_single("p01_crf35__vmaf_v1.0.16_5d0h", "vmaf_v1.0.16_5d0h"), 0u); }

TEST(ModelGolden, BootstrapCollectionExact) {
    const json golden = test::golden_full("p01_crf35__vmaf_b_v0.6.3");
    ASSERT_TRUE(ModelCollection::is_builtin_collection("vmaf_b_v0.6.3"));
    const ModelCollection c = ModelCollection::builtin("vmaf_b_v0.6.3");
    EXPECT_EQ(c.size(), 21u);
    EXPECT_EQ(c.name(), "vmaf");
    const auto keys = keys_for(c.features(), golden);
    const unsigned frames = static_cast<unsigned>(golden.at("frames").size());
    ASSERT_GT(frames, 0u);
    for (unsigned i = 0; i < frames; ++i) {
        const std::string at = " frame " + std::to_string(i);
        const CollectionScore s = c.predict(frame_values(golden, i, keys));
        EXPECT_BITS(test::golden_value(golden, i, "vmaf"), s.score, "vmaf" + at);
        ASSERT_EQ(s.submodels.size(), 20u);
        for (std::size_t k = 0; k < s.submodels.size(); ++k) {
            char key[32];
            std::snprintf(key, sizeof key, "vmaf_%04zu", k + 1);
            EXPECT_BITS(test::golden_value(golden, i, key), s.submodels[k], key + at);
        }
        EXPECT_BITS(test::golden_value(golden, i, "vmaf_bagging"), s.bagging, "vmaf_bagging" + at);
        EXPECT_BITS(test::golden_value(golden, i, "vmaf_stddev"), s.stddev, "vmaf_stddev" + at);
        EXPECT_BITS(test::golden_value(golden, i, "vmaf_ci_p95_lo"), s.ci_p95_lo, "vmaf_ci_p95_lo" + at);
        EXPECT_BITS(test::golden_value(golden, i, "vmaf_ci_p95_hi"), s.ci_p95_hi, "vmaf_ci_p95_hi" + at);
    }
}

// ---------------------------------------------------------------------------
// Built-ins, names, options

TEST(ModelBuiltin, EveryBuiltinLoads) {
    const auto names = builtin_model_names();
    ASSERT_FALSE(names.empty());
    EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
    for (const char* expected : {"vmaf_v0.6.1", "vmaf_v0.6.1neg", "vmaf_4k_v0.6.1", "vmaf_b_v0.6.3", "vmaf_v1.0.16_3d0h"})
        EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
    for (const auto& n : names) {
        EXPECT_FALSE(builtin_model_json(n).empty()) << n;
        if (ModelCollection::is_builtin_collection(n)) {
            const ModelCollection c = ModelCollection::builtin(n);
            EXPECT_GE(c.size(), 2u) << n;
            EXPECT_FALSE(c.features().empty()) << n;
            const std::vector<double> ones(c.features().size(), 0.5);
            EXPECT_TRUE(std::isfinite(c.predict(ones).bagging)) << n;
        } else {
            const Model m = Model::builtin(n);
            EXPECT_FALSE(m.features().empty()) << n;
            const std::vector<double> ones(m.features().size(), 0.5);
            EXPECT_TRUE(std::isfinite(m.predict(ones))) << n;
        }
    }
}

TEST(ModelBuiltin, UnknownAndWrongKind) {
    EXPECT_TRUE(builtin_model_json("no_such_model").empty());
    EXPECT_FALSE(ModelCollection::is_builtin_collection("no_such_model"));
    EXPECT_FALSE(ModelCollection::is_builtin_collection("vmaf_v0.6.1"));
    auto kind_of = [](auto&& fn) {
        try {
            fn();
        } catch (const Error& e) {
            return e.kind();
        }
        return ErrorKind::Internal;
    };
    EXPECT_EQ(kind_of([] { Model::builtin("no_such_model"); }), ErrorKind::Usage);
    EXPECT_EQ(kind_of([] { ModelCollection::builtin("no_such_model"); }), ErrorKind::Usage);
    EXPECT_EQ(kind_of([] { Model::builtin("vmaf_b_v0.6.3"); }), ErrorKind::Usage);
    EXPECT_EQ(kind_of([] { ModelCollection::builtin("vmaf_v0.6.1"); }), ErrorKind::Usage);
}

TEST(ModelConfig, Names) {
    Model m = Model::builtin("vmaf_v0.6.1");
    EXPECT_EQ(m.name(), "vmaf");
    m.set_name("vmaf_hd");
    EXPECT_EQ(m.name(), "vmaf_hd");
    ModelCollection c = ModelCollection::builtin("vmaf_b_v0.6.3");
    c.set_name("boot");
    EXPECT_EQ(c.name(), "boot");
}

TEST(ModelConfig, FeaturesAndOptionsFromJson) {
    const Model m = Model::builtin("vmaf_v0.6.1");
    ASSERT_EQ(m.features().size(), 6u);
    EXPECT_EQ(m.features()[0].name, "VMAF_integer_feature_adm2_score");
    EXPECT_EQ(m.features()[5].name, "VMAF_integer_feature_vif_scale3_score");
    for (const auto& f : m.features()) EXPECT_TRUE(f.options.empty());

    const Model neg = Model::builtin("vmaf_v0.6.1neg");
    EXPECT_EQ(neg.features()[0].options, (OptionDict{{"adm_enhn_gain_limit", "1"}}));
    EXPECT_TRUE(neg.features()[1].options.empty());
    EXPECT_EQ(neg.features()[2].options, (OptionDict{{"vif_enhn_gain_limit", "1"}}));

    const Model v16 = Model::builtin("vmaf_v1.0.16_3d0h");
    ASSERT_EQ(v16.features().size(), 4u);
    EXPECT_EQ(v16.features()[0].options,
              (OptionDict{{"cambi_high_res_speedup", "1080"}, {"cambi_vis_lum_threshold", "0.06"}, {"cambi_max_val", "17"}}));
    EXPECT_EQ(v16.features()[3].options, (OptionDict{{"motion_max_val", "18"}}));
}

TEST(ModelConfig, OverrideOption) {
    Model m = Model::builtin("vmaf_v0.6.1neg");
    m.override_option("vif", "vif_enhn_gain_limit", "1.10");
    m.override_option("motion", "motion_force_zero", "true");
    m.override_option("float_vif", "vif_kernelscale", "2");  // no float_vif feature: no effect
    const auto f = m.features();
    EXPECT_EQ(f[0].options, (OptionDict{{"adm_enhn_gain_limit", "1"}}));  // adm untouched
    EXPECT_EQ(f[1].options, (OptionDict{{"motion_force_zero", "true"}}));
    for (std::size_t i = 2; i < 6; ++i) EXPECT_EQ(f[i].options, (OptionDict{{"vif_enhn_gain_limit", "1.1"}})) << i;

    m.override_option("adm", "adm_csf_mode", "1.0");  // appended, numeric value normalised
    EXPECT_EQ(f[0].options, (OptionDict{{"adm_enhn_gain_limit", "1"}, {"adm_csf_mode", "1"}}));

    ModelCollection c = ModelCollection::builtin("vmaf_b_v0.6.3");
    c.override_option("adm", "adm_enhn_gain_limit", "1");
    EXPECT_EQ(c.features()[0].options, (OptionDict{{"adm_enhn_gain_limit", "1"}}));
    EXPECT_TRUE(c.features()[1].options.empty());
}

TEST(ModelConfig, DisableClip) {
    Model m = Model::builtin("vmaf_v0.6.1");
    // Pristine features (identical pair, high motion) exceed 100 before clipping.
    const std::vector<double> pristine = {1.0, 20.0, 1.0, 1.0, 1.0, 1.0};
    const double clipped = m.predict(pristine);
    m.set_clip_enabled(false);
    const double raw = m.predict(pristine);
    EXPECT_EQ(clipped, 100.0);
    EXPECT_GT(raw, 100.0);
    m.set_clip_enabled(true);
    EXPECT_EQ(m.predict(pristine), 100.0);
}

TEST(ModelConfig, EnableTransform) {
    // vmaf_v0.6.1 carries a score_transform without "enabled": off unless forced.
    const json golden = test::golden_full("p01_crf35__vmaf_v0.6.1");
    Model m = Model::builtin("vmaf_v0.6.1");
    m.set_clip_enabled(false);
    const auto keys = keys_for(m.features(), golden);
    for (unsigned i = 0; i < 5; ++i) {
        const auto v = frame_values(golden, i, keys);
        m.set_transform_enabled(false);
        const double y = m.predict(v);
        m.set_transform_enabled(true);
        const double t = m.predict(v);
        double poly = 0.;
        poly += 1.70674692;
        poly += 1.72643844 * y;
        poly += -0.00705305 * y * y;
        EXPECT_BITS(poly < y ? y : poly, t, "transformed frame " + std::to_string(i));  // out_gte_in
        EXPECT_GE(t, y);
    }
}

// ---------------------------------------------------------------------------
// Synthetic models: a linear-kernel SVR with one support vector 1:1 and
// coefficient 1, rho 0, so the SVR output is the single feature value.

json identity_model() {
    return json::parse(R"({
      "model_dict": {
        "model_type": "LIBSVMNUSVR",
        "norm_type": "none",
        "feature_names": ["VMAF_integer_feature_adm2_score"],
        "model": "svm_type nu_svr\nkernel_type linear\nnr_class 2\ntotal_sv 1\nrho 0\nSV\n1 1:1 \n"
      }
    })");
}

TEST(ModelSynthetic, IdentityPipeline) {
    const Model m = Model::from_json(identity_model().dump(), "identity");
    for (double x : {-3.5, 0.0, 0.25, 42.0}) EXPECT_EQ(m.predict(std::vector<double>{x}), x);
}

TEST(ModelSynthetic, LinearRescaleAndClip) {
    json j = identity_model();
    j["model_dict"]["norm_type"] = "linear_rescale";
    j["model_dict"]["slopes"] = {0.5, 2.0};
    j["model_dict"]["intercepts"] = {1.0, -1.0};
    j["model_dict"]["score_clip"] = {0, 10};
    const Model m = Model::from_json(j.dump(), "rescale");
    // normalise: 2x - 1; denormalise: (y - 1) / 0.5
    const double x = 3.0;
    EXPECT_EQ(m.predict(std::vector<double>{x}), ((2.0 * x - 1.0) - 1.0) / 0.5);
    EXPECT_EQ(m.predict(std::vector<double>{100.0}), 10.0);
    EXPECT_EQ(m.predict(std::vector<double>{-100.0}), 0.0);
}

TEST(ModelSynthetic, TransformKnotsAndRectification) {
    json j = identity_model();
    j["model_dict"]["score_transform"] = {{"enabled", true}, {"knots", {{0.0, 0.0}, {10.0, 20.0}, {20.0, 25.0}}}};
    Model m = Model::from_json(j.dump(), "knots");
    EXPECT_EQ(m.predict(std::vector<double>{5.0}), 10.0);
    EXPECT_EQ(m.predict(std::vector<double>{15.0}), 22.5);
    EXPECT_EQ(m.predict(std::vector<double>{30.0}), 30.0);  // extrapolates the last segment
    EXPECT_EQ(m.predict(std::vector<double>{-2.0}), -4.0);  // and the first

    j["model_dict"]["score_transform"]["out_lte_in"] = "true";
    m = Model::from_json(j.dump(), "knots_lte");
    EXPECT_EQ(m.predict(std::vector<double>{5.0}), 5.0);
    EXPECT_EQ(m.predict(std::vector<double>{30.0}), 30.0);
    EXPECT_EQ(m.predict(std::vector<double>{-2.0}), -4.0);

    json p = identity_model();
    p["model_dict"]["score_transform"] = {{"enabled", false}, {"p0", 1.0}, {"p1", 2.0}, {"p2", nullptr}};
    m = Model::from_json(p.dump(), "poly");
    EXPECT_EQ(m.predict(std::vector<double>{3.0}), 3.0);  // disabled
    m.set_transform_enabled(true);
    EXPECT_EQ(m.predict(std::vector<double>{3.0}), 7.0);
}

TEST(ModelSynthetic, RbfKernelSparseSupportVectors) {
    // Two features; the SV omits index 1 (a zero), the sample has both.
    json j = identity_model();
    j["model_dict"]["feature_names"] = {"a", "b"};
    j["model_dict"]["model"] = "svm_type nu_svr\nkernel_type rbf\ngamma 0.5\nnr_class 2\ntotal_sv 2\nrho 0.25\nSV\n2 2:1 \n-1 1:0.5 2:0.5 \n";
    const Model m = Model::from_json(j.dump(), "rbf");
    const double a = 0.3, b = 0.9;
    double s1 = 0;
    s1 += a * a;
    s1 += (b - 1) * (b - 1);
    double s2 = 0;
    s2 += (a - 0.5) * (a - 0.5);
    s2 += (b - 0.5) * (b - 0.5);
    double expected = 0;
    expected += 2 * std::exp(-0.5 * s1);
    expected += -1 * std::exp(-0.5 * s2);
    expected -= 0.25;
    EXPECT_EQ(m.predict(std::vector<double>{a, b}), expected);
}

// ---------------------------------------------------------------------------
// Errors

ErrorKind load_error(const std::string& text, std::string* message = nullptr) {
    try {
        Model::from_json(text, "test.json");
    } catch (const Error& e) {
        if (message) *message = e.what();
        return e.kind();
    }
    return ErrorKind::Internal;
}

void expect_model_error(const std::string& text, const std::string& needle) {
    std::string msg;
    EXPECT_EQ(load_error(text, &msg), ErrorKind::Model) << needle;
    EXPECT_NE(msg.find(needle), std::string::npos) << "message: " << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << "multi-line message: " << msg;
    EXPECT_EQ(msg.rfind("test.json", 0), 0u) << "message does not name the origin: " << msg;
}

TEST(ModelErrors, NotJson) {
    expect_model_error("{ \"model_dict\": ", "not valid JSON");
    expect_model_error("", "not valid JSON");
    EXPECT_FALSE(ModelCollection::is_collection_json("{ nope"));
}

TEST(ModelErrors, MissingFields) {
    expect_model_error("{}", "no model_dict");
    expect_model_error("[1, 2]", "JSON object");
    json j = identity_model();
    j["model_dict"].erase("feature_names");
    expect_model_error(j.dump(), "feature_names");
    j = identity_model();
    j["model_dict"].erase("model");
    expect_model_error(j.dump(), "no model");
    j = identity_model();
    j["model_dict"].erase("norm_type");
    expect_model_error(j.dump(), "norm_type");
    j = identity_model();
    j["model_dict"]["norm_type"] = "linear_rescale";
    expect_model_error(j.dump(), "no slopes");
}

TEST(ModelErrors, UnknownTypes) {
    json j = identity_model();
    j["model_dict"]["model_type"] = "RANDOMFOREST";
    expect_model_error(j.dump(), "unknown model_type 'RANDOMFOREST'");
    j = identity_model();
    j["model_dict"]["norm_type"] = "clip_0to1";
    expect_model_error(j.dump(), "unknown norm_type 'clip_0to1'");
}

TEST(ModelErrors, CountMismatch) {
    json j = json::parse(builtin_model_json("vmaf_v0.6.1"));
    j["model_dict"]["slopes"].erase(j["model_dict"]["slopes"].size() - 1);
    expect_model_error(j.dump(), "slopes has 6 entries, expected 7");
    j = json::parse(builtin_model_json("vmaf_v0.6.1"));
    j["model_dict"]["intercepts"].push_back(1.0);
    expect_model_error(j.dump(), "intercepts has 8 entries, expected 7");
    j = json::parse(builtin_model_json("vmaf_v0.6.1"));
    j["model_dict"]["feature_names"].push_back("VMAF_integer_feature_motion3_score");
    expect_model_error(j.dump(), "slopes has 7 entries, expected 8");
    j = json::parse(builtin_model_json("vmaf_v0.6.1neg"));
    j["model_dict"]["feature_opts_dicts"].push_back(json::object());
    expect_model_error(j.dump(), "feature_opts_dicts has 7 entries");
}

TEST(ModelErrors, MalformedLibsvm) {
    auto with_model = [](const std::string& text) {
        json j = identity_model();
        j["model_dict"]["model"] = text;
        return j.dump();
    };
    expect_model_error(with_model("svm_type nu_svr\nkernel_type linear\nnr_class 2\ntotal_sv 2\nrho 0\nSV\n1 1:1 \n"),
                       "expected 2 support vectors, found 1");
    expect_model_error(with_model("svm_type nu_svr\nkernel_type linear\nnr_class 2\ntotal_sv 1\nrho 0\nSV\nx 1:1 \n"),
                       "bad coefficient");
    expect_model_error(with_model("svm_type nu_svr\nkernel_type linear\nnr_class 2\ntotal_sv 1\nrho 0\nSV\n1 1=1 \n"),
                       "bad element");
    expect_model_error(with_model("svm_type nu_svr\nkernel_type linear\nbogus 3\nnr_class 2\ntotal_sv 1\nrho 0\nSV\n1 1:1\n"),
                       "unknown header field 'bogus'");
    expect_model_error(with_model("svm_type c_svc\nkernel_type linear\nnr_class 2\ntotal_sv 1\nrho 0\nSV\n1 1:1\n"),
                       "unsupported svm_type");
    expect_model_error(with_model("svm_type nu_svr\nkernel_type rbf\ngamma abc\n"), "cannot read gamma");
    expect_model_error(with_model("svm_type nu_svr\nkernel_type rbf\ngamma 1\nnr_class 2\ntotal_sv 0\nrho 0\n"),
                       "no SV section");
    expect_model_error(with_model("svm_type nu_svr\nkernel_type rbf\nnr_class 2\ntotal_sv 0\nSV\n"), "missing rho");
    // Found by model_fuzz: a count the text cannot hold fails without reserving for it.
    expect_model_error(with_model("svm_type nu_svr\nkernel_type linear\nnr_class 2\ntotal_sv 2147483647\nrho 0\nSV\n1 1:1\n"),
                       "expected 2147483647 support vectors, found 1");
}

// Found by model_fuzz: numbers beyond double made nlohmann throw out_of_range,
// which escaped as an exception other than vmaf::Error.
TEST(ModelErrors, NumberOutOfRange) {
    expect_model_error("{\"model_dict\": {\"score_clip\": [0, 11e3084692]}}", "not valid JSON");
    try {
        ModelCollection::from_json("{\"0\": 1e999}", "coll.json");
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Model);
    }
    EXPECT_FALSE(ModelCollection::is_collection_json("{\"0\": 1e999}"));
}

TEST(ModelErrors, CollectionVersusSingle) {
    const std::string single(builtin_model_json("vmaf_v0.6.1"));
    const std::string coll(builtin_model_json("vmaf_b_v0.6.3"));
    EXPECT_FALSE(ModelCollection::is_collection_json(single));
    EXPECT_TRUE(ModelCollection::is_collection_json(coll));
    expect_model_error(coll, "model collection");
    try {
        ModelCollection::from_json(single, "single.json");
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Model);
    }
    // A collection whose model "1" is not a bootstrap model.
    nlohmann::ordered_json j = nlohmann::ordered_json::parse(coll);
    j["1"]["model_dict"]["model_type"] = "LIBSVMNUSVR";
    try {
        ModelCollection::from_json(j.dump(), "coll.json");
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Model);
        EXPECT_NE(std::string(e.what()).find("bootstrap"), std::string::npos) << e.what();
    }
    // Errors inside a member name it.
    j = nlohmann::ordered_json::parse(coll);
    j["3"]["model_dict"]["norm_type"] = "weird";
    try {
        ModelCollection::from_json(j.dump(), "coll.json");
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("coll.json[3]"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace vmaf
