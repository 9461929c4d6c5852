// The one place a compute backend is chosen. The engine (and through it the
// CLI and the C API) and vmaf-tune call it; they differ only in what they ask
// for: the engine a started session, vmaf-tune shareable state and its own
// probe order.
#pragma once

#include <memory>
#include <string>

#include "backends/backend.hpp"
#include "vmaf/engine.hpp"

namespace vmaf {

/// A choice with what the caller asked to have started.
struct StartedBackend {
    BackendChoice choice;                     ///< name "cpu": nothing started
    std::unique_ptr<BackendSession> session;  ///< with want_session and a GPU backend
};

/// choose_backend(), starting a session (want_session) or creating the
/// backend's state (otherwise) for the chosen GPU backend.
StartedBackend start_chosen_backend(const BackendRequest& req, bool want_session);

/// The GPU backend start_chosen_backend(req, ...) tries first, if it is
/// compiled in (lets a caller prepare for it while it starts).
const BackendDescriptor* first_candidate(const BackendRequest& req);

}  // namespace vmaf
