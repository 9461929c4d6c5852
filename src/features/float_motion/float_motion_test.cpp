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

namespace {

TEST(FloatMotion, OptionsAndSuffixes) {
    const auto p = load_pair("p01_crf35");
    const std::vector<vmaf::Picture> r(p.refs.begin(), p.refs.begin() + 4), d(p.dists.begin(), p.dists.begin() + 4);
    const auto def = run_frames(vmaf::kFloatMotionInfo, {}, p.info.geom, r, d);
    // motion_fps_weight scales every score and suffixes the keys.
    const auto w2 = run_frames(vmaf::kFloatMotionInfo, {{"motion_fps_weight", "2"}}, p.info.geom, r, d);
    for (unsigned f = 0; f < 4; ++f) {
        EXPECT_EQ(w2.at(f).at("motion2_mfw_2"), 2 * def.at(f).at("motion2")) << f;
        EXPECT_EQ(w2.at(f).at("motion_mfw_2"), 2 * def.at(f).at("motion")) << f;
    }
    // debug=false drops the per-frame "motion" key.
    const auto nodebug = run_frames(vmaf::kFloatMotionInfo, {{"debug", "false"}}, p.info.geom, r, d);
    for (unsigned f = 0; f < 4; ++f) EXPECT_EQ(nodebug.at(f).count("motion"), 0u);
    EXPECT_EQ(nodebug.at(2).at("motion2"), def.at(2).at("motion2"));
    // motion_force_zero: zeros for every frame and key.
    const vmaf::OptionValues fz(vmaf::kFloatMotionInfo.options, {{"motion_force_zero", "true"}}, "float_motion");
    const auto zero = run_frames(vmaf::kFloatMotionInfo, {{"motion_force_zero", "true"}}, p.info.geom, r, d);
    for (unsigned f = 0; f < 4; ++f) {
        ASSERT_EQ(zero.at(f).size(), 3u);
        for (const auto& [k, v] : zero.at(f)) EXPECT_EQ(v, 0.0) << k;
    }
    // Other filter sizes, scale-1 and chroma terms run and differ from the default.
    for (const vmaf::OptionDict& o : std::vector<vmaf::OptionDict>{
             {{"motion_filter_size", "3"}}, {{"motion_add_scale1", "true"}}, {{"motion_add_uv", "true"}}}) {
        const auto s = run_frames(vmaf::kFloatMotionInfo, o, p.info.geom, r, d);
        const vmaf::OptionValues ov(vmaf::kFloatMotionInfo.options, o, "float_motion");
        EXPECT_NE(s.at(1).at(vmaf::feature_key("VMAF_feature_motion2_score", ov)), def.at(1).at("motion2"));
    }
    // A single frame: motion2 = 0 and motion3 = 0 (written at flush).
    const auto one = run_frames(vmaf::kFloatMotionInfo, {}, p.info.geom, {r[0]}, {d[0]});
    EXPECT_EQ(one.at(0).at("motion2"), 0.0);
    EXPECT_EQ(one.at(0).at("motion3"), 0.0);
}

}  // namespace
