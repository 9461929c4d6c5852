// PSNR: bit-exact against upstream's golden-full reports, plus the options.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/feature_extractor.hpp"
#include "core/feature_name.hpp"
#include "features/psnr/psnr_kernels.hpp"
#include "support/extractor_run.hpp"

namespace vmaf {
extern const ExtractorInfo kPsnrInfo;
}

namespace {

using namespace vmaf;

constexpr unsigned kY = 0, kCb = 1, kCr = 2, kMseY = 3, kMseCb = 4, kMseCr = 5, kApsnrY = 6;

test::ScoreLog run(const OptionDict& dict, const VideoGeometry& geom, const std::vector<Picture>& refs,
                   const std::vector<Picture>& dists) {
    return test::run_extractor(kPsnrInfo, dict, geom, refs, dists);
}

/// Drops the last chroma column/row of odd sizes: the picture upstream holds
/// (chroma w>>1 x h>>1). Same samples, smaller plane extents.
void to_floor_chroma(Picture& p) {
    const ChromaShift s = chroma_shift(p.format());
    for (unsigned pl = 1; pl < p.planes(); ++pl) {
        p.plane(pl).width = p.width() >> s.x;
        p.plane(pl).height = p.height() >> s.y;
    }
}

void compare_golden(const std::string& pair, bool floor_chroma_too) {
    SCOPED_TRACE(pair);
    test::PairFrames clip = test::load_pair(pair);
    const unsigned frames = clip.info.frames;
    const auto golden = test::golden_full(pair + "__features");
    ASSERT_EQ(golden.at("frames").size(), frames);
    const char* names[] = {"psnr_y", "psnr_cb", "psnr_cr"};
    // Standard layout: luma always; chroma too unless the chroma planes differ from upstream's.
    const test::ScoreLog r = run({}, clip.info.geom, clip.refs, clip.dists);
    unsigned equal = 0;
    for (unsigned p = 0; p < (floor_chroma_too ? 1 : 3); ++p)
        equal += test::expect_golden(r, p, golden, names[p], frames);
    if (floor_chroma_too) {
        SCOPED_TRACE("floor chroma");
        for (auto& pic : clip.refs) to_floor_chroma(pic);
        for (auto& pic : clip.dists) to_floor_chroma(pic);
        const test::ScoreLog fr = run({}, clip.info.geom, clip.refs, clip.dists);
        for (unsigned p = 0; p < 3; ++p) {
            const unsigned e = test::expect_golden(fr, p, golden, names[p], frames);
            if (p) equal += e;
        }
    }
    EXPECT_EQ(equal, 3 * frames);
    std::printf("  %s__features: %u frames x psnr_y/cb/cr equal\n", pair.c_str(), frames);
}

TEST(PsnrGolden, P01_420_8bit) { compare_golden("p01_crf35", false); }
TEST(PsnrGolden, P03_420_10bit) { compare_golden("p03_crf28", false); }
TEST(PsnrGolden, P04a_444) { compare_golden("p04a_crf30", false); }
TEST(PsnrGolden, P04b_422) { compare_golden("p04b_crf30", false); }
TEST(PsnrGolden, P05_OddSize) { compare_golden("p05_crf30", true); }

TEST(Psnr, Info) {
    EXPECT_TRUE(kPsnrInfo.needs_chroma);
    EXPECT_TRUE(kPsnrInfo.temporal);
    ASSERT_EQ(kPsnrInfo.aggregate_outputs.size(), 3u);
    EXPECT_EQ(kPsnrInfo.outputs[kPsnrInfo.aggregate_outputs[0]], "apsnr_y");
    EXPECT_EQ(kPsnrInfo.outputs[kPsnrInfo.aggregate_outputs[2]], "apsnr_cr");
    EXPECT_EQ(feature_key(kPsnrInfo.outputs[kY], OptionValues(kPsnrInfo.options, {{"enable_mse", "true"}}, "psnr")),
              "psnr_y");
    EXPECT_THROW(OptionValues(kPsnrInfo.options, {{"min_sse", "-1"}}, "psnr"), std::exception);
}

// Fills every plane with `f(plane, x, y)`.
template <typename F>
Picture make(PixelFormat fmt, unsigned bpc, unsigned w, unsigned h, F f) {
    Picture p(fmt, bpc, w, h);
    for (unsigned pl = 0; pl < p.planes(); ++pl)
        for (unsigned y = 0; y < p.plane(pl).height; ++y)
            for (unsigned x = 0; x < p.plane(pl).width; ++x) {
                const unsigned v = f(pl, x, y);
                if (bpc == 8)
                    p.plane(pl).row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
                else
                    p.plane(pl).row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v);
            }
    return p;
}

TEST(Psnr, MseAndWriteOrder) {
    const VideoGeometry g{PixelFormat::Yuv420, 8, 5, 3};  // chroma 3x2 (ceil)
    const Picture a = make(g.format, 8, 5, 3, [](unsigned, unsigned, unsigned) { return 100u; });
    const Picture b = make(g.format, 8, 5, 3, [](unsigned pl, unsigned x, unsigned) { return 100u + pl + (x == 0); });
    const test::ScoreLog r = run({{"enable_mse", "true"}}, g, {a}, {b});
    // Upstream order: psnr_y, mse_y, psnr_cb, mse_cb, psnr_cr, mse_cr.
    const unsigned order[] = {kY, kMseY, kCb, kMseCb, kCr, kMseCr};
    ASSERT_EQ(r.log.size(), 6u);
    for (unsigned k = 0; k < 6; ++k) EXPECT_EQ(r.log[k].output, order[k]);
    // Luma: column 0 differs by 1 -> sse 3 over 15 samples.
    EXPECT_EQ(r.get(0, kMseY), 3.0 / 15.0);
    EXPECT_EQ(r.get(0, kY), 10. * std::log10(65025. / (3.0 / 15.0)));
    // Cb: +1 everywhere, column 0 +2 -> (2*4 + 4*1) / 6; Cr: +2, column 0 +3 -> (2*9 + 4*4) / 6.
    EXPECT_EQ(r.get(0, kMseCb), 12.0 / 6.0);
    EXPECT_EQ(r.get(0, kMseCr), 34.0 / 6.0);
    EXPECT_EQ(r.get(0, kCr), 10. * std::log10(65025. / (34.0 / 6.0)));
}

TEST(Psnr, IdenticalInputIsCapped) {
    for (unsigned bpc : {8u, 10u, 12u, 16u}) {
        const VideoGeometry g{PixelFormat::Yuv422, bpc, 7, 5};
        const Picture a = make(g.format, bpc, 7, 5, [](unsigned pl, unsigned x, unsigned y) { return pl * 3 + x * y; });
        const test::ScoreLog r = run({}, g, {a}, {a});
        for (unsigned p = 0; p < 3; ++p) EXPECT_EQ(r.get(0, p), 6.0 * bpc + 12) << bpc;
        EXPECT_TRUE(r.aggregates.empty());
    }
}

TEST(Psnr, ReducedHbdPeak) {
    const VideoGeometry g{PixelFormat::Yuv444, 10, 4, 4};
    const Picture a = make(g.format, 10, 4, 4, [](unsigned, unsigned, unsigned) { return 512u; });
    const Picture b = make(g.format, 10, 4, 4, [](unsigned, unsigned x, unsigned) { return x ? 512u : 520u; });
    const double mse = 64.0 * 4 / 16;
    EXPECT_EQ(run({}, g, {a}, {b}).get(0, kY), 10. * std::log10(1023. * 1023. / mse));
    EXPECT_EQ(run({{"reduced_hbd_peak", "true"}}, g, {a}, {b}).get(0, kY), 10. * std::log10(1020. * 1020. / mse));
    EXPECT_EQ(psnr::peak(16, true), 65280u);
    EXPECT_EQ(psnr::peak(8, true), 255u);
    EXPECT_EQ(psnr::peak(12, false), 4095u);
}

TEST(Psnr, MinSse) {
    // 4:2:0, 9x7: chroma cap uses upstream's floor sizes 4x3.
    const VideoGeometry g{PixelFormat::Yuv420, 8, 9, 7};
    const Picture a = make(g.format, 8, 9, 7, [](unsigned, unsigned x, unsigned y) { return x + 10 * y; });
    const test::ScoreLog r = run({{"min_sse", "0.5"}}, g, {a}, {a});
    EXPECT_EQ(r.get(0, kY), std::ceil(10. * std::log10(65025. / (0.5 / 63))));
    EXPECT_EQ(r.get(0, kCb), std::ceil(10. * std::log10(65025. / (0.5 / 12))));
    EXPECT_EQ(r.get(0, kCr), std::ceil(10. * std::log10(65025. / (0.5 / 12))));
    // A real error below the cap is unaffected.
    const Picture b = make(g.format, 8, 9, 7, [](unsigned, unsigned x, unsigned y) { return x + 10 * y + 1; });
    EXPECT_EQ(run({{"min_sse", "0.5"}}, g, {a}, {b}).get(0, kY), 10. * std::log10(65025. / 1.0));
}

TEST(Psnr, ApsnrAggregate) {
    const test::PairFrames pair = test::load_pair("p03_crf28", 3);  // 10-bit
    const std::vector<Picture>&refs = pair.refs, &dists = pair.dists;
    const test::ScoreLog r = run({{"enable_apsnr", "true"}}, pair.info.geom, refs, dists);
    ASSERT_EQ(r.aggregates.size(), 3u);
    for (unsigned p = 0; p < 3; ++p) {
        std::uint64_t sse = 0, n = 0;
        for (unsigned f = 0; f < 3; ++f) {
            const Plane &a = refs[f].plane(p), &b = dists[f].plane(p);
            for (unsigned y = 0; y < a.height; ++y)
                for (unsigned x = 0; x < a.width; ++x) {
                    const std::int64_t e = std::int64_t(a.row<std::uint16_t>(y)[x]) - b.row<std::uint16_t>(y)[x];
                    sse += std::uint64_t(e * e);
                }
            n += std::uint64_t(a.width) * a.height;
        }
        const double pp = 1023. * 1023.;
        const double v = 10 * (std::log10(pp) + std::log10(double(n)) - std::log10(double(sse)));
        const double cap = std::ceil(10 * std::log10(double(std::uint64_t(1023 * 1023) * n * 2)));
        EXPECT_EQ(r.aggregates[p].first, kApsnrY + p);
        EXPECT_EQ(r.aggregates[p].second, v < cap ? v : cap) << p;
        EXPECT_LT(r.aggregates[p].second, cap);
    }
}

TEST(Psnr, ApsnrIdenticalIsCappedAndChromaOff) {
    const VideoGeometry g{PixelFormat::Yuv420, 8, 6, 4};
    const Picture a = make(g.format, 8, 6, 4, [](unsigned, unsigned x, unsigned) { return x; });
    const test::ScoreLog r = run({{"enable_apsnr", "true"}}, g, {a, a}, {a, a});
    ASSERT_EQ(r.aggregates.size(), 3u);
    EXPECT_EQ(r.aggregates[0].second, std::ceil(10 * std::log10(65025.0 * 48 * 2)));
    EXPECT_EQ(r.aggregates[1].second, std::ceil(10 * std::log10(65025.0 * 12 * 2)));
    // Chroma disabled: only luma per frame; upstream still reports all three
    // aggregates, the unmeasured ones as -inf.
    const test::ScoreLog off = run({{"enable_apsnr", "true"}, {"enable_chroma", "false"}}, g, {a}, {a});
    EXPECT_EQ(off.log.size(), 1u);
    EXPECT_FALSE(off.has(0, kCb));
    ASSERT_EQ(off.aggregates.size(), 3u);
    EXPECT_EQ(off.aggregates[1].second, -std::numeric_limits<double>::infinity());
}

TEST(Psnr, Gray400AndExtremes) {
    const VideoGeometry g{PixelFormat::Yuv400, 16, 3, 2};
    const Picture a = make(g.format, 16, 3, 2, [](unsigned, unsigned, unsigned) { return 0u; });
    const Picture b = make(g.format, 16, 3, 2, [](unsigned, unsigned, unsigned) { return 65535u; });
    const test::ScoreLog r = run({{"enable_mse", "true"}}, g, {a}, {b});
    ASSERT_EQ(r.log.size(), 2u);  // psnr_y, mse_y only
    EXPECT_EQ(r.get(0, kMseY), 65535.0 * 65535.0);
    EXPECT_EQ(r.get(0, kY), 10. * std::log10(65535.0 * 65535.0 / (65535.0 * 65535.0)));
}

TEST(Psnr, TinyOddSizes) {
    std::mt19937 rng(3);
    for (unsigned bpc : {8u, 10u})
        for (auto [w, h] : {std::pair{1u, 1u}, {1u, 2u}, {3u, 1u}, {5u, 5u}}) {
            const VideoGeometry g{PixelFormat::Yuv420, bpc, w, h};
            std::uniform_int_distribution<unsigned> d(0, (1u << bpc) - 1);
            const Picture a = make(g.format, bpc, w, h, [&](unsigned, unsigned, unsigned) { return d(rng); });
            const Picture b = make(g.format, bpc, w, h, [&](unsigned, unsigned, unsigned) { return d(rng); });
            const test::ScoreLog r = run({{"enable_mse", "true"}}, g, {a}, {b});
            for (unsigned p = 0; p < 3; ++p) {
                EXPECT_TRUE(r.has(0, p));
                EXPECT_LE(r.get(0, p), 6.0 * bpc + 12);
            }
        }
}

}  // namespace
