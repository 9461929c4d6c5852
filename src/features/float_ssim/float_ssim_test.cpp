// float_ssim: bit-exact against upstream's golden-full features reports (the
// pairs cover automatic scales 1, 2 and 3, 8 and 10 bits, an odd size), and
// the options' arithmetic and limits.
#include <gtest/gtest.h>

#include <cmath>

#include "features/float_common/float_golden.hpp"
#include "features/ssim_common/ssim_core.hpp"
#include "vmaf/error.hpp"

namespace vmaf {
extern const ExtractorInfo kFloatSsimInfo;
}

namespace {

using namespace vmaf::floatfeat::test;
using vmaf::ExtractorInfo;
using vmaf::kFloatSsimInfo;

class FloatSsimGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(FloatSsimGolden, EveryFrameBitExact) {
    compare_float_golden(kFloatSsimInfo, GetParam(), {"float_ssim"}, "__features");
}

INSTANTIATE_TEST_SUITE_P(FloatPairs, FloatSsimGolden, ::testing::ValuesIn(kFloatGoldenPairs));

TEST(FloatSsim, AutoScaleRoundsMinSideOver256) {
    EXPECT_EQ(vmaf::ssimfeat::auto_scale(576, 324), 1);
    EXPECT_EQ(vmaf::ssimfeat::auto_scale(640, 480), 2);
    EXPECT_EQ(vmaf::ssimfeat::auto_scale(1280, 720), 3);
    EXPECT_EQ(vmaf::ssimfeat::auto_scale(1920, 1080), 4);
    EXPECT_EQ(vmaf::ssimfeat::auto_scale(3840, 2160), 8);
    EXPECT_EQ(vmaf::ssimfeat::auto_scale(100, 20), 1);
    EXPECT_EQ(vmaf::ssimfeat::auto_scale(1000, 384), 2);  // 1.5 rounds up
}

vmaf::Picture gradient(unsigned w, unsigned h, unsigned bpc, unsigned seed) {
    vmaf::Picture p(vmaf::PixelFormat::Yuv400, bpc, w, h);
    for (unsigned y = 0; y < h; ++y)
        for (unsigned x = 0; x < w; ++x) {
            const unsigned v = ((x * 7 + y * 3 + seed * (x ^ y)) % 251) << (bpc - 8);
            if (bpc == 8)
                p.plane(0).row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
            else
                p.plane(0).row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v);
        }
    return p;
}

KeyScores run(const ExtractorInfo& info, const vmaf::OptionDict& opts, unsigned w, unsigned h, unsigned bpc) {
    const vmaf::VideoGeometry g{vmaf::PixelFormat::Yuv400, bpc, w, h};
    return run_frames(info, opts, g, {gradient(w, h, bpc, 1)}, {gradient(w, h, bpc, 2)});
}

TEST(FloatSsim, OptionsLcsDbClip) {
    const auto plain = run(kFloatSsimInfo, {}, 64, 48, 8).at(0);
    ASSERT_EQ(plain.size(), 1u);
    const double ssim = plain.at("float_ssim");
    EXPECT_GT(ssim, 0.0);
    EXPECT_LT(ssim, 1.0);
    const auto lcs = run(kFloatSsimInfo, {{"enable_lcs", "true"}}, 64, 48, 8).at(0);
    ASSERT_EQ(lcs.size(), 4u);
    EXPECT_EQ(lcs.at("float_ssim"), ssim);
    for (const char* k : {"float_ssim_l", "float_ssim_c", "float_ssim_s"}) EXPECT_GT(lcs.at(k), 0.0) << k;
    const auto db = run(kFloatSsimInfo, {{"enable_db", "true"}}, 64, 48, 8).at(0);
    EXPECT_EQ(db.at("float_ssim"), -10. * std::log10(1 - ssim));
    // Identical frames: SSIM 1, dB infinite unless clipped at ceil(10 log10(255^2 * 2 * w * h)).
    const vmaf::VideoGeometry g{vmaf::PixelFormat::Yuv400, 8, 64, 48};
    const auto same = run_frames(kFloatSsimInfo, {{"enable_db", "true"}, {"clip_db", "true"}}, g,
                                 {gradient(64, 48, 8, 1)}, {gradient(64, 48, 8, 1)});
    EXPECT_EQ(same.at(0).at("float_ssim"), std::ceil(10. * std::log10(255. * 255. / (0.5 / (64 * 48)))));
}

TEST(FloatSsim, HighBitDepthsAreScaledToEightBit) {
    // The gradient is the 8-bit one shifted up: every depth sees the same float samples.
    const double s8 = run(kFloatSsimInfo, {}, 40, 30, 8).at(0).at("float_ssim");
    for (unsigned bpc : {10u, 12u, 16u}) EXPECT_EQ(run(kFloatSsimInfo, {}, 40, 30, bpc).at(0).at("float_ssim"), s8);
}

TEST(FloatSsim, TooSmallIsAnInputError) {
    const vmaf::OptionValues none(kFloatSsimInfo.options, {}, "float_ssim");
    EXPECT_THROW(kFloatSsimInfo.create(none, {vmaf::PixelFormat::Yuv400, 8, 10, 40}, {}), vmaf::Error);
    EXPECT_NO_THROW(kFloatSsimInfo.create(none, {vmaf::PixelFormat::Yuv400, 8, 11, 11}, {}));
    const vmaf::OptionValues s4(kFloatSsimInfo.options, {{"scale", "4"}}, "float_ssim");
    EXPECT_THROW(kFloatSsimInfo.create(s4, {vmaf::PixelFormat::Yuv400, 8, 40, 40}, {}), vmaf::Error);
    EXPECT_THROW(vmaf::OptionValues(kFloatSsimInfo.options, {{"scale", "11"}}, "float_ssim"), vmaf::Error);
}

}  // namespace

namespace {

// float_ssim reads the planes row by row through a small cache: equal to
// decimating the whole converted frame, at every scale and odd sizes.
TEST(FloatSsim, StreamedDecimationEqualsWholeFrame) {
    const vmaf::ssimfeat::SsimKernels k;
    for (unsigned bpc : {8u, 10u})
        for (auto [w, h] : {std::pair{127u, 101u}, std::pair{128u, 96u}, std::pair{131u, 119u}})
            for (int scale = 2; scale <= 10; ++scale) {
                if (vmaf::ssimfeat::decimated_size(w, scale) < 11 || vmaf::ssimfeat::decimated_size(h, scale) < 11)
                    continue;
                const vmaf::Picture a = gradient(w, h, bpc, 1), b = gradient(w, h, bpc, 3);
                const auto fa = vmaf::floatfeat::to_float(a.plane(0), bpc, 0);
                const auto fb = vmaf::floatfeat::to_float(b.plane(0), bpc, 0);
                const std::vector<float> box(static_cast<std::size_t>(scale * scale),
                                             1.0f / static_cast<float>(scale * scale));
                const auto want = vmaf::ssimfeat::iqa_ssim(k, vmaf::ssimfeat::decimate(k, fa, scale, box.data(), scale),
                                                           vmaf::ssimfeat::decimate(k, fb, scale, box.data(), scale));
                const auto got = vmaf::ssimfeat::float_ssim(k, a.plane(0), b.plane(0), bpc, scale);
                EXPECT_TRUE(want.ssim == got.ssim && want.l == got.l && want.c == got.c && want.s == got.s)
                    << w << "x" << h << " scale " << scale << " bpc " << bpc;
            }
}

}  // namespace
