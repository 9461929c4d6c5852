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
    std::string out = "Features (--feature NAME[=option=value:...]):\n";
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

std::string version_text() {
    const BuildInfo b = build_info();
    return b.upstream_version + " (vmaf-engine " + b.engine_version + ", commit " + b.commit +
           ", backends: " + join(b.backends, " ") + ", SIMD: " + join(b.simd_targets, " ") + ")\n";
}

}  // namespace vmaf::cli
