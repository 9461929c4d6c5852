#include "backends/backend.hpp"

#include <cerrno>

namespace vmaf {

namespace detail {
extern const BackendDescriptor* const kBackends[];
extern const unsigned kBackendCount;
}  // namespace detail

std::span<const BackendDescriptor* const> backend_registry() {
    return {detail::kBackends, detail::kBackendCount};
}

const BackendDescriptor* find_backend(std::string_view name) {
    for (const BackendDescriptor* b : backend_registry())
        if (b->name == name) return b;
    return nullptr;
}

std::shared_ptr<void> create_backend_state(const std::string& backend, int device, void* native_context) {
    const BackendDescriptor* b = find_backend(backend);
    if (!b || !b->create_state)
        throw BackendError(backend, -ENOSYS, "the " + backend + " backend is not compiled into this build");
    return b->create_state(device, native_context);
}

BackendThreadGuard::BackendThreadGuard(bool starting) {
    const auto backends = backend_registry();
    for (unsigned i = 0; i < backends.size() && i < kMax; ++i)
        if (backends[i]->save_thread) have_[i] = backends[i]->save_thread(&saved_[i], starting);
}

BackendThreadGuard::~BackendThreadGuard() {
    const auto backends = backend_registry();
    for (unsigned i = 0; i < backends.size() && i < kMax; ++i)
        if (have_[i]) backends[i]->restore_thread(saved_[i]);
}

}  // namespace vmaf
