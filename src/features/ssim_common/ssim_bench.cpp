// Google Benchmark of the SSIM kernels, scalar reference and every compiled
// SIMD variant, on 1920-wide rows (one output row per iteration).
// Run: build/release/src/features/ssim_common/ssim_bench
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "features/ssim_common/ssim_kernels.hpp"
#include "support/feature_bench.hpp"

namespace {

using namespace vmaf::ssimfeat;

constexpr int kW = 1920;
const float kGauss[11] = {0.001028f, 0.007599f, 0.036001f, 0.109361f, 0.213006f, 0.266012f,
                          0.213006f, 0.109361f, 0.036001f, 0.007599f, 0.001028f};

struct Data {
    std::vector<std::vector<float>> rows;
    std::vector<const float*> ptr;
    std::vector<float> out = std::vector<float>(kW);
    explicit Data(int n, int len = 4 * kW + 16) {
        std::mt19937 rng(1);
        std::uniform_real_distribution<float> u(0.0f, 255.0f);
        rows.assign(static_cast<std::size_t>(n), std::vector<float>(static_cast<std::size_t>(len)));
        for (auto& r : rows)
            for (float& v : r) v = u(rng);
        for (auto& r : rows) ptr.push_back(r.data());
    }
};

void ConvH(benchmark::State& st, SsimKernels k, Tap tap) {
    Data d(2);
    for (auto _ : st) {
        k.conv_h(kGauss, 11, d.ptr[0], d.ptr[1], tap, d.out.data(), kW - 10);
        benchmark::DoNotOptimize(d.out.data());
    }
    st.SetItemsProcessed(st.iterations() * (kW - 10));
}

void ConvV(benchmark::State& st, SsimKernels k) {
    Data d(11);
    for (auto _ : st) {
        k.conv_v(kGauss, 11, d.ptr.data(), d.out.data(), kW - 10);
        benchmark::DoNotOptimize(d.out.data());
    }
    st.SetItemsProcessed(st.iterations() * (kW - 10));
}

void SsimRow(benchmark::State& st, SsimKernels k) {
    // Plausible statistics: means in [0, 255], second moments >= mean^2.
    Data d(5);
    for (int x = 0; x < kW; ++x) {
        d.rows[2][x] = d.rows[0][x] * d.rows[0][x] + d.rows[2][x];
        d.rows[3][x] = d.rows[1][x] * d.rows[1][x] + d.rows[3][x];
        d.rows[4][x] = d.rows[0][x] * d.rows[1][x] + d.rows[4][x] - 128.0f;
    }
    const SsimConsts c = ssim_consts();
    SsimSums sums;
    for (auto _ : st) {
        k.ssim_row(d.ptr[0], d.ptr[1], d.ptr[2], d.ptr[3], d.ptr[4], kW - 10, c, sums);
        benchmark::DoNotOptimize(sums);
    }
    st.SetItemsProcessed(st.iterations() * (kW - 10));
}

void Decimate(benchmark::State& st, SsimKernels k, int step, int kw) {
    Data d(kw);
    const std::vector<float> ker(static_cast<std::size_t>(kw * kw), 1.0f / static_cast<float>(kw * kw));
    const int n = kW / step;
    for (auto _ : st) {
        k.decimate_row(ker.data(), kw, kw, d.ptr.data(), step, d.out.data(), n);
        benchmark::DoNotOptimize(d.out.data());
    }
    st.SetItemsProcessed(st.iterations() * n);
}

void register_all() {
    for (const auto& [name, k] : vmaf::bench::kernel_tables(SsimKernels{}, ssim_registry().variants())) {
        benchmark::RegisterBenchmark(("conv_h_value/" + name).c_str(), ConvH, k, Tap::Value);
        benchmark::RegisterBenchmark(("conv_h_product/" + name).c_str(), ConvH, k, Tap::Product);
        benchmark::RegisterBenchmark(("conv_v/" + name).c_str(), ConvV, k);
        benchmark::RegisterBenchmark(("ssim_row/" + name).c_str(), SsimRow, k);
        benchmark::RegisterBenchmark(("decimate_lpf9_step2/" + name).c_str(), Decimate, k, 2, 9);
        benchmark::RegisterBenchmark(("decimate_box4_step4/" + name).c_str(), Decimate, k, 4, 4);
    }
}

}  // namespace

int main(int argc, char** argv) {
    register_all();
    return vmaf::bench::run_benchmarks(argc, argv);
}
