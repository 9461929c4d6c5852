// Exact top-k pooling on the device (see cambi_cuda_pool.hpp): from the stats
// (count, smallest nonzero value, a double estimate of the total) that the
// c-value kernel gathers into the reset state, a three-level
// radix select on the float bits (11, 11 and 10 bits; non-negative floats
// order as their bits), each level a histogram of counts and uint64 unit sums
// and a one-block pass that finds the bucket holding the k-th largest value.
// Counts and integer sums are order-free, so every launch configuration gives
// the same result.
#include <algorithm>

#include "cambi_cuda_pool.hpp"

namespace vmaf::cambi::cuda {

namespace {

using u32 = unsigned int;
using u64 = unsigned long long;

constexpr int kBins = 2048;    // per level, at most
constexpr int kThreads = 256;  // histogram blocks
constexpr int kMaxBlocks = 512;
constexpr int kLevels = 3;

struct State {
    PoolStats stats;
    u32 decided;  ///< the result is written
    u32 need;     ///< how many values the selection still takes
    u32 prefix;   ///< bits of the buckets chosen so far
    int q_exp;
    u64 sum;  ///< units taken so far
};

struct Hist {
    u32 cnt[kBins];
    u64 sum[kBins];
};

std::size_t align_up(std::size_t v) {
    return (v + 255) & ~std::size_t{255};
}

/// v / 2^q_exp for the float with bits `bits` (an integer when v >= the
/// smallest nonzero value, whose ulp is 2^q_exp); 0 past 2^63 (only reachable
/// when the estimate already declined the exact path).
__device__ __forceinline__ u64 units(u32 bits, int q_exp) {
    const u32 e = bits >> 23;
    u32 m = bits & 0x7fffffu;
    int e2 = -149;
    if (e) m |= 0x800000u, e2 = static_cast<int>(e) - 150;
    const int sh = e2 - q_exp;
    return sh >= 0 && sh <= 39 ? static_cast<u64>(m) << sh : 0ull;
}

// Every kernel below handles the scales of a PoolJob: blockIdx.y (blockIdx.x
// for the one-block kernels) is the scale, st / out / res point at scale 0's.
// The job is a __grid_constant__ parameter: indexed by the scale in place
// (a by-value copy indexed at run time goes to every thread's local memory).

__global__ void init(const __grid_constant__ PoolJob job, State* st, PoolResult* res) {
    const int sc = threadIdx.x;
    if (sc >= kPoolScales) return;
    st[sc] = State{PoolStats{0, 0x7f800000u, 0.0}, 0, job.k[sc], 0, 0, 0};
    res[sc] = PoolResult{0, 0, 0};
}

/// Settles the cases without selection: no nonzero value (sum 0), or a
/// total far past 2^53 units (the host pools, upstream's order).
__global__ void decide(State* states, PoolResult* results) {
    const int sc = threadIdx.x;
    if (sc >= kPoolScales) return;
    State* st = states + sc;
    PoolResult* res = results + sc;
    if (st->stats.nonzero == 0) {
        *res = PoolResult{kPoolExact, 0, 0};
        st->decided = 1;
        return;
    }
    const u32 e = st->stats.min_bits >> 23;
    st->q_exp = e ? static_cast<int>(e) - 150 : -149;
    // Below 2^62 units (the estimate is within 2^-28 of the total) the uint64
    // unit sums cannot wrap; level 0 then checks the exact total.
    if (!(st->stats.approx <= ldexp(1.0, 62 + st->q_exp))) {
        *res = PoolResult{kPoolFallback, 0, 0};
        st->decided = 1;
    }
}

/// Histogram of the values still in the selection: level 0 every nonzero
/// value by bits 30..21; level 1 those whose bits >> 21 are the chosen prefix,
/// by bits 20..10; level 2 those whose bits >> 10 are the prefix, by bits 9..0.
__global__ void level_hist(const __grid_constant__ PoolJob job, const State* states, int level, Hist* hists) {
    const float* c = job.c[blockIdx.y];
    const std::size_t n = job.n[blockIdx.y];
    const State* st = states + blockIdx.y;
    Hist* out = hists + blockIdx.y;
    __shared__ u32 cnt[kBins];
    __shared__ u64 sum[kBins];
    if (st->decided) return;
    for (int b = threadIdx.x; b < kBins; b += kThreads) cnt[b] = 0, sum[b] = 0;
    __syncthreads();
    const u32 prefix = st->prefix;
    const int q_exp = st->q_exp;
    for (std::size_t i = blockIdx.x * std::size_t{kThreads} + threadIdx.x; i < n;
         i += std::size_t{gridDim.x} * kThreads) {
        const u32 b = __float_as_uint(c[i]);
        if (b == 0) continue;
        u32 key;
        if (level == 0) {
            key = b >> 21;
        } else if (level == 1) {
            if (b >> 21 != prefix) continue;
            key = (b >> 10) & 0x7ffu;
        } else {
            if (b >> 10 != prefix) continue;
            key = b & 0x3ffu;
        }
        atomicAdd(&cnt[key], 1u);
        if (level < 2) atomicAdd(&sum[key], units(b, q_exp));
    }
    __syncthreads();
    for (int b = threadIdx.x; b < kBins; b += kThreads)
        if (cnt[b]) {
            atomicAdd(&out->cnt[b], cnt[b]);
            if (level < 2) atomicAdd(&out->sum[b], sum[b]);
        }
}

/// One block of 1024 threads: the bucket holding the need-th largest value
/// among `bins` (taken from the top); everything above it is taken.
__global__ void level_select(State* states, const Hist* hists, int level, int bins, PoolResult* results) {
    State* st = states + blockIdx.x;
    const Hist* h = hists + blockIdx.x;
    PoolResult* res = results + blockIdx.x;
    __shared__ u32 scan[1024];
    __shared__ int found;
    __shared__ u32 part_c[32];
    __shared__ u64 part_s[32], part_a[32];
    if (st->decided) return;
    const u32 need = st->need;
    const int t = threadIdx.x;
    const int hi = bins - 1 - 2 * t, lo = hi - 1;
    const u32 c_hi = hi >= 0 ? h->cnt[hi] : 0u, c_lo = lo >= 0 ? h->cnt[lo] : 0u;
    const u32 local = c_hi + c_lo;
    scan[t] = local;
    if (t == 0) found = -1;
    __syncthreads();
    for (int o = 1; o < 1024; o <<= 1) {
        const u32 add = t >= o ? scan[t - o] : 0u;
        __syncthreads();
        scan[t] += add;
        __syncthreads();
    }
    const u32 incl = scan[t], excl = incl - local;
    if (excl < need && need <= incl) found = excl + c_hi >= need ? hi : lo;
    __syncthreads();
    const int pick = found;
    const u32 prefix = st->prefix;
    const int q_exp = st->q_exp;
    auto bin_sum = [&](int b) -> u64 {
        if (level < 2) return h->sum[b];
        return static_cast<u64>(h->cnt[b]) * units((prefix << 10) | static_cast<u32>(b), q_exp);
    };
    u32 ca = 0;
    u64 sa = 0, all = 0;  // all: the level's total (level 0: every nonzero value)
    if (hi >= 0) all += bin_sum(hi);
    if (lo >= 0) all += bin_sum(lo);
    if (hi >= 0 && hi > pick) ca += c_hi, sa += bin_sum(hi);
    if (lo >= 0 && lo > pick) ca += c_lo, sa += bin_sum(lo);
    for (int o = 16; o > 0; o >>= 1) {
        ca += __shfl_down_sync(0xffffffffu, ca, o);
        sa += __shfl_down_sync(0xffffffffu, sa, o);
        all += __shfl_down_sync(0xffffffffu, all, o);
    }
    if ((t & 31) == 0) part_c[t >> 5] = ca, part_s[t >> 5] = sa, part_a[t >> 5] = all;
    __syncthreads();
    if (t != 0) return;
    for (int w = 1; w < 32; ++w) ca += part_c[w], sa += part_s[w], all += part_a[w];
    if (level == 0 && all > (1ull << 53)) {  // partial sums may round: upstream's order matters
        *res = PoolResult{kPoolFallback, 0, 0};
        st->decided = 1;
        return;
    }
    u64 sum = st->sum + sa;
    const u32 left = need - ca;
    if (pick < 0) {  // fewer nonzero values than k: all of them (the rest are zeros)
        *res = PoolResult{kPoolExact, q_exp, sum};
        st->decided = 1;
        return;
    }
    if (level == 2) {  // the bucket is one value: `left` copies of it
        sum += static_cast<u64>(left) * units((prefix << 10) | static_cast<u32>(pick), q_exp);
        *res = PoolResult{kPoolExact, q_exp, sum};
        st->decided = 1;
        return;
    }
    st->sum = sum;
    st->need = left;
    st->prefix = level == 0 ? static_cast<u32>(pick) : (prefix << 11) | static_cast<u32>(pick);
}

}  // namespace

std::size_t pool_scratch_bytes() {
    return align_up(kPoolScales * sizeof(State)) + align_up(kLevels * kPoolScales * sizeof(Hist));
}

void launch_pool_reset(const PoolJob& job, void* scratch, PoolResult* result, cudaStream_t s) {
    init<<<1, 32, 0, s>>>(job, static_cast<State*>(scratch), result);
}

PoolStats* pool_stats(void* scratch, int scale) {
    return &static_cast<State*>(scratch)[scale].stats;
}

void launch_pool(const PoolJob& job, void* scratch, PoolResult* result, cudaStream_t s) {
    auto* st = static_cast<State*>(scratch);
    auto* hist = reinterpret_cast<Hist*>(static_cast<char*>(scratch) + align_up(kPoolScales * sizeof(State)));
    std::size_t largest = 1;
    for (int sc = 0; sc < kPoolScales; ++sc) largest = std::max(largest, job.n[sc]);
    const dim3 grid(static_cast<unsigned>(std::min<std::size_t>(kMaxBlocks, (largest + kThreads - 1) / kThreads)),
                    kPoolScales);
    decide<<<1, 32, 0, s>>>(st, result);
    cudaMemsetAsync(hist, 0, kLevels * kPoolScales * sizeof(Hist), s);  // each level's own histograms
    constexpr int kLevelBins[kLevels] = {1024, 2048, 1024};
    for (int level = 0; level < kLevels; ++level) {
        Hist* h = hist + level * kPoolScales;
        level_hist<<<grid, kThreads, 0, s>>>(job, st, level, h);
        level_select<<<kPoolScales, 1024, 0, s>>>(st, h, level, kLevelBins[level], result);
    }
}

}  // namespace vmaf::cambi::cuda
