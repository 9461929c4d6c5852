#include "core/options.hpp"

#include <gtest/gtest.h>

#include "core/feature_name.hpp"
#include "vmaf/error.hpp"

namespace vmaf {
namespace {

const OptionSpec kSpecs[] = {
    {"debug", "", OptType::Bool, false, 0, 0, false, ""},
    {"zeta_gain", "zg", OptType::Double, 100.0, 1.0, 100.0, true, ""},
    {"alpha_height", "ah", OptType::Int, 1080, 1, 4320, true, ""},
    {"flag", "fl", OptType::Bool, false, 0, 0, true, ""},
    {"mode", "", OptType::String, std::string("a"), 0, 0, false, ""},
};

TEST(Options, DefaultsAndNoSuffix) {
    OptionValues v(kSpecs, {}, "t");
    EXPECT_FALSE(v.b(0));
    EXPECT_EQ(v.d(1), 100.0);
    EXPECT_EQ(v.i(2), 1080);
    EXPECT_EQ(v.key_suffix(), "");
    EXPECT_EQ(feature_key("VMAF_integer_feature_adm2_score", v), "integer_adm2");
    EXPECT_EQ(feature_key("VMAF_integer_feature_motion_sad_score", v), "VMAF_integer_feature_motion_sad_score");
}

TEST(Options, SuffixSortedByNameWithAliases) {
    OptionValues v(kSpecs, {{"zeta_gain", "1.0"}, {"alpha_height", "2160"}, {"flag", "true"}, {"debug", "true"}}, "t");
    // sorted by option name: alpha_height, flag, zeta_gain; debug is not a feature parameter
    EXPECT_EQ(v.key_suffix(), "_ah_2160_fl_zg_1");
    EXPECT_EQ(feature_key("VMAF_integer_feature_adm2_score", v), "integer_adm2_ah_2160_fl_zg_1");
}

TEST(Options, DoubleSuffixUsesShortestG) {
    OptionValues v(kSpecs, {{"zeta_gain", "1.5000"}}, "t");
    EXPECT_EQ(v.key_suffix(), "_zg_1.5");
}

TEST(Options, ExplicitDefaultGivesNoSuffix) {
    OptionValues v(kSpecs, {{"zeta_gain", "100"}}, "t");
    EXPECT_EQ(v.key_suffix(), "");
}

TEST(Options, Errors) {
    EXPECT_THROW(OptionValues(kSpecs, {{"nosuch", "1"}}, "t"), Error);
    EXPECT_THROW(OptionValues(kSpecs, {{"zeta_gain", "abc"}}, "t"), Error);
    EXPECT_THROW(OptionValues(kSpecs, {{"zeta_gain", "0.5"}}, "t"), Error);
    EXPECT_THROW(OptionValues(kSpecs, {{"alpha_height", "1.5"}}, "t"), Error);
    EXPECT_THROW(OptionValues(kSpecs, {{"flag", "maybe"}}, "t"), Error);
    try {
        OptionValues(kSpecs, {{"nosuch", "1"}}, "psnr");
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()), "psnr: unknown option 'nosuch'");
        EXPECT_EQ(e.kind(), ErrorKind::Usage);
    }
}

TEST(Options, IdentityDistinguishesValues) {
    OptionValues a(kSpecs, {}, "t"), b(kSpecs, {{"zeta_gain", "100"}}, "t"), c(kSpecs, {{"zeta_gain", "99.9999999"}}, "t");
    EXPECT_EQ(a.identity(), b.identity());
    EXPECT_NE(a.identity(), c.identity());
}

}  // namespace
}  // namespace vmaf
