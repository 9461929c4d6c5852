// xpsnr beyond FFmpeg's references (testdata/xpsnr, xpsnr_ffmpeg ctest): the
// block layout at known sizes, where the filter cannot be run (fewer than
// 2025 samples: it divides by zero), identical frames, 4:0:0, options.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "core/feature_extractor.hpp"
#include "features/xpsnr/xpsnr_scoring.hpp"
#include "support/extractor_run.hpp"
#include "vmaf/error.hpp"

namespace vmaf {
extern const ExtractorInfo kXpsnrInfo;
}

namespace {

using namespace vmaf;

Picture noise_picture(PixelFormat fmt, unsigned bpc, unsigned w, unsigned h, std::uint64_t seed) {
    Picture p(fmt, bpc, w, h);
    std::mt19937_64 rng(seed);
    for (unsigned c = 0; c < p.planes(); ++c) {
        const Plane& pl = p.plane(c);
        for (unsigned y = 0; y < pl.height; ++y)
            for (unsigned x = 0; x < pl.width; ++x) {
                const unsigned v = static_cast<unsigned>(rng() & ((1u << bpc) - 1u));
                if (bpc == 8)
                    pl.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
                else
                    pl.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v);
            }
    }
    return p;
}

TEST(Xpsnr, LayoutAtKnownSizes) {
    const struct {
        unsigned w, h, b;
        bool down, smoothing;
    } cases[] = {{576, 324, 20, false, true},   {640, 480, 24, false, true},   {641, 480, 24, false, false},
                 {1280, 720, 44, false, false}, {1920, 1080, 64, false, false}, {2048, 1152, 68, false, false},
                 {2050, 1152, 68, true, false},  {3840, 2160, 128, true, false}, {48, 44, 4, false, true},
                 {40, 30, 0, false, true}};
    for (const auto& c : cases) {
        const xpsnr::Layout l(VideoGeometry{PixelFormat::Yuv420, 8, c.w, c.h}, 25);
        EXPECT_EQ(l.b, c.b) << c.w << "x" << c.h;
        EXPECT_EQ(l.down, c.down) << c.w << "x" << c.h;
        EXPECT_EQ(l.smoothing, c.smoothing) << c.w << "x" << c.h;
        EXPECT_EQ(l.weighted, c.b >= 4);
    }
    EXPECT_EQ(xpsnr::Layout(VideoGeometry{PixelFormat::Yuv420, 8, 64, 64}, 31).order, 1u);
    EXPECT_EQ(xpsnr::Layout(VideoGeometry{PixelFormat::Yuv420, 8, 64, 64}, 32).order, 2u);
}

TEST(Xpsnr, FrameRateFromOptionInputOrDefault) {
    const OptionValues none(kXpsnrInfo.options, {}, "xpsnr");
    ExtractorContext ctx;
    EXPECT_EQ(xpsnr::frame_rate(none, ctx), 25u);  // raw video: FFmpeg's 25
    ctx.fps_num = 60000;
    ctx.fps_den = 1001;
    EXPECT_EQ(xpsnr::frame_rate(none, ctx), 59u);  // integer division, as the filter's link rate
    const OptionValues set(kXpsnrInfo.options, {{"fps", "31.9"}}, "xpsnr");
    EXPECT_EQ(xpsnr::frame_rate(set, ctx), 31u);  // the option wins
}

TEST(Xpsnr, TinyPicturesAreUnweightedPsnr) {
    // 40x30: block size 0, where FFmpeg 7.1.5's filter divides by zero; its
    // code's intent (and ours) is each plane's plain PSNR.
    const VideoGeometry g{PixelFormat::Yuv420, 10, 40, 30};
    const Picture ref = noise_picture(g.format, g.bpc, g.width, g.height, 1);
    const Picture dist = noise_picture(g.format, g.bpc, g.width, g.height, 2);
    const test::ScoreLog log = test::run_extractor(kXpsnrInfo, {}, g, {ref}, {dist});
    for (unsigned c = 0; c < 3; ++c) {
        const Plane& a = ref.plane(c);
        const Plane& b = dist.plane(c);
        std::uint64_t sse = 0;
        for (unsigned y = 0; y < a.height; ++y)
            for (unsigned x = 0; x < a.width; ++x) {
                const long e = long{a.row<std::uint16_t>(y)[x]} - long{b.row<std::uint16_t>(y)[x]};
                sse += static_cast<std::uint64_t>(e * e);
            }
        const double root = std::sqrt(static_cast<double>(sse));
        const double want = 10.0 * std::log10(static_cast<double>(std::uint64_t{a.width} * a.height * 1023 * 1023) /
                                              (root * root));
        EXPECT_EQ(log.get(0, xpsnr::kY + c), want) << "plane " << c;
    }
}

TEST(Xpsnr, IdenticalFramesAreInfinite) {
    const VideoGeometry g{PixelFormat::Yuv444, 8, 96, 64};
    const Picture p = noise_picture(g.format, g.bpc, g.width, g.height, 3);
    const test::ScoreLog log = test::run_extractor(kXpsnrInfo, {}, g, {p, p}, {p, p});
    for (unsigned f = 0; f < 2; ++f)
        for (unsigned c = 0; c < 3; ++c) EXPECT_TRUE(std::isinf(log.get(f, xpsnr::kY + c)));
    ASSERT_EQ(log.aggregates.size(), 5u);
    for (const auto& [o, v] : log.aggregates) EXPECT_TRUE(std::isinf(v) && v > 0) << o;
}

TEST(Xpsnr, GrayHasLumaOnly) {
    const VideoGeometry g{PixelFormat::Yuv400, 8, 128, 96};
    const Picture a = noise_picture(g.format, g.bpc, g.width, g.height, 4);
    const Picture b = noise_picture(g.format, g.bpc, g.width, g.height, 5);
    const test::ScoreLog log = test::run_extractor(kXpsnrInfo, {}, g, {a}, {b});
    EXPECT_TRUE(log.has(0, xpsnr::kY));
    EXPECT_FALSE(log.has(0, xpsnr::kU));
    ASSERT_EQ(log.aggregates.size(), 2u);  // average y and the minimum (= y); no weighted total
    EXPECT_EQ(log.aggregates[0].first, xpsnr::kAvgY);
    EXPECT_EQ(log.aggregates[1].first, xpsnr::kMinimum);
    EXPECT_EQ(log.aggregates[0].second, log.aggregates[1].second);
}

TEST(Xpsnr, WeightedTotalIsAv1ansFormula) {
    const VideoGeometry g{PixelFormat::Yuv420, 8, 96, 64};
    const Picture a = noise_picture(g.format, g.bpc, g.width, g.height, 6);
    const Picture b = noise_picture(g.format, g.bpc, g.width, g.height, 7);
    const test::ScoreLog log = test::run_extractor(kXpsnrInfo, {}, g, {a}, {b});
    double avg[3] = {}, weighted = 0, minimum = 0;
    for (const auto& [o, v] : log.aggregates) {
        if (o >= xpsnr::kAvgY && o <= xpsnr::kAvgV) avg[o - xpsnr::kAvgY] = v;
        if (o == xpsnr::kWeighted) weighted = v;
        if (o == xpsnr::kMinimum) minimum = v;
    }
    EXPECT_EQ(minimum, std::min(avg[0], std::min(avg[1], avg[2])));
    const double mse = (4 * std::pow(10.0, -avg[0] / 10) + std::pow(10.0, -avg[1] / 10) + std::pow(10.0, -avg[2] / 10)) / 6;
    EXPECT_EQ(weighted, -10 * std::log10(mse));
}

TEST(Xpsnr, StatsFileOptionsConflict) {
    const VideoGeometry g{PixelFormat::Yuv420, 8, 96, 64};
    const OptionValues o(kXpsnrInfo.options, {{"stats_file", "/tmp/a"}, {"f", "/tmp/b"}}, "xpsnr");
    EXPECT_THROW(kXpsnrInfo.create(o, g, ExtractorContext{}), Error);
    const OptionValues bad(kXpsnrInfo.options, {{"stats_file", "/nonexistent-dir/x.log"}}, "xpsnr");
    EXPECT_THROW(kXpsnrInfo.create(bad, g, ExtractorContext{}), Error);
    EXPECT_THROW(OptionValues(kXpsnrInfo.options, {{"fps", "-1"}}, "xpsnr"), Error);
}

}  // namespace
