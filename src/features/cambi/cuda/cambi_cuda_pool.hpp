// Top-k pooling of one scale's c values on the device, where it is exact.
//
// The CPU (cambi::pool) sums the k largest c values in the order upstream's
// quick_select leaves them, except where it proves the order irrelevant:
// with q the ulp of the smallest nonzero value, every value is a multiple of
// q, so while the total stays below 2^53 q every partial sum of any subset,
// in any order, is an exact double, and the top-k sum is the exact sum of the
// k largest values. The device uses the same proof with integers: each value
// as an integer count of q (units), the k-th largest value found by a radix
// select on the float bits (exact counts), the sum of the k largest formed
// in uint64 units (exact, order-free). It declines (Fallback) when the
// exact total exceeds 2^53 units (a double estimate past 2^62 units declines
// before the uint64 sums could wrap); the host then pools that scale's
// read-back c values with cambi::pool itself, which follows upstream's order.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace vmaf::cambi::cuda {

/// One scale's pooled sum as the device found it.
struct PoolResult {
    std::uint32_t status;     ///< kPoolExact, kPoolFallback or kPoolSequence
    std::int32_t q_exp;       ///< kPoolExact: the sum is sum_units * 2^q_exp
    std::uint64_t sum_units;  ///< kPoolExact: the k largest values' sum in units of 2^q_exp;
                              ///< kPoolSequence: how many summands (cambi_cuda_zero_pivot.hpp)
};
inline constexpr std::uint32_t kPoolExact = 1, kPoolFallback = 2, kPoolSequence = 3;

/// The scales of one picture to pool, each c[s][0, n[s]) (values >= 0,
/// finite) for its k[s] largest (1 <= k[s] <= n[s]).
inline constexpr int kPoolScales = 5;
struct PoolJob {
    const float* c[kPoolScales];
    std::size_t n[kPoolScales];
    std::uint32_t k[kPoolScales];
};

/// What the pooling first needs to know of a scale's c values.
struct PoolStats {
    std::uint32_t nonzero;   ///< how many are nonzero
    std::uint32_t min_bits;  ///< the smallest nonzero one's bits (+inf's bits when none)
    double approx;           ///< their total, summed in any order (an estimate)
};

/// Device scratch of the pooling (per-scale state and histograms).
std::size_t pool_scratch_bytes();

/// Enqueues the reset of the pooling state in `scratch` for `job`, its
/// stats zeroed (0, +inf's bits, 0.0): the kernels writing the c values
/// then accumulate into pool_stats(scratch, scale) with atomics (atomicAdd,
/// atomicMin, atomicAdd) before launch_pool(job, scratch, result, s).
void launch_pool_reset(const PoolJob& job, void* scratch, PoolResult* result, cudaStream_t s);

/// The device stats of one scale in `scratch`.
PoolStats* pool_stats(void* scratch, int scale);

/// Enqueues the pooling of every scale of `job` into result[0, kPoolScales)
/// (device), after launch_pool_reset() and the stats' accumulation.
void launch_pool(const PoolJob& job, void* scratch, PoolResult* result, cudaStream_t s);

}  // namespace vmaf::cambi::cuda
