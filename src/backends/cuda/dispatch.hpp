// VMAF_CUDA_DISPATCH: how CUDA twins wait for their device work.
//
//   VMAF_CUDA_DISPATCH=adaptive|batched|serial[,feature=strategy...]
//
//   serial   a twin's compute() enqueues its kernels and readback, waits on
//            its own stream and finishes the frame's scores there (one host
//            wait per feature per frame, inside the parallel stage).
//   batched  compute() only enqueues (kernels, readback, a completion event
//            that also guards the staged frame); the wait and the float
//            finishing move to the ordered finish() stage, so the host waits
//            once per frame and feature only when the result is needed, and
//            later frames' uploads and kernels run meanwhile.
//   adaptive (default) batched above 1280x720 luma samples, serial up to it.
//
// Per-feature overrides name the CPU kind or its pinned name ("adm=serial",
// "vif_cuda=batched"); unknown words are a usage error.
#pragma once

#include <string>
#include <string_view>

#include "vmaf/error.hpp"

namespace vmaf::cuda {

enum class Dispatch { Serial, Batched };

inline Dispatch parse_strategy(std::string_view v, unsigned w, unsigned h) {
    if (v == "serial") return Dispatch::Serial;
    if (v == "batched") return Dispatch::Batched;
    if (v == "adaptive" || v.empty())
        return static_cast<unsigned long long>(w) * h > 1280ull * 720ull ? Dispatch::Batched : Dispatch::Serial;
    throw Error(ErrorKind::Usage, "VMAF_CUDA_DISPATCH: unknown strategy '" + std::string(v) +
                                      "' (adaptive, batched or serial)");
}

/// The strategy of `kind` ("adm") for frames of w x h under the setting `spec`
/// (the value of VMAF_CUDA_DISPATCH, null or empty for the default).
inline Dispatch dispatch_for(const char* spec, std::string_view kind, unsigned w, unsigned h) {
    std::string_view s = spec ? spec : "";
    std::string_view global = "adaptive", mine;
    bool first = true;
    while (true) {
        const auto comma = s.find(',');
        const std::string_view item = s.substr(0, comma);
        const auto eq = item.find('=');
        if (eq == std::string_view::npos) {
            if (!first || item.empty()) {
                if (!item.empty())
                    throw Error(ErrorKind::Usage, "VMAF_CUDA_DISPATCH: expected feature=strategy, got '" +
                                                      std::string(item) + "'");
            } else {
                global = item;
            }
        } else {
            std::string_view name = item.substr(0, eq);
            if (name.size() > 5 && name.substr(name.size() - 5) == "_cuda") name.remove_suffix(5);
            if (name.empty())
                throw Error(ErrorKind::Usage, "VMAF_CUDA_DISPATCH: missing feature name in '" + std::string(item) + "'");
            parse_strategy(item.substr(eq + 1), w, h);  // validates
            if (name == kind) mine = item.substr(eq + 1);
        }
        first = false;
        if (comma == std::string_view::npos) break;
        s.remove_prefix(comma + 1);
    }
    const Dispatch g = parse_strategy(global, w, h);
    return mine.empty() ? g : parse_strategy(mine, w, h);
}

}  // namespace vmaf::cuda
