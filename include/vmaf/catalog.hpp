// What this build of the library contains: feature extractors with their
// options, built-in models, compiled backends and SIMD targets. For listings
// (`vmaf --list-features`, `--list-models`, `--version`) and for programs that
// want to check before they configure an Engine.
#pragma once

#include <string>
#include <vector>

namespace vmaf {

struct FeatureOptionInfo {
    std::string name;
    std::string alias;           ///< short name used in key suffixes; empty when none
    std::string type;            ///< "bool", "int", "double" or "string"
    std::string default_value;   ///< as upstream prints it
    std::string range;           ///< "[min, max]" for numbers, empty when unbounded
    bool feature_param = false;  ///< a non-default value changes the output keys (suffix)
    std::string help;
};

struct FeatureInfo {
    std::string name;                  ///< `--feature` name
    std::vector<std::string> outputs;  ///< upstream score names
    std::vector<FeatureOptionInfo> options;
    bool needs_chroma = false;
    bool temporal = false;
};

struct ModelInfo {
    std::string version;      ///< `--model version=` name
    bool collection = false;  ///< a bootstrap collection (reports bagging, stddev, CI)
    /// Upstream score names the model needs that no extractor of this build
    /// provides (empty: the model runs here).
    std::vector<std::string> missing;
};

struct BuildInfo {
    std::string upstream_version;           ///< the libvmaf version this build matches, "3.2.0"
    std::string engine_version;             ///< vmaf-engine's own version
    std::string commit;                     ///< git commit of the build, "unknown" outside a checkout
    std::vector<std::string> backends;      ///< "cpu" and the compiled GPU backends
    std::vector<std::string> simd_targets;  ///< compiled SIMD targets, best first (e.g. "AVX3", "AVX2")
};

/// Every feature extractor, in registry order.
std::vector<FeatureInfo> list_features();
/// Every built-in model, sorted by name.
std::vector<ModelInfo> list_models();
BuildInfo build_info();

}  // namespace vmaf
