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
using vmaf::floatfeat::cuda::test::run_launch;
using vmaf::floatfeat::cuda::test::upload;

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
        src.data[g] = upload(inter, bufs);
        src.count[g] = n;
    }
    const ss::Offsets o = ss::offsets(src, static_cast<unsigned>(groups.size()));
    return run_launch<T>(groups.size() * kTerms, groups.size() * kTerms, ss::scratch_bytes<kTerms>(o), gate_value, bufs,
                         [&](const int* gate, void* scratch, T* sums) {
                             ss::launch_ordered<T>(src, o, gate, scratch, sums, nullptr);
                         });
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
