#include "backends/backend.hpp"

namespace vmaf {

namespace detail {
extern const BackendDescriptor* const kBackends[];
extern const unsigned kBackendCount;
}  // namespace detail

std::span<const BackendDescriptor* const> backend_registry() { return {detail::kBackends, detail::kBackendCount}; }

const BackendDescriptor* find_backend(std::string_view name) {
    for (const BackendDescriptor* b : backend_registry())
        if (b->name == name) return b;
    return nullptr;
}

}  // namespace vmaf
