// float_vif: bit-exact against upstream's golden-full features_float reports.
#include <gtest/gtest.h>

#include "features/float_common/float_golden.hpp"
#include "vmaf/error.hpp"

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

namespace {

TEST(FloatVif, FramesTooSmallForTheFiltersAreAnError) {
    const vmaf::OptionValues def(vmaf::kFloatVifInfo.options, {}, "float_vif");
    EXPECT_THROW(vmaf::kFloatVifInfo.create(def, {vmaf::PixelFormat::Yuv420, 8, 15, 64}, {}), vmaf::Error);
    EXPECT_NO_THROW(vmaf::kFloatVifInfo.create(def, {vmaf::PixelFormat::Yuv420, 8, 16, 16}, {}));
    // A 3x kernel widens every filter: 16x16 is no longer enough.
    const vmaf::OptionValues ks3(vmaf::kFloatVifInfo.options, {{"vif_kernelscale", "3.0"}}, "float_vif");
    EXPECT_THROW(vmaf::kFloatVifInfo.create(ks3, {vmaf::PixelFormat::Yuv420, 8, 16, 16}, {}), vmaf::Error);
    EXPECT_THROW(vmaf::OptionValues(vmaf::kFloatVifInfo.options, {{"vif_prescale_method", "cubic"}}, "float_vif");
                 vmaf::kFloatVifInfo.create(
                     vmaf::OptionValues(vmaf::kFloatVifInfo.options, {{"vif_prescale_method", "cubic"}}, "float_vif"),
                     {vmaf::PixelFormat::Yuv420, 8, 64, 64}, {}),
                 vmaf::Error);
}

TEST(FloatVif, KeySuffixesAndDebugOutputs) {
    const vmaf::OptionValues o(vmaf::kFloatVifInfo.options, {{"vif_enhn_gain_limit", "1"}}, "float_vif");
    EXPECT_EQ(vmaf::feature_key(vmaf::kFloatVifInfo.outputs[0], o), "vif_scale0_egl_1");
    const auto p = load_pair("p01_crf35");
    const std::vector<vmaf::Picture> r(p.refs.begin(), p.refs.begin() + 2), d(p.dists.begin(), p.dists.begin() + 2);
    const auto dbg =
        run_frames(vmaf::kFloatVifInfo, {{"debug", "true"}, {"vif_skip_scale0", "true"}}, p.info.geom, r, d);
    ASSERT_EQ(dbg.at(0).size(), 15u);
    EXPECT_EQ(dbg.at(0).at("vif_scale0_ssclz"), 0.0);
    EXPECT_EQ(dbg.at(0).at("vif_den_scale0_ssclz"), -1.0);
    const auto def = run_frames(vmaf::kFloatVifInfo, {}, p.info.geom, r, d);
    EXPECT_EQ(dbg.at(1).at("vif_scale2_ssclz"), def.at(1).at("vif_scale2"));  // scales 1-3 unaffected
}

}  // namespace
