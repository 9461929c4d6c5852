#include "core/registry.hpp"

namespace vmaf {

namespace detail {
extern const ExtractorInfo* const kExtractors[];
extern const unsigned kExtractorCount;
}  // namespace detail

std::span<const ExtractorInfo* const> extractor_registry() {
    return {detail::kExtractors, detail::kExtractorCount};
}

const ExtractorInfo* find_extractor(std::string_view name) {
    for (const ExtractorInfo* info : extractor_registry())
        if (info->name == name) return info;
    return nullptr;
}

const ExtractorInfo* find_extractor_by_output(std::string_view feature, unsigned* output_index) {
    for (const ExtractorInfo* info : extractor_registry())
        for (unsigned i = 0; i < info->outputs.size(); ++i)
            if (info->outputs[i] == feature) {
                if (output_index) *output_index = i;
                return info;
            }
    return nullptr;
}

}  // namespace vmaf
