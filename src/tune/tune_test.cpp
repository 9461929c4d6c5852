// Unit tests of vmaf-tune's pieces; end-to-end sweeps are tests/tune/tune_test.py.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "tune/atomic_file.hpp"
#include "tune/bd.hpp"
#include "tune/codecs.hpp"
#include "tune/compare.hpp"
#include "tune/encoders.hpp"
#include "tune/grid.hpp"
#include "tune/ladder.hpp"
#include "tune/lists.hpp"
#include "tune/merge.hpp"
#include "tune/process.hpp"
#include "tune/report.hpp"
#include "tune/rows.hpp"
#include "tune/score.hpp"
#include "tune/search.hpp"
#include "tune/shots.hpp"
#include "tune/window.hpp"
#include "vmaf/error.hpp"

namespace fs = std::filesystem;

namespace vmaf::tune {
namespace {

TEST(TuneGrid, CrfListsAndRanges) {
    EXPECT_EQ(parse_crf_list({"23"}, 0, 51), (std::vector<double>{23}));
    EXPECT_EQ(parse_crf_list({"18:24:2", "23", "18"}, 0, 51), (std::vector<double>{18, 20, 22, 23, 24}));
    EXPECT_EQ(parse_crf_list({"30:32"}, 0, 51), (std::vector<double>{30, 31, 32}));
    EXPECT_THROW(parse_crf_list({}, 0, 51), std::invalid_argument);
    EXPECT_THROW(parse_crf_list({""}, 0, 51), std::invalid_argument);
    EXPECT_THROW(parse_crf_list({"abc"}, 0, 51), std::invalid_argument);
    EXPECT_THROW(parse_crf_list({"40:18"}, 0, 51), std::invalid_argument);  // empty range
    EXPECT_THROW(parse_crf_list({"18:40:0"}, 0, 51), std::invalid_argument);
    EXPECT_THROW(parse_crf_list({"18:40:2:1"}, 0, 51), std::invalid_argument);
    EXPECT_THROW(parse_crf_list({"60"}, 0, 51), std::invalid_argument);  // out of the encoder's range
    EXPECT_THROW(parse_crf_list({"-1"}, 0, 51), std::invalid_argument);
    // Fractions for encoders that take them; 20 + 3 * 0.1 is 20.3, as typed.
    EXPECT_EQ(parse_crf_list({"20:21:0.25"}, 0, 51, "", false), (std::vector<double>{20, 20.25, 20.5, 20.75, 21}));
    EXPECT_EQ(parse_crf_list({"20:20.3:0.1"}, 0, 51, "", false), (std::vector<double>{20, 20.1, 20.2, 20.3}));
    EXPECT_THROW(parse_crf_list({"20.5"}, 0, 63), std::invalid_argument);  // whole CRFs only
    EXPECT_EQ(crf_text(20.25), "20.25");
    EXPECT_EQ(crf_text(23), "23");
    EXPECT_EQ(crf_value(23).dump(), "23");  // whole CRFs stay integers in rows (cell identities unchanged)
    EXPECT_EQ(crf_value(20.3).dump(), "20.3");
}

TEST(TuneGrid, ShardsPartitionTheGrid) {
    EXPECT_THROW(parse_shard("3/3"), std::invalid_argument);
    EXPECT_THROW(parse_shard("1"), std::invalid_argument);
    EXPECT_THROW(parse_shard("a/2"), std::invalid_argument);
    EXPECT_THROW(parse_shard("0/0"), std::invalid_argument);
    const auto grid = make_grid(2, {"libx264", "libx265"}, {"fast"}, {20, 30, 40});
    ASSERT_EQ(grid.size(), 12u);
    EXPECT_EQ(grid[0].source, 0u);
    EXPECT_EQ(grid[11].source, 1u);
    std::vector<int> taken(grid.size(), 0);
    for (unsigned i = 0; i < 3; ++i) {
        const Shard s = parse_shard(std::to_string(i) + "/3");
        for (std::size_t k = 0; k < grid.size(); ++k) taken[k] += s.takes(k);
    }
    for (int t : taken) EXPECT_EQ(t, 1);  // every cell exactly once
}

TEST(TuneEncoders, AdaptersAndPresets) {
    const EncoderAdapter* x264 = find_encoder("libx264");
    ASSERT_NE(x264, nullptr);
    const auto args = x264->args("fast", "23");
    EXPECT_EQ(args, (std::vector<std::string>{"-c:v", "libx264", "-preset", "fast", "-crf", "23"}));
    EXPECT_THROW(x264->args("7", "23"), std::invalid_argument);
    EXPECT_THROW(find_encoder("libsvtav1")->args("fast", "30"), std::invalid_argument);
    EXPECT_NO_THROW(find_encoder("libsvtav1")->args("8", "30"));
    EXPECT_EQ(find_encoder("libvvenc"), nullptr);
}

TEST(TuneEncoders, HardwareEncodersAndWhyTheyFail) {
    // Each with its quality parameter and range, and how frames reach it.
    const EncoderAdapter* qsv = find_encoder("hevc_qsv");
    ASSERT_NE(qsv, nullptr);
    EXPECT_EQ(qsv->args("slow", "24"),
              (std::vector<std::string>{"-c:v", "hevc_qsv", "-preset", "slow", "-global_quality", "24"}));
    EXPECT_EQ(hardware_input(*qsv, 10, "yuv420p10le").pix_fmt, "p010le");
    const EncoderAdapter* va = find_encoder("av1_vaapi");
    ASSERT_NE(va, nullptr);
    EXPECT_EQ(va->crf_max, 255);
    EXPECT_EQ(va->args("4", "120"), (std::vector<std::string>{"-c:v", "av1_vaapi", "-compression_level", "4",
                                                              "-rc_mode", "CQP", "-qp", "120"}));
    const HardwareInput up = hardware_input(*va, 8, "yuv420p");
    EXPECT_EQ(up.before_input, (std::vector<std::string>{"-init_hw_device", "vaapi=va", "-filter_hw_device", "va"}));
    EXPECT_EQ(up.filters, "format=nv12,hwupload");
    EXPECT_TRUE(up.pix_fmt.empty());
    const EncoderAdapter* amf = find_encoder("h264_amf");
    ASSERT_NE(amf, nullptr);
    EXPECT_EQ(amf->args("quality", "22"),
              (std::vector<std::string>{"-c:v", "h264_amf", "-quality", "quality", "-rc", "cqp", "-qp_i", "22", "-qp_p",
                                        "22", "-qp_b", "22"}));
    EXPECT_THROW(amf->args("fast", "22"), std::invalid_argument);
    EXPECT_EQ(hardware_input(*find_encoder("libx264"), 8, "yuv444p").pix_fmt, "yuv444p");
    // ffmpeg 5.1's own words on a machine without the hardware.
    EXPECT_NE(hardware_failure_hint(*find_encoder("h264_qsv"),
                                    "[h264_qsv @ 0x1] Error initializing an internal MFX session: unsupported (-3)\n")
                  .find("needs an Intel GPU"),
              std::string::npos);
    EXPECT_NE(hardware_failure_hint(*find_encoder("h264_vaapi"),
                                    "Device creation failed: -542398533.\nFailed to set value 'vaapi=va' for option "
                                    "'init_hw_device': Generic error in an external library\n")
                  .find("needs a VAAPI device"),
              std::string::npos);
    EXPECT_NE(hardware_failure_hint(*find_encoder("hevc_nvenc"), "[hevc_nvenc @ 0x1] Cannot load libcuda.so.1\n")
                  .find("needs an NVIDIA GPU"),
              std::string::npos);
    EXPECT_EQ(hardware_failure_hint(*find_encoder("libx264"), "Cannot load libcuda.so.1"), "");
    EXPECT_EQ(hardware_failure_hint(*find_encoder("h264_vaapi"), "Invalid argument"), "");
}

TEST(TuneProcess, ExitStatusAndQuoting) {
    EXPECT_EQ(run_process({"true"}).exit_code, 0);
    EXPECT_EQ(run_process({"false"}).exit_code, 1);
    EXPECT_EQ(run_process({"/nonexistent/program"}).exit_code, 127);
    const auto r = run_process({"sh", "-c", "echo out; echo err >&2; exit 3"}, true);
    EXPECT_EQ(r.exit_code, 3);
    EXPECT_EQ(r.out, "out\n");
    EXPECT_EQ(r.err_tail, "err\n");
    EXPECT_EQ(shell_quote({"ffmpeg", "-vf", "trim=start_frame=1", "a b", "it's"}),
              "ffmpeg -vf trim=start_frame=1 'a b' 'it'\\''s'");
}

TEST(TuneScore, Percentiles) {
    EXPECT_DOUBLE_EQ(percentile({5, 1, 3}, 0), 1);
    EXPECT_DOUBLE_EQ(percentile({5, 1, 3}, 50), 3);
    EXPECT_DOUBLE_EQ(percentile({5, 1, 3}, 100), 5);
    EXPECT_DOUBLE_EQ(percentile({0, 10}, 5), 0.5);
    EXPECT_TRUE(std::isnan(percentile({}, 5)));
}

TEST(TuneReport, UpperHullIsTheRisingFrontier) {
    const auto h = upper_hull({{100, 80}, {200, 85}, {300, 94}, {400, 95}, {500, 95.5}, {250, 90}, {600, 95.2}});
    const std::vector<std::pair<double, double>> want = {{100, 80}, {300, 94}, {400, 95}, {500, 95.5}};
    EXPECT_EQ(h, want);
    EXPECT_TRUE(upper_hull({}).empty());
}

class TuneRows : public ::testing::Test {
protected:
    fs::path dir = fs::temp_directory_path() / ("tune_rows_" + std::to_string(::getpid()));
    void SetUp() override { fs::create_directories(dir); }
    void TearDown() override { fs::remove_all(dir); }
    static Row row(const std::string& enc, int crf, int status) {
        Row r;
        r["schema_version"] = kRowSchemaVersion;
        r["src"] = "a.yuv";
        r["encoder"] = enc;
        r["preset"] = "fast";
        r["crf"] = crf;
        r["extra_params"] = "";
        r["clip_mode"] = "full";
        r["vmaf_model"] = "vmaf_v0.6.1";
        r["exit_status"] = status;
        r["vmaf_score"] = status == 0 ? nlohmann::json(90.0) : nlohmann::json(nullptr);
        return r;
    }
};

TEST_F(TuneRows, AppendReadAndCorruptFilesStayUntouched) {
    const std::string p = (dir / "c.jsonl").string();
    EXPECT_TRUE(read_rows(p).empty());  // a missing file has no rows
    {
        RowWriter w(p);
        w.append(row("libx264", 30, 0));
        w.append(row("libx264", 20, 1));
    }
    const auto rows = read_rows(p);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[1]["exit_status"], 1);
    EXPECT_TRUE(rows[1]["vmaf_score"].is_null());
    EXPECT_NE(cell_identity(rows[0]), cell_identity(rows[1]));

    const std::string bad = (dir / "bad.jsonl").string();
    { std::ofstream(bad) << rows[0].dump() << "\n{\"truncated\": \n"; }
    const auto before = fs::file_size(bad);
    try {
        read_rows(bad);
        FAIL() << "a corrupt line must be an error";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
    }
    EXPECT_EQ(fs::file_size(bad), before);
}

TEST_F(TuneRows, ATornLastLineIsLeftOutAndCutOffBeforeAppending) {
    // A killed writer leaves part of its last row without the newline.
    const std::string p = (dir / "torn.jsonl").string();
    const std::string whole = row("libx264", 30, 0).dump() + "\n" + row("libx264", 35, 0).dump() + "\n";
    { std::ofstream(p, std::ios::binary) << whole << row("libx264", 40, 0).dump().substr(0, 25); }
    const RowFile f = read_row_file(p);
    ASSERT_EQ(f.rows.size(), 2u);
    EXPECT_EQ(f.rows[1]["crf"], 35);
    EXPECT_EQ(f.complete_bytes, whole.size());
    EXPECT_EQ(f.torn.size(), 25u);
    EXPECT_EQ(read_rows(p).size(), 2u);              // reported, not an error
    EXPECT_EQ(fs::file_size(p), whole.size() + 25);  // reading never changes the file
    drop_torn_line(p, f);
    EXPECT_EQ(fs::file_size(p), whole.size());
    {
        RowWriter w(p);
        w.append(row("libx264", 40, 0));
    }
    const auto rows = read_rows(p);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[2]["crf"], 40);

    // A complete last row that only lacks its newline is kept, and the next row starts a line of its own.
    const std::string q = (dir / "nonewline.jsonl").string();
    { std::ofstream(q, std::ios::binary) << row("libx264", 30, 0).dump(); }
    EXPECT_TRUE(read_row_file(q).torn.empty());
    {
        RowWriter w(q);
        w.append(row("libx264", 35, 0));
    }
    EXPECT_EQ(read_rows(q).size(), 2u);

    // A broken line before the last one stays an error.
    const std::string b = (dir / "mid.jsonl").string();
    { std::ofstream(b, std::ios::binary) << "{\"cut\": 1\n" << whole; }
    EXPECT_THROW(read_row_file(b), std::runtime_error);
}

TEST_F(TuneRows, AtomicWritesReplaceWholeFiles) {
    const fs::path p = dir / "out.txt";
    write_file_atomic(p, "first");
    write_file_atomic(p, "second");
    std::ifstream in(p);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text, "second");
    write_file_atomic(dir / "run.sh", "#!/bin/sh\n", fs::perms::owner_all);
    EXPECT_NE(fs::status(dir / "run.sh").permissions() & fs::perms::owner_exec, fs::perms::none);
    EXPECT_THROW(write_file_atomic(dir / "no" / "such" / "dir.txt", "x"), std::runtime_error);
    for (const auto& e : fs::directory_iterator(dir))
        EXPECT_EQ(e.path().string().find(".tmp"), std::string::npos) << e.path();  // nothing left behind
}

TEST_F(TuneRows, MergeKeepsOneRowPerCellPreferringSuccess) {
    const std::string a = (dir / "a.jsonl").string(), b = (dir / "b.jsonl").string();
    write_rows(a, {row("libx265", 30, 0), row("libx264", 40, 1)});
    write_rows(b, {row("libx264", 40, 0), row("libx264", 30, 0), row("libx265", 30, 0)});
    const auto m = merge_rows({a, b});
    ASSERT_EQ(m.size(), 3u);
    EXPECT_EQ(m[0]["encoder"], "libx264");
    EXPECT_EQ(m[0]["crf"], 30);
    EXPECT_EQ(m[1]["crf"], 40);
    EXPECT_EQ(m[1]["exit_status"], 0);  // the successful row replaced the failed one
    EXPECT_EQ(m[2]["encoder"], "libx265");
}

}  // namespace
}  // namespace vmaf::tune

namespace vmaf::tune {
namespace {

// JCT-VC reference values (JCTVC-E137's BD-rate sheet, as Netflix's
// vmaf/python tests check them): rate, PSNR pairs and the expected fraction.
TEST(TuneBd, MatchesTheJctvcSheet) {
    EXPECT_NEAR(bd_rate({{108048.8736, 43.6471}, {61279.976, 40.3953}, {33905.6656, 37.247}, {18883.6928, 34.2911}},
                        {{108061.2784, 43.6768}, {61299.9936, 40.4232}, {33928.7472, 37.2761}, {18910.912, 34.3147}}),
                -0.00465215420752807, 1e-6);
    EXPECT_NEAR(bd_rate({{40433.8848, 37.5761}, {7622.7456, 35.3756}, {2394.488, 33.8977}, {1017.6184, 32.0603}},
                        {{40370.12, 37.5982}, {7587.0024, 35.4025}, {2390.0944, 33.9194}, {1017.0984, 32.0822}}),
                -0.018779823450567612, 1e-6);
}

TEST(TuneBd, ExactOnKnownCurves) {
    const std::vector<RdPoint> a = {{100, 70}, {200, 80}, {400, 88}, {800, 93}, {1600, 96}};
    EXPECT_NEAR(bd_rate(a, a), 0.0, 1e-12);
    EXPECT_NEAR(bd_quality(a, a), 0.0, 1e-12);
    // The same curve at half the bitrate: exactly -50% at equal quality.
    std::vector<RdPoint> half = a;
    for (auto& p : half) p.rate /= 2;
    EXPECT_NEAR(bd_rate(a, half), -0.5, 1e-12);
    // The same curve 2 VMAF higher: +2 at equal bitrate.
    std::vector<RdPoint> up = a;
    for (auto& p : up) p.quality += 2;
    EXPECT_NEAR(bd_quality(a, up), 2.0, 1e-12);
    // A straight line's integral is exact.
    EXPECT_NEAR(pchip_integral({0, 1, 2, 3}, {0, 2, 4, 6}, 0.5, 2.5), 6.0, 1e-12);
}

TEST(TuneBd, RejectsUnusableCurves) {
    const std::vector<RdPoint> a = {{100, 70}, {200, 80}, {400, 88}, {800, 93}};
    EXPECT_THROW(bd_rate(a, {{100, 70}, {200, 80}, {400, 88}}), std::invalid_argument);             // 3 points
    EXPECT_THROW(bd_rate(a, {{100, 70}, {200, 80}, {400, 79}, {800, 93}}), std::invalid_argument);  // not rising
    EXPECT_THROW(bd_rate(a, {{100, 10}, {200, 20}, {400, 30}, {800, 40}}), std::invalid_argument);  // no overlap
    EXPECT_THROW(bd_rate(a, {{0, 70}, {200, 80}, {400, 88}, {800, 93}}), std::invalid_argument);    // zero rate
}

}  // namespace
}  // namespace vmaf::tune

namespace vmaf::tune {
namespace {

// A smooth, falling VMAF-like curve over CRF, and the true answer by brute force.
double synthetic_vmaf(int crf) {
    return 100.0 / (1.0 + std::exp((crf - 38.0) / 5.5)) + 0.3 * std::sin(crf * 0.7);
}

TEST(TuneSearch, FindsTheHighestCrfMeetingTheTargetWithFewerProbesThanBisection) {
    unsigned interp_total = 0, bisect_total = 0;
    for (double target : {60.0, 75.0, 85.0, 90.0, 93.0, 96.0}) {
        int truth = -1;
        for (int c = 10; c <= 51; ++c)
            if (synthetic_vmaf(c) >= target) truth = c;  // the curve is monotonic at this resolution
        const SearchResult a = search_quality(synthetic_vmaf, 10, 51, target);
        const SearchResult b = search_quality(synthetic_vmaf, 10, 51, target, {}, false);
        ASSERT_TRUE(a.crf && b.crf);
        EXPECT_EQ(*a.crf, truth) << "target " << target;
        EXPECT_EQ(*b.crf, truth) << "target " << target;
        interp_total += a.probes;
        bisect_total += b.probes;
        std::printf("target %.0f: crf %d, interpolated %u probes, bisection %u probes\n", target, truth, a.probes,
                    b.probes);
    }
    EXPECT_LT(interp_total, bisect_total);
}

TEST(TuneSearch, SeededValuesAreNotProbedAgain) {
    std::map<int, double> known;
    for (int c : {20, 30, 40}) known[c] = synthetic_vmaf(c);
    unsigned calls = 0;
    const SearchResult r = search_quality(
        [&](int c) {
            ++calls;
            return synthetic_vmaf(c);
        },
        10, 51, 90.0, known);
    EXPECT_EQ(r.probes, calls);
    EXPECT_LE(calls, 4u);
    ASSERT_TRUE(r.crf);
}

TEST(TuneSearch, UnreachableTargetNamesTheBestCandidate) {
    const SearchResult r = search_quality(synthetic_vmaf, 30, 51, 99.5);
    EXPECT_FALSE(r.crf);
    EXPECT_EQ(r.best_crf, 30);  // the best quality the range offers
    EXPECT_NEAR(r.best_value, synthetic_vmaf(30), 1e-12);
}

TEST(TuneSearch, BitrateTargetPicksTheClosestCrf) {
    auto kbps = [](int crf) { return 8000.0 * std::pow(0.88, crf - 10); };
    for (double target : {3000.0, 1000.0, 250.0}) {
        int truth = 10;
        for (int c = 10; c <= 51; ++c)
            if (std::fabs(std::log(kbps(c) / target)) < std::fabs(std::log(kbps(truth) / target))) truth = c;
        const SearchResult r = search_bitrate(kbps, 10, 51, target);
        ASSERT_TRUE(r.crf);
        EXPECT_EQ(*r.crf, truth) << target;
        EXPECT_LE(r.probes, 8u);
    }
}

TEST(TuneShots, CutsWhereTheScoreReachesTheThreshold) {
    //                          0  1  2   3  4  5  6  7   8  9
    const std::vector<double> sc = {0, 1, 2, 30, 1, 1, 1, 1, 12, 1};
    auto shots = split_shots(sc, 10, 1);
    ASSERT_EQ(shots.size(), 3u);
    EXPECT_EQ(shots[0].first, 0u);
    EXPECT_EQ(shots[0].end, 3u);
    EXPECT_EQ(shots[1].first, 3u);
    EXPECT_EQ(shots[1].end, 8u);
    EXPECT_DOUBLE_EQ(shots[1].score, 30);
    EXPECT_EQ(shots[2].first, 8u);
    EXPECT_EQ(shots[2].end, 10u);
    // min_frames 3: both cuts are taken, but the last shot (8..10) is short and joins 3..8.
    shots = split_shots(sc, 10, 3);
    ASSERT_EQ(shots.size(), 2u);
    EXPECT_EQ(shots[0].end, 3u);
    EXPECT_EQ(shots[1].first, 3u);
    EXPECT_EQ(shots[1].end, 10u);
    // min_frames 4: the cut at 3 would leave a 3-frame shot, so it is not taken; 8..10 joins again.
    shots = split_shots(sc, 10, 4);
    ASSERT_EQ(shots.size(), 1u);
    EXPECT_EQ(shots[0].end, 10u);
    EXPECT_EQ(split_shots(sc, 50, 1).size(), 1u);
    EXPECT_THROW(split_shots(sc, 0, 1), std::invalid_argument);
    EXPECT_THROW(split_shots(sc, 100.5, 1), std::invalid_argument);
    EXPECT_THROW(split_shots(sc, 10, 0), std::invalid_argument);
}

/// Points of three sizes: the hull across them and the rungs picked along it.
std::vector<LadderPoint> ladder_points() {
    return {
        {1920, 1080, 22, 4000, 97}, {1920, 1080, 28, 2000, 93}, {1920, 1080, 34, 1000, 84},
        {1280, 720, 22, 2200, 94},  {1280, 720, 28, 1100, 90},  {1280, 720, 34, 550, 82},
        {640, 360, 22, 600, 80},    {640, 360, 28, 300, 72},    {640, 360, 34, 150, 60},
    };
}

TEST(TuneLadder, HullCrossesSizes) {
    const auto pts = ladder_points();
    const auto hull = ladder_hull(pts);
    // 150 (360p) -> 300 (360p) -> 550 (720p) -> 1100 (720p) -> 2200 (720p) -> 4000 (1080p):
    // 640x360 at 600 kbps (80) lies under 720p's 550 kbps (82); 1080p CRF 28 (93 at 2000) under 720p CRF 22's line.
    EXPECT_EQ(hull, (std::vector<std::size_t>{8, 7, 5, 4, 3, 0}));
    for (std::size_t k = 1; k < hull.size(); ++k) {
        EXPECT_GT(pts[hull[k]].kbps, pts[hull[k - 1]].kbps);
        EXPECT_GT(pts[hull[k]].vmaf, pts[hull[k - 1]].vmaf);
    }
}

TEST(TuneLadder, RungsSpreadInLogBitrate) {
    const auto pts = ladder_points();
    const auto hull = ladder_hull(pts);
    // Ends always; k/(n-1) of the way in log rate between 150 and 4000 kbps.
    EXPECT_EQ(rungs_by_count(pts, hull, 2), (std::vector<std::size_t>{8, 0}));
    EXPECT_EQ(rungs_by_count(pts, hull, 1), (std::vector<std::size_t>{0}));
    // n = 3: middle target sqrt(150 * 4000) = 775 kbps: 550 (log distance 0.34) beats 1100 (0.35).
    EXPECT_EQ(rungs_by_count(pts, hull, 3), (std::vector<std::size_t>{8, 5, 0}));
    // n = 4: targets 447 and 1335 kbps: 550 and 1100.
    EXPECT_EQ(rungs_by_count(pts, hull, 4), (std::vector<std::size_t>{8, 5, 4, 0}));
    EXPECT_EQ(rungs_by_count(pts, hull, 10), hull);  // a hull of 6 gives all 6
    EXPECT_THROW(rungs_by_count(pts, hull, 0), std::invalid_argument);
}

TEST(TuneLadder, RungsForVmafTargets) {
    const auto pts = ladder_points();
    const auto hull = ladder_hull(pts);
    const auto r = rungs_by_targets(pts, hull, {95, 90, 80, 99});
    ASSERT_EQ(r.size(), 4u);
    EXPECT_EQ(r[0].point, 0u);  // 95: only 1080p CRF 22 (97)
    EXPECT_TRUE(r[0].met);
    EXPECT_EQ(r[1].point, 4u);  // 90: 720p CRF 28 at 1100 kbps is the cheapest on the hull
    EXPECT_EQ(r[2].point, 5u);  // 80: 720p CRF 34 (82) at 550, not 360p CRF 22 (80) at 600
    EXPECT_EQ(r[3].point, 0u);  // 99: nothing reaches it; the best stands in
    EXPECT_FALSE(r[3].met);
}

TEST(TuneLadder, Resolutions) {
    using R = std::vector<std::pair<unsigned, unsigned>>;
    EXPECT_EQ(parse_resolutions("1280x720,640x360,1280x720", 1920, 1080, true, true), (R{{1280, 720}, {640, 360}}));
    EXPECT_THROW(parse_resolutions("", 1920, 1080, true, true), std::invalid_argument);
    EXPECT_THROW(parse_resolutions(",", 1920, 1080, true, true), std::invalid_argument);
    EXPECT_THROW(parse_resolutions("1280x", 1920, 1080, true, true), std::invalid_argument);
    EXPECT_THROW(parse_resolutions("1280*720", 1920, 1080, true, true), std::invalid_argument);
    EXPECT_THROW(parse_resolutions("0x720", 1920, 1080, true, true), std::invalid_argument);
    EXPECT_THROW(parse_resolutions("3840x2160", 1920, 1080, true, true), std::invalid_argument);
    EXPECT_THROW(parse_resolutions("1920x1082", 1920, 1080, true, true), std::invalid_argument);
    EXPECT_THROW(parse_resolutions("641x360", 1920, 1080, true, true), std::invalid_argument);  // 4:2:0 needs even
    EXPECT_EQ(parse_resolutions("641x361", 1920, 1080, false, false), (R{{641, 361}}));         // 4:4:4 does not
}

TEST(TuneLadder, CodecsStrings) {
    const std::uint8_t avcc[] = {1, 0x64, 0x00, 0x1f, 0xff};
    EXPECT_EQ(codecs_from_record("avcC", avcc, sizeof avcc), "avc1.64001f");
    // HEVC Main, level 3.1, compatibility flags 0x60000000, constraint byte 0x90: "hev1.1.6.L93.90".
    const std::uint8_t hvcc[] = {1, 0x01, 0x60, 0, 0, 0, 0x90, 0, 0, 0, 0, 0, 93};
    EXPECT_EQ(codecs_from_record("hvcC", hvcc, sizeof hvcc), "hev1.1.6.L93.90");
    EXPECT_EQ(codecs_from_record("hvcC", hvcc, sizeof hvcc, "hvc1"), "hvc1.1.6.L93.90");
    // AV1 main profile, level 4.0 (seq_level_idx 8), main tier, 10 bit.
    const std::uint8_t av1c[] = {0x81, 0x08, 0x4c, 0};
    EXPECT_EQ(codecs_from_record("av1C", av1c, sizeof av1c), "av01.0.08M.10");
    EXPECT_EQ(codecs_from_record("avcC", avcc, 2), "");
    EXPECT_EQ(vp9_level({1920, 1080, 30, PixelFormat::Yuv420, 8}), 40u);
    EXPECT_EQ(vp9_level({640, 360, 24, PixelFormat::Yuv420, 8}), 21u);
}

TEST(TuneLadder, Manifests) {
    const std::vector<Rung> rungs = {{"640x360_crf28", "rung_640x360_crf28/index.m3u8", 640, 360, 300.2, "avc1.64001e"},
                                     {"1280x720_crf22", "a&b.mp4", 1280, 720, 2200, ""}};
    const std::string m3u8 = hls_master(rungs, 24);
    EXPECT_EQ(m3u8,
              "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n"
              "#EXT-X-STREAM-INF:BANDWIDTH=300200,AVERAGE-BANDWIDTH=300200,RESOLUTION=640x360,FRAME-RATE=24.000,"
              "CODECS=\"avc1.64001e\"\nrung_640x360_crf28/index.m3u8\n"
              "#EXT-X-STREAM-INF:BANDWIDTH=2200000,AVERAGE-BANDWIDTH=2200000,RESOLUTION=1280x720,FRAME-RATE=24.000\n"
              "a&b.mp4\n");
    const std::string mpd = dash_mpd(rungs, 24, 2, "video/mp4");
    EXPECT_NE(mpd.find("<Representation id=\"640x360_crf28\" bandwidth=\"300200\" width=\"640\" height=\"360\" "
                       "codecs=\"avc1.64001e\">"),
              std::string::npos);
    EXPECT_NE(mpd.find("<BaseURL>a&amp;b.mp4</BaseURL>"), std::string::npos);
    EXPECT_NE(mpd.find("mediaPresentationDuration=\"PT2.000S\""), std::string::npos);
    EXPECT_NE(mpd.find("frameRate=\"24\""), std::string::npos);
    EXPECT_EQ(dash_frame_rate(30000.0 / 1001), "30000/1001");
    EXPECT_EQ(dash_frame_rate(24000.0 / 1001), "24000/1001");
    EXPECT_EQ(dash_frame_rate(12.5), "25/2");
    EXPECT_EQ(dash_frame_rate(29.97), "2997/100");
}

TEST(TuneLists, CommaListsAndEncoderRuns) {
    EXPECT_EQ(split_list("a,,b,"), (std::vector<std::string>{"a", "b"}));
    EXPECT_TRUE(split_list("").empty());
    EXPECT_EQ(parse_number_list("95,90.5,80", "--target-vmafs"), (std::vector<double>{95, 90.5, 80}));
    EXPECT_THROW(parse_number_list("95,x", "--target-vmafs"), std::invalid_argument);
    EXPECT_THROW(parse_number_list("95a", "--target-vmafs"), std::invalid_argument);
    EXPECT_THROW(parse_number_list(",", "--target-vmafs"), std::invalid_argument);
    EXPECT_EQ(parse_encoder_run("libx264"), (EncoderRun{"libx264", "", {}}));
    EXPECT_EQ(parse_encoder_run("libx264:veryfast"), (EncoderRun{"libx264", "veryfast", {}}));
    EXPECT_EQ(parse_encoder_run("libx264:veryfast:18-36"), (EncoderRun{"libx264", "veryfast", {"18:36"}}));
    EXPECT_EQ(parse_encoder_run("libsvtav1:10:20-50/5"), (EncoderRun{"libsvtav1", "10", {"20:50:5"}}));
    EXPECT_EQ(parse_encoder_run("libx265::30"), (EncoderRun{"libx265", "", {"30"}}));
    EXPECT_THROW(parse_encoder_run(":fast"), std::invalid_argument);
    EXPECT_THROW(parse_encoder_run("libx264:fast:18-36:1"), std::invalid_argument);
    EXPECT_THROW(parse_encoder_run("libx264:fast:"), std::invalid_argument);
    // The CRFs go through --crf's parser: its checks apply.
    EXPECT_EQ(parse_crf_list(parse_encoder_run("libx264:fast:18-24/3").crf_specs, 0, 51),
              (std::vector<double>{18, 21, 24}));
}

TEST(TuneCompare, CurvesThatBarelyOverlapGetNoBdValues) {
    auto rows_of = [](const std::string& enc, const std::string& preset, std::vector<RdPoint> pts) {
        std::vector<Row> out;
        int crf = 20;
        for (const RdPoint& p : pts) {
            Row r;
            r["encoder"] = enc;
            r["preset"] = preset;
            r["crf"] = crf++;
            r["exit_status"] = 0;
            r["bitrate_kbps"] = p.rate;
            r["vmaf_score"] = p.quality;
            out.push_back(r);
        }
        return out;
    };
    std::vector<Row> rows = rows_of("libx264", "fast", {{100, 70}, {200, 80}, {400, 88}, {800, 93}});
    for (Row& r : rows_of("libx264", "slow", {{90, 72}, {180, 82}, {360, 89}, {720, 94}})) rows.push_back(r);
    // VMAF 92.5 .. 97 overlaps the anchor's 70 .. 93 by half a point.
    for (Row& r : rows_of("libx265", "medium", {{700, 92.5}, {900, 95}, {1100, 96}, {1300, 97}})) rows.push_back(r);
    const Comparison c = compare_rows(rows, {{"libx264", "fast"}, {"libx264", "slow"}, {"libx265", "medium"}}, {85});
    ASSERT_EQ(c.curves.size(), 3u);
    EXPECT_EQ(c.curves[1].preset, "slow");  // presets of one encoder are curves of their own
    EXPECT_TRUE(c.curves[1].bd_rate.has_value());
    EXPECT_NEAR(c.curves[1].overlap_vmaf, 93 - 72, 1e-12);
    EXPECT_FALSE(c.curves[2].bd_rate.has_value());
    EXPECT_FALSE(c.curves[2].bd_vmaf.has_value());
    EXPECT_NEAR(c.curves[2].overlap_vmaf, 0.5, 1e-12);
    EXPECT_NE(c.curves[2].bd_note.find("0.50 VMAF points"), std::string::npos) << c.curves[2].bd_note;
    // Asked for explicitly, the thin overlap gives its (unreliable) number.
    EXPECT_TRUE(compare_rows(rows, {{"libx264", "fast"}, {"libx265", "medium"}}, {85}, 0.25).curves[1].bd_rate);
    // Rows of presets not asked for are left out.
    EXPECT_EQ(compare_rows(rows, {{"libx264", "fast"}, {"libx265", "medium"}}, {85}).curves.size(), 2u);
}

TEST(TuneWindow, SpreadSamplesAndTheirFilters) {
    // One sample: the centre, as --sample-seconds always took it.
    FrameWindow w = spread_windows(24, 1, 6);
    ASSERT_EQ(w.ranges.size(), 1u);
    EXPECT_EQ(w.ranges[0], (FrameRange{9, 15}));
    EXPECT_EQ(w.ffmpeg_filter(), "trim=start_frame=9:end_frame=15,setpts=PTS-STARTPTS");
    // Three: one centred in each third.
    w = spread_windows(90, 3, 6);
    ASSERT_EQ(w.ranges.size(), 3u);
    EXPECT_EQ(w.ranges[0], (FrameRange{12, 18}));
    EXPECT_EQ(w.ranges[1], (FrameRange{42, 48}));
    EXPECT_EQ(w.ranges[2], (FrameRange{72, 78}));
    EXPECT_EQ(w.frames(), 18u);
    EXPECT_EQ(w.ffmpeg_filter(),
              "select=between(n\\,12\\,17)+between(n\\,42\\,47)+between(n\\,72\\,77),setpts=N/FRAME_RATE/TB");
    // Samples that would touch merge; samples covering everything are the whole source.
    w = spread_windows(20, 2, 9);
    ASSERT_EQ(w.ranges.size(), 2u);
    EXPECT_EQ(w.ranges[1], (FrameRange{10, 19}));
    w = spread_windows(21, 2, 10);  // {0, 10} and {10, 20} touch
    ASSERT_EQ(w.ranges.size(), 1u);
    EXPECT_EQ(w.ranges[0], (FrameRange{0, 20}));
    EXPECT_TRUE(spread_windows(20, 2, 10).whole());
    EXPECT_TRUE(spread_windows(20, 1, 30).whole());
}

TEST_F(TuneRows, WindowedSourceDeliversTheRangesFramesOnly) {
    // 10 frames of 16x8 gray whose every sample is its frame number.
    const std::string p = (dir / "n.yuv").string();
    {
        std::ofstream o(p, std::ios::binary);
        for (int f = 0; f < 10; ++f) o << std::string(16 * 8, static_cast<char>(f));
    }
    const VideoGeometry g{PixelFormat::Yuv400, 8, 16, 8};
    FrameWindow w;
    w.ranges = {{1, 3}, {6, 8}};
    auto in_order = window_video(open_yuv(p, g), w);
    EXPECT_EQ(in_order->frames_left(), 4u);
    std::vector<int> seen;
    while (auto pic = in_order->read()) seen.push_back(pic->plane(0).row<std::uint8_t>(0)[0]);
    EXPECT_EQ(seen, (std::vector<int>{1, 2, 6, 7}));
    auto by_index = window_video(open_yuv(p, g), w);
    by_index->skip(1);
    EXPECT_EQ(by_index->frames_left(), 3u);
    EXPECT_EQ(by_index->read_frame(2).plane(0).row<std::uint8_t>(0)[0], 7);
    // A window past the end of the source: the read says where the source ended.
    w.ranges = {{8, 12}};
    auto past = window_video(open_yuv(p, g), w);
    EXPECT_TRUE(past->read());
    EXPECT_TRUE(past->read());
    EXPECT_THROW(past->read(), vmaf::Error);
}

}  // namespace
}  // namespace vmaf::tune
