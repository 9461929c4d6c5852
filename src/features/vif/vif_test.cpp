// Integer VIF: bit-exact comparison with upstream's golden-full values on
// every stored pair, plus unit tests of edge cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/feature_extractor.hpp"
#include "core/options.hpp"
#include "features/vif/vif_kernels.hpp"
#include "support/extractor_run.hpp"
#include "support/testdata.hpp"
#include "vmaf/error.hpp"
#include "vmaf/picture.hpp"

namespace vmaf {
extern const ExtractorInfo kVifInfo;
}

namespace {

using vmaf::kVifInfo;
using vmaf::OptionDict;
using vmaf::OptionValues;
using vmaf::Picture;
using vmaf::PixelFormat;
using vmaf::VideoGeometry;

/// Collects (output index -> value) of the frames written.
class MapWriter : public vmaf::ScoreWriter {
public:
    void write(unsigned frame, unsigned output, double value) override { scores[frame][output] = value; }
    void write_aggregate(unsigned, double) override { ADD_FAILURE() << "vif writes no aggregate"; }
    std::map<unsigned, std::map<unsigned, double>> scores;
};

struct Runner {
    OptionValues opts;
    std::unique_ptr<vmaf::FeatureExtractor> fex;
    MapWriter out;

    Runner(const OptionDict& dict, const VideoGeometry& geom)
        : opts(kVifInfo.options, dict, "vif"), fex(kVifInfo.create(opts, geom, {})) {}

    const std::map<unsigned, double>& run(unsigned index, const Picture& ref, const Picture& dist) {
        auto state = fex->compute(index, ref, dist);
        fex->finish(index, *state, out);
        return out.scores.at(index);
    }
};

std::string fmt17(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

/// Compares the four scale scores of every frame of `pair` with `golden_stem`'s
/// keys integer_vif_scaleN<suffix>. Returns the number of frames compared.
unsigned compare_pair(const std::string& pair, const std::string& golden_stem, const OptionDict& dict,
                      const std::string& suffix) {
    const auto info = vmaf::test::pair_info(pair);
    const auto golden = vmaf::test::golden_full(golden_stem);
    const auto ref_path = vmaf::test::clip_path(info.ref);
    const auto dist_path = vmaf::test::clip_path(info.dist);
    Runner r(dict, info.geom);
    EXPECT_EQ(r.opts.key_suffix(), suffix);

    unsigned compared = 0;
    for (unsigned f = 0; f < info.frames; ++f) {
        const Picture ref = vmaf::test::load_raw_frame(ref_path, info.geom, f);
        const Picture dist = vmaf::test::load_raw_frame(dist_path, info.geom, f);
        const auto& got = r.run(f, ref, dist);
        EXPECT_EQ(got.size(), 4u);
        for (unsigned s = 0; s < 4; ++s) {
            const std::string key = "integer_vif_scale" + std::to_string(s) + suffix;
            const double want = vmaf::test::golden_value(golden, f, key);
            const double have = got.at(s);
            EXPECT_EQ(have, want) << pair << " frame " << f << " " << key << ": got " << fmt17(have) << " want "
                                  << fmt17(want);
        }
        ++compared;
    }
    return compared;
}

class VifGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(VifGolden, DefaultModelScalesBitExact) {
    const std::string pair = GetParam();
    const unsigned n = compare_pair(pair, pair + "__vmaf_v0.6.1", {}, "");
    EXPECT_GT(n, 0u);
    std::printf("[ vif ] %s: %u frames x 4 scales compared\n", pair.c_str(), n);
}

INSTANTIATE_TEST_SUITE_P(StoredPairs, VifGolden, ::testing::ValuesIn(vmaf::test::stored_pair_ids()),
                         [](const auto& p) { return p.param; });

TEST(VifGoldenOptions, EnhnGainLimitOneBitExact) {
    const unsigned n =
        compare_pair("p01_crf35", "p01_crf35__vmaf_v0.6.1neg", {{"vif_enhn_gain_limit", "1.0"}}, "_egl_1");
    EXPECT_GT(n, 0u);
}

// ---------------------------------------------------------------------------
// Unit tests on synthetic pictures.

Picture make_picture(unsigned bpc, unsigned w, unsigned h, const std::vector<std::uint32_t>& samples) {
    Picture pic(PixelFormat::Yuv400, bpc, w, h);
    const auto& p = pic.plane(0);
    for (unsigned y = 0; y < h; ++y)
        for (unsigned x = 0; x < w; ++x) {
            const std::uint32_t v = samples[static_cast<std::size_t>(y) * w + x];
            if (bpc == 8)
                p.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
            else
                p.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v);
        }
    return pic;
}

std::vector<std::uint32_t> noise(unsigned w, unsigned h, std::uint32_t max, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<std::uint32_t> dist(0, max);
    std::vector<std::uint32_t> v(static_cast<std::size_t>(w) * h);
    for (auto& x : v) x = dist(rng);
    return v;
}

/// A smooth ramp plus noise, so that both statistic branches are exercised.
std::vector<std::uint32_t> textured(unsigned w, unsigned h, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> dist(-20, 20);
    std::vector<std::uint32_t> v(static_cast<std::size_t>(w) * h);
    for (unsigned y = 0; y < h; ++y)
        for (unsigned x = 0; x < w; ++x) {
            int s = static_cast<int>((x * 7 + y * 3) % 200) + 20 + ((x / 8 + y / 8) % 2 ? dist(rng) : 0);
            v[static_cast<std::size_t>(y) * w + x] = static_cast<std::uint32_t>(std::clamp(s, 0, 255));
        }
    return v;
}

std::map<unsigned, double> run_once(unsigned bpc, unsigned w, unsigned h, const std::vector<std::uint32_t>& a,
                                    const std::vector<std::uint32_t>& b, const OptionDict& dict = {}) {
    const VideoGeometry geom{PixelFormat::Yuv400, bpc, w, h};
    Runner r(dict, geom);
    return r.run(0, make_picture(bpc, w, h, a), make_picture(bpc, w, h, b));
}

TEST(VifUnit, OptionsMatchUpstream) {
    ASSERT_EQ(kVifInfo.name, "vif");
    ASSERT_EQ(kVifInfo.options.size(), 3u);
    EXPECT_EQ(kVifInfo.options[0].name, "debug");
    EXPECT_FALSE(kVifInfo.options[0].feature_param);
    EXPECT_EQ(kVifInfo.options[1].name, "vif_enhn_gain_limit");
    EXPECT_EQ(kVifInfo.options[1].alias, "egl");
    EXPECT_TRUE(kVifInfo.options[1].feature_param);
    EXPECT_EQ(kVifInfo.options[2].name, "vif_skip_scale0");
    EXPECT_EQ(kVifInfo.options[2].alias, "ssclz");
    EXPECT_TRUE(kVifInfo.options[2].feature_param);
    EXPECT_FALSE(kVifInfo.needs_chroma);
    EXPECT_THROW(OptionValues(kVifInfo.options, {{"vif_enhn_gain_limit", "0.5"}}, "vif"), vmaf::Error);
    EXPECT_THROW(OptionValues(kVifInfo.options, {{"vif_enhn_gain_limit", "100.5"}}, "vif"), vmaf::Error);
    EXPECT_EQ(OptionValues(kVifInfo.options, {{"vif_skip_scale0", "true"}}, "vif").key_suffix(), "_ssclz");
}

TEST(VifUnit, IdenticalPicturesScoreNearOne) {
    const unsigned w = 64, h = 48;
    const auto img = textured(w, h, 1);
    const auto s = run_once(8, w, h, img, img);
    for (unsigned k = 0; k < 4; ++k) {
        EXPECT_NEAR(s.at(k), 1.0, 1e-5) << "scale " << k;
        EXPECT_LE(s.at(k), 1.0) << "scale " << k;
    }
}

TEST(VifUnit, DistortionLowersScore) {
    const unsigned w = 64, h = 48;
    const auto img = textured(w, h, 1);
    auto blurred = img;
    for (unsigned y = 0; y < h; ++y)
        for (unsigned x = 1; x + 1 < w; ++x) {
            const std::size_t i = static_cast<std::size_t>(y) * w + x;
            blurred[i] = (img[i - 1] + 2 * img[i] + img[i + 1] + 2) / 4;
        }
    const auto s = run_once(8, w, h, img, blurred);
    EXPECT_LT(s.at(0), 0.99);
}

TEST(VifUnit, ConstantMaxValueScoresOneAtEveryDepth) {
    for (unsigned bpc : {8u, 10u, 12u, 16u}) {
        const unsigned w = 40, h = 24;
        const std::vector<std::uint32_t> img(static_cast<std::size_t>(w) * h, (1u << bpc) - 1);
        const auto s = run_once(bpc, w, h, img, img);
        for (unsigned k = 0; k < 4; ++k) EXPECT_EQ(s.at(k), 1.0) << bpc << "-bit scale " << k;
    }
}

TEST(VifUnit, ExtremeContrastIsFiniteAtEveryDepth) {
    for (unsigned bpc : {8u, 10u, 12u, 16u}) {
        const unsigned w = 48, h = 32;
        const std::uint32_t max = (1u << bpc) - 1;
        std::vector<std::uint32_t> checker(static_cast<std::size_t>(w) * h), inverse(checker.size());
        for (unsigned y = 0; y < h; ++y)
            for (unsigned x = 0; x < w; ++x) {
                checker[static_cast<std::size_t>(y) * w + x] = ((x / 3 + y / 2) % 2) ? max : 0;
                inverse[static_cast<std::size_t>(y) * w + x] = max - checker[static_cast<std::size_t>(y) * w + x];
            }
        for (const auto* dist : {&checker, &inverse}) {
            const auto s = run_once(bpc, w, h, checker, *dist, {{"debug", "true"}});
            ASSERT_EQ(s.size(), kVifInfo.outputs.size());
            for (const auto& [o, v] : s) EXPECT_TRUE(std::isfinite(v)) << bpc << "-bit output " << o;
            for (unsigned k = 0; k < 4; ++k) {
                EXPECT_GE(s.at(k), 0.0) << bpc << "-bit scale " << k;
                EXPECT_LE(s.at(k), 1.0 + 1e-6) << bpc << "-bit scale " << k;
            }
        }
        const auto noisy = run_once(bpc, w, h, noise(w, h, max, 3), noise(w, h, max, 4));
        for (unsigned k = 0; k < 4; ++k) EXPECT_TRUE(std::isfinite(noisy.at(k)));
    }
}

// Upstream normalises every depth to the same 16-bit-range units, so an 8-bit
// picture and the same picture shifted left into a deeper format are
// computed on identical fixed-point values: the scores must be identical.
TEST(VifUnit, DepthsAgreeOnShiftedContent) {
    const unsigned w = 53, h = 37;
    const auto a = textured(w, h, 5);
    auto b = a;
    std::mt19937 rng(9);
    for (auto& v : b) v = std::min<std::uint32_t>(255, v + rng() % 9);
    const auto base = run_once(8, w, h, a, b, {{"debug", "true"}});
    for (unsigned bpc : {10u, 12u, 16u}) {
        auto up = [&](std::vector<std::uint32_t> v) {
            for (auto& x : v) x <<= (bpc - 8);
            return v;
        };
        const auto s = run_once(bpc, w, h, up(a), up(b), {{"debug", "true"}});
        for (const auto& [o, v] : base) EXPECT_EQ(s.at(o), v) << bpc << "-bit output " << kVifInfo.outputs[o];
    }
}

TEST(VifUnit, TinyAndOddSizes) {
    // Below 16 on either side upstream's mirrored borders leave the picture.
    for (auto [w, h] : {std::pair{15u, 16u}, {16u, 15u}, {1u, 1u}, {8u, 100u}, {0u, 0u}}) {
        const VideoGeometry geom{PixelFormat::Yuv400, 8, w, h};
        EXPECT_THROW(kVifInfo.create(OptionValues(kVifInfo.options, {}, "vif"), geom, {}), vmaf::Error) << w << "x" << h;
    }
    const VideoGeometry bad_depth{PixelFormat::Yuv400, 7, 64, 64};
    EXPECT_THROW(kVifInfo.create(OptionValues(kVifInfo.options, {}, "vif"), bad_depth, {}), vmaf::Error);

    for (unsigned bpc : {8u, 10u, 16u})
        for (auto [w, h] : {std::pair{16u, 16u}, {17u, 16u}, {16u, 17u}, {19u, 23u}, {31u, 17u}, {33u, 65u}}) {
            const std::uint32_t max = (1u << bpc) - 1;
            const auto s = run_once(bpc, w, h, noise(w, h, max, w), noise(w, h, max, h));
            ASSERT_EQ(s.size(), 4u);
            for (unsigned k = 0; k < 4; ++k) EXPECT_TRUE(std::isfinite(s.at(k))) << w << "x" << h << " " << k;
        }
}

TEST(VifUnit, SkipScale0AndDebugOutputs) {
    const unsigned w = 64, h = 48;
    const auto a = textured(w, h, 2);
    auto b = a;
    for (auto& v : b) v = v / 2 + 40;
    const auto full = run_once(8, w, h, a, b, {{"debug", "true"}});
    ASSERT_EQ(full.size(), 15u);
    const auto skip = run_once(8, w, h, a, b, {{"debug", "true"}, {"vif_skip_scale0", "true"}});
    ASSERT_EQ(skip.size(), 15u);
    EXPECT_EQ(skip.at(0), 0.0);
    for (unsigned k = 1; k < 4; ++k) EXPECT_EQ(skip.at(k), full.at(k));
    EXPECT_EQ(skip.at(7), 0.0);   // integer_vif_num_scale0
    EXPECT_EQ(skip.at(8), -1.0);  // integer_vif_den_scale0
    // Scale score = float num / float den.
    for (unsigned k = 0; k < 4; ++k)
        EXPECT_EQ(full.at(k),
                  static_cast<double>(static_cast<float>(full.at(7 + 2 * k)) / static_cast<float>(full.at(8 + 2 * k))));
    const double num = full.at(7) + full.at(9) + full.at(11) + full.at(13);
    const double den = full.at(8) + full.at(10) + full.at(12) + full.at(14);
    EXPECT_EQ(full.at(5), num);
    EXPECT_EQ(full.at(6), den);
    EXPECT_EQ(full.at(4), num / den);
}

// compute() is const and may run for several frames at once.
TEST(VifUnit, ConcurrentComputeMatchesSequential) {
    const unsigned w = 96, h = 64, frames = 8;
    const VideoGeometry geom{PixelFormat::Yuv400, 10, w, h};
    std::vector<Picture> refs, dists;
    for (unsigned f = 0; f < frames; ++f) {
        refs.push_back(make_picture(10, w, h, noise(w, h, 1023, 100 + f)));
        dists.push_back(make_picture(10, w, h, noise(w, h, 1023, 200 + f)));
    }
    Runner seq({}, geom);
    for (unsigned f = 0; f < frames; ++f) seq.run(f, refs[f], dists[f]);

    Runner par({}, geom);
    std::vector<std::unique_ptr<vmaf::FrameState>> states(frames);
    std::vector<std::thread> pool;
    for (unsigned f = 0; f < frames; ++f)
        pool.emplace_back([&, f] { states[f] = par.fex->compute(f, refs[f], dists[f]); });
    for (auto& t : pool) t.join();
    for (unsigned f = 0; f < frames; ++f) par.fex->finish(f, *states[f], par.out);
    EXPECT_EQ(par.out.scores, seq.out.scores);
}

// ---------------------------------------------------------------------------
// A group (create_group: option sets differing only in vif_enhn_gain_limit,
// as VMAF + VMAF NEG) writes exactly what separate instances write.

/// A distorted picture with enhanced contrast (gain > 1 where the reference
/// has texture) plus noise, so that the gain limit changes the scores.
std::vector<std::uint32_t> enhanced(const std::vector<std::uint32_t>& ref, std::uint32_t max, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> dist(-3, 3);
    std::vector<std::uint32_t> v(ref.size());
    const int mid = static_cast<int>(max / 2);
    for (std::size_t i = 0; i < ref.size(); ++i) {
        const int s = mid + (static_cast<int>(ref[i]) - mid) * 3 / 2 + dist(rng);
        v[i] = static_cast<std::uint32_t>(std::clamp(s, 0, static_cast<int>(max)));
    }
    return v;
}

OptionDict vif_set(double egl, bool skip0 = false) {
    return {{"debug", "true"}, {"vif_enhn_gain_limit", fmt17(egl)}, {"vif_skip_scale0", skip0 ? "true" : "false"}};
}

/// Whether any output of any frame differs between two runs.
bool differ(const vmaf::test::ScoreLog& a, const vmaf::test::ScoreLog& b) {
    return a.at != b.at;
}

TEST(VifGroup, EqualsSeparateInstancesOnSyntheticFrames) {
    for (unsigned bpc : {8u, 10u}) {
        const unsigned w = 67, h = 41, frames = 3;
        const std::uint32_t max = (1u << bpc) - 1;
        std::vector<Picture> refs, dists;
        for (unsigned f = 0; f < frames; ++f) {
            auto r = textured(w, h, 10 + f);
            for (auto& x : r) x <<= bpc - 8;
            refs.push_back(make_picture(bpc, w, h, r));
            dists.push_back(make_picture(bpc, w, h, enhanced(r, max, 20 + f)));
        }
        const VideoGeometry geom{PixelFormat::Yuv400, bpc, w, h};
        SCOPED_TRACE("bpc " + std::to_string(bpc));
        // VMAF + NEG, then more limits than the SIMD kernels take in one chunk.
        const auto two = vmaf::test::expect_group_matches_separate(kVifInfo, {vif_set(100.0), vif_set(1.0)}, geom,
                                                                   refs, dists);
        EXPECT_TRUE(differ(two[0], two[1])) << "the limits do not change the scores: the test proves nothing";
        vmaf::test::expect_group_matches_separate(
            kVifInfo, {vif_set(1.0), vif_set(1.2), vif_set(100.0), vif_set(2.5), vif_set(1.05), vif_set(7.0)}, geom,
            refs, dists);
        vmaf::test::expect_group_matches_separate(kVifInfo, {vif_set(100.0, true), vif_set(1.0, true)}, geom, refs,
                                                  dists);
    }
}

TEST(VifGroup, EqualsSeparateInstancesOnCorpusPairs) {
    unsigned pairs = 0;
    for (const char* ref_name : {"p01_576x324_yuv420p_ref.yuv", "p03_1280x720_yuv420p10le_ref.yuv"}) {
        for (const auto& id : vmaf::test::stored_pair_ids()) {
            if (vmaf::test::pair_info(id).ref != ref_name) continue;
            SCOPED_TRACE(id);
            const auto p = vmaf::test::load_pair(id, 2);
            const auto logs = vmaf::test::expect_group_matches_separate(kVifInfo, {vif_set(100.0), vif_set(1.0)},
                                                                        p.info.geom, p.refs, p.dists);
            EXPECT_TRUE(differ(logs[0], logs[1]));
            ++pairs;
            break;
        }
    }
    EXPECT_EQ(pairs, 2u) << "an 8-bit and a 10-bit corpus pair";
}

TEST(VifGroup, KindDeclaresTheGainLimitGroup) {
    ASSERT_NE(kVifInfo.create_group, nullptr);
    ASSERT_EQ(kVifInfo.group_options.size(), 1u);
    EXPECT_EQ(kVifInfo.group_options[0], "vif_enhn_gain_limit");
}

TEST(VifUnit, Log2Table) {
    EXPECT_EQ(vmaf::vif::log2_q11(1u << 17), 17 * 2048);
    EXPECT_EQ(vmaf::vif::log2_q11(std::uint64_t{1} << 40), 40 * 2048);
    EXPECT_EQ(vmaf::vif::log2_q11(3u << 20), static_cast<std::int32_t>(std::lround(std::log2(3.0) * 2048)) + 20 * 2048);
}

}  // namespace
