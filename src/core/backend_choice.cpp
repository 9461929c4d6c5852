#include "core/backend_choice.hpp"

#include <cerrno>
#include <string_view>
#include <vector>

namespace vmaf {

namespace {

constexpr std::string_view kNames[] = {"auto", "cpu", "cuda", "sycl", "hip", "metal"};

/// Why `name` may not be used under `req` (--no_cuda, --no_hip), or null.
const char* disabled(const BackendRequest& req, std::string_view name) {
    if (name == "cuda" && req.no_cuda) return "CUDA is disabled (--no_cuda)";
    if (name == "hip" && req.no_hip) return "HIP is disabled (--no_hip)";
    return nullptr;
}

/// The device index `req` asks of backend `name`.
int device_for(const BackendRequest& req, std::string_view name) {
    return name == "hip" && req.hip_device >= 0 ? req.hip_device : req.device;
}

/// The GPU backends `req` lets auto try, in order (compiled in or not).
std::vector<std::string> candidates(const BackendRequest& req) {
    std::vector<std::string> out;
    if (req.name != "auto") {
        if (req.name != "cpu") out.push_back(req.name);
        return out;
    }
    if (req.probe_order.empty())
        for (const BackendDescriptor* b : backend_registry()) out.emplace_back(b->name);
    else
        out = req.probe_order;
    std::erase_if(out, [&](const std::string& n) { return disabled(req, n) != nullptr; });
    return out;
}

void add_clause(std::string& probes, const std::string& clause) {
    probes += (probes.empty() ? "" : "; ") + clause;
}

}  // namespace

bool is_backend_name(std::string_view name) {
    for (std::string_view n : kNames)
        if (n == name) return true;
    return false;
}

const char* backend_names_text() { return "auto, cpu, cuda, sycl, hip or metal"; }

StartedBackend start_chosen_backend(const BackendRequest& req, bool want_session) {
    if (!is_backend_name(req.name))
        throw Error(ErrorKind::Usage,
                    "unsupported backend '" + req.name + "' (expected " + backend_names_text() + ")");
    StartedBackend out;
    BackendChoice& c = out.choice;
    if (req.name == "cpu") {
        c.probes = "cpu requested";
        return out;
    }
    if (const char* why = disabled(req, req.name)) throw BackendError(req.name, -ENODEV, why);
    const bool is_auto = req.name == "auto";
    for (const std::string& name : candidates(req)) {
        try {
            const BackendDescriptor* b = find_backend(name);
            if (!b || (!want_session && !b->create_state))
                throw BackendError(name, -ENOSYS, "the " + name + " backend is not compiled into this build");
            // A caller's state serves the backend it was made for.
            const std::shared_ptr<void> given = is_auto ? nullptr : req.state;
            if (want_session) {
                BackendStartOptions o;
                o.device = device_for(req, name);
                o.external = given;
                out.session = b->start(o);
                c.state = given;
            } else {
                c.state = given ? given : b->create_state(device_for(req, name), nullptr);
            }
            c.name = name;
            c.fallback_reason.clear();
            add_clause(c.probes, name + ": device " + std::to_string(device_for(req, name)) + " works");
            return out;
        } catch (const BackendError& e) {
            if (!is_auto) throw;
            if (c.fallback_reason.empty()) c.fallback_reason = e.what();
            add_clause(c.probes, name + ": " + e.what());
        }
    }
    add_clause(c.probes, "cpu: always available");
    return out;
}

BackendChoice choose_backend(const BackendRequest& req) { return start_chosen_backend(req, false).choice; }

const BackendDescriptor* first_candidate(const BackendRequest& req) {
    if (!is_backend_name(req.name) || disabled(req, req.name)) return nullptr;
    for (const std::string& name : candidates(req))
        if (const BackendDescriptor* b = find_backend(name)) return b;
    return nullptr;
}

}  // namespace vmaf
