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
#include <random>
#include <string>
#include <vector>

#include "features/float_common/cuda/source_ordered_sum.cuh"

namespace {

namespace ss = vmaf::floatfeat::cuda::source_sum;

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
    {  // x - 1 for x near 1 (ssimulacra2's edge maps): short mantissas, a tie every ~1000 terms
        std::vector<T> t(big);
        for (auto& v : t) {
            const double r = u(rng);
            v = r < 0.5 ? T(0) : static_cast<T>(static_cast<T>(1 + 0.05 * u(rng)) - T(1));
        }
        add("x - 1 with zeros", t);
    }
    {  // ties in most chunks, positive sum: 1 then multiples of half its ulp, some odd
        const T half = std::numeric_limits<T>::epsilon() / 2;
        std::vector<T> t{T(1)};
        for (std::size_t i = 0; i < 200000; ++i) t.push_back(i % 7 == 3 ? 3 * half : (i % 5 == 1 ? 2 * half : half));
        add("ties", t);  // and negated: the sum negative
    }
    {  // mixed signs around zero: the sum wanders up and down and crosses zero
        std::vector<T> t(big);
        for (auto& v : t) v = static_cast<T>((u(rng) - 0.5) * std::exp2(-8.0 + 16.0 * u(rng)));
        add("mixed signs", t);
    }
    {  // fourth powers of small values with rare large ones: heavy tails
        std::vector<T> t(big);
        for (auto& v : t) {
            const double x = u(rng) < 0.001 ? u(rng) : 0.01 * u(rng);
            v = static_cast<T>(x * x * x * x);
        }
        add("heavy-tailed fourth powers", t);
    }
    {  // terms far above the running sum, then tiny ones that vanish
        std::vector<T> t;
        for (std::size_t i = 0; i < 40000; ++i)
            t.push_back(i % 5000 == 0 ? static_cast<T>(1e30) : static_cast<T>(1e-3));
        for (std::size_t i = 0; i < 40000; ++i)
            t.push_back(i % 5000 == 0 ? static_cast<T>(-1e30) : static_cast<T>(1e-20));
        add("large and vanishing terms", t);
    }
    {  // zeros of both signs, alone and before other terms
        std::vector<T> z(70000);
        for (std::size_t i = 0; i < z.size(); ++i) z[i] = i % 3 ? T(0) : -T(0);
        add("signed zeros", z);
        add("negative zeros", std::vector<T>(70000, -T(0)));
        z.push_back(T(2.5));
        z.insert(z.end(), 40000, -T(0));
        add("zeros then a value", z);
    }
    {  // a subnormal running sum
        std::vector<T> t(50000);
        for (auto& v : t)
            v = std::numeric_limits<T>::denorm_min() * static_cast<T>(1 + (rng() % 5)) * (rng() % 2 ? 1 : -1);
        add("subnormal sums", t);
    }
    {  // infinities and NaN after a normal stretch
        std::vector<T> t(70000, T(1.25));
        t[40000] = std::numeric_limits<T>::infinity();
        add("infinity", t);
        t[50000] = -std::numeric_limits<T>::infinity();
        add("infinities of both signs", t);
        std::vector<T> nan(70000, T(0.5));
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

/// Each case as one group (its terms, their negations, and three quarters of
/// them: three sums per index), in launches of up to 8 groups of different lengths.
template <typename T>
void check_all(std::size_t big) {
    const auto cs = cases<T>(big);
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
