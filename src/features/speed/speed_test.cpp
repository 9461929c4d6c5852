// speed_chroma / speed_temporal: bit-exact against upstream's golden-full
// reports (every frame, every key), plus options and errors.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "core/feature_extractor.hpp"
#include "core/feature_name.hpp"
#include "features/speed/speed_linalg.hpp"
#include "support/extractor_run.hpp"
#include "vmaf/error.hpp"

namespace vmaf {
extern const ExtractorInfo kSpeedChromaInfo;
extern const ExtractorInfo kSpeedTemporalInfo;
}  // namespace vmaf

namespace {

using namespace vmaf;

void compare_golden(const std::string& pair) {
    SCOPED_TRACE(pair);
    const test::PairFrames p = test::load_pair(pair);
    const auto golden = test::golden_full(pair + "__features");
    ASSERT_EQ(golden.at("frames").size(), p.info.frames);
    const unsigned n = p.info.frames;
    const test::ScoreLog c = test::run_extractor(kSpeedChromaInfo, {}, p.info.geom, p.refs, p.dists);
    unsigned equal = test::expect_golden(c, 0, golden, "speed_chroma_u", n);
    equal += test::expect_golden(c, 1, golden, "speed_chroma_v", n);
    equal += test::expect_golden(c, 2, golden, "speed_chroma_uv", n);
    const test::ScoreLog t = test::run_extractor(kSpeedTemporalInfo, {}, p.info.geom, p.refs, p.dists);
    equal += test::expect_golden(t, 0, golden, "speed_temporal", n);
    std::printf("  %s__features: %u/%u speed values equal\n", pair.c_str(), equal, 4 * n);
}

TEST(SpeedGolden, P01_420_8bit) { compare_golden("p01_crf35"); }
TEST(SpeedGolden, P03_420_10bit) { compare_golden("p03_crf28"); }
TEST(SpeedGolden, P04a_444) { compare_golden("p04a_crf30"); }
TEST(SpeedGolden, P04b_422) { compare_golden("p04b_crf30"); }
TEST(SpeedGolden, P05_OddSize) { compare_golden("p05_crf30"); }

TEST(Speed, KeysAndErrors) {
    const OptionValues d(kSpeedChromaInfo.options, {}, "speed_chroma");
    EXPECT_EQ(feature_key(kSpeedChromaInfo.outputs[2], d), "speed_chroma_uv");
    const OptionValues o(kSpeedChromaInfo.options, {{"speed_prescale", "2"}, {"speed_prescale_method", "bicubic"}},
                         "speed_chroma");
    EXPECT_EQ(feature_key(kSpeedChromaInfo.outputs[0], o), "speed_chroma_u_ps_2_psm_bicubic");
    const VideoGeometry g{PixelFormat::Yuv420, 8, 576, 324};
    auto make = [&](const ExtractorInfo& info, const OptionDict& dict, const VideoGeometry& geom) {
        return info.create(OptionValues(info.options, dict, std::string(info.name)), geom, {});
    };
    EXPECT_THROW(make(kSpeedChromaInfo, {{"speed_kernelscale", "1.3"}}, g), Error);
    EXPECT_THROW(make(kSpeedChromaInfo, {{"speed_prescale_method", "area"}}, g), Error);
    EXPECT_THROW(make(kSpeedChromaInfo, {}, VideoGeometry{PixelFormat::Yuv400, 8, 576, 324}), Error);
    EXPECT_THROW(make(kSpeedTemporalInfo, {}, VideoGeometry{PixelFormat::Yuv420, 8, 64, 64}), Error);
    EXPECT_NO_THROW(make(kSpeedTemporalInfo, {{"speed_kernelscale", "2"}}, g));
}

TEST(SpeedLinalg, SolveAndEigenvalues) {
    // diag(4, 9) rotated: eigenvalues 4 and 9 (to float accuracy); A x = b with known x.
    const float a[4] = {6.5f, 2.5f, 2.5f, 6.5f};
    float eig[2];
    speed::symmetric_eigenvalues(a, eig, 2);
    EXPECT_NEAR(std::min(eig[0], eig[1]), 4.0f, 1e-5);
    EXPECT_NEAR(std::max(eig[0], eig[1]), 9.0f, 1e-5);
    const float b[2] = {6.5f + 5.0f, 2.5f + 13.0f};  // x = (1, 2)
    float x[2];
    ASSERT_TRUE(speed::solve(a, 2, b, 1, x));
    EXPECT_NEAR(x[0], 1.0f, 1e-5);
    EXPECT_NEAR(x[1], 2.0f, 1e-5);
    const float singular[4] = {1, 2, 2, 4};
    EXPECT_FALSE(speed::solve(singular, 2, b, 1, x));
}

}  // namespace
