#include "core/simd.hpp"

#include <gtest/gtest.h>
#include <hwy/targets.h>

namespace vmaf::simd {
namespace {

// Our own CPU detection (no libhwy.so at run time) agrees with Highway's on
// the machine running the test.
TEST(Simd, SupportedTargetsAreHighways) {
    std::int64_t ours = 0;
    for (std::int64_t t : supported_targets()) ours |= t;
    EXPECT_EQ(ours, hwy::SupportedTargets())
        << "ours " << std::hex << ours << ", Highway's " << hwy::SupportedTargets();
}

TEST(Simd, CpumaskDisablesTargets) {
    const std::int64_t all = allowed_targets(0);
    EXPECT_EQ(all & (HWY_SCALAR | HWY_EMU128), 0);
#if HWY_ARCH_X86
    EXPECT_EQ(allowed_targets(1), 0);  // SSE2 off: every SIMD target off
    EXPECT_EQ(allowed_targets(8) & HWY_AVX2, 0);
    EXPECT_EQ(allowed_targets(8) | HWY_AVX2, all | HWY_AVX2);
#endif
}

}  // namespace
}  // namespace vmaf::simd
