// float_psnr: bit-exact against upstream's golden-full features_float reports.
#include "features/float_psnr/float_psnr.hpp"

#include <gtest/gtest.h>

#include <random>

#include "features/float_common/float_golden.hpp"
#include "features/psnr/psnr_kernels.hpp"

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

namespace {

// The integer-sum path equals upstream's float loop (kept as the reference) on
// random and extreme planes of every depth it serves.
TEST(FloatPsnr, ExactSumPathEqualsFloatLoop) {
    std::mt19937 rng(7);
    for (unsigned bpc : {8u, 10u, 12u})
        for (unsigned w : {1u, 17u, 1920u})
            for (int mode = 0; mode < 3; ++mode) {
                const unsigned h = 9, maxv = (1u << bpc) - 1;
                vmaf::Picture a(vmaf::PixelFormat::Yuv400, bpc, w, h), b(vmaf::PixelFormat::Yuv400, bpc, w, h);
                std::uniform_int_distribution<unsigned> u(0, maxv);
                for (unsigned y = 0; y < h; ++y)
                    for (unsigned x = 0; x < w; ++x) {
                        const unsigned va = mode == 1 ? maxv : u(rng), vb = mode == 1 ? 0 : mode == 2 ? va : u(rng);
                        if (bpc == 8) {
                            a.plane(0).row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(va);
                            b.plane(0).row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(vb);
                        } else {
                            a.plane(0).row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(va);
                            b.plane(0).row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(vb);
                        }
                    }
                const double peak = bpc == 8 ? 255.0 : bpc == 10 ? 255.75 : 255.9375;
                const double cap = 6.0 * bpc + 12;
                const float sc = bpc == 8 ? 1.0f : bpc == 10 ? 4.0f : 16.0f;
                const double loop =
                    bpc == 8 ? vmaf::floatfeat::float_psnr<std::uint8_t>(a.plane(0), b.plane(0), sc, peak, cap)
                             : vmaf::floatfeat::float_psnr<std::uint16_t>(a.plane(0), b.plane(0), sc, peak, cap);
                const double sum = vmaf::floatfeat::float_psnr_exact_sum(vmaf::psnr::sse(a.plane(0), b.plane(0), bpc),
                                                                         bpc, w, h, peak, cap);
                EXPECT_EQ(loop, sum) << bpc << " " << w << " " << mode;
            }
}

}  // namespace
