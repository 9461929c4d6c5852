// Test sequences for the ordered sums (ordered_sum_test, source_ordered_sum_test):
// each made to hit a path of the walk, and what both tests compare them with.
// Host code, for tests only.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace vmaf::floatfeat::cuda::test {

inline bool have_device() {
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

/// The CPU's sum: one rounding per addition, in order.
template <typename T>
T host_sum(const std::vector<T>& t) {
    volatile T acc = 0;
    for (const T v : t) acc = acc + v;
    return acc;
}

/// Bit for bit (any NaN equals any NaN).
template <typename T>
bool same(T a, T b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <typename T>
struct SumCase {
    std::string name;
    std::vector<T> terms;
};

/// A device copy of `t` (a byte more: an empty one still allocates), noted in `bufs` for run_launch to free.
template <typename T>
const T* upload(const std::vector<T>& t, std::vector<void*>& bufs) {
    void* d = nullptr;
    EXPECT_EQ(cudaMalloc(&d, t.size() * sizeof(T) + 1), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(d, t.data(), t.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
    bufs.push_back(d);
    return static_cast<const T*>(d);
}

/// Runs `launch(gate, scratch, sums)` on the default stream with `scratch_bytes`
/// (+1) of scratch, room for `capacity` sums whose first `count` are preset to
/// -12345 (one left unwritten shows) and, for gate_value >= 0, a device int
/// gate of that value; returns those `count` sums and frees every buffer,
/// `bufs` included.
template <typename T, typename Launch>
std::vector<T> run_launch(std::size_t count, std::size_t capacity, std::size_t scratch_bytes, int gate_value,
                          std::vector<void*>& bufs, Launch&& launch) {
    void *scratch = nullptr, *sums = nullptr, *gate = nullptr;
    EXPECT_EQ(cudaMalloc(&scratch, scratch_bytes + 1), cudaSuccess);
    EXPECT_EQ(cudaMalloc(&sums, capacity * sizeof(T)), cudaSuccess);
    std::vector<T> out(count, T(-12345));
    EXPECT_EQ(cudaMemcpy(sums, out.data(), out.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
    if (gate_value >= 0) {
        EXPECT_EQ(cudaMalloc(&gate, sizeof(int)), cudaSuccess);
        EXPECT_EQ(cudaMemcpy(gate, &gate_value, sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
    }
    launch(static_cast<const int*>(gate), scratch, static_cast<T*>(sums));
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(out.data(), sums, out.size() * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    for (void* d : bufs) cudaFree(d);
    bufs.clear();
    cudaFree(scratch);
    cudaFree(sums);
    cudaFree(gate);
    return out;
}

/// `big` terms in each long random sequence, about `special` in the made ones.
template <typename T>
std::vector<SumCase<T>> ordered_sum_cases(std::size_t big, std::size_t special) {
    std::mt19937_64 rng(20261127);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<SumCase<T>> c;
    auto add = [&](std::string name, std::vector<T> t) { c.push_back({std::move(name), std::move(t)}); };
    auto random = [&](const char* name, auto&& term) {
        std::vector<T> t(big);
        for (auto& v : t) v = term();
        add(name, std::move(t));
    };
    // Positive, log-uniform magnitudes: the sum climbs through many binades.
    random("log-uniform positive", [&] { return static_cast<T>(std::exp2(-20.0 + 30.0 * u(rng))); });
    // Squares of small integers times a weight (psnr_hvs's block errors), many zeros.
    random("weighted squares with zeros", [&] {
        const double r = u(rng);
        return r < 0.4 ? T(0) : static_cast<T>(std::floor(r * 40) * std::floor(r * 40)) * static_cast<T>(0.3173);
    });
    // x - 1 for x near 1 (ssimulacra2's edge maps): short mantissas, a tie every ~1000 terms.
    random("x - 1 with zeros", [&] {
        const double r = u(rng);
        return r < 0.5 ? T(0) : static_cast<T>(static_cast<T>(1 + 0.05 * u(rng)) - T(1));
    });
    // Mixed signs around zero: the sum wanders up and down and crosses zero.
    random("mixed signs", [&] { return static_cast<T>((u(rng) - 0.5) * std::exp2(-8.0 + 16.0 * u(rng))); });
    // Fourth powers of small values with rare large ones: heavy tails.
    random("heavy-tailed fourth powers", [&] {
        const double x = u(rng) < 0.001 ? u(rng) : 0.01 * u(rng);
        return static_cast<T>(x * x * x * x);
    });
    {  // ties in most chunks: 1, then multiples of half its ulp (round to even), then +-half in turn
        const T half = std::numeric_limits<T>::epsilon() / 2;
        std::vector<T> t{T(1)};
        for (std::size_t i = 0; i < 2 * special; ++i)
            t.push_back(i % 7 == 3 ? 3 * half : (i % 5 == 1 ? 2 * half : half));
        for (std::size_t i = 0; i < special; ++i) t.push_back(i % 2 ? -half : half);
        add("ties", t);
    }
    {  // terms far above the running sum, then tiny ones that vanish
        std::vector<T> t;
        const std::size_t every = special / 8;
        for (std::size_t i = 0; i < special; ++i) t.push_back(i % every == 0 ? static_cast<T>(1e30) : static_cast<T>(1e-3));
        for (std::size_t i = 0; i < special; ++i)
            t.push_back(i % every == 0 ? static_cast<T>(-1e30) : static_cast<T>(1e-20));
        add("large and vanishing terms", t);
    }
    {  // zeros of both signs, alone and before other terms
        std::vector<T> z(special);
        for (std::size_t i = 0; i < z.size(); ++i) z[i] = i % 3 ? T(0) : -T(0);
        add("signed zeros", z);
        add("negative zeros", std::vector<T>(special, -T(0)));
        z.push_back(T(2.5));
        z.insert(z.end(), special / 2, -T(0));
        add("zeros then a value", z);
    }
    {  // a subnormal running sum
        std::vector<T> t(special);
        for (auto& v : t)
            v = std::numeric_limits<T>::denorm_min() * static_cast<T>(1 + (rng() % 5)) * (rng() % 2 ? 1 : -1);
        add("subnormal sums", t);
    }
    {  // infinities and NaN after a normal stretch
        std::vector<T> t(special, T(1.25));
        t[special / 2] = std::numeric_limits<T>::infinity();
        add("infinity", t);
        t[special * 5 / 8] = -std::numeric_limits<T>::infinity();
        add("infinities of both signs", t);
        std::vector<T> nan(special, T(0.5));
        nan[2047] = std::numeric_limits<T>::quiet_NaN();
        add("NaN", nan);
    }
    // Lengths around the chunk (1024 terms) and the span (32 chunks).
    for (const std::size_t n : {1ul, 31ul, 1023ul, 1024ul, 1025ul, 32767ul, 32768ul, 32769ul, 33 * 1024ul + 5}) {
        std::vector<T> t(n);
        for (auto& v : t) v = static_cast<T>(u(rng) * 3.0);
        add("length " + std::to_string(n), t);
    }
    return c;
}

}  // namespace vmaf::floatfeat::cuda::test
