// float_ansnr: bit-exact against upstream's golden-full features_float reports.
#include <gtest/gtest.h>

#include "features/float_common/float_golden.hpp"

namespace vmaf {
extern const ExtractorInfo kFloatAnsnrInfo;
}

namespace {

using namespace vmaf::floatfeat::test;

class FloatAnsnrGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(FloatAnsnrGolden, EveryFrameEveryKeyBitExact) {
    compare_float_golden(vmaf::kFloatAnsnrInfo, GetParam(), {"float_ansnr", "float_anpsnr"});
}

INSTANTIATE_TEST_SUITE_P(FloatPairs, FloatAnsnrGolden, ::testing::ValuesIn(kFloatGoldenPairs));

}  // namespace
