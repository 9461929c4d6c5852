// ciede: bit-exact against upstream's golden-full features reports (4:2:0,
// 10-bit, 4:4:4, 4:2:2 and the odd-size pair), the 4:4:4 conversion's flat
// reads, the Lab memo and the input checks.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "features/ciede/ciede_frame.hpp"
#include "features/float_common/float_golden.hpp"
#include "vmaf/error.hpp"

namespace vmaf {
extern const ExtractorInfo kCiedeInfo;
}

namespace {

using namespace vmaf;

// First `frames` frames of `pair` against its __features golden.
void compare_golden(const std::string& pair, unsigned frames) {
    SCOPED_TRACE(pair);
    const test::PairFrames clip = test::load_pair(pair, frames);
    const auto ours = floatfeat::test::run_frames(kCiedeInfo, {}, clip.info.geom, clip.refs, clip.dists);
    const auto golden = test::golden_full(pair + "__features");
    for (unsigned f = 0; f < frames; ++f)
        EXPECT_EQ(ours.at(f).at("ciede2000"), test::golden_value(golden, f, "ciede2000")) << "frame " << f;
}

TEST(CiedeGolden, Yuv420) {
    compare_golden("p01_crf35", 3);
}
TEST(CiedeGolden, Yuv420TenBit) {
    compare_golden("p03_crf28", 2);
}
TEST(CiedeGolden, Yuv444) {
    compare_golden("p04a_crf30", 2);
}
TEST(CiedeGolden, Yuv422) {
    compare_golden("p04b_crf30", 2);
}
// 641x363: upstream ran on floor-chroma files and read past their last column and row.
TEST(CiedeGolden, OddSize) {
    compare_golden("p05_crf30", 2);
}

Picture ramp(PixelFormat fmt, unsigned bpc, unsigned w, unsigned h) {
    Picture p(fmt, bpc, w, h);
    for (unsigned pl = 0; pl < p.planes(); ++pl) {
        const Plane& q = p.plane(pl);
        for (unsigned y = 0; y < q.height; ++y)
            for (unsigned x = 0; x < q.width; ++x) {
                const unsigned v = 1 + pl * 100 + y * 10 + x;
                if (bpc == 8)
                    q.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
                else
                    q.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v);
            }
    }
    return p;
}

TEST(CiedeUpsample, Yuv420EvenIsNearestNeighbour) {
    const Picture p = ramp(PixelFormat::Yuv420, 8, 8, 6);
    const ciede::ChromaUpsampler up(PixelFormat::Yuv420, 8, 6);
    std::vector<std::uint16_t> row(8);
    for (unsigned i = 0; i < 6; ++i) {
        up.row(p, 2, i, row.data());
        for (unsigned j = 0; j < 8; ++j) EXPECT_EQ(row[j], p.plane(2).row<std::uint8_t>(i / 2)[j / 2]);
    }
}

TEST(CiedeUpsample, Yuv422ReadsFlatPlaneRowHalved) {
    // 4:2:2, 40 wide: upstream's chroma rows are 20 samples with a stride of
    // 32; output column j of row i reads flat position (i/2) * 32 + j.
    const Picture p = ramp(PixelFormat::Yuv422, 10, 40, 4);
    const ciede::ChromaUpsampler up(PixelFormat::Yuv422, 40, 4);
    std::vector<std::uint16_t> row(40);
    for (unsigned i = 0; i < 4; ++i) {
        up.row(p, 1, i, row.data());
        for (unsigned j = 0; j < 40; ++j) {
            const unsigned r = i / 2 + j / 32, c = j % 32;
            const unsigned want = c < 20 ? p.plane(1).row<std::uint16_t>(r)[c] : 0u;
            EXPECT_EQ(row[j], want) << i << "," << j;
        }
    }
}

TEST(CiedeUpsample, OddSizeReadsPastFloorPlane) {
    // 4:2:0 5x3: upstream's U plane is 2x1 (stride 32). Column 4 reads flat
    // position 2 (padding: 0); row 2 reads past U, into V's first row.
    const Picture p = ramp(PixelFormat::Yuv420, 8, 5, 3);
    const ciede::ChromaUpsampler up(PixelFormat::Yuv420, 5, 3);
    std::uint16_t row[5];
    up.row(p, 1, 0, row);
    EXPECT_EQ(row[0], p.plane(1).row<std::uint8_t>(0)[0]);
    EXPECT_EQ(row[3], p.plane(1).row<std::uint8_t>(0)[1]);
    EXPECT_EQ(row[4], 0);
    up.row(p, 1, 2, row);
    EXPECT_EQ(row[0], p.plane(2).row<std::uint8_t>(0)[0]);
    EXPECT_EQ(row[2], p.plane(2).row<std::uint8_t>(0)[1]);
    up.row(p, 2, 2, row);  // past V: outside upstream's allocation
    EXPECT_EQ(row[0], 0);
}

TEST(Ciede, EqualColoursDifferByZero) {
    for (unsigned y : {0u, 16u, 128u, 235u, 255u})
        for (unsigned u : {0u, 128u, 255u}) {
            const ciede::Lab c = ciede::yuv_to_lab(y, u, 255 - u, 8);
            EXPECT_EQ(ciede::delta_e2000(c, c), 0.0f);
        }
}

TEST(Ciede, MemoMatchesDirectEvaluation) {
    // Random 10-bit rows collide in the 2^16-entry memo; sums must not change.
    std::mt19937 rng(3);
    std::uniform_int_distribution<unsigned> d(0, 1023);
    const unsigned w = 4096;
    std::vector<std::uint16_t> s(6 * w);
    for (auto& v : s) v = static_cast<std::uint16_t>(d(rng));
    for (unsigned j = 0; j < w; j += 7) s[3 * w + j] = s[j], s[4 * w + j] = s[w + j], s[5 * w + j] = s[2 * w + j];
    const ciede::RowPair r{s.data(),         s.data() + w,     s.data() + 2 * w,
                           s.data() + 3 * w, s.data() + 4 * w, s.data() + 5 * w};
    double direct = 0.;
    for (unsigned j = 0; j < w; ++j)
        direct += ciede::delta_e2000(ciede::yuv_to_lab(r.ry[j], r.ru[j], r.rv[j], 10),
                                     ciede::yuv_to_lab(r.dy[j], r.du[j], r.dv[j], 10));
    ciede::LabCache cache;
    ciede::RowScratch scratch;
    const ciede::CiedeKernels k;
    EXPECT_EQ(ciede::row_sum(k, r, w, 10, cache, scratch, 0.), direct);
    EXPECT_EQ(ciede::row_sum(k, r, w, 10, cache, scratch, 0.), direct);  // warm memo
}

TEST(Ciede, RejectsWhatUpstreamRejects) {
    const OptionValues opts(kCiedeInfo.options, {}, "ciede");
    EXPECT_THROW(kCiedeInfo.create(opts, VideoGeometry{PixelFormat::Yuv400, 8, 64, 64}, {}), Error);
    EXPECT_THROW(kCiedeInfo.create(opts, VideoGeometry{PixelFormat::Yuv420, 9, 64, 64}, {}), Error);
    EXPECT_NO_THROW(kCiedeInfo.create(opts, VideoGeometry{PixelFormat::Yuv422, 16, 64, 64}, {}));
}

}  // namespace
