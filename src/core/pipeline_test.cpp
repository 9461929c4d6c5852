#include "core/pipeline.hpp"

#include <gtest/gtest.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace vmaf::engine_detail {
namespace {

VideoGeometry geometry(unsigned w, unsigned h, PixelFormat f, unsigned bpc) {
    VideoGeometry g;
    g.width = w;
    g.height = h;
    g.format = f;
    g.bpc = bpc;
    return g;
}

TEST(PairsInFlight, CpuTwoPerWorkerPlusOne) {
    const VideoGeometry g = geometry(3840, 2160, PixelFormat::Yuv420, 10);
    EXPECT_EQ(pairs_in_flight(g, false, 3, false), 7u);
    EXPECT_EQ(pairs_in_flight(g, true, 0, false), 1u);
}

TEST(PairsInFlight, GpuBudgetCountsThePlanesAPairHolds) {
    // 4K 10-bit 4:2:0: 24.9 MB a picture with chroma, 16.6 MB luma only; a
    // 1 GiB budget of page-locked pairs, as many as the CPU's two per worker
    // plus one, 4 to 32.
    const VideoGeometry g420 = geometry(3840, 2160, PixelFormat::Yuv420, 10);
    EXPECT_EQ(pairs_in_flight(g420, false, 8, true), 17u);
    EXPECT_EQ(pairs_in_flight(g420, false, 16, true), 21u);  // 1 GiB / 49.8 MB
    EXPECT_EQ(pairs_in_flight(g420, true, 8, true), 17u);
    EXPECT_EQ(pairs_in_flight(g420, true, 16, true), 32u);   // 33.2 MB a pair: the cap
    EXPECT_EQ(pairs_in_flight(g420, true, 4, true), 9u);     // two per worker, plus one
    const VideoGeometry g444 = geometry(3840, 2160, PixelFormat::Yuv444, 16);
    EXPECT_EQ(pairs_in_flight(g444, false, 8, true), 10u);
    const VideoGeometry g422 = geometry(3840, 2160, PixelFormat::Yuv422, 10);
    EXPECT_EQ(pairs_in_flight(g422, false, 16, true), 16u);
    const VideoGeometry big = geometry(8192, 8192, PixelFormat::Yuv444, 16);
    EXPECT_EQ(pairs_in_flight(big, false, 8, true), 4u);     // never fewer than four
}

/// Stages over `n` pairs recording what happened to each.
struct Recorder {
    explicit Recorder(unsigned count) : n(count) {}
    unsigned n, next = 0;
    std::mutex m;
    std::map<unsigned, std::string> steps;  // per pair: the stages in the order they ran
    std::vector<unsigned> collected;
    Stages stages() {
        return Stages{
            [this](Token& t) {
                if (next == n) return false;
                t.index = next++;
                return true;
            },
            [this](Token& t) {
                std::lock_guard lk(m);
                steps[t.index] += "L";
            },
            [this](Token& t, bool) {
                std::lock_guard lk(m);
                steps[t.index] += "W";
            },
            [this](Token& t) {
                std::lock_guard lk(m);
                steps[t.index] += "C";
                collected.push_back(t.index);
            },
        };
    }
};

TEST(RunStages, LoadWorkCollectPerPairCollectedInOrder) {
    for (const unsigned threads : {0u, 3u}) {
        Recorder r{20};
        run_stages(r.stages(), threads, 5);
        ASSERT_EQ(r.collected.size(), 20u);
        for (unsigned i = 0; i < 20; ++i) {
            EXPECT_EQ(r.collected[i], i);
            EXPECT_EQ(r.steps[i], "LWC") << "pair " << i << ", " << threads << " threads";
        }
    }
}

TEST(RunStages, TraceFileHasEveryStageOfEveryPair) {
    const std::string path = ::testing::TempDir() + "pipeline_trace.csv";
    std::remove(path.c_str());
    ::setenv("VMAF_PIPELINE_TRACE", path.c_str(), 1);
    Recorder r{7};
    run_stages(r.stages(), 2, 3);
    ::unsetenv("VMAF_PIPELINE_TRACE");
    std::ifstream f(path);
    std::string line;
    ASSERT_TRUE(std::getline(f, line));
    EXPECT_EQ(line, "pair,stage,thread,start_us,end_us");
    std::map<std::string, unsigned> count;
    while (std::getline(f, line)) {
        const auto a = line.find(','), b = line.find(',', a + 1);
        ++count[line.substr(a + 1, b - a - 1)];
    }
    EXPECT_EQ(count["read"], 7u);
    EXPECT_EQ(count["load"], 7u);
    EXPECT_EQ(count["work"], 7u);
    EXPECT_EQ(count["collect"], 7u);
}

/// A trace file's spans: stage (or part) -> pair -> every (start, end).
std::map<std::string, std::map<unsigned, std::vector<std::pair<double, double>>>> read_spans(const std::string& path) {
    std::map<std::string, std::map<unsigned, std::vector<std::pair<double, double>>>> spans;
    std::ifstream f(path);
    std::string line;
    EXPECT_TRUE(std::getline(f, line));
    while (std::getline(f, line)) {
        std::vector<std::string> c;
        for (std::size_t from = 0;;) {
            const std::size_t to = line.find(',', from);
            c.push_back(line.substr(from, to - from));
            if (to == std::string::npos) break;
            from = to + 1;
        }
        EXPECT_EQ(c.size(), 5u) << line;
        if (c.size() == 5) spans[c[1]][static_cast<unsigned>(std::stoul(c[0]))].push_back({std::stod(c[3]), std::stod(c[4])});
    }
    return spans;
}

TEST(RunStages, TracePartsLieWithinTheirPairsWork) {
    const std::string path = ::testing::TempDir() + "pipeline_trace_parts.csv";
    std::remove(path.c_str());
    trace_part("outside", trace_clock());  // no run traced: nothing to write to, nothing happens
    Recorder r{9};
    Stages s = r.stages();
    const auto work = s.work;
    s.work = [work](Token& t, bool parallel) {
        const double a = trace_clock();
        work(t, parallel);
        trace_part("part", a);
    };
    ::setenv("VMAF_PIPELINE_TRACE", path.c_str(), 1);
    run_stages(s, 3, 4);
    ::unsetenv("VMAF_PIPELINE_TRACE");
    const auto spans = read_spans(path);
    EXPECT_EQ(spans.count("outside"), 0u);
    ASSERT_EQ(spans.at("part").size(), 9u);
    for (const auto& [pair, parts] : spans.at("part")) {
        ASSERT_EQ(parts.size(), 1u);
        const auto& w = spans.at("work").at(pair).at(0);
        EXPECT_GE(parts[0].first, w.first) << "pair " << pair;
        EXPECT_LE(parts[0].second, w.second) << "pair " << pair;
    }
    // Untraced: parts are no-ops.
    Recorder plain{3};
    Stages u = plain.stages();
    const auto plain_work = u.work;
    u.work = [plain_work](Token& t, bool parallel) {
        EXPECT_EQ(trace_clock(), 0.0);
        plain_work(t, parallel);
        trace_part("part", 0.0);
    };
    run_stages(u, 2, 2);
    EXPECT_EQ(plain.collected.size(), 3u);
}

// Work a stage hands to other threads records into the stage's pair through
// its TraceContext, and the collect stage takes parts too.
TEST(RunStages, TracePartsFromHelperThreadsAndCollect) {
    const std::string path = ::testing::TempDir() + "pipeline_trace_helpers.csv";
    std::remove(path.c_str());
    Recorder r{6};
    Stages s = r.stages();
    const auto work = s.work;
    s.work = [work](Token& t, bool parallel) {
        work(t, parallel);
        const TraceContext ctx = trace_context();
        ASSERT_NE(ctx.trace, nullptr);
        tbb::parallel_for(0, 4, [&](int) {
            TraceIn in(ctx);
            trace_part("inner", trace_clock());
        });
    };
    const auto collect = s.collect;
    s.collect = [collect](Token& t) {
        const double a = trace_clock();
        collect(t);
        trace_part("collected", a);
    };
    ::setenv("VMAF_PIPELINE_TRACE", path.c_str(), 1);
    run_stages(s, 3, 4);
    ::unsetenv("VMAF_PIPELINE_TRACE");
    const auto spans = read_spans(path);
    ASSERT_EQ(spans.at("inner").size(), 6u);
    ASSERT_EQ(spans.at("collected").size(), 6u);
    for (unsigned pair = 0; pair < 6; ++pair) {
        EXPECT_EQ(spans.at("inner").at(pair).size(), 4u) << "pair " << pair;
        const auto& c = spans.at("collect").at(pair).at(0);
        const auto& part = spans.at("collected").at(pair).at(0);
        EXPECT_GE(part.first, c.first) << "pair " << pair;
        EXPECT_LE(part.second, c.second) << "pair " << pair;
    }
    EXPECT_EQ(trace_context().trace, nullptr);  // outside the run
}

}  // namespace
}  // namespace vmaf::engine_detail
