// The C API against upstream's golden reports (every per-frame and pooled
// value, exact), vmaf_write_output against upstream's printed report, and
// the API's contracts (models, collections, dictionaries, imports, pools,
// picture references).
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "libvmaf/libvmaf.h"
#include "support/testdata.hpp"

namespace {

using vmaf::test::PairInfo;

VmafPixelFormat c_format(vmaf::PixelFormat f) {
    switch (f) {
        case vmaf::PixelFormat::Yuv420: return VMAF_PIX_FMT_YUV420P;
        case vmaf::PixelFormat::Yuv422: return VMAF_PIX_FMT_YUV422P;
        case vmaf::PixelFormat::Yuv444: return VMAF_PIX_FMT_YUV444P;
        case vmaf::PixelFormat::Yuv400: return VMAF_PIX_FMT_YUV400P;
    }
    return VMAF_PIX_FMT_UNKNOWN;
}

/// Copies a loaded frame into a C API picture, row by row.
void fill(VmafPicture& dst, const vmaf::Picture& src) {
    for (unsigned p = 0; p < src.planes(); ++p) {
        const vmaf::Plane& sp = src.plane(p);
        ASSERT_EQ(dst.w[p], sp.width);
        ASSERT_EQ(dst.h[p], sp.height);
        for (unsigned y = 0; y < sp.height; ++y)
            std::memcpy(static_cast<char*>(dst.data[p]) + dst.stride[p] * y, sp.row<char>(y),
                        std::size_t{sp.width} * src.bytes_per_sample());
    }
}

struct Options {
    unsigned threads = 0;
    bool prealloc = false;
};

/// Reads every frame of `pair` into `vmaf` and flushes.
void feed(VmafContext* vmaf, const PairInfo& pair, const Options& o = {}) {
    const std::string ref = vmaf::test::clip_path(pair.ref), dist = vmaf::test::clip_path(pair.dist);
    if (o.prealloc) {
        VmafPictureConfiguration pc{};
        pc.pic_params.w = pair.geom.width;
        pc.pic_params.h = pair.geom.height;
        pc.pic_params.bpc = pair.geom.bpc;
        pc.pic_params.pix_fmt = c_format(pair.geom.format);
        pc.pic_cnt = 4;
        ASSERT_EQ(vmaf_preallocate_pictures(vmaf, pc), 0);
    }
    for (unsigned i = 0; i < pair.frames; ++i) {
        VmafPicture r{}, d{};
        if (o.prealloc) {
            ASSERT_EQ(vmaf_fetch_preallocated_picture(vmaf, &r), 0);
            ASSERT_EQ(vmaf_fetch_preallocated_picture(vmaf, &d), 0);
        } else {
            ASSERT_EQ(vmaf_picture_alloc(&r, c_format(pair.geom.format), pair.geom.bpc, pair.geom.width, pair.geom.height), 0);
            ASSERT_EQ(vmaf_picture_alloc(&d, c_format(pair.geom.format), pair.geom.bpc, pair.geom.width, pair.geom.height), 0);
        }
        fill(r, vmaf::test::load_raw_frame(ref, pair.geom, i));
        fill(d, vmaf::test::load_raw_frame(dist, pair.geom, i));
        ASSERT_EQ(vmaf_read_pictures(vmaf, &r, &d, i), 0) << "frame " << i;
        EXPECT_EQ(r.ref, nullptr);  // ownership passed
    }
    ASSERT_EQ(vmaf_read_pictures(vmaf, nullptr, nullptr, 0), 0);
}

VmafConfiguration config(unsigned threads = 0, unsigned subsample = 0) {
    VmafConfiguration c{};
    c.log_level = VMAF_LOG_LEVEL_ERROR;
    c.n_threads = threads;
    c.n_subsample = subsample;
    return c;
}

const VmafPoolingMethod kPools[] = {VMAF_POOL_METHOD_MIN, VMAF_POOL_METHOD_MAX, VMAF_POOL_METHOD_MEAN,
                                    VMAF_POOL_METHOD_HARMONIC_MEAN};
const char* const kPoolNames[] = {"min", "max", "mean", "harmonic_mean"};

/// Every per-frame metric and every pooled value of the golden, through the
/// feature queries; returns the number of values compared.
/// `only`: compare just the keys starting with it (empty: all).
unsigned compare_all(VmafContext* vmaf, const nlohmann::json& gold, const std::string& only = "") {
    unsigned n = 0;
    auto wanted = [&](const std::string& key) { return key.rfind(only, 0) == 0; };
    for (const auto& fr : gold["frames"]) {
        const unsigned i = fr["frameNum"].get<unsigned>();
        for (const auto& [key, val] : fr["metrics"].items()) {
            if (!wanted(key)) continue;
            double s = -1;
            EXPECT_EQ(vmaf_feature_score_at_index(vmaf, key.c_str(), &s, i), 0) << key << " @" << i;
            EXPECT_EQ(s, val.get<double>()) << key << " @" << i;
            ++n;
        }
    }
    const unsigned last = gold["frames"].size() - 1;
    for (const auto& [key, pools] : gold["pooled_metrics"].items())
        for (int k = 0; k < 4 && wanted(key); ++k) {
            double s = -1;
            EXPECT_EQ(vmaf_feature_score_pooled(vmaf, key.c_str(), kPools[k], &s, 0, last), 0) << key;
            EXPECT_EQ(s, pools[kPoolNames[k]].get<double>()) << key << " " << kPoolNames[k];
            ++n;
        }
    return n;
}

void run_model_pair(const std::string& pair_id, const Options& o) {
    const PairInfo pair = vmaf::test::pair_info(pair_id);
    const auto gold = vmaf::test::golden_full(pair_id + "__vmaf_v0.6.1");
    VmafContext* vmaf = nullptr;
    ASSERT_EQ(vmaf_init(&vmaf, config(o.threads)), 0);
    VmafModel* model = nullptr;
    VmafModelConfig mc{};
    mc.name = "vmaf";
    ASSERT_EQ(vmaf_model_load(&model, &mc, "vmaf_v0.6.1"), 0);
    ASSERT_EQ(vmaf_use_features_from_model(vmaf, model), 0);
    feed(vmaf, pair, o);
    EXPECT_GT(compare_all(vmaf, gold), 100u);
    // The model queries give the same numbers as the "vmaf" key.
    for (unsigned i = 0; i < pair.frames; ++i) {
        double s = -1;
        ASSERT_EQ(vmaf_score_at_index(vmaf, model, &s, i), 0);
        EXPECT_EQ(s, vmaf::test::golden_value(gold, i, "vmaf"));
    }
    for (int k = 0; k < 4; ++k) {
        double s = -1;
        ASSERT_EQ(vmaf_score_pooled(vmaf, model, kPools[k], &s, 0, pair.frames - 1), 0);
        EXPECT_EQ(s, gold["pooled_metrics"]["vmaf"][kPoolNames[k]].get<double>());
    }
    vmaf_model_destroy(model);
    ASSERT_EQ(vmaf_close(vmaf), 0);
}

TEST(CApi, Model8Bit) { run_model_pair("p01_crf35", {}); }
TEST(CApi, Model10Bit) { run_model_pair("p03_crf28", {}); }
TEST(CApi, Model444) { run_model_pair("p04a_crf30", {}); }
TEST(CApi, Model422ThreadsPreallocated) { run_model_pair("p04b_crf30", {2, true}); }
TEST(CApi, ModelThreads) { run_model_pair("p01_crf35", {3, false}); }

TEST(CApi, ModelByPathEqualsByVersion) {
    const PairInfo pair = vmaf::test::pair_info("p01_crf23");
    const auto gold = vmaf::test::golden_full("p01_crf23__vmaf_v0.6.1");
    VmafContext* vmaf = nullptr;
    ASSERT_EQ(vmaf_init(&vmaf, config()), 0);
    VmafModel* model = nullptr;
    VmafModelConfig mc{};
    ASSERT_EQ(vmaf_model_load_from_path(&model, &mc, VMAF_TEST_MODEL_DIR "/vmaf_v0.6.1.json"), 0);
    ASSERT_EQ(vmaf_use_features_from_model(vmaf, model), 0);
    feed(vmaf, pair);
    compare_all(vmaf, gold);
    vmaf_model_destroy(model);
    vmaf_close(vmaf);
}

TEST(CApi, Collection) {
    const PairInfo pair = vmaf::test::pair_info("p01_crf35");
    const auto gold = vmaf::test::golden_full("p01_crf35__vmaf_b_v0.6.3");
    VmafContext* vmaf = nullptr;
    ASSERT_EQ(vmaf_init(&vmaf, config()), 0);
    VmafModel* model = nullptr;
    VmafModelCollection* coll = nullptr;
    VmafModelConfig mc{};
    mc.name = "vmaf";
    EXPECT_EQ(vmaf_model_load(&model, &mc, "vmaf_b_v0.6.3"), -EINVAL);  // a collection, not a model
    ASSERT_EQ(vmaf_model_collection_load(&model, &coll, &mc, "vmaf_b_v0.6.3"), 0);
    ASSERT_EQ(vmaf_use_features_from_model_collection(vmaf, coll), 0);
    ASSERT_EQ(vmaf_use_features_from_model(vmaf, model), 0);  // the same collection: no second copy
    feed(vmaf, pair);
    compare_all(vmaf, gold);
    for (unsigned i = 0; i < pair.frames; ++i) {
        VmafModelCollectionScore s{};
        ASSERT_EQ(vmaf_score_at_index_model_collection(vmaf, coll, &s, i), 0);
        EXPECT_EQ(s.type, VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP);
        EXPECT_EQ(s.bootstrap.bagging_score, vmaf::test::golden_value(gold, i, "vmaf_bagging"));
        EXPECT_EQ(s.bootstrap.stddev, vmaf::test::golden_value(gold, i, "vmaf_stddev"));
        EXPECT_EQ(s.bootstrap.ci.p95.lo, vmaf::test::golden_value(gold, i, "vmaf_ci_p95_lo"));
        EXPECT_EQ(s.bootstrap.ci.p95.hi, vmaf::test::golden_value(gold, i, "vmaf_ci_p95_hi"));
        double v = -1;
        ASSERT_EQ(vmaf_score_at_index(vmaf, model, &v, i), 0);
        EXPECT_EQ(v, vmaf::test::golden_value(gold, i, "vmaf"));
    }
    for (int k = 0; k < 4; ++k) {
        VmafModelCollectionScore s{};
        ASSERT_EQ(vmaf_score_pooled_model_collection(vmaf, coll, kPools[k], &s, 0, pair.frames - 1), 0);
        EXPECT_EQ(s.bootstrap.bagging_score, gold["pooled_metrics"]["vmaf_bagging"][kPoolNames[k]].get<double>());
        EXPECT_EQ(s.bootstrap.ci.p95.hi, gold["pooled_metrics"]["vmaf_ci_p95_hi"][kPoolNames[k]].get<double>());
    }
    vmaf_model_destroy(model);
    vmaf_model_collection_destroy(coll);
    vmaf_close(vmaf);
}

TEST(CApi, FeaturesWithDictionaries) {
    const PairInfo pair = vmaf::test::pair_info("p01_crf35");
    const auto gold = vmaf::test::golden_full("p01_crf35__features");
    VmafContext* vmaf = nullptr;
    ASSERT_EQ(vmaf_init(&vmaf, config(2)), 0);
    VmafModel* model = nullptr;
    VmafModelConfig mc{};
    ASSERT_EQ(vmaf_model_load(&model, &mc, "vmaf_v0.6.1"), 0);
    ASSERT_EQ(vmaf_use_features_from_model(vmaf, model), 0);
    for (const char* f : {"psnr"}) {
        VmafFeatureDictionary* d = nullptr;
        if (std::string(f) == "psnr") {
            // Options at their defaults: same scores, and the dictionary is the library's now.
            ASSERT_EQ(vmaf_feature_dictionary_set(&d, "enable_chroma", "true"), 0);
            ASSERT_EQ(vmaf_feature_dictionary_set(&d, "enable_chroma", "1"), 0);  // replaces
        }
        ASSERT_EQ(vmaf_use_feature(vmaf, f, d), 0) << f;
    }
    feed(vmaf, pair);
    for (const char* k : {"psnr_y", "psnr_cb", "psnr_cr"}) EXPECT_EQ(compare_all(vmaf, gold, k), 48u + 4u) << k;
    EXPECT_GT(compare_all(vmaf, gold, "integer_"), 48u * 10);
    vmaf_model_destroy(model);
    vmaf_close(vmaf);
}

TEST(CApi, ModelFeatureOverload) {
    // An adm option through the model changes the score; an unknown option fails.
    VmafModel* model = nullptr;
    VmafModelConfig mc{};
    ASSERT_EQ(vmaf_model_load(&model, &mc, "vmaf_v0.6.1"), 0);
    VmafFeatureDictionary* d = nullptr;
    ASSERT_EQ(vmaf_feature_dictionary_set(&d, "no_such_option", "1"), 0);
    EXPECT_EQ(vmaf_model_feature_overload(model, "adm", d), -EINVAL);  // takes the dictionary
    d = nullptr;
    ASSERT_EQ(vmaf_feature_dictionary_set(&d, "adm_enhn_gain_limit", "1.0"), 0);
    EXPECT_EQ(vmaf_model_feature_overload(model, "adm", d), 0);

    const PairInfo pair = vmaf::test::pair_info("p01_crf35");
    VmafContext* vmaf = nullptr;
    ASSERT_EQ(vmaf_init(&vmaf, config()), 0);
    ASSERT_EQ(vmaf_use_features_from_model(vmaf, model), 0);
    feed(vmaf, pair);
    double s = 0;
    ASSERT_EQ(vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, &s, 0, pair.frames - 1), 0);
    const double plain = vmaf::test::golden_full("p01_crf35__vmaf_v0.6.1")["pooled_metrics"]["vmaf"]["mean"];
    EXPECT_LT(s, plain);  // gain limit 1.0 takes away ADM's enhancement gain
    vmaf_model_destroy(model);
    vmaf_close(vmaf);
}

TEST(CApi, ImportAndAgain) {
    VmafContext* vmaf = nullptr;
    ASSERT_EQ(vmaf_init(&vmaf, config()), 0);
    ASSERT_EQ(vmaf_import_feature_score(vmaf, "external", 2.5, 0), 0);
    ASSERT_EQ(vmaf_import_feature_score(vmaf, "external", 4.5, 1), 0);
    EXPECT_EQ(vmaf_import_feature_score(vmaf, "external", 1.0, 1), -EINVAL);  // already set
    double s = 0;
    ASSERT_EQ(vmaf_feature_score_at_index(vmaf, "external", &s, 1), 0);
    EXPECT_EQ(s, 4.5);
    ASSERT_EQ(vmaf_feature_score_pooled(vmaf, "external", VMAF_POOL_METHOD_MEAN, &s, 0, 1), 0);
    EXPECT_EQ(s, 3.5);
    ASSERT_EQ(vmaf_feature_score_pooled(vmaf, "external", VMAF_POOL_METHOD_HARMONIC_MEAN, &s, 0, 1), 0);
    EXPECT_EQ(s, 2.0 / (1.0 / 3.5 + 1.0 / 5.5) - 1.0);
    EXPECT_EQ(vmaf_feature_score_at_index(vmaf, "external", &s, 7), -EAGAIN);  // not yet
    vmaf_close(vmaf);
}

TEST(CApi, ScoresArriveWhileReading) {
    // A frame's score is available (or -EAGAIN) before the flush; all are after it.
    const PairInfo pair = vmaf::test::pair_info("p01_crf35");
    VmafContext* vmaf = nullptr;
    ASSERT_EQ(vmaf_init(&vmaf, config()), 0);
    ASSERT_EQ(vmaf_use_feature(vmaf, "psnr", nullptr), 0);
    VmafPicture r{}, d{};
    ASSERT_EQ(vmaf_picture_alloc(&r, VMAF_PIX_FMT_YUV420P, 8, pair.geom.width, pair.geom.height), 0);
    ASSERT_EQ(vmaf_picture_alloc(&d, VMAF_PIX_FMT_YUV420P, 8, pair.geom.width, pair.geom.height), 0);
    fill(r, vmaf::test::load_raw_frame(vmaf::test::clip_path(pair.ref), pair.geom, 0));
    fill(d, vmaf::test::load_raw_frame(vmaf::test::clip_path(pair.dist), pair.geom, 0));
    double s = 0;
    EXPECT_EQ(vmaf_feature_score_at_index(vmaf, "psnr_y", &s, 0), -EAGAIN);
    ASSERT_EQ(vmaf_read_pictures(vmaf, &r, &d, 0), 0);
    ASSERT_EQ(vmaf_feature_score_at_index(vmaf, "psnr_y", &s, 0), 0);
    EXPECT_EQ(s, vmaf::test::golden_value(vmaf::test::golden_full("p01_crf35__features"), 0, "psnr_y"));
    EXPECT_EQ(vmaf_feature_score_at_index(vmaf, "psnr_y", &s, 1), -EAGAIN);
    ASSERT_EQ(vmaf_read_pictures(vmaf, nullptr, nullptr, 0), 0);
    EXPECT_EQ(vmaf_feature_score_at_index(vmaf, "psnr_y", &s, 1), -EINVAL);  // never will be
    vmaf_close(vmaf);
}

TEST(CApi, PictureReferences) {
    VmafPicture p{};
    ASSERT_EQ(vmaf_picture_alloc(&p, VMAF_PIX_FMT_YUV400P, 10, 33, 17), 0);
    EXPECT_NE(p.data[0], nullptr);
    EXPECT_EQ(p.data[1], nullptr);
    EXPECT_EQ(p.w[0], 33u);
    EXPECT_GE(p.stride[0], 66);
    ASSERT_EQ(vmaf_picture_unref(&p), 0);
    ASSERT_EQ(vmaf_picture_alloc(&p, VMAF_PIX_FMT_YUV420P, 8, 33, 17), 0);
    EXPECT_EQ(p.w[1], 17u);
    EXPECT_EQ(p.h[1], 9u);
    ASSERT_EQ(vmaf_picture_unref(&p), 0);
    EXPECT_EQ(p.data[0], nullptr);
    EXPECT_EQ(vmaf_picture_unref(&p), -EINVAL);  // no reference left
}

std::vector<std::string> report_lines(const std::string& path) {
    std::ifstream f(path);
    std::vector<std::string> lines;
    for (std::string l; std::getline(f, l);) lines.push_back(l);
    // fps differs by run; backend_used and feature_backends are ours (the
    // last keys) and not in upstream's report: dropped with the comma they add.
    auto ours = [](const std::string& l) {
        return l.rfind("  \"backend_used\": ", 0) == 0 || l.rfind("  \"feature_backends\": ", 0) == 0;
    };
    std::size_t end = lines.empty() ? 0 : lines.size() - 1;  // the closing brace
    std::size_t k = end;
    while (k > 1 && ours(lines[k - 1])) --k;
    if (k < end) {
        lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(k), lines.begin() + static_cast<std::ptrdiff_t>(end));
        if (!lines[k - 1].empty() && lines[k - 1].back() == ',') lines[k - 1].pop_back();
    }
    std::vector<std::string> out;
    for (const std::string& l : lines)
        if (l.rfind("  \"fps\": ", 0) != 0) out.push_back(l);
    return out;
}

TEST(CApi, WriteOutputJsonEqualsUpstreamReport) {
    const PairInfo pair = vmaf::test::pair_info("p01_crf35");
    VmafContext* vmaf = nullptr;
    ASSERT_EQ(vmaf_init(&vmaf, config()), 0);
    VmafModel* model = nullptr;
    VmafModelConfig mc{};
    ASSERT_EQ(vmaf_model_load(&model, &mc, "vmaf_v0.6.1"), 0);
    ASSERT_EQ(vmaf_use_features_from_model(vmaf, model), 0);
    EXPECT_EQ(vmaf_write_output(vmaf, "never.json", VMAF_OUTPUT_FORMAT_JSON), -EINVAL);  // before the flush
    feed(vmaf, pair);
    const std::string out = testing::TempDir() + "capi_report.json";
    ASSERT_EQ(vmaf_write_output(vmaf, out.c_str(), VMAF_OUTPUT_FORMAT_JSON), 0);
    EXPECT_EQ(report_lines(out),
              report_lines(vmaf::test::testdata_dir() + "/golden/p01_crf35__vmaf_v0.6.1.json"));
    for (auto f : {VMAF_OUTPUT_FORMAT_XML, VMAF_OUTPUT_FORMAT_CSV, VMAF_OUTPUT_FORMAT_SUB}) {
        const std::string o = testing::TempDir() + "capi_report." + std::to_string(f);
        ASSERT_EQ(vmaf_write_output(vmaf, o.c_str(), f), 0);
        std::ifstream in(o);
        std::stringstream ss;
        ss << in.rdbuf();
        EXPECT_GT(ss.str().size(), 1000u) << f;
    }
    EXPECT_EQ(vmaf_write_output(vmaf, out.c_str(), VMAF_OUTPUT_FORMAT_NONE), -EINVAL);
    vmaf_model_destroy(model);
    vmaf_close(vmaf);
}

TEST(CApi, Version) { EXPECT_STREQ(vmaf_version(), "3.2.0"); }

}  // namespace
