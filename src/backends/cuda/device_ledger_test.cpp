// The device-memory ledger behind VMAF_CUDA_MEMORY: live and peak bytes,
// and what each label (a scope on the allocating thread) made. No device
// needed: the ledger only counts what DeviceMemory reports to it.
#include "backends/cuda/device_ledger.hpp"

#include <gtest/gtest.h>

#include <thread>

namespace vmaf::cuda {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

TEST(DeviceLedger, CountsLiveAndPeakAndLabels) {
    // The ledger is process-wide: measure from where earlier tests left it.
    const std::size_t live0 = DeviceLedger::live(), peak0 = DeviceLedger::peak();
    {
        DeviceLedger::Scope frames("test frames");
        DeviceLedger::allocated(3 * kMiB);
        DeviceLedger::allocated(3 * kMiB);
        {
            DeviceLedger::Scope inner("test twin");  // nests, then restores the outer label
            DeviceLedger::allocated(kMiB);
        }
        DeviceLedger::allocated(kMiB);
    }
    std::thread([] { DeviceLedger::allocated(2 * kMiB); }).join();  // no scope on that thread
    EXPECT_EQ(DeviceLedger::live(), live0 + 10 * kMiB);
    DeviceLedger::freed(4 * kMiB);
    DeviceLedger::allocated(kMiB);
    EXPECT_EQ(DeviceLedger::live(), live0 + 7 * kMiB);
    EXPECT_EQ(DeviceLedger::peak(), std::max(peak0, live0 + 10 * kMiB));
    const std::string r = DeviceLedger::report();
    EXPECT_NE(r.find("test frames 7.0 MiB in 3"), std::string::npos) << r;
    EXPECT_NE(r.find("test twin 1.0 MiB in 1"), std::string::npos) << r;
    EXPECT_NE(r.find("while scoring"), std::string::npos) << r;
    EXPECT_LT(r.find("test frames"), r.find("test twin")) << r;  // largest first
    DeviceLedger::freed(7 * kMiB);
    EXPECT_EQ(DeviceLedger::live(), live0);
}

}  // namespace
}  // namespace vmaf::cuda
