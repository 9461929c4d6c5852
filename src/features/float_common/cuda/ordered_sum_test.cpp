// launch_ordered_sums against the host's sequential sum, bit for bit, on
// sequences made to hit every path of the walk: binade changes up and down,
// sign changes through zero, ties (round to even), terms far above and far
// below the running sum, runs of +-0, subnormal sums, infinities and NaN,
// lengths around the chunk size, several sequences per launch, and the gate.
// Skips without a CUDA device.
#include "features/float_common/cuda/ordered_sum.hpp"

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

using vmaf::floatfeat::cuda::kMaxOrderedSums;
using vmaf::floatfeat::cuda::launch_ordered_sums;
using vmaf::floatfeat::cuda::ordered_sum_scratch_bytes;
using vmaf::floatfeat::cuda::OrderedSeqs;

bool have_device() {
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

template <typename T>
T host_sum(const std::vector<T>& t) {
    volatile T acc = 0;  // one rounding per addition, as the CPU's loops
    for (const T v : t) acc = acc + v;
    return acc;
}

template <typename T>
bool same(T a, T b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return std::memcmp(&a, &b, sizeof(T)) == 0;
}

/// The device sums of up to kMaxOrderedSums sequences in one launch (gate: none, or a device int of this value).
template <typename T>
std::vector<T> device_sums(const std::vector<std::vector<T>>& seqs, int gate_value = -1) {
    OrderedSeqs<T> q{};
    q.count = static_cast<int>(seqs.size());
    std::vector<void*> bufs;
    for (std::size_t k = 0; k < seqs.size(); ++k) {
        void* d = nullptr;
        EXPECT_EQ(cudaMalloc(&d, seqs[k].size() * sizeof(T) + 1), cudaSuccess);
        EXPECT_EQ(cudaMemcpy(d, seqs[k].data(), seqs[k].size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
        q.term[k] = static_cast<const T*>(d);
        q.n[k] = seqs[k].size();
        bufs.push_back(d);
    }
    void *scratch = nullptr, *sums = nullptr, *gate = nullptr;
    EXPECT_EQ(cudaMalloc(&scratch, ordered_sum_scratch_bytes(q) + 1), cudaSuccess);
    EXPECT_EQ(cudaMalloc(&sums, kMaxOrderedSums * sizeof(T)), cudaSuccess);
    std::vector<T> out(seqs.size(), T(-12345));
    EXPECT_EQ(cudaMemcpy(sums, out.data(), out.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
    if (gate_value >= 0) {
        EXPECT_EQ(cudaMalloc(&gate, sizeof(int)), cudaSuccess);
        EXPECT_EQ(cudaMemcpy(gate, &gate_value, sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
    }
    launch_ordered_sums(q, static_cast<const int*>(gate), scratch, static_cast<T*>(sums), nullptr);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(out.data(), sums, out.size() * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    for (void* d : bufs) cudaFree(d);
    cudaFree(scratch);
    cudaFree(sums);
    cudaFree(gate);
    return out;
}

template <typename T>
struct Case {
    std::string name;
    std::vector<T> terms;
};

/// Sequences that exercise each path; `big` scales the long ones.
template <typename T>
std::vector<Case<T>> cases(std::size_t big) {
    std::mt19937_64 rng(20261127);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<Case<T>> c;
    auto add = [&](std::string name, std::vector<T> t) { c.push_back({std::move(name), std::move(t)}); };
    {  // positive, log-uniform magnitudes: the sum climbs through many binades
        std::vector<T> t(big);
        for (auto& v : t) v = static_cast<T>(std::exp2(-20.0 + 30.0 * u(rng)));
        add("log-uniform positive", t);
    }
    {  // squares of small integers times a weight (psnr_hvs-like), with many zeros
        std::vector<T> t(big);
        for (auto& v : t) {
            const double r = u(rng);
            v = r < 0.4 ? T(0) : static_cast<T>(std::floor(r * 40) * std::floor(r * 40)) * static_cast<T>(0.3173);
        }
        add("weighted squares with zeros", t);
    }
    {  // mixed signs around zero: the sum wanders up and down and crosses zero
        std::vector<T> t(big);
        for (auto& v : t) v = static_cast<T>((u(rng) - 0.5) * std::exp2(-8.0 + 16.0 * u(rng)));
        add("mixed signs", t);
    }
    {  // ties: 1 followed by halves of its ulp (round to even), then odd multiples of them
        const T half = std::numeric_limits<T>::epsilon() / 2;
        std::vector<T> t{T(1)};
        for (std::size_t i = 0; i < 5000; ++i) t.push_back(i % 7 == 3 ? 3 * half : half);
        for (std::size_t i = 0; i < 5000; ++i) t.push_back(i % 2 ? -half : half);
        add("ties", t);
    }
    {  // terms far above the running sum, then tiny ones that vanish
        std::vector<T> t;
        for (std::size_t i = 0; i < 4000; ++i) t.push_back(i % 500 == 0 ? static_cast<T>(1e30) : static_cast<T>(1e-3));
        for (std::size_t i = 0; i < 4000; ++i)
            t.push_back(i % 500 == 0 ? static_cast<T>(-1e30) : static_cast<T>(1e-20));
        add("large and vanishing terms", t);
    }
    {  // zeros of both signs, alone and before other terms
        std::vector<T> z(3000);
        for (std::size_t i = 0; i < z.size(); ++i) z[i] = i % 3 ? T(0) : -T(0);
        add("signed zeros", z);
        std::vector<T> nz(3000, -T(0));
        add("negative zeros", nz);
        z.push_back(T(2.5));
        z.insert(z.end(), 2000, -T(0));
        add("zeros then a value", z);
    }
    {  // a subnormal running sum
        std::vector<T> t(5000);
        for (auto& v : t)
            v = std::numeric_limits<T>::denorm_min() * static_cast<T>(1 + (rng() % 5)) * (rng() % 2 ? 1 : -1);
        add("subnormal sums", t);
    }
    {  // infinities and NaN after a normal stretch
        std::vector<T> t(3000, T(1.25));
        t[1500] = std::numeric_limits<T>::infinity();
        add("infinity", t);
        t[2200] = -std::numeric_limits<T>::infinity();
        add("infinities of both signs", t);
        std::vector<T> nan(3000, T(0.5));
        nan[2047] = std::numeric_limits<T>::quiet_NaN();
        add("NaN", nan);
    }
    for (const std::size_t n : {1ul, 31ul, 1023ul, 1024ul, 1025ul, 32767ul, 32768ul, 32769ul, 33 * 1024ul + 5}) {
        std::vector<T> t(n);
        for (auto& v : t) v = static_cast<T>(u(rng) * 3.0);
        add("length " + std::to_string(n), t);
    }
    return c;
}

template <typename T>
void check_all(std::size_t big) {
    const auto cs = cases<T>(big);
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
