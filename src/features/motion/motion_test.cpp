// Integer motion: bit-exact against upstream's golden-full reports, plus
// option behaviour and odd/tiny geometries.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "core/feature_extractor.hpp"
#include "core/feature_name.hpp"
#include "features/motion/motion_kernels.hpp"
#include "support/extractor_run.hpp"

namespace vmaf {
extern const ExtractorInfo kMotionInfo;
}

namespace {

using namespace vmaf;

constexpr unsigned kSad = 0, kMotion = 1, kMotion2 = 2, kMotion3 = 3;

#define EXPECT_SAME(golden, ours, what) \
    EXPECT_EQ((golden), (ours)) << (what) << ": golden " << test::g17(golden) << " ours " << test::g17(ours)

/// Runs the extractor over `frames` (each its own reference and distorted
/// picture) as test::run_frames does.
test::ScoreLog run(const OptionDict& dict, const VideoGeometry& geom, const std::vector<Picture>& frames) {
    return test::run_extractor(kMotionInfo, dict, geom, frames, frames);
}

std::string key(unsigned output, const OptionDict& dict) {
    return feature_key(kMotionInfo.outputs[output], OptionValues(kMotionInfo.options, dict, "motion"));
}

void compare_golden(const std::string& pair, const std::string& variant, const OptionDict& dict) {
    SCOPED_TRACE(pair + "__" + variant);
    const auto info = test::pair_info(pair);
    const auto golden = test::golden_full(pair + "__" + variant);
    ASSERT_EQ(golden.at("frames").size(), info.frames);
    const test::ScoreLog r = run(dict, info.geom, test::load_pair(pair).refs);
    unsigned compared = 0;
    for (unsigned f = 0; f < info.frames; ++f) {
        for (unsigned o : {kSad, kMotion2, kMotion3}) {
            const std::string k = key(o, dict);
            EXPECT_SAME(test::golden_value(golden, f, k), r.get(f, o), k + " frame " + std::to_string(f));
            ++compared;
        }
    }
    EXPECT_EQ(compared, 3 * info.frames);
    std::printf("  %s__%s: %u frames x 3 keys equal\n", pair.c_str(), variant.c_str(), info.frames);
}

TEST(Motion, KeysAndOptions) {
    EXPECT_EQ(key(kSad, {}), "VMAF_integer_feature_motion_sad_score");
    EXPECT_EQ(key(kMotion2, {}), "integer_motion2");
    EXPECT_EQ(key(kMotion3, {}), "integer_motion3");
    EXPECT_EQ(key(kMotion2, {{"motion_max_val", "18"}}), "integer_motion2_mmxv_18");
    EXPECT_EQ(key(kSad, {{"motion_max_val", "18.0"}}), "VMAF_integer_feature_motion_sad_score_mmxv_18");
    EXPECT_EQ(key(kMotion3, {{"debug", "true"}}), "integer_motion3");  // not a feature parameter
    EXPECT_EQ(key(kMotion3, {{"motion_force_zero", "true"}}), "integer_motion3_force_0");
    EXPECT_THROW(OptionValues(kMotionInfo.options, {{"motion_max_val", "10001"}}, "motion"), std::exception);
    EXPECT_THROW(OptionValues(kMotionInfo.options, {{"motion_blend_factor", "1.5"}}, "motion"), std::exception);
    EXPECT_TRUE(kMotionInfo.temporal);
}

// Every stored pair, every frame, default options vs the vmaf_v0.6.1 run.
TEST(MotionGolden, AllStoredPairsDefault) {
    const auto ids = test::stored_pair_ids();
    ASSERT_FALSE(ids.empty());
    for (const auto& id : ids) compare_golden(id, "vmaf_v0.6.1", {});
}

// vmaf_v1.0.16_3d0h sets motion_max_val=18 (suffix _mmxv_18).
TEST(MotionGolden, MaxVal18) { compare_golden("p01_crf35", "vmaf_v1.0.16_3d0h", {{"motion_max_val", "18.0"}}); }

// Writes: the SAD score of frame i in finish(i); motion2/motion3 of frame i
// once frame i+1 is finished (or at flush for the last frame).
TEST(Motion, WriteTiming) {
    const test::PairFrames clip = test::load_pair("p01_crf35", 4);
    const test::PairInfo& info = clip.info;
    const std::vector<Picture>& frames = clip.refs;
    auto ex = kMotionInfo.create(OptionValues(kMotionInfo.options, {}, "motion"), info.geom, {});
    test::ScoreLog r;
    for (unsigned i = 0; i < 4; ++i) {
        auto st = ex->compute(i, frames[i], frames[i]);
        const std::size_t before = r.log.size();
        ex->finish(i, *st, r);
        ASSERT_GE(r.log.size(), before + 1);
        EXPECT_EQ(r.log[before].frame, i);
        EXPECT_EQ(r.log[before].output, kSad);
        if (i == 0) {
            EXPECT_EQ(r.log.size(), before + 1);
        } else {
            ASSERT_EQ(r.log.size(), before + 3);
            EXPECT_EQ(r.log[before + 1].frame, i - 1);
            EXPECT_EQ(r.log[before + 1].output, kMotion2);
            EXPECT_EQ(r.log[before + 2].frame, i - 1);
            EXPECT_EQ(r.log[before + 2].output, kMotion3);
        }
    }
    const std::size_t before = r.log.size();
    ex->flush(r);
    ASSERT_EQ(r.log.size(), before + 2);
    EXPECT_EQ(r.log[before].frame, 3u);
    EXPECT_EQ(r.log[before].output, kMotion2);
}

TEST(Motion, ForceZero) {
    const test::PairFrames clip = test::load_pair("p01_crf35", 6);
    const test::PairInfo& info = clip.info;
    const std::vector<Picture>& frames = clip.refs;
    const test::ScoreLog r = run({{"motion_force_zero", "true"}}, info.geom, frames);
    for (unsigned f = 0; f < 6; ++f)
        for (unsigned o : {kSad, kMotion2, kMotion3}) EXPECT_EQ(r.get(f, o), 0.0) << f << " " << o;
    EXPECT_EQ(r.log.size(), 18u);
}

TEST(Motion, SingleFrame) {
    const auto info = test::pair_info("p01_crf35");
    const test::ScoreLog r = run({}, info.geom, {test::load_raw_frame(test::clip_path(info.ref), info.geom, 0)});
    ASSERT_EQ(r.log.size(), 3u);
    EXPECT_EQ(r.get(0, kSad), 0.0);
    EXPECT_EQ(r.get(0, kMotion2), 0.0);
    EXPECT_EQ(r.get(0, kMotion3), 0.0);
}

TEST(Motion, DebugWritesMotionScore) {
    const auto info = test::pair_info("p01_crf35");
    const std::string path = test::clip_path(info.ref);
    const test::ScoreLog r = run({{"debug", "true"}}, info.geom,
                                 {test::load_raw_frame(path, info.geom, 0), test::load_raw_frame(path, info.geom, 1)});
    EXPECT_EQ(r.get(1, kMotion), r.get(1, kSad));
    EXPECT_EQ(r.log[1].output, kMotion);  // right after the SAD of frame 0
}

// Upstream's motion2/motion3 from a list of SAD scores (test oracle, written
// out plainly from upstream's flush loop).
void oracle(const std::vector<double>& sad, bool five, bool mma, double mbf, double mbo, double mmxv,
            std::vector<double>& m2, std::vector<double>& m3) {
    const unsigned n = static_cast<unsigned>(sad.size()), stride = five ? 2 : 1, min_idx = five ? 2 : 1;
    auto bl = [&](double s) { return s * mbf + (1 - mbf) * (mbo < s ? mbo : s); };
    auto mn = [](double a, double b) { return a < b ? a : b; };
    double stamp = n > min_idx ? mn(bl(sad[min_idx]), mmxv) : 0.;
    double prev = 0.;
    m2.assign(n, 0);
    m3.assign(n, 0);
    for (unsigned i = 0; i < n; ++i) {
        if (i < min_idx) {
            m2[i] = 0;
            m3[i] = stamp;
            prev = stamp;
            continue;
        }
        const int lo = int(i) - int(stride - 1);
        const unsigned hi = i + 1;
        if (hi >= n)
            m2[i] = sad[i];
        else if (lo >= int(min_idx))
            m2[i] = mn(sad[lo], sad[hi]);
        else
            m2[i] = sad[hi];
        const double p = mn(bl(m2[i]), mmxv);
        m3[i] = mma ? (p + prev) / 2.0 : p;
        prev = p;
    }
}

TEST(Motion, TemporalOptionsMatchOracle) {
    const test::PairFrames clip = test::load_pair("p01_crf35", 7);
    const test::PairInfo& info = clip.info;
    const std::vector<Picture>& frames = clip.refs;
    for (bool five : {false, true})
        for (bool mma : {false, true})
            for (unsigned nframes : {1u, 2u, 3u, 4u, 7u}) {
                SCOPED_TRACE("five=" + std::to_string(five) + " mma=" + std::to_string(mma) +
                             " n=" + std::to_string(nframes));
                const OptionDict dict = {{"motion_five_frame_window", five ? "true" : "false"},
                                         {"motion_moving_average", mma ? "true" : "false"},
                                         {"motion_blend_factor", "0.5"},
                                         {"motion_blend_offset", "2.1"},
                                         {"motion_max_val", "2.3"},
                                         {"motion_fps_weight", "1.5"}};
                const test::ScoreLog r = run(dict, info.geom, {frames.begin(), frames.begin() + nframes});
                std::vector<double> sad, m2, m3;
                for (unsigned f = 0; f < nframes; ++f) sad.push_back(r.get(f, kSad));
                for (unsigned f = 0; f < (five ? 2u : 1u) && f < nframes; ++f) EXPECT_EQ(sad[f], 0.0);
                for (unsigned f = five ? 2 : 1; f < nframes; ++f) EXPECT_GT(sad[f], 0.0);
                oracle(sad, five, mma, 0.5, 2.1, 2.3, m2, m3);
                for (unsigned f = 0; f < nframes; ++f) {
                    EXPECT_EQ(r.get(f, kMotion2), m2[f]) << f;
                    EXPECT_EQ(r.get(f, kMotion3), m3[f]) << f;
                }
            }
}

// Upstream's fused pipeline, literally (diff, vertical pass with rounding,
// horizontal pass, per-row uint32 sums), with reflect() for the borders.
std::uint64_t fused_sad(const Picture& a, const Picture& b) {
    const Plane &pa = a.plane(0), &pb = b.plane(0);
    const int w = int(pa.width), h = int(pa.height), bpc = int(a.bpc());
    auto px = [&](const Plane& p, int y, int x) -> std::int64_t {
        return bpc == 8 ? p.row<const std::uint8_t>(unsigned(y))[x] : p.row<const std::uint16_t>(unsigned(y))[x];
    };
    std::vector<std::int32_t> t(static_cast<std::size_t>(w));
    std::uint64_t sad = 0;
    for (int i = 0; i < h; ++i) {
        for (int j = 0; j < w; ++j) {
            std::int64_t acc = 0;
            for (int k = 0; k < 5; ++k) {
                const int r = motion::reflect(i - 2 + k, h);
                acc += std::int64_t(motion::kFilter[k]) * (px(pa, r, j) - px(pb, r, j));
            }
            t[std::size_t(j)] = std::int32_t((acc + (std::int64_t(1) << (bpc - 1))) >> bpc);
        }
        std::uint32_t row = 0;
        for (int j = 0; j < w; ++j) {
            std::int64_t acc = 0;
            for (int k = 0; k < 5; ++k) acc += std::int64_t(motion::kFilter[k]) * t[std::size_t(motion::reflect(j - 2 + k, w))];
            row += std::uint32_t(std::abs(std::int32_t((acc + 32768) >> 16)));
        }
        sad += row;
    }
    return sad;
}

Picture random_picture(std::mt19937& rng, unsigned bpc, unsigned w, unsigned h, bool extreme) {
    Picture p(PixelFormat::Yuv420, bpc, w, h);
    const unsigned maxv = (1u << bpc) - 1;
    std::uniform_int_distribution<unsigned> d(0, maxv), coin(0, 1);
    for (unsigned pl = 0; pl < p.planes(); ++pl)
        for (unsigned y = 0; y < p.plane(pl).height; ++y)
            for (unsigned x = 0; x < p.plane(pl).width; ++x) {
                const unsigned v = extreme ? (coin(rng) ? maxv : 0) : d(rng);
                if (bpc == 8)
                    p.plane(pl).row<std::uint8_t>(y)[x] = std::uint8_t(v);
                else
                    p.plane(pl).row<std::uint16_t>(y)[x] = std::uint16_t(v);
            }
    return p;
}

// The split (per-frame vertical sums, ordered difference stage) equals the
// fused pipeline for every depth, including sizes down to 1x1 and extreme values.
TEST(Motion, SplitEqualsFusedAllDepthsAndSizes) {
    std::mt19937 rng(7);
    const std::pair<unsigned, unsigned> sizes[] = {{1, 1}, {2, 1}, {1, 2}, {2, 2}, {3, 3}, {1, 7}, {7, 1},
                                                   {4, 5}, {5, 4}, {17, 9}, {33, 31}, {64, 3}};
    for (unsigned bpc : {8u, 10u, 12u, 16u})
        for (auto [w, h] : sizes)
            for (bool extreme : {false, true}) {
                SCOPED_TRACE(std::to_string(bpc) + "-bit " + std::to_string(w) + "x" + std::to_string(h));
                const VideoGeometry geom{PixelFormat::Yuv420, bpc, w, h};
                std::vector<Picture> frames;
                for (int i = 0; i < 3; ++i) frames.push_back(random_picture(rng, bpc, w, h, extreme));
                const test::ScoreLog r = run({}, geom, frames);
                for (unsigned f = 1; f < 3; ++f) {
                    const double expect = motion::sad_to_score(fused_sad(frames[f - 1], frames[f]), w, h, 1.0, 10000.0);
                    EXPECT_EQ(r.get(f, kSad), expect) << f;
                }
            }
}

TEST(Motion, Reflect) {
    EXPECT_EQ(motion::reflect(-1, 10), 1);
    EXPECT_EQ(motion::reflect(-2, 10), 2);
    EXPECT_EQ(motion::reflect(10, 10), 8);
    EXPECT_EQ(motion::reflect(11, 10), 7);
    EXPECT_EQ(motion::reflect(4, 3), 0);
    for (int size = 1; size < 5; ++size)
        for (int i = -2; i < size + 2; ++i) {
            const int r = motion::reflect(i, size);
            EXPECT_GE(r, 0);
            EXPECT_LT(r, size);
        }
}

}  // namespace
