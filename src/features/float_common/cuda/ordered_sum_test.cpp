// launch_ordered_sums against the host's sequential sum, bit for bit, on
// sequences made to hit every path of the walk: binade changes up and down,
// sign changes through zero, ties (round to even), terms far above and far
// below the running sum, runs of +-0, subnormal sums, infinities and NaN,
// lengths around the chunk size, several sequences per launch, and the gate.
// Skips without a CUDA device.
#include "features/float_common/cuda/ordered_sum.hpp"
#include "features/float_common/cuda/ordered_sum_cases.hpp"

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace {

using vmaf::floatfeat::cuda::kMaxOrderedSums;
using vmaf::floatfeat::cuda::launch_ordered_sums;
using vmaf::floatfeat::cuda::ordered_sum_scratch_bytes;
using vmaf::floatfeat::cuda::OrderedSeqs;
using vmaf::floatfeat::cuda::test::have_device;
using vmaf::floatfeat::cuda::test::host_sum;
using vmaf::floatfeat::cuda::test::same;
using vmaf::floatfeat::cuda::test::run_launch;
using vmaf::floatfeat::cuda::test::upload;

/// The device sums of up to kMaxOrderedSums sequences in one launch (gate: none, or a device int of this value).
template <typename T>
std::vector<T> device_sums(const std::vector<std::vector<T>>& seqs, int gate_value = -1) {
    OrderedSeqs<T> q{};
    q.count = static_cast<int>(seqs.size());
    std::vector<void*> bufs;
    for (std::size_t k = 0; k < seqs.size(); ++k) {
        q.term[k] = upload(seqs[k], bufs);
        q.n[k] = seqs[k].size();
    }
    return run_launch<T>(seqs.size(), kMaxOrderedSums, ordered_sum_scratch_bytes(q), gate_value, bufs,
                         [&](const int* gate, void* scratch, T* sums) {
                             launch_ordered_sums(q, gate, scratch, sums, nullptr);
                         });
}

template <typename T>
void check_all(std::size_t big) {
    const auto cs = vmaf::floatfeat::cuda::test::ordered_sum_cases<T>(big, 8'000);
    for (std::size_t i = 0; i < cs.size(); i += kMaxOrderedSums) {  // several sequences per launch
        std::vector<std::vector<T>> group;
        for (std::size_t k = i; k < cs.size() && k < i + kMaxOrderedSums; ++k) group.push_back(cs[k].terms);
        const std::vector<T> got = device_sums(group);
        for (std::size_t k = 0; k < group.size(); ++k) {
            const T want = host_sum(group[k]);
            EXPECT_TRUE(same(got[k], want)) << cs[i + k].name << ": device " << got[k] << " host " << want;
        }
    }
}

TEST(OrderedSum, FloatEqualsSequentialSum) {
    if (!have_device()) GTEST_SKIP() << "no CUDA device";
    check_all<float>(3'000'000);
}

TEST(OrderedSum, DoubleEqualsSequentialSum) {
    if (!have_device()) GTEST_SKIP() << "no CUDA device";
    check_all<double>(3'000'000);
}

TEST(OrderedSum, GateClosedWritesNothing) {
    if (!have_device()) GTEST_SKIP() << "no CUDA device";
    const std::vector<std::vector<float>> one{std::vector<float>(5000, 1.5f)};
    EXPECT_EQ(device_sums(one, 0)[0], -12345.0f);
    EXPECT_EQ(device_sums(one, 1)[0], 7500.0f);
}

}  // namespace
