// float_moment: bit-exact against upstream's golden-full features_float reports.
#include <gtest/gtest.h>

#include "features/float_common/float_golden.hpp"

namespace vmaf {
extern const ExtractorInfo kFloatMomentInfo;
}

namespace {

using namespace vmaf::floatfeat::test;

class FloatMomentGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(FloatMomentGolden, EveryFrameEveryKeyBitExact) {
    compare_float_golden(vmaf::kFloatMomentInfo, GetParam(),
                         {"float_moment_ref1st", "float_moment_dis1st", "float_moment_ref2nd", "float_moment_dis2nd"});
}

INSTANTIATE_TEST_SUITE_P(FloatPairs, FloatMomentGolden, ::testing::ValuesIn(kFloatGoldenPairs));

}  // namespace
