// The CPU's sequential float or double sum (`T acc = 0; for (i...) acc +=
// t[i];`) of stored device terms, bit for bit, without one thread adding
// every term (source_ordered_sum.cuh says how and why it is exact).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace vmaf::floatfeat::cuda {

/// Up to kMaxOrderedSums sequences: term[k] holds n[k] values (device).
inline constexpr int kMaxOrderedSums = 4;
template <typename T>
struct OrderedSeqs {
    const T* term[kMaxOrderedSums];
    unsigned long long n[kMaxOrderedSums];
    int count;
};

/// Device scratch bytes for launch_ordered_sums over sequences of these lengths.
template <typename T>
std::size_t ordered_sum_scratch_bytes(const OrderedSeqs<T>& seqs);

/// sums[k] (device) = the sequential sum from +0 of term[k][0], term[k][1],
/// ..., for k < count, in T (float or double). With a gate (device, may be
/// set by earlier work on `s`), only when *gate != 0; else nothing is written.
template <typename T>
void launch_ordered_sums(const OrderedSeqs<T>& seqs, const int* gate, void* scratch, T* sums, cudaStream_t s);

}  // namespace vmaf::floatfeat::cuda
