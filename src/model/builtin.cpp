// Built-in models: the model JSON files embedded at build time
// (cmake/EmbedModels.cmake generates kBuiltinModels from VMAF_MODEL_DIR).
#include <algorithm>
#include <string>
#include <utility>

#include "model/model.hpp"
#include "vmaf/error.hpp"

namespace vmaf {

namespace detail {
extern const std::pair<std::string_view, std::string_view> kBuiltinModels[];
extern const unsigned kBuiltinModelCount;
}  // namespace detail

std::string_view builtin_model_json(std::string_view version) {
    for (unsigned i = 0; i < detail::kBuiltinModelCount; ++i)
        if (detail::kBuiltinModels[i].first == version) return detail::kBuiltinModels[i].second;
    return {};
}

std::vector<std::string> builtin_model_names() {
    std::vector<std::string> names;
    names.reserve(detail::kBuiltinModelCount);
    for (unsigned i = 0; i < detail::kBuiltinModelCount; ++i) names.emplace_back(detail::kBuiltinModels[i].first);
    std::sort(names.begin(), names.end());
    return names;
}

namespace {

std::string_view known_json(std::string_view version) {
    const std::string_view json = builtin_model_json(version);
    if (json.empty()) throw Error(ErrorKind::Usage, "no such built-in model: '" + std::string(version) + "'");
    return json;
}

}  // namespace

Model Model::builtin(std::string_view version) {
    const std::string_view json = known_json(version);
    if (ModelCollection::is_collection_json(json))
        throw Error(ErrorKind::Usage, "built-in '" + std::string(version) + "' is a model collection, not a single model");
    return from_json(json, version);
}

ModelCollection ModelCollection::builtin(std::string_view version) {
    const std::string_view json = known_json(version);
    if (!is_collection_json(json))
        throw Error(ErrorKind::Usage, "built-in '" + std::string(version) + "' is a single model, not a model collection");
    return from_json(json, version);
}

bool ModelCollection::is_builtin_collection(std::string_view version) {
    const std::string_view json = builtin_model_json(version);
    return !json.empty() && is_collection_json(json);
}

}  // namespace vmaf
