// What the feature benchmarks (src/features/*/*_bench.cpp) share: synthetic
// 1920x1080 pictures, per-frame extractor benchmarks and main's run.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/feature_extractor.hpp"
#include "core/options.hpp"

namespace vmaf::bench {

inline constexpr unsigned kWidth = 1920, kHeight = 1080;

/// A kWidth x kHeight 4:2:0 picture of `bpc` bits (8 to 16) whose sample at
/// (plane, x, y) is value(plane, x, y, rng), truncated to the sample type.
/// Samples are visited plane by plane, row by row, left to right, all drawing
/// from one std::mt19937_64 seeded with `seed`.
template <typename Value>
Picture synthetic_picture(unsigned bpc, std::uint64_t seed, Value value) {
    Picture p(PixelFormat::Yuv420, bpc, kWidth, kHeight);
    std::mt19937_64 rng(seed);
    for (unsigned pl = 0; pl < p.planes(); ++pl) {
        const Plane& q = p.plane(pl);
        for (unsigned y = 0; y < q.height; ++y)
            for (unsigned x = 0; x < q.width; ++x) {
                const auto v = value(pl, x, y, rng);
                if (bpc == 8)
                    q.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(v);
                else
                    q.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(v);
            }
    }
    return p;
}

/// synthetic_picture of uniform noise over the whole `bpc`-bit range.
inline Picture noise_picture(unsigned bpc, std::uint64_t seed) {
    return synthetic_picture(
        bpc, seed, [bpc](unsigned, unsigned, unsigned, std::mt19937_64& rng) { return rng() & ((1u << bpc) - 1u); });
}

/// ("scalar", scalar) followed by `variants` (a kernel registry's variants(),
/// in its order): every kernel table a benchmark runs.
template <typename Table>
std::vector<std::pair<std::string, Table>> kernel_tables(const Table& scalar,
                                                         std::vector<std::pair<std::string, Table>> variants) {
    variants.insert(variants.begin(), {"scalar", scalar});
    return variants;
}

/// The pictures of one frame.
struct PicturePair {
    Picture ref, dis;
};

/// What one iteration of an extractor benchmark runs.
enum class FrameLoop {
    Compute,        ///< compute() of frame 0 on frames[0]
    ComputeFinish,  ///< compute() then finish() of the next frame i (0, 1, ...) on frames[i % size]
};

/// An extractor benchmark: created with `options` and the geometry of the
/// first frame's ref; scores finish() writes are discarded.
struct ExtractorBench {
    const ExtractorInfo* info = nullptr;
    FrameLoop loop = FrameLoop::Compute;
    /// The frames fed at `bpc` bits (at least one); made each time the benchmark runs, not when it is listed.
    std::function<std::vector<PicturePair>(unsigned bpc)> frames;
    OptionDict options = {};
    benchmark::TimeUnit unit = benchmark::kNanosecond;
};

/// Registers benchmark `name`: `spec` at `bpc` bits with ExtractorContext{cpumask}.
void register_extractor_frame(const std::string& name, const ExtractorBench& spec, unsigned bpc, unsigned cpumask);

/// Registers "extractor/<bpc>bit/cpumask<cpumask>/1080p_frame" for each of
/// `cpumasks` and, within it, each of `bpcs`, in that order.
void register_extractor_frames(const ExtractorBench& spec, std::initializer_list<unsigned> cpumasks,
                               std::initializer_list<unsigned> bpcs);

/// Google Benchmark's main after registration; returns the process's exit
/// status (1 on an unrecognised argument). Benchmarks of kernel registries
/// must be registered before, from main: SIMD variants register themselves
/// from static initialisers of the library, which may run after the bench's.
int run_benchmarks(int argc, char** argv);

}  // namespace vmaf::bench
