// Drives frame pairs through the engine's stages: read (serial, in frame
// order) -> work (parallel: positioned reads, upload, compute) -> collect
// (serial, in frame order: scores, predictions). Private to the library.
#pragma once

#include <functional>

#include "core/extractors.hpp"

namespace vmaf::engine_detail {

struct Stages {
    std::function<bool(Token&)> read;            ///< false: no more pairs
    std::function<void(Token&, bool)> work;      ///< bool: may use worker threads within the pair
    std::function<void(Token&)> collect;
};

/// With `threads` 0, each pair goes through the three stages on the calling
/// thread; otherwise up to `in_flight` pairs are between read and collect at
/// once, on `threads` workers.
void run_stages(const Stages& s, unsigned threads, unsigned in_flight);

}  // namespace vmaf::engine_detail
