// float_vif: bit-exact against upstream's golden-full features_float reports.
#include <gtest/gtest.h>

#include "features/float_common/float_golden.hpp"

namespace vmaf {
extern const ExtractorInfo kFloatVifInfo;
}

namespace {

using namespace vmaf::floatfeat::test;

class FloatVifGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(FloatVifGolden, EveryFrameEveryKeyBitExact) {
    compare_float_golden(vmaf::kFloatVifInfo, GetParam(), {"vif_scale0", "vif_scale1", "vif_scale2", "vif_scale3"});
}

INSTANTIATE_TEST_SUITE_P(FloatPairs, FloatVifGolden, ::testing::ValuesIn(kFloatGoldenPairs));

}  // namespace
