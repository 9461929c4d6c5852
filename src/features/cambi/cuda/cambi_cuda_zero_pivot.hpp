// Upstream's top-k order where its first partition pivot is zero, on the device.
//
// When the device's exact pooling declines a scale (cambi_cuda_pool.hpp),
// the CPU's cambi::pool() next tries zero_pivot_topk_sum() (cambi_core.cpp):
// with c[k] == 0 and at least n - k zeros in c[0, k], upstream's quick_select
// does one effective partition around 0 and its in-order sum of arr[0, k) is
// the double sum, in increasing p, of v(p) = c[p] (c[p] > 0) or
// c[n - 1 - t(p)] (c[p] == 0, t(p) the zeros in c[0, p)), over the p < k
// with p + t(p) <= n - 1 (zeros skipped: adding +0 changes nothing). The
// device lists those nonzero v(p) in that order (two prefix counts and a
// compaction); the host adds them up in order from 0.0, the CPU's own
// operations in the CPU's own order. Where the conditions fail the scale
// stays declined and the host pools all its c values (quick_select).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "features/cambi/cuda/cambi_cuda_pool.hpp"

namespace vmaf::cambi::cuda {

/// Device scratch for pictures whose largest scale has n0 values.
std::size_t zero_pivot_scratch_bytes(std::size_t n0);

/// Where each scale's summands go: seq[s] holds job.n[s] floats (device).
struct SeqOut {
    float* seq[kPoolScales];
};

/// Enqueues, for each scale of `job` whose result[s] is kPoolFallback and
/// whose zero-pivot conditions hold, its summands in order into
/// out.seq[s][0, count) and result[s] = {kPoolSequence, 0, count}; other
/// results are left as they are.
void launch_zero_pivot(const PoolJob& job, const SeqOut& out, void* scratch, PoolResult* result, cudaStream_t s);

}  // namespace vmaf::cambi::cuda
