// SIMD kernel selection (dav1d-style kernel tables over Google Highway targets).
//
// A feature declares a table struct of kernel function pointers whose default
// member initialisers are the scalar reference. Each Highway target compiled
// for the feature registers a `fill` function that overrides the kernels it
// implements. select() starts from the scalar table and applies the fills of
// every allowed target in ascending capability order, so the best allowed
// implementation of each kernel wins.
//
// `cpumask` has upstream libvmaf's meaning; a set bit disables:
//   x86:     1 SSE2, 2 SSSE3, 4 SSE4.1, 8 AVX2, 16 AVX-512, 32 AVX-512ICL
//   aarch64: 1 NEON, 2 SVE/SVE2
#pragma once

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace vmaf::simd {

/// Highway target bits usable on this CPU and not disabled by `cpumask`.
/// Never includes the emulation targets (EMU128/SCALAR): the hand-written
/// scalar reference is the fallback.
std::int64_t allowed_targets(unsigned cpumask);
/// Highway's name of a single target bit ("AVX2", "AVX3", "NEON", ...).
std::string target_name(std::int64_t target);
/// Targets supported by this CPU (emulation targets included), best first.
std::vector<std::int64_t> supported_targets();

template <typename Table>
class KernelRegistry {
public:
    using Fill = void (*)(Table&);

    /// Called once per compiled target, from static initialisation.
    bool add(std::int64_t target, Fill fill) {
        std::lock_guard<std::mutex> lock(mu_);
        fills_.emplace_back(target, fill);
        // Highway's target bits: a larger bit is a less capable target.
        std::sort(fills_.begin(), fills_.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        return true;
    }

    /// Scalar reference overridden, in capability order, by every allowed target.
    Table select(unsigned cpumask) const {
        const std::int64_t allowed = allowed_targets(cpumask);
        Table t;
        std::lock_guard<std::mutex> lock(mu_);
        for (const auto& [target, fill] : fills_)
            if (target & allowed) fill(t);
        return t;
    }

    /// Every compiled target this CPU can run (emulation targets included),
    /// each as a table holding only the scalar reference plus that target's
    /// fills: what a checkasm-style test compares against the reference.
    std::vector<std::pair<std::string, Table>> variants() const {
        std::vector<std::pair<std::string, Table>> out;
        const auto supported = supported_targets();
        std::lock_guard<std::mutex> lock(mu_);
        for (const auto& [target, fill] : fills_) {
            if (std::find(supported.begin(), supported.end(), target) == supported.end()) continue;
            Table t;
            fill(t);
            out.emplace_back(target_name(target), t);
        }
        return out;
    }

private:
    mutable std::mutex mu_;
    std::vector<std::pair<std::int64_t, Fill>> fills_;
};

}  // namespace vmaf::simd
