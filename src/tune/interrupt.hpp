// Ctrl-C and SIGTERM during a sweep or a search: while an InterruptScope is
// alive they set a flag instead of ending the process, so that the run stops
// launching encodes, removes the ones they cut short and leaves its output
// resumable.
#pragma once

#include <stdexcept>

namespace vmaf::tune {

/// Installs the handlers (SIGINT, SIGTERM) for its lifetime, clears the flag
/// on construction, restores the previous handlers on destruction. Scopes nest.
class InterruptScope {
public:
    InterruptScope();
    ~InterruptScope();
    InterruptScope(const InterruptScope&) = delete;
    InterruptScope& operator=(const InterruptScope&) = delete;

private:
    bool outer_;
};

/// Whether SIGINT or SIGTERM arrived inside the current scope.
bool interrupted();

/// Thrown by a search whose probe was interrupted; the CLI exits 130.
struct Interrupted : std::runtime_error {
    Interrupted() : std::runtime_error("interrupted; run the same command again to resume") {}
};

}  // namespace vmaf::tune
