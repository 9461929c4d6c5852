#include "core/pipeline.hpp"

#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace vmaf::engine_detail {

namespace {

/// The stage spans of one run, written to VMAF_PIPELINE_TRACE's file at the end.
class StageTrace {
public:
    StageTrace() : t0_(std::chrono::steady_clock::now()) {
        if (const char* p = std::getenv("VMAF_PIPELINE_TRACE"); p && *p) path_ = p;
    }
    ~StageTrace() {
        if (path_.empty()) return;
        std::FILE* f = std::fopen(path_.c_str(), "w");
        if (!f) return;  // a diagnostic: never fails the run
        std::fprintf(f, "pair,stage,thread,start_us,end_us\n");
        for (const Span& x : spans_)
            std::fprintf(f, "%u,%s,%zu,%.1f,%.1f\n", x.pair, x.stage.c_str(), x.thread, x.start, x.end);
        std::fclose(f);
    }
    bool on() const { return !path_.empty(); }
    /// Microseconds since the run's start.
    double now() const {
        return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0_).count();
    }
    /// Stage (or part) `stage` of pair `pair` ran on this thread from `start` until now.
    void add(unsigned pair, std::string_view stage, double start) {
        const double end = now();
        std::lock_guard lk(m_);
        // Threads numbered 0, 1, ... in the order they first finish a stage.
        const std::size_t thread = threads_.try_emplace(std::this_thread::get_id(), threads_.size()).first->second;
        spans_.push_back({pair, std::string(stage), thread, start, end});
    }

private:
    struct Span {
        unsigned pair;
        std::string stage;
        std::size_t thread;
        double start, end;
    };
    std::chrono::steady_clock::time_point t0_;
    std::string path_;
    std::mutex m_;
    std::vector<Span> spans_;
    std::map<std::thread::id, std::size_t> threads_;
};

/// The traced stage running on this thread, for trace_part() (its trace is a StageTrace).
thread_local TraceContext t_current;

StageTrace* trace_of(const TraceContext& c) { return static_cast<StageTrace*>(c.trace); }

/// `s` with each stage timed into `trace`.
Stages traced(const Stages& s, StageTrace& trace) {
    Stages t;
    t.read = [&s, &trace](Token& k) {
        const double a = trace.now();
        const bool more = s.read(k);
        if (more) trace.add(k.index, "read", a);
        return more;
    };
    if (s.load)
        t.load = [&s, &trace](Token& k) {
            const double a = trace.now();
            s.load(k);
            trace.add(k.index, "load", a);
        };
    t.work = [&s, &trace](Token& k, bool parallel) {
        const double a = trace.now();
        {
            TraceIn in(TraceContext{&trace, k.index});
            s.work(k, parallel);
        }
        trace.add(k.index, "work", a);
    };
    t.collect = [&s, &trace](Token& k) {
        const double a = trace.now();
        {
            TraceIn in(TraceContext{&trace, k.index});
            s.collect(k);
        }
        trace.add(k.index, "collect", a);
    };
    return t;
}

void run_untraced(const Stages& s, unsigned threads, unsigned in_flight) {
    if (threads == 0) {
        Token t;
        while (s.read(t)) {
            if (s.load) s.load(t);
            s.work(t, false);
            s.collect(t);
        }
        return;
    }
    using Ptr = std::shared_ptr<Token>;
    tbb::task_arena arena(static_cast<int>(threads));
    arena.execute([&] {
        tbb::parallel_pipeline(
            in_flight,
            tbb::make_filter<void, Ptr>(tbb::filter_mode::serial_in_order,
                                        [&](tbb::flow_control& fc) -> Ptr {
                                            auto t = std::make_shared<Token>();
                                            if (!s.read(*t)) {
                                                fc.stop();
                                                return nullptr;
                                            }
                                            return t;
                                        }) &
                tbb::make_filter<Ptr, Ptr>(tbb::filter_mode::parallel,
                                           [&](Ptr t) {
                                               if (s.load) s.load(*t);
                                               s.work(*t, true);
                                               return t;
                                           }) &
                tbb::make_filter<Ptr, void>(tbb::filter_mode::serial_in_order, [&](Ptr t) { s.collect(*t); }));
    });
}

}  // namespace

double trace_clock() { return t_current.trace ? trace_of(t_current)->now() : 0.0; }

void trace_part(std::string_view part, double start) {
    if (t_current.trace) trace_of(t_current)->add(t_current.pair, part, start);
}

TraceContext trace_context() { return t_current; }

TraceIn::TraceIn(TraceContext c) : saved_(t_current) { t_current = c; }
TraceIn::~TraceIn() { t_current = saved_; }

void run_stages(const Stages& s, unsigned threads, unsigned in_flight) {
    StageTrace trace;
    if (!trace.on()) return run_untraced(s, threads, in_flight);
    const Stages t = traced(s, trace);
    run_untraced(t, threads, in_flight);
}

unsigned pairs_in_flight(const VideoGeometry& g, bool luma_only, unsigned threads, bool gpu) {
    const unsigned cpu = threads * 2 + 1;
    if (!gpu) return cpu;
    const Picture probe(g.format, g.bpc, g.width, 1);
    const ChromaShift cs = chroma_shift(g.format);
    const unsigned planes = luma_only ? 1 : probe.planes();
    std::size_t picture = 0;
    for (unsigned p = 0; p < planes; ++p) {
        const std::size_t rows = p ? (g.height + (1u << cs.y) - 1) >> cs.y : g.height;
        picture += static_cast<std::size_t>(probe.plane(p).stride) * rows;
    }
    constexpr std::size_t kBudget = std::size_t{1} << 30;
    const std::size_t fit = std::clamp<std::size_t>(kBudget / (2 * picture), 4, 32);
    return static_cast<unsigned>(std::min<std::size_t>(cpu, fit));
}

}  // namespace vmaf::engine_detail
