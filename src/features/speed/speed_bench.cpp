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
    benchmark::RegisterBenchmark("speed/cov_row_116/scalar", cov(speed::SpeedKernels{}));
    benchmark::RegisterBenchmark("speed/mat_mul_25/scalar", matmul(speed::SpeedKernels{}));
    for (const auto& [name, k] : speed::speed_registry().variants()) {
        benchmark::RegisterBenchmark(("speed/cov_row_116/" + name).c_str(), cov(k));
        benchmark::RegisterBenchmark(("speed/mat_mul_25/" + name).c_str(), matmul(k));
    }
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

}  // namespace

// Registration happens in main: the SIMD variants register themselves during
// static initialisation, which may run after this file's (they were missing
// when this file registered at static initialisation).
int main(int argc, char** argv) {
    register_all();
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
