// float_motion: bit-exact against upstream's golden-full features_float reports.
#include <gtest/gtest.h>

#include "features/float_common/float_golden.hpp"

namespace vmaf {
extern const ExtractorInfo kFloatMotionInfo;
}

namespace {

using namespace vmaf::floatfeat::test;

class FloatMotionGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(FloatMotionGolden, EveryFrameEveryKeyBitExact) {
    compare_float_golden(vmaf::kFloatMotionInfo, GetParam(), {"motion", "motion2", "motion3"});
}

INSTANTIATE_TEST_SUITE_P(FloatPairs, FloatMotionGolden, ::testing::ValuesIn(kFloatGoldenPairs));

}  // namespace
