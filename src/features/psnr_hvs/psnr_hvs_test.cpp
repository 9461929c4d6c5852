// psnr_hvs: bit-exact against upstream's golden-full features reports (4:2:0,
// 10-bit, 4:4:4, 4:2:2, odd size), the block grid and the input checks.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "features/float_common/float_golden.hpp"
#include "features/psnr_hvs/psnr_hvs_kernels.hpp"
#include "vmaf/error.hpp"

namespace vmaf {
extern const ExtractorInfo kPsnrHvsInfo;
}

namespace {

using namespace vmaf;

void compare_golden(const std::string& pair, unsigned frames) {
    SCOPED_TRACE(pair);
    const test::PairFrames clip = test::load_pair(pair, frames);
    const auto ours = floatfeat::test::run_frames(kPsnrHvsInfo, {}, clip.info.geom, clip.refs, clip.dists);
    const auto golden = test::golden_full(pair + "__features");
    for (unsigned f = 0; f < frames; ++f)
        for (const char* key : {"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"})
            EXPECT_EQ(ours.at(f).at(key), test::golden_value(golden, f, key)) << key << " frame " << f;
}

TEST(PsnrHvsGolden, Yuv420) {
    compare_golden("p01_crf35", 4);
}
TEST(PsnrHvsGolden, Yuv420TenBit) {
    compare_golden("p03_crf28", 3);
}
TEST(PsnrHvsGolden, Yuv444) {
    compare_golden("p04a_crf30", 3);
}
TEST(PsnrHvsGolden, Yuv422) {
    compare_golden("p04b_crf30", 3);
}
// 641x363: upstream's floor-sized chroma gives the same blocks as ours.
TEST(PsnrHvsGolden, OddSize) {
    compare_golden("p05_crf30", 3);
}

TEST(PsnrHvs, BlockGrid) {
    EXPECT_EQ(psnr_hvs::block_count(7), 0u);
    EXPECT_EQ(psnr_hvs::block_count(8), 1u);
    EXPECT_EQ(psnr_hvs::block_count(14), 1u);
    EXPECT_EQ(psnr_hvs::block_count(15), 2u);
    EXPECT_EQ(psnr_hvs::block_count(1920), 274u);  // x = 0, 7, ..., 1911
}

TEST(PsnrHvs, DctOfFlatBlockIsDcOnly) {
    std::int32_t b[64];
    for (auto& v : b) v = 100;
    psnr_hvs::fdct8x8(b);
    EXPECT_EQ(b[0], 800);  // orthonormal 2-D DC: 8 * mean
    for (unsigned k = 1; k < 64; ++k) EXPECT_EQ(b[k], 0) << k;
}

TEST(PsnrHvs, RejectsWhatUpstreamRejects) {
    const OptionValues opts(kPsnrHvsInfo.options, {}, "psnr_hvs");
    EXPECT_THROW(kPsnrHvsInfo.create(opts, VideoGeometry{PixelFormat::Yuv420, 16, 64, 64}, {}), Error);
    EXPECT_THROW(kPsnrHvsInfo.create(opts, VideoGeometry{PixelFormat::Yuv400, 8, 64, 64}, {}), Error);
    EXPECT_NO_THROW(kPsnrHvsInfo.create(opts, VideoGeometry{PixelFormat::Yuv422, 12, 64, 64}, {}));
}

}  // namespace
