// Google Benchmark of the float convolution kernels, scalar reference and
// every compiled SIMD variant, on 1920-wide rows (one output row per iteration).
// Run: build/release/src/features/float_common/float_bench
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "features/float_common/float_kernels.hpp"
#include "features/float_vif/float_vif_math.hpp"
#include "support/feature_bench.hpp"

namespace {

using namespace vmaf::floatfeat;

constexpr int kW = 1920;

struct Data {
    std::vector<float> f;
    std::vector<std::vector<float>> rows;
    std::vector<const float*> ptr;
    std::vector<float> out = std::vector<float>(kW);
    explicit Data(int scale) : f(vif_filter(scale, 1.0f)) {
        std::mt19937 rng(1);
        std::uniform_real_distribution<float> u(-128.0f, 127.0f);
        rows.assign(f.size(), std::vector<float>(kW));
        for (auto& r : rows)
            for (float& v : r) v = u(rng);
        for (auto& r : rows) ptr.push_back(r.data());
    }
};

void Rows(benchmark::State& st, FloatKernels k, int scale, Tap tap) {
    Data d(scale);
    for (auto _ : st) {
        k.conv_rows(d.f.data(), static_cast<int>(d.f.size()), d.ptr.data(), d.ptr.data(), tap, d.out.data(), kW);
        benchmark::DoNotOptimize(d.out.data());
    }
    st.SetItemsProcessed(st.iterations() * kW);
}

void Cols(benchmark::State& st, FloatKernels k, int scale) {
    Data d(scale);
    for (auto _ : st) {
        k.conv_cols(d.f.data(), static_cast<int>(d.f.size()), d.rows[0].data(), d.out.data(), kW);
        benchmark::DoNotOptimize(d.out.data());
    }
    st.SetItemsProcessed(st.iterations() * kW);
}

void register_all() {
    for (const auto& [name, k] : vmaf::bench::kernel_tables(FloatKernels{}, float_registry().variants()))
        for (int scale : {0, 2}) {
            const std::string fw = std::to_string(vif_filter(scale, 1.0f).size());
            benchmark::RegisterBenchmark(("conv_rows_value/" + name + "/fw" + fw).c_str(), Rows, k, scale, Tap::Value);
            benchmark::RegisterBenchmark(("conv_rows_product/" + name + "/fw" + fw).c_str(), Rows, k, scale,
                                         Tap::Product);
            benchmark::RegisterBenchmark(("conv_cols/" + name + "/fw" + fw).c_str(), Cols, k, scale);
        }
}

}  // namespace

int main(int argc, char** argv) {
    register_all();
    return vmaf::bench::run_benchmarks(argc, argv);
}
