#include "support/checkasm.hpp"

#include <chrono>

namespace vmaf::test {

std::uint64_t checkasm_seed() {
    static const std::uint64_t seed = [] {
        if (const char* env = std::getenv("VMAF_CHECKASM_SEED")) return static_cast<std::uint64_t>(std::strtoull(env, nullptr, 0));
        return static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    }();
    return seed;
}

std::string seed_trace() { return "reproduce with VMAF_CHECKASM_SEED=" + std::to_string(checkasm_seed()); }

}  // namespace vmaf::test
