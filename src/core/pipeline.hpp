// Drives frame pairs through the engine's stages: read (serial, in frame
// order) -> work (parallel: positioned reads, upload, compute) -> collect
// (serial, in frame order: scores, predictions). Private to the library.
#pragma once

#include <functional>
#include <string_view>

#include "core/extractors.hpp"
#include "vmaf/picture.hpp"

namespace vmaf::engine_detail {

struct Stages {
    std::function<bool(Token&)> read;            ///< false: no more pairs
    std::function<void(Token&)> load;            ///< the pair's pictures (parallel; may be empty)
    std::function<void(Token&, bool)> work;      ///< bool: may use worker threads within the pair
    std::function<void(Token&)> collect;
};

/// With `threads` 0, each pair goes through the stages on the calling
/// thread; otherwise up to `in_flight` pairs are between read and collect at
/// once, on `threads` workers.
///
/// With VMAF_PIPELINE_TRACE=FILE in the environment, every stage of every
/// pair is timed and FILE gets one CSV line per stage when the run ends
/// (pair, stage, worker thread, start and end in microseconds from the run's
/// start): where workers wait. bench/pipeline_trace.py summarises it. Parts
/// of a stage that its code marks with trace_part() get lines of their own
/// (Extractors marks each extractor's compute and finish).
void run_stages(const Stages& s, unsigned threads, unsigned in_flight);

/// Inside a stage of a traced run, on the stage's own thread: the time now,
/// in the trace's clock (0 elsewhere).
double trace_clock();
/// Inside a stage of a traced run, on the stage's own thread: the span from
/// `start` (trace_clock()) to now is part `part` of the stage's pair, e.g.
/// "stage" (the backend staging the pictures) within "work". Does nothing
/// elsewhere; costs a thread-local read when no trace is on.
void trace_part(std::string_view part, double start);

/// The traced stage running on this thread (empty outside one), for work
/// the stage hands to other threads: a TraceIn of it there makes
/// trace_clock() and trace_part() record into the same run and pair.
struct TraceContext {
    void* trace = nullptr;
    unsigned pair = 0;
};
TraceContext trace_context();
class TraceIn {
public:
    explicit TraceIn(TraceContext c);
    ~TraceIn();
    TraceIn(const TraceIn&) = delete;
    TraceIn& operator=(const TraceIn&) = delete;

private:
    TraceContext saved_;
};

/// Pairs in flight for frames of `g` read on `threads` workers. The CPU: two
/// per worker, plus one. A GPU backend keeps them in page-locked memory,
/// costly to allocate: as many as the CPU's, 4 to 32 within a 1 GiB budget of
/// the bytes a pair really holds (luma only, or every plane at the format's
/// subsampling). Pairs read but not yet collected (collection is in frame
/// order) hold theirs: with one pair a worker, 16 workers of a 4K run kept
/// only 7-8 reads going (pipeline trace, H200 host).
unsigned pairs_in_flight(const VideoGeometry& g, bool luma_only, unsigned threads, bool gpu);

}  // namespace vmaf::engine_detail
