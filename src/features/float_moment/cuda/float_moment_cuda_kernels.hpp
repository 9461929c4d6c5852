// Device kernels of the float_moment twin (host-callable launcher).
#pragma once

#include "backends/gpu/portability.hpp"

#include <cstddef>

namespace vmaf::floatfeat::cuda {

/// One frame's moment sums, in `sums` (device, zeroed). units: exact integer
/// sums over the luma of ref a, dist b (in units of 1/scaler: the raw
/// samples), and of the float squares a*a, b*b (in units of 1/scaler^2).
/// seq: above 12 bits, when either square sum reaches 2^53 units, upstream's
/// sequential raster-order double sums of the squares (ref, dist).
struct MomentSums {
    unsigned long long units[4];  ///< ref 1st, dist 1st, ref 2nd, dist 2nd
    double seq[2];                ///< ref 2nd, dist 2nd (see above)
};
void launch_float_moment(const void* ref, const void* dist, std::size_t pitch, unsigned w, unsigned h, unsigned bpc,
                         MomentSums* sums, cudaStream_t s);

}  // namespace vmaf::floatfeat::cuda
