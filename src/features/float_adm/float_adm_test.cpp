// float_adm: bit-exact against upstream's golden-full features_float reports.
#include <gtest/gtest.h>

#include <cmath>

#include "features/float_common/float_golden.hpp"
#include "vmaf/error.hpp"

namespace vmaf {
extern const ExtractorInfo kFloatAdmInfo;
}

namespace {

using namespace vmaf::floatfeat::test;

class FloatAdmGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(FloatAdmGolden, EveryFrameEveryKeyBitExact) {
    compare_float_golden(vmaf::kFloatAdmInfo, GetParam(),
                         {"adm2", "aim", "adm3", "adm_scale0", "adm_scale1", "adm_scale2", "adm_scale3"});
}

INSTANTIATE_TEST_SUITE_P(FloatPairs, FloatAdmGolden, ::testing::ValuesIn(kFloatGoldenPairs));

}  // namespace

namespace {

TEST(FloatAdm, OptionsSuffixesAndEdges) {
    const vmaf::OptionValues def(vmaf::kFloatAdmInfo.options, {}, "float_adm");
    EXPECT_THROW(vmaf::kFloatAdmInfo.create(def, {vmaf::PixelFormat::Yuv420, 8, 16, 64}, {}), vmaf::Error);
    EXPECT_NO_THROW(vmaf::kFloatAdmInfo.create(def, {vmaf::PixelFormat::Yuv420, 8, 17, 17}, {}));
    const vmaf::OptionValues egl(vmaf::kFloatAdmInfo.options, {{"adm_enhn_gain_limit", "1.0"}}, "float_adm");
    EXPECT_EQ(vmaf::feature_key(vmaf::kFloatAdmInfo.outputs[0], egl), "adm2_egl_1");
    EXPECT_THROW(vmaf::OptionValues(vmaf::kFloatAdmInfo.options, {{"adm_csf_mode", "10"}}, "float_adm"), vmaf::Error);
    // Every CSF mode and the masking/p-norm options run and give finite scores; identical frames give adm2 1.
    const auto p = load_pair("p04a_crf30");
    const std::vector<vmaf::Picture> r(p.refs.begin(), p.refs.begin() + 1), d(p.dists.begin(), p.dists.begin() + 1);
    for (const vmaf::OptionDict& o : std::vector<vmaf::OptionDict>{{{"adm_csf_mode", "1"}},
                                                                   {{"adm_csf_mode", "2"}},
                                                                   {{"adm_p_norm", "2.5"}},
                                                                   {{"adm_bypass_cm", "1"}},
                                                                   {{"adm_skip_scale0", "true"}, {"debug", "true"}}}) {
        const auto s = run_frames(vmaf::kFloatAdmInfo, o, p.info.geom, r, d);
        for (const auto& [k, v] : s.at(0)) EXPECT_TRUE(std::isfinite(v)) << k;
    }
    const auto same = run_frames(vmaf::kFloatAdmInfo, {}, p.info.geom, r, r);
    EXPECT_EQ(same.at(0).at("adm2"), 1.0);
}

}  // namespace

namespace {

TEST(FloatAdm, GainLimitIsTheGroupOption) {
    ASSERT_EQ(vmaf::kFloatAdmInfo.group_options.size(), 1u);
    EXPECT_EQ(vmaf::kFloatAdmInfo.group_options[0], "adm_enhn_gain_limit");
    EXPECT_EQ(vmaf::kFloatAdmInfo.create_group, nullptr);  // the CPU kind: one extractor per set
}

}  // namespace
