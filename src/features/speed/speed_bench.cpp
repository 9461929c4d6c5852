// SpEED benchmarks: the scale_add kernel (scalar and every SIMD variant) on a
// 960-sample row, and speed_chroma / speed_temporal per 1920x1080 4:2:0 frame
// at cpumask 63 (scalar) and 0 (best SIMD).
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "core/feature_extractor.hpp"
#include "features/speed/speed_kernels.hpp"

namespace vmaf {
extern const ExtractorInfo kSpeedChromaInfo;
extern const ExtractorInfo kSpeedTemporalInfo;
}  // namespace vmaf

namespace {

using namespace vmaf;

Picture noise(std::uint64_t seed) {
    Picture p(PixelFormat::Yuv420, 8, 1920, 1080);
    std::mt19937_64 rng(seed);
    for (unsigned pl = 0; pl < p.planes(); ++pl) {
        const Plane& q = p.plane(pl);
        for (unsigned y = 0; y < q.height; ++y)
            for (unsigned x = 0; x < q.width; ++x)
                q.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(96 + (x / 7 + y / 5) % 32 + (rng() & 7));
    }
    return p;
}

void register_all() {
    auto kernel = [](speed::SpeedKernels k) {
        return [k](benchmark::State& st) {
            std::vector<float> acc(960, 1.0f), src(960, 2.0f);
            for (auto _ : st) {
                k.scale_add(acc.data(), src.data(), 0.25f, acc.size());
                benchmark::DoNotOptimize(acc.data());
            }
        };
    };
    benchmark::RegisterBenchmark("speed/scale_add_960/scalar", kernel(speed::SpeedKernels{}));
    for (const auto& [name, k] : speed::speed_registry().variants())
        benchmark::RegisterBenchmark(("speed/scale_add_960/" + name).c_str(), kernel(k));
    for (const ExtractorInfo* info : {&kSpeedChromaInfo, &kSpeedTemporalInfo})
        for (unsigned mask : {63u, 0u})
            benchmark::RegisterBenchmark(
                (std::string(info->name) + "/1080p_frame/cpumask" + std::to_string(mask)).c_str(),
                [info, mask](benchmark::State& st) {
                    const VideoGeometry g{PixelFormat::Yuv420, 8, 1920, 1080};
                    auto e = info->create(OptionValues(info->options, {}, std::string(info->name)), g,
                                          {.cpumask = mask});
                    const Picture a = noise(1), b = noise(2);
                    struct Null final : ScoreWriter {
                        void write(unsigned, unsigned, double) override {}
                        void write_aggregate(unsigned, double) override {}
                    } out;
                    unsigned i = 0;
                    for (auto _ : st) {
                        auto s = static_cast<const FeatureExtractor&>(*e).compute(i, a, (i & 1) ? a : b);
                        e->finish(i++, *s, out);
                    }
                })
                ->Unit(benchmark::kMillisecond);
}

const bool kRegistered = (register_all(), true);

}  // namespace
