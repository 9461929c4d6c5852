// float_ms_ssim: bit-exact against upstream's golden-full features reports,
// the per-scale keys, and upstream's minimum size as a clear error.
#include <gtest/gtest.h>

#include <cmath>

#include "features/float_common/float_golden.hpp"
#include "features/ssim_common/ssim_core.hpp"
#include "vmaf/error.hpp"

namespace vmaf {
extern const ExtractorInfo kFloatMsSsimInfo;
}

namespace {

using namespace vmaf::floatfeat::test;
using vmaf::kFloatMsSsimInfo;

class FloatMsSsimGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(FloatMsSsimGolden, EveryFrameBitExact) {
    compare_float_golden(kFloatMsSsimInfo, GetParam(), {"float_ms_ssim"}, "__features");
}

INSTANTIATE_TEST_SUITE_P(FloatPairs, FloatMsSsimGolden, ::testing::ValuesIn(kFloatGoldenPairs));

/// A smooth texture; seed > 1 adds a small deterministic noise (a mild distortion).
vmaf::Picture pattern(unsigned w, unsigned h, unsigned seed) {
    vmaf::Picture p(vmaf::PixelFormat::Yuv400, 8, w, h);
    for (unsigned y = 0; y < h; ++y)
        for (unsigned x = 0; x < w; ++x) {
            const double v = 128 + 60 * std::sin(x * 0.11) * std::cos(y * 0.07) + 30 * std::sin((x + 2 * y) * 0.5);
            const int noise = seed > 1 ? static_cast<int>((x * 31 + y * 17 + x * y) % 9) - 4 : 0;
            p.plane(0).row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(static_cast<int>(v) + noise);
        }
    return p;
}

TEST(FloatMsSsim, LcsKeysPerScaleAndDb) {
    const vmaf::VideoGeometry g{vmaf::PixelFormat::Yuv400, 8, 177, 176};
    const auto plain = run_frames(kFloatMsSsimInfo, {}, g, {pattern(177, 176, 1)}, {pattern(177, 176, 2)}).at(0);
    ASSERT_EQ(plain.size(), 1u);
    const double ms = plain.at("float_ms_ssim");
    EXPECT_GT(ms, 0.5);
    EXPECT_LT(ms, 1.0);
    const auto lcs = run_frames(kFloatMsSsimInfo, {{"enable_lcs", "true"}, {"enable_db", "true"}}, g,
                                {pattern(177, 176, 1)}, {pattern(177, 176, 2)})
                         .at(0);
    ASSERT_EQ(lcs.size(), 16u);
    EXPECT_EQ(lcs.at("float_ms_ssim"), -10. * std::log10(1 - ms));
    // The score is the product of the weighted per-scale terms (Wang's exponents).
    const double beta[5] = {0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f};
    double prod = 1.0;
    for (int i = 0; i < 5; ++i) {
        const std::string n = std::to_string(i);
        prod *= std::pow(lcs.at("float_ms_ssim_l_scale" + n), i == 4 ? static_cast<double>(0.1333f) : 0.0) *
                std::pow(lcs.at("float_ms_ssim_c_scale" + n), beta[i]) *
                std::pow(lcs.at("float_ms_ssim_s_scale" + n), beta[i]);
    }
    EXPECT_EQ(prod, ms);
}

TEST(FloatMsSsim, BelowUpstreamMinimumSizeIsAnInputError) {
    const vmaf::OptionValues none(kFloatMsSsimInfo.options, {}, "float_ms_ssim");
    EXPECT_THROW(kFloatMsSsimInfo.create(none, {vmaf::PixelFormat::Yuv400, 8, 175, 400}, {}), vmaf::Error);
    EXPECT_THROW(kFloatMsSsimInfo.create(none, {vmaf::PixelFormat::Yuv400, 8, 400, 175}, {}), vmaf::Error);
    EXPECT_NO_THROW(kFloatMsSsimInfo.create(none, {vmaf::PixelFormat::Yuv400, 8, 176, 176}, {}));
}

}  // namespace
