// float_adm: bit-exact against upstream's golden-full features_float reports.
#include <gtest/gtest.h>

#include "features/float_common/float_golden.hpp"

namespace vmaf {
extern const ExtractorInfo kFloatAdmInfo;
}

namespace {

using namespace vmaf::floatfeat::test;

class FloatAdmGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(FloatAdmGolden, EveryFrameEveryKeyBitExact) {
    compare_float_golden(vmaf::kFloatAdmInfo, GetParam(), {"adm2", "aim", "adm3", "adm_scale0", "adm_scale1", "adm_scale2", "adm_scale3"});
}

INSTANTIATE_TEST_SUITE_P(FloatPairs, FloatAdmGolden, ::testing::ValuesIn(kFloatGoldenPairs));

}  // namespace
