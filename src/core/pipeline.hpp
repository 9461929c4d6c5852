// Drives frame pairs through the engine's stages: read (serial, in frame
// order) -> work (parallel: positioned reads, upload, compute) -> collect
// (serial, in frame order: scores, predictions). Private to the library.
#pragma once

#include <functional>

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
/// start): where workers wait. bench/pipeline_trace.py summarises it.
void run_stages(const Stages& s, unsigned threads, unsigned in_flight);

/// Pairs in flight for frames of `g` read on `threads` workers. The CPU: two
/// per worker, plus one. A GPU backend keeps them in page-locked memory,
/// costly to allocate: as many as the CPU's, 4 to 32 within a 1 GiB budget of
/// the bytes a pair really holds (luma only, or every plane at the format's
/// subsampling). Pairs read but not yet collected (collection is in frame
/// order) hold theirs: with one pair a worker, 16 workers of a 4K run kept
/// only 7-8 reads going (pipeline trace, H200 host).
unsigned pairs_in_flight(const VideoGeometry& g, bool luma_only, unsigned threads, bool gpu);

}  // namespace vmaf::engine_detail
