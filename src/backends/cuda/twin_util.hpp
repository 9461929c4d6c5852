// Helpers for CUDA twins: they receive the CPU kind's parsed options and
// write the CPU kind's outputs, so they look both up by name.
#pragma once

#include <string>
#include <string_view>

#include "core/feature_extractor.hpp"
#include "vmaf/error.hpp"

namespace vmaf::cuda {

inline std::size_t option_index(const OptionValues& o, std::string_view name) {
    const auto specs = o.specs();
    for (std::size_t i = 0; i < specs.size(); ++i)
        if (specs[i].name == name) return i;
    throw Error(ErrorKind::Internal, "cuda twin: option '" + std::string(name) + "' not found");
}

inline unsigned output_index(const ExtractorInfo& kind, std::string_view name) {
    for (unsigned i = 0; i < kind.outputs.size(); ++i)
        if (kind.outputs[i] == name) return i;
    throw Error(ErrorKind::Internal, "cuda twin: output '" + std::string(name) + "' not found");
}

}  // namespace vmaf::cuda
