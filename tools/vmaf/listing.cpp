#include "listing.hpp"

#include "vmaf/catalog.hpp"

namespace vmaf::cli {

namespace {

std::string join(const std::vector<std::string>& items, const char* sep) {
    std::string out;
    for (const std::string& s : items) out += (out.empty() ? "" : sep) + s;
    return out;
}

}  // namespace

std::string features_text() {
    std::string out =
        "Features (--feature NAME[=option=value:...]; a GPU-pinned NAME_cuda runs on CUDA or fails).\n"
        "  (temporal) after a name: a frame's score also uses neighbouring frames, so the\n"
        "      feature reads every frame, --subsample included (upstream's TEMPORAL flag).\n"
        "  outputs: the score keys the feature writes in the report.\n"
        "  each option: NAME (ALIAS), type, default, range; the alias names the option in\n"
        "      key suffixes: where 'non-default values suffix the output keys', another\n"
        "      value renames the keys (float_vif=vif_enhn_gain_limit=1: vif_scale0_egl_1).\n";
    for (const FeatureInfo& f : list_features()) {
        out += "\n" + f.name;
        if (f.temporal) out += " (temporal)";
        out += "\n  outputs: " + join(f.outputs, ", ") + "\n";
        for (const FeatureOptionInfo& o : f.options) {
            out += "  " + o.name + (o.alias.empty() ? "" : " (" + o.alias + ")") + "  " + o.type + ", default " +
                   o.default_value + (o.range.empty() ? "" : ", " + o.range) +
                   (o.feature_param ? ", non-default values suffix the output keys" : "");
            if (!o.help.empty()) out += "\n      " + o.help;
            out += "\n";
        }
    }
    return out;
}

std::string models_text() {
    std::string out = "Built-in models (--model version=NAME):\n";
    for (const ModelInfo& m : list_models()) {
        out += "  " + m.version;
        if (m.collection) out += "  (bootstrap collection: bagging, stddev, 95% CI)";
        if (!m.missing.empty()) out += "  [not runnable in this build: needs " + join(m.missing, ", ") + "]";
        out += "\n";
    }
    return out;
}

/// Highway's x86 target names as upstream's --cpumask bits name them
/// (16 AVX-512, 32 AVX-512ICL); others (AVX2, SSE4, NEON, SVE2, ...) as they are.
std::string simd_name(const std::string& hwy) {
    if (hwy == "AVX3") return "AVX-512";
    if (hwy == "AVX3_DL") return "AVX-512ICL";
    if (hwy == "AVX3_ZEN4") return "AVX-512-Zen4";
    if (hwy == "AVX3_SPR") return "AVX-512-SPR";
    return hwy;
}

std::string version_text() {
    const BuildInfo b = build_info();
    std::vector<std::string> simd;
    for (const std::string& t : b.simd_targets) simd.push_back(simd_name(t));
    return b.upstream_version + " (vmaf-engine " + b.engine_version + ", commit " + b.commit +
           ", backends: " + join(b.backends, " ") + ", SIMD: " + join(simd, " ") + ")\n";
}

}  // namespace vmaf::cli
