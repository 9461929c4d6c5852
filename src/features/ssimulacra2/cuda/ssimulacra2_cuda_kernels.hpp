// Device side of the ssimulacra2 twin (host-callable launcher); the
// per-thread work is ssimulacra2_cuda_pipeline.hpp's.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "features/ssimulacra2/cuda/ssimulacra2_cuda_pipeline.hpp"

namespace vmaf::ssimulacra2::cuda {

/// Device bytes of launch_ssimulacra2's sums_scratch (the map sums' chunk figures).
std::size_t s2_sums_scratch_bytes(const S2Geometry& g);

/// One frame's run_pipeline on stream s: sums (device, kS2Sums doubles) gets
/// the measured scales' map sums (others untouched).
void launch_ssimulacra2(const Planes3& in, const S2Geometry& g, const S2Constants& k, const S2Scratch& scratch,
                        void* sums_scratch, double* sums, cudaStream_t s);

}  // namespace vmaf::ssimulacra2::cuda
