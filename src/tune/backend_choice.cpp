#include "tune/backend_choice.hpp"

#include <stdexcept>

#include "vmaf/engine.hpp"

namespace vmaf::tune {

BackendChoice choose_backend(const std::string& requested) {
    if (requested == "vulkan")
        throw std::invalid_argument(
            "--score-backend vulkan: the Vulkan backend was removed (use auto, cuda, sycl, hip or cpu)");
    if (requested != "auto" && requested != "cpu" && requested != "cuda" && requested != "sycl" && requested != "hip")
        throw std::invalid_argument("--score-backend '" + requested + "': expected auto, cuda, sycl, hip or cpu");
    vmaf::BackendRequest req;
    req.name = requested;
    req.probe_order = {"cuda", "sycl", "hip"};  // the seeds' order for vmaf-tune
    try {
        vmaf::BackendChoice c = vmaf::choose_backend(req);
        return {c.name, std::move(c.state), std::move(c.probes)};
    } catch (const BackendError& e) {
        throw std::invalid_argument("--score-backend " + requested + " is not available: " + e.what());
    }
}

}  // namespace vmaf::tune
