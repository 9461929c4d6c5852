// source_ordered_sum.cuh's launch_ordered against the host's sequential sums,
// bit for bit, with several terms per index (as the ssimulacra2 twin's six
// map terms) and groups of different lengths in one launch, on sequences made
// to hit every path of the walk: ties (many per chunk, with the sum positive
// and negative), binade changes up and down, sign changes, terms far above and
// below the running sum, runs of +-0, subnormal sums, infinities and NaN,
// lengths around the chunk (1024) and the span (32 chunks), the gate.
// Skips without a CUDA device.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "features/float_common/cuda/ordered_sum_cases.hpp"
#include "features/float_common/cuda/source_ordered_sum.cuh"

namespace {

namespace ss = vmaf::floatfeat::cuda::source_sum;
using vmaf::floatfeat::cuda::test::have_device;
using vmaf::floatfeat::cuda::test::host_sum;
using vmaf::floatfeat::cuda::test::same;

constexpr int kTerms = 3;

/// Group g: n[g] indices, term q of index i at data[g][i * kTerms + q].
template <typename T>
struct Interleaved {
    static constexpr int kTerms = ::kTerms;
    const T* data[ss::kMaxGroups];
    unsigned long long count[ss::kMaxGroups];
    __host__ __device__ unsigned long long n(unsigned g) const { return count[g]; }
    __device__ void terms(unsigned g, unsigned long long i, T* out) const {
        for (int q = 0; q < kTerms; ++q) out[q] = data[g][i * kTerms + q];
    }
};

/// One launch over groups of kTerms sequences each (all of a group's
/// sequences the same length); gate: none, or a device int of this value.
template <typename T>
std::vector<T> device_sums(const std::vector<std::vector<std::vector<T>>>& groups, int gate_value = -1) {
    Interleaved<T> src{};
    std::vector<void*> bufs;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const std::size_t n = groups[g][0].size();
        std::vector<T> inter(n * kTerms);
        for (std::size_t i = 0; i < n; ++i)
            for (int q = 0; q < kTerms; ++q) inter[i * kTerms + q] = groups[g][q][i];
        void* d = nullptr;
        EXPECT_EQ(cudaMalloc(&d, inter.size() * sizeof(T) + 1), cudaSuccess);
        EXPECT_EQ(cudaMemcpy(d, inter.data(), inter.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
        src.data[g] = static_cast<const T*>(d);
        src.count[g] = n;
        bufs.push_back(d);
    }
    const ss::Offsets o = ss::offsets(src, static_cast<unsigned>(groups.size()));
    void *scratch = nullptr, *sums = nullptr, *gate = nullptr;
    EXPECT_EQ(cudaMalloc(&scratch, ss::scratch_bytes<kTerms>(o) + 1), cudaSuccess);
    std::vector<T> out(groups.size() * kTerms, T(-12345));
    EXPECT_EQ(cudaMalloc(&sums, out.size() * sizeof(T)), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(sums, out.data(), out.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
    if (gate_value >= 0) {
        EXPECT_EQ(cudaMalloc(&gate, sizeof(int)), cudaSuccess);
        EXPECT_EQ(cudaMemcpy(gate, &gate_value, sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
    }
    ss::launch_ordered<T>(src, o, static_cast<const int*>(gate), scratch, static_cast<T*>(sums), nullptr);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(out.data(), sums, out.size() * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    for (void* d : bufs) cudaFree(d);
    cudaFree(scratch);
    cudaFree(sums);
    cudaFree(gate);
    return out;
}

template <typename T>
void check_all(std::size_t big) {
    const auto cs = vmaf::floatfeat::cuda::test::ordered_sum_cases<T>(big, 80'000);
    for (std::size_t i = 0; i < cs.size(); i += 8) {
        std::vector<std::vector<std::vector<T>>> groups;
        for (std::size_t k = i; k < cs.size() && k < i + 8; ++k) {
            std::vector<T> neg = cs[k].terms, part = cs[k].terms;
            for (auto& v : neg) v = -v;
            for (auto& v : part) v = v * T(0.75);
            groups.push_back({cs[k].terms, neg, part});
        }
        const std::vector<T> got = device_sums(groups);
        for (std::size_t g = 0; g < groups.size(); ++g)
            for (int q = 0; q < kTerms; ++q) {
                const T want = host_sum(groups[g][q]);
                EXPECT_TRUE(same(got[g * kTerms + q], want))
                    << cs[i + g].name << ", sum " << q << ": device " << got[g * kTerms + q] << " host " << want;
            }
    }
}

TEST(SourceOrderedSum, FloatEqualsSequentialSum) {
    if (!have_device()) GTEST_SKIP() << "no CUDA device";
    check_all<float>(3'000'000);
}

TEST(SourceOrderedSum, DoubleEqualsSequentialSum) {
    if (!have_device()) GTEST_SKIP() << "no CUDA device";
    check_all<double>(3'000'000);
}

TEST(SourceOrderedSum, GateClosedWritesNothing) {
    if (!have_device()) GTEST_SKIP() << "no CUDA device";
    const std::vector<std::vector<std::vector<float>>> one{
        {std::vector<float>(5000, 1.5f), std::vector<float>(5000, 0.5f), std::vector<float>(5000, 2.0f)}};
    EXPECT_EQ(device_sums(one, 0)[0], -12345.0f);
    const std::vector<float> open = device_sums(one, 1);
    EXPECT_EQ(open[0], 7500.0f);
    EXPECT_EQ(open[1], 2500.0f);
    EXPECT_EQ(open[2], 10000.0f);
}

}  // namespace
