// The raster-order double sum of stored terms (the CPU's `double acc = 0;
// for (i...) acc += t[i];`), bit for bit, without one thread adding every
// term (ordered_double_sum.cu says how).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace vmaf::ssimfeat::cuda {

/// Device scratch bytes for `count` sums of n terms each.
std::size_t ordered_sum_scratch_bytes(unsigned long long n, int count);

/// When *gate != 0 (device; read by the kernels, so it may be set by earlier
/// work on `s`): sums[k] = the sequential double sum from +0.0 of
/// term[k * n + i], i = 0, 1, ..., n - 1, for k < count (at most 4).
/// Else nothing is written.
void launch_ordered_sums(const double* term, unsigned long long n, int count, const int* gate, void* scratch,
                         double* sums, cudaStream_t s);

}  // namespace vmaf::ssimfeat::cuda
