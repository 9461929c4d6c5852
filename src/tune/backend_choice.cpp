#include "tune/backend_choice.hpp"

#include <stdexcept>

#include "vmaf/engine.hpp"

namespace vmaf::tune {

BackendChoice choose_backend(const std::string& requested) {
    BackendChoice c;
    if (requested == "cpu") {
        c.probes = "cpu requested";
        return c;
    }
    if (requested == "vulkan")
        throw std::invalid_argument(
            "--score-backend vulkan: the Vulkan backend was removed (use auto, cuda, sycl, hip or cpu)");
    const bool is_auto = requested == "auto";
    if (!is_auto && requested != "cuda" && requested != "sycl" && requested != "hip")
        throw std::invalid_argument("--score-backend '" + requested + "': expected auto, cuda, sycl, hip or cpu");
    for (const char* name : {"cuda", "sycl", "hip"}) {
        if (!is_auto && requested != name) continue;
        try {
            c.state = create_backend_state(name, 0);
            c.name = name;
            c.probes += std::string(c.probes.empty() ? "" : "; ") + name + ": device 0 works";
            return c;
        } catch (const BackendError& e) {
            if (!is_auto)
                throw std::invalid_argument("--score-backend " + requested + " is not available: " + e.what());
            c.probes += std::string(c.probes.empty() ? "" : "; ") + name + ": " + e.what();
        }
    }
    c.probes += "; cpu: always available";
    return c;
}

}  // namespace vmaf::tune
