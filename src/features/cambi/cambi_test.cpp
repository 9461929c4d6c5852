// CAMBI: bit-exact against upstream's golden-full reports, plus options and errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <vector>
#include <string>

#include "core/feature_extractor.hpp"
#include "core/feature_name.hpp"
#include "support/extractor_run.hpp"
#include "vmaf/error.hpp"

namespace vmaf {
extern const ExtractorInfo kCambiInfo;
}

namespace {

using namespace vmaf;

void compare_golden(const std::string& pair) {
    SCOPED_TRACE(pair);
    const test::PairFrames c = test::load_pair(pair);
    const auto golden = test::golden_full(pair + "__features");
    ASSERT_EQ(golden.at("frames").size(), c.info.frames);
    const test::ScoreLog r = test::run_extractor(kCambiInfo, {}, c.info.geom, c.refs, c.dists);
    const unsigned equal = test::expect_golden(r, 0, golden, "cambi", c.info.frames);
    std::printf("  %s__features: %u/%u frames of cambi equal\n", pair.c_str(), equal, c.info.frames);
}

TEST(CambiGolden, P01_420_8bit) { compare_golden("p01_crf35"); }
TEST(CambiGolden, P03_420_10bit) { compare_golden("p03_crf28"); }
TEST(CambiGolden, P04a_444) { compare_golden("p04a_crf30"); }
TEST(CambiGolden, P04b_422) { compare_golden("p04b_crf30"); }
TEST(CambiGolden, P05_OddSize) { compare_golden("p05_crf30"); }

// Suffix options in name order (upstream sorts them), as the v1.0.16 models name them.
TEST(Cambi, KeysAndSuffixes) {
    EXPECT_EQ(feature_key(kCambiInfo.outputs[0], OptionValues(kCambiInfo.options, {}, "cambi")), "cambi");
    const OptionValues o(kCambiInfo.options,
                         {{"cambi_high_res_speedup", "1080"}, {"cambi_vis_lum_threshold", "0.06"},
                          {"cambi_max_val", "17"}, {"heatmaps_path", "/tmp/x"}, {"full_ref", "true"}},
                         "cambi");
    EXPECT_EQ(feature_key(kCambiInfo.outputs[0], o), "cambi_hrs_1080_cmxv_17_vlt_0.06");
    // cambi_source / cambi_full_reference never carry the suffix (upstream names them outside its dictionary).
    ASSERT_EQ(kCambiInfo.verbatim_outputs.size(), 2u);
    EXPECT_EQ(kCambiInfo.outputs[kCambiInfo.verbatim_outputs[0]], "cambi_source");
    EXPECT_EQ(kCambiInfo.outputs[kCambiInfo.verbatim_outputs[1]], "cambi_full_reference");
}

TEST(Cambi, BadOptionsAndGeometry) {
    const VideoGeometry g{PixelFormat::Yuv420, 8, 576, 324};
    auto make = [&](const OptionDict& d, const VideoGeometry& geom) {
        return kCambiInfo.create(OptionValues(kCambiInfo.options, d, "cambi"), geom, {});
    };
    EXPECT_THROW(make({{"eotf", "hlg"}}, g), Error);
    EXPECT_THROW(make({{"window_size", "128"}}, g), Error);
    EXPECT_THROW(make({}, VideoGeometry{PixelFormat::Yuv420, 8, 200, 200}), Error);
    EXPECT_NO_THROW(make({{"eotf", "pq"}}, g));
    // Too short for the window at the last scale (14 rows, window 45): a usage
    // error, where the c-value row loop used to read before the first row.
    auto too_short = [&](const OptionDict& d, const VideoGeometry& geom) {
        try {
            make(d, geom);
        } catch (const Error& e) {
            return std::string(e.what()).find("too short") != std::string::npos;
        }
        return false;
    };
    EXPECT_TRUE(too_short({}, VideoGeometry{PixelFormat::Yuv420, 8, 3840, 216}));
    EXPECT_NO_THROW(make({{"window_size", "15"}}, VideoGeometry{PixelFormat::Yuv420, 8, 3840, 216}));
    EXPECT_TRUE(too_short({{"full_ref", "true"}, {"src_width", "3840"}, {"src_height", "216"}},
                          VideoGeometry{PixelFormat::Yuv420, 8, 3840, 2160}));
    // A 10-bit sample above 1023 is an input error, not a wrong score.
    const VideoGeometry g10{PixelFormat::Yuv420, 10, 256, 256};
    Picture p(PixelFormat::Yuv420, 10, 256, 256);
    for (unsigned pl = 0; pl < p.planes(); ++pl)
        for (unsigned y = 0; y < p.plane(pl).height; ++y)
            for (unsigned x = 0; x < p.plane(pl).width; ++x) p.plane(pl).row<std::uint16_t>(y)[x] = 512;
    auto ex = make({}, g10);
    EXPECT_NO_THROW(static_cast<const FeatureExtractor&>(*ex).compute(0, p, p));
    p.plane(0).row<std::uint16_t>(7)[9] = 1024;
    EXPECT_THROW(static_cast<const FeatureExtractor&>(*ex).compute(0, p, p), Error);
}

// Heat maps: one file per scale named after the encoding resolution halved per
// scale, frame i at i * (map size), 16-bit samples; banding shows in scale 0.
TEST(Cambi, HeatmapFiles) {
    const test::PairFrames c = test::load_pair("p01_crf35", 2);
    const std::string dir = ::testing::TempDir() + "cambi_heatmaps_test";
    std::filesystem::remove_all(dir);
    test::run_extractor(kCambiInfo, {{"heatmaps_path", dir}}, c.info.geom, c.refs, c.dists);
    unsigned w = c.info.geom.width, h = c.info.geom.height;
    for (int s = 0; s < 5; ++s) {
        const std::string path = dir + "/cambi_heatmap_scale_" + std::to_string(s) + "_" + std::to_string(w) + "x" +
                                  std::to_string(h) + "_16b.gray";
        SCOPED_TRACE(path);
        ASSERT_TRUE(std::filesystem::exists(path));
        EXPECT_EQ(std::filesystem::file_size(path), 2u * w * h * sizeof(std::uint16_t));
        if (s == 0) {
            std::vector<std::uint16_t> maps(2u * w * h);
            std::FILE* f = std::fopen(path.c_str(), "rb");
            ASSERT_NE(f, nullptr);
            ASSERT_EQ(std::fread(maps.data(), sizeof(std::uint16_t), maps.size(), f), maps.size());
            std::fclose(f);
            for (unsigned frame = 0; frame < 2; ++frame) {
                const auto first = maps.begin() + std::ptrdiff_t{frame} * w * h;
                EXPECT_TRUE(std::any_of(first, first + std::ptrdiff_t{w} * h, [](std::uint16_t v) { return v != 0; }))
                    << "frame " << frame;
            }
        }
        w = (w + 1) >> 1;
        h = (h + 1) >> 1;
    }
    std::filesystem::remove_all(dir);
}

TEST(Cambi, FlatPictureScoresZero) {
    const VideoGeometry g{PixelFormat::Yuv420, 8, 320, 240};
    Picture p(PixelFormat::Yuv420, 8, 320, 240);
    for (unsigned pl = 0; pl < p.planes(); ++pl)
        for (unsigned y = 0; y < p.plane(pl).height; ++y)
            for (unsigned x = 0; x < p.plane(pl).width; ++x) p.plane(pl).row<std::uint8_t>(y)[x] = 100;
    auto ex = kCambiInfo.create(OptionValues(kCambiInfo.options, {}, "cambi"), g, {});
    auto st = static_cast<const FeatureExtractor&>(*ex).compute(0, p, p);
    ASSERT_EQ(st->scores.size(), 1u);
    EXPECT_EQ(st->scores[0].second, 0.0);
}

}  // namespace
