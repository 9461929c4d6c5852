// --score-backend: resolves auto|cuda|sycl|hip|cpu to one started backend,
// once per sweep, as the seeds say: auto probes cuda -> sycl -> hip -> cpu and
// takes the first compiled into this build with a working device; an explicit
// GPU backend that cannot start is an error before any encode.
#pragma once

#include <memory>
#include <string>

namespace vmaf::tune {

struct BackendChoice {
    std::string name = "cpu";
    std::shared_ptr<void> state;  ///< the backend's state every cell's engine shares (null for the CPU)
    std::string probes;           ///< what each probe found, one clause each
};

/// Throws std::invalid_argument for an unknown or unavailable value (vulkan included).
BackendChoice choose_backend(const std::string& requested);

}  // namespace vmaf::tune
