// Device memory held through DeviceBuffer, by owner: the figures behind
// VMAF_CUDA_MEMORY=1, which prints them to stderr when a CUDA session ends.
// Allocations made while a DeviceLedger::Scope is alive on the thread are
// counted under its label; the others under "while scoring" (twins' lanes
// and work areas, made on first use by the worker threads).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace vmaf::cuda {

class DeviceLedger {
public:
    /// Labels the calling thread's allocations for its lifetime (nests).
    class Scope {
    public:
        explicit Scope(std::string_view label);
        ~Scope();
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;

    private:
        std::string_view previous_;
    };

    static void allocated(std::size_t bytes);
    static void freed(std::size_t bytes);
    /// "peak X MiB; label Y MiB in N, ..." over the process so far (bytes
    /// made per label, largest first; pools keep what they make until the run ends).
    static std::string report();
    /// Bytes held now and at most.
    static std::size_t live();
    static std::size_t peak();
};

}  // namespace vmaf::cuda
