// Integer ADM: bit-exact comparison with upstream's golden-full outputs, and
// unit tests of edge cases (sizes, bit depths, extreme values, options).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/feature_extractor.hpp"
#include "core/feature_name.hpp"
#include "features/adm/adm_kernels.hpp"
#include "support/extractor_run.hpp"
#include "vmaf/error.hpp"

namespace vmaf {
extern const ExtractorInfo kAdmInfo;
}

namespace {

using namespace vmaf;

constexpr unsigned kCompared = 7;  // adm2, aim, adm3, scale0..3

class Collect final : public ScoreWriter {
public:
    std::map<unsigned, std::map<unsigned, double>> frames;
    void write(unsigned frame, unsigned output, double value) override { frames[frame][output] = value; }
    void write_aggregate(unsigned, double) override { ADD_FAILURE() << "adm writes no aggregates"; }
};

struct Instance {
    OptionValues opts;
    std::unique_ptr<FeatureExtractor> fex;
};

Instance make(const OptionDict& dict, const VideoGeometry& geom) {
    Instance r;
    r.opts = OptionValues(kAdmInfo.options, dict, "adm");
    r.fex = kAdmInfo.create(r.opts, geom, {});
    return r;
}

/// Runs every frame of `pair` and compares the 7 regular outputs with
/// golden-full `<stem>`, exactly. Returns the number of values compared.
unsigned compare_pair(const std::string& pair, const std::string& stem, const OptionDict& dict) {
    const auto info = test::pair_info(pair);
    const auto golden = test::golden_full(stem);
    const std::string ref_path = test::clip_path(info.ref), dist_path = test::clip_path(info.dist);
    Instance run = make(dict, info.geom);
    Collect out;
    unsigned compared = 0, mismatches = 0;
    for (unsigned f = 0; f < info.frames; ++f) {
        const Picture ref = test::load_raw_frame(ref_path, info.geom, f);
        const Picture dist = test::load_raw_frame(dist_path, info.geom, f);
        auto st = run.fex->compute(f, ref, dist);
        run.fex->finish(f, *st, out);
        for (unsigned o = 0; o < kCompared; ++o) {
            const std::string key = feature_key(kAdmInfo.outputs[o], run.opts);
            const double want = test::golden_value(golden, f, key);
            if (!out.frames[f].count(o)) {
                ADD_FAILURE() << key << " not written at frame " << f;
                ++mismatches;
                continue;
            }
            const double got = out.frames[f][o];
            ++compared;
            if (got != want) {
                if (++mismatches <= 20)
                    ADD_FAILURE() << stem << " frame " << f << " " << key << ": got " << test::g17(got) << " want "
                                  << test::g17(want);
            }
        }
    }
    EXPECT_EQ(mismatches, 0u) << stem;
    return compared;
}

// ---------------------------------------------------------------------------
// Golden: default options, every stored pair, every frame.

class AdmGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(AdmGolden, DefaultOptionsMatchUpstreamExactly) {
    const unsigned n = compare_pair(GetParam(), GetParam() + "__vmaf_v0.6.1", {});
    const auto info = test::pair_info(GetParam());
    EXPECT_EQ(n, info.frames * kCompared);
}

INSTANTIATE_TEST_SUITE_P(Pairs, AdmGolden, ::testing::ValuesIn(test::stored_pair_ids()),
                         [](const auto& i) { return i.param; });

TEST(AdmGoldenOptions, EnhancementGainLimit1) {
    Instance r = make({{"adm_enhn_gain_limit", "1"}}, test::pair_info("p01_crf35").geom);
    EXPECT_EQ(feature_key(kAdmInfo.outputs[0], r.opts), "integer_adm2_egl_1");
    compare_pair("p01_crf35", "p01_crf35__vmaf_v0.6.1neg", {{"adm_enhn_gain_limit", "1"}});
}

/// The adm options of a v1.0.16 model file, as the model passes them.
OptionDict model_adm_options(const std::string& model) {
    std::ifstream in(std::string(VMAF_MODEL_DIR) + "/" + model + ".json");
    EXPECT_TRUE(in.good()) << model;
    const auto j = nlohmann::json::parse(in);
    OptionDict dict;
    for (const auto& d : j.at("model_dict").at("feature_opts_dicts")) {
        if (!d.contains("adm_dlm_weight")) continue;
        for (const auto& [k, v] : d.items()) dict.emplace_back(k, v.dump());
    }
    return dict;
}

TEST(AdmGoldenOptions, V1016_3d0h) {
    const OptionDict dict = model_adm_options("vmaf_v1.0.16_3d0h");
    ASSERT_FALSE(dict.empty());
    Instance r = make(dict, test::pair_info("p01_crf35").geom);
    EXPECT_EQ(feature_key(kAdmInfo.outputs[0], r.opts), "integer_adm2_csf_2_dlmw_0.7_egl_1_min_0.5_nw_0.02");
    compare_pair("p01_crf35", "p01_crf35__vmaf_v1.0.16_3d0h", dict);
}

TEST(AdmGoldenOptions, V1016_5d0h) {
    const OptionDict dict = model_adm_options("vmaf_v1.0.16_5d0h");
    ASSERT_FALSE(dict.empty());
    Instance r = make(dict, test::pair_info("p01_crf35").geom);
    EXPECT_EQ(feature_key(kAdmInfo.outputs[0], r.opts), "integer_adm2_csf_2_dlmw_0.7_egl_1_min_0.5_nw_0.02_nvd_5");
    compare_pair("p01_crf35", "p01_crf35__vmaf_v1.0.16_5d0h", dict);
}

// ---------------------------------------------------------------------------
// Unit tests.

Picture make_picture(unsigned bpc, unsigned w, unsigned h, const std::function<unsigned(unsigned, unsigned)>& f) {
    Picture p(PixelFormat::Yuv400, bpc, w, h);
    const Plane& pl = p.plane(0);
    for (unsigned y = 0; y < h; ++y)
        for (unsigned x = 0; x < w; ++x) {
            const unsigned v = f(x, y);
            if (bpc == 8)
                pl.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
            else
                pl.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v);
        }
    return p;
}

std::map<unsigned, double> run_one(const Picture& ref, const Picture& dis, const OptionDict& dict = {}) {
    VideoGeometry g{PixelFormat::Yuv400, ref.bpc(), ref.width(), ref.height()};
    Instance r = make(dict, g);
    Collect out;
    auto st = r.fex->compute(0, ref, dis);
    r.fex->finish(0, *st, out);
    return out.frames[0];
}

std::function<unsigned(unsigned, unsigned)> noise(unsigned bpc, unsigned seed) {
    auto rng = std::make_shared<std::mt19937>(seed);
    const unsigned max = (1u << bpc) - 1;
    return [rng, max](unsigned, unsigned) { return static_cast<unsigned>((*rng)() % (max + 1)); };
}

TEST(AdmUnit, IdenticalPicturesScoreAboutOneWithZeroAim) {
    for (unsigned bpc : {8u, 10u, 12u, 16u}) {
        const Picture p = make_picture(bpc, 96, 64, noise(bpc, 7));
        const auto s = run_one(p, p);
        ASSERT_EQ(s.size(), kCompared);
        EXPECT_NEAR(s.at(0), 1.0, 1e-3) << bpc;
        EXPECT_EQ(s.at(1), 0.0) << bpc;
        for (unsigned k = 3; k < 7; ++k) EXPECT_NEAR(s.at(k), 1.0, 1e-3) << bpc << " scale " << k - 3;
    }
}

TEST(AdmUnit, DistortionLowersScore) {
    const Picture ref = make_picture(8, 128, 96, [](unsigned x, unsigned y) { return (x * 7 + y * 13) % 256; });
    const Picture dis = make_picture(8, 128, 96, [](unsigned x, unsigned y) { return ((x / 4) * 28 + y * 13) % 256; });
    const auto s = run_one(ref, dis);
    EXPECT_LT(s.at(0), 0.99);
    EXPECT_GT(s.at(1), 0.0);
}

TEST(AdmUnit, RejectsTooSmallFrames) {
    for (auto [w, h] : {std::pair{32u, 33u}, {33u, 32u}, {1u, 1u}, {16u, 16u}}) {
        VideoGeometry g{PixelFormat::Yuv420, 8, w, h};
        EXPECT_THROW(make({}, g), Error) << w << "x" << h;
        // The kernel itself refuses too (direct use).
        const Picture p = make_picture(8, w, h, [](unsigned, unsigned) { return 0u; });
        EXPECT_THROW(adm::compute(p.plane(0), p.plane(0), 8, adm::Params{}), Error);
    }
}

TEST(AdmUnit, TinyAndOddSizesAtEveryDepth) {
    for (unsigned bpc : {8u, 10u, 12u, 16u}) {
        for (auto [w, h] : {std::pair{33u, 33u}, {34u, 33u}, {35u, 47u}, {41u, 97u}, {641u, 37u}, {64u, 33u}}) {
            const Picture ref = make_picture(bpc, w, h, noise(bpc, w * 131 + h));
            const Picture dis = make_picture(bpc, w, h, noise(bpc, w * 17 + h + 1));
            const auto s = run_one(ref, dis);
            ASSERT_EQ(s.size(), kCompared);
            for (auto [o, v] : s) EXPECT_TRUE(std::isfinite(v)) << bpc << " " << w << "x" << h << " out " << o;
            // Deterministic.
            EXPECT_EQ(run_one(ref, dis), s);
        }
    }
}

TEST(AdmUnit, ExtremeValuesAtEveryDepth) {
    for (unsigned bpc : {8u, 10u, 12u, 16u}) {
        const unsigned max = (1u << bpc) - 1;
        const Picture white = make_picture(bpc, 70, 50, [max](unsigned, unsigned) { return max; });
        const Picture black = make_picture(bpc, 70, 50, [](unsigned, unsigned) { return 0u; });
        const Picture checker =
            make_picture(bpc, 70, 50, [max](unsigned x, unsigned y) { return ((x ^ y) & 1) ? max : 0u; });
        const Picture stripes = make_picture(bpc, 70, 50, [max](unsigned x, unsigned) { return (x / 3) & 1 ? max : 0u; });
        const Picture* pics[] = {&white, &black, &checker, &stripes};
        for (const Picture* a : pics)
            for (const Picture* b : pics) {
                const auto s = run_one(*a, *b);
                ASSERT_EQ(s.size(), kCompared);
                for (auto [o, v] : s) EXPECT_FALSE(std::isnan(v)) << bpc << " out " << o;
            }
        // A flat reference still has a positive (noise-floor) denominator.
        const auto s = run_one(white, white);
        EXPECT_TRUE(std::isfinite(s.at(0)));
    }
}

TEST(AdmUnit, ConcurrentComputeMatchesSerial) {
    VideoGeometry g{PixelFormat::Yuv400, 10, 200, 120};
    Instance r = make({}, g);
    std::vector<Picture> refs, dists;
    for (unsigned k = 0; k < 4; ++k) {
        refs.push_back(make_picture(10, 200, 120, noise(10, 100 + k)));
        dists.push_back(make_picture(10, 200, 120, noise(10, 200 + k)));
    }
    std::vector<ScoreList> serial(4), parallel(4);
    for (unsigned k = 0; k < 4; ++k) serial[k] = r.fex->compute(k, refs[k], dists[k])->scores;
    std::vector<std::thread> th;
    for (unsigned k = 0; k < 4; ++k)
        th.emplace_back([&, k] { parallel[k] = r.fex->compute(k, refs[k], dists[k])->scores; });
    for (auto& t : th) t.join();
    EXPECT_EQ(serial, parallel);
}

TEST(AdmUnit, DebugOutputs) {
    const Picture ref = make_picture(8, 64, 48, noise(8, 1));
    const Picture dis = make_picture(8, 64, 48, noise(8, 2));
    const auto plain = run_one(ref, dis);
    const auto dbg = run_one(ref, dis, {{"debug", "true"}});
    ASSERT_EQ(dbg.size(), kAdmInfo.outputs.size());
    for (unsigned o = 0; o < kCompared; ++o) EXPECT_EQ(dbg.at(o), plain.at(o));
    EXPECT_EQ(dbg.at(7), dbg.at(0));                  // integer_adm == adm2
    EXPECT_EQ(dbg.at(0), dbg.at(8) / dbg.at(9));      // num / den
    for (unsigned k = 0; k < 4; ++k) EXPECT_EQ(dbg.at(3 + k), dbg.at(10 + 2 * k) / dbg.at(11 + 2 * k));
}

TEST(AdmUnit, OptionsValidation) {
    VideoGeometry g{PixelFormat::Yuv420, 8, 64, 64};
    EXPECT_THROW(make({{"adm_norm_view_dist", "2"}}, g), Error);  // 2 * 1080 < 3 * 1080
    EXPECT_NO_THROW(make({{"adm_norm_view_dist", "1.5"}, {"adm_ref_display_height", "2160"}}, g));
    EXPECT_THROW(make({{"adm_csf_mode", "2"}, {"adm_ref_display_height", "1200"}}, g), Error);
    EXPECT_THROW(make({{"adm_enhn_gain_limit", "0.5"}}, g), Error);
    EXPECT_THROW(make({{"adm_csf_mode", "4"}}, g), Error);
    EXPECT_THROW(make({{"no_such_option", "1"}}, g), Error);
}

TEST(AdmUnit, SkipOptions) {
    const Picture ref = make_picture(8, 80, 60, noise(8, 3));
    const Picture dis = make_picture(8, 80, 60, noise(8, 4));
    const auto base = run_one(ref, dis);
    const auto no_aim = run_one(ref, dis, {{"adm_skip_aim", "true"}});
    EXPECT_EQ(no_aim.at(0), base.at(0));
    EXPECT_EQ(no_aim.at(1), 0.0);
    const auto no_s0 = run_one(ref, dis, {{"adm_skip_scale0", "true"}});
    EXPECT_EQ(no_s0.at(3), 0.0);
    for (unsigned k = 4; k < 7; ++k) EXPECT_EQ(no_s0.at(k), base.at(k));
    for (const char* mode : {"1", "3"}) {
        const auto s = run_one(ref, dis, {{"adm_csf_mode", mode}});
        for (auto [o, v] : s) EXPECT_TRUE(std::isfinite(v)) << "csf " << mode << " out " << o;
    }
}


// ---------------------------------------------------------------------------
// A group (create_group: option sets differing only in adm_enhn_gain_limit,
// as VMAF + VMAF NEG) writes exactly what separate instances write.

/// A textured reference, and a distorted picture with its contrast enhanced
/// (gain > 1, which the limit clamps) plus mild noise.
unsigned textured(unsigned bpc, unsigned x, unsigned y) {
    const unsigned v = (x * 7 + y * 3) % 200 + 20 + ((x / 4 + y / 4) % 2 ? (x * y) % 23 : 0);
    return v << (bpc - 8);
}
Picture enhanced(unsigned bpc, unsigned w, unsigned h, unsigned seed) {
    auto rng = std::make_shared<std::mt19937>(seed);
    const int max = (1 << bpc) - 1, mid = max / 2;
    return make_picture(bpc, w, h, [=](unsigned x, unsigned y) {
        const int s = mid + (static_cast<int>(textured(bpc, x, y)) - mid) * 3 / 2 + static_cast<int>((*rng)() % 5) - 2;
        return static_cast<unsigned>(std::clamp(s, 0, max));
    });
}

OptionDict adm_set(double egl, OptionDict more = {}) {
    more.emplace_back("debug", "true");
    more.emplace_back("adm_enhn_gain_limit", test::g17(egl));
    return more;
}

TEST(AdmGroup, EqualsSeparateInstancesOnSyntheticFrames) {
    for (unsigned bpc : {8u, 10u}) {
        SCOPED_TRACE("bpc " + std::to_string(bpc));
        const unsigned w = 71, h = 45;  // odd: mirrored band edges at every scale
        std::vector<Picture> refs, dists;
        for (unsigned f = 0; f < 2; ++f) {
            refs.push_back(make_picture(bpc, w, h, [&](unsigned x, unsigned y) { return textured(bpc, x + f, y); }));
            dists.push_back(enhanced(bpc, w, h, 40 + f));
        }
        const VideoGeometry g{PixelFormat::Yuv400, bpc, w, h};
        const auto two = test::expect_group_matches_separate(kAdmInfo, {adm_set(100.0), adm_set(1.0)}, g, refs, dists);
        EXPECT_NE(two[0].at, two[1].at) << "the limits do not change the scores: the test proves nothing";
        test::expect_group_matches_separate(
            kAdmInfo, {adm_set(1.0), adm_set(1.2), adm_set(100.0), adm_set(2.5), adm_set(1.05)}, g, refs, dists);
        test::expect_group_matches_separate(kAdmInfo,
                                            {adm_set(100.0, {{"adm_skip_aim", "true"}, {"adm_skip_scale0", "true"}}),
                                             adm_set(1.0, {{"adm_skip_aim", "true"}, {"adm_skip_scale0", "true"}})},
                                            g, refs, dists);
    }
}

TEST(AdmGroup, EqualsSeparateInstancesOnCorpusPairs) {
    unsigned pairs = 0;
    for (const char* id : {"p01_crf35", "p03_crf28"}) {
        SCOPED_TRACE(id);
        const auto p = test::load_pair(id, 2);
        const auto logs =
            test::expect_group_matches_separate(kAdmInfo, {adm_set(100.0), adm_set(1.0)}, p.info.geom, p.refs, p.dists);
        EXPECT_NE(logs[0].at, logs[1].at);
        ++pairs;
    }
    EXPECT_EQ(pairs, 2u);
}

TEST(AdmGroup, KindDeclaresTheGainLimitGroup) {
    ASSERT_NE(kAdmInfo.create_group, nullptr);
    ASSERT_EQ(kAdmInfo.group_options.size(), 1u);
    EXPECT_EQ(kAdmInfo.group_options[0], "adm_enhn_gain_limit");
}

}  // namespace
