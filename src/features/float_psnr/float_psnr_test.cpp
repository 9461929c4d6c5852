// float_psnr: bit-exact against upstream's golden-full features_float reports.
#include <gtest/gtest.h>

#include "features/float_common/float_golden.hpp"

namespace vmaf {
extern const ExtractorInfo kFloatPsnrInfo;
}

namespace {

using namespace vmaf::floatfeat::test;

class FloatPsnrGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(FloatPsnrGolden, EveryFrameEveryKeyBitExact) {
    compare_float_golden(vmaf::kFloatPsnrInfo, GetParam(), {"float_psnr"});
}

INSTANTIATE_TEST_SUITE_P(FloatPairs, FloatPsnrGolden, ::testing::ValuesIn(kFloatGoldenPairs));

}  // namespace
