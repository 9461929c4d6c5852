// SpEED benchmarks: the scale_add kernel (scalar and every SIMD variant) on a
// 960-sample row, cov_row and mat_mul at the estimator's sizes, and
// speed_chroma / speed_temporal per 1920x1080 4:2:0 frame at cpumask 63
// (scalar) and 0 (best SIMD).
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "core/feature_extractor.hpp"
#include "features/speed/speed_kernels.hpp"
#include "support/feature_bench.hpp"

namespace vmaf {
extern const ExtractorInfo kSpeedChromaInfo;
extern const ExtractorInfo kSpeedTemporalInfo;
}  // namespace vmaf

namespace {

using namespace vmaf;

Picture noise(std::uint64_t seed) {
    return bench::synthetic_picture(8, seed, [](unsigned, unsigned x, unsigned y, std::mt19937_64& rng) {
        return 96 + (x / 7 + y / 5) % 32 + (rng() & 7);
    });
}

/// 8-bit only. The dis picture alternates between another picture and ref itself.
std::vector<bench::PicturePair> frames(unsigned) {
    const Picture a = noise(1), b = noise(2);
    return {{a, b}, {a, a}};
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
    const auto tables = bench::kernel_tables(speed::SpeedKernels{}, speed::speed_registry().variants());
    for (const auto& [name, k] : tables)
        benchmark::RegisterBenchmark(("speed/scale_add_960/" + name).c_str(), kernel(k));
    // The estimator's hot kernels at 1080p luma sizes: one covariance row (116
    // samples) and one 25 x 25 x 25 product of the solver's QR.
    auto cov = [](speed::SpeedKernels k) {
        return [k](benchmark::State& st) {
            std::vector<float> a(128, 1.5f), b(128, -2.5f);
            std::vector<double> acc(5 * speed::kCovGroup, 0.0);
            const double ma[5] = {0.1, 0.2, 0.3, 0.4, 0.5}, mb[5] = {-0.1, -0.2, -0.3, -0.4, -0.5};
            for (auto _ : st) {
                k.cov_row(acc.data(), a.data(), ma, b.data(), mb, 116);
                benchmark::DoNotOptimize(acc.data());
            }
        };
    };
    auto matmul = [](speed::SpeedKernels k) {
        return [k](benchmark::State& st) {
            std::vector<float> x(625, 0.5f), y(625, -0.25f), d(625);
            for (auto _ : st) {
                k.mat_mul(d.data(), x.data(), y.data(), 25, 25, 25);
                benchmark::DoNotOptimize(d.data());
            }
        };
    };
    for (const auto& [name, k] : tables) {
        benchmark::RegisterBenchmark(("speed/cov_row_116/" + name).c_str(), cov(k));
        benchmark::RegisterBenchmark(("speed/mat_mul_25/" + name).c_str(), matmul(k));
    }
    for (const ExtractorInfo* info : {&kSpeedChromaInfo, &kSpeedTemporalInfo})
        for (unsigned mask : {63u, 0u})
            bench::register_extractor_frame(std::string(info->name) + "/1080p_frame/cpumask" + std::to_string(mask),
                                            {.info = info,
                                             .loop = bench::FrameLoop::ComputeFinish,
                                             .frames = frames,
                                             .unit = benchmark::kMillisecond},
                                            8, mask);
}

}  // namespace

int main(int argc, char** argv) {
    register_all();
    return bench::run_benchmarks(argc, argv);
}
