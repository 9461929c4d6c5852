// Pictures in CUDA device memory for callers that fill them themselves (the
// C API's DEVICE preallocation; FFmpeg copies its CUDA frames into them).
#pragma once

#include <functional>

#include "backends/cuda/context.hpp"
#include "vmaf/picture.hpp"

namespace vmaf::cuda {

/// A supply of pictures of `geom` in `ctx`'s device memory: each plane is its
/// own pitched allocation (cudaMallocPitch: rows aligned as the driver
/// prefers), zeroed when allocated. A released picture's planes are kept for
/// reuse (up to `keep`; more are freed); `keep` are allocated now. Pictures
/// stay valid after the supply is gone. Throws Error(Internal) on CUDA failure.
std::function<Picture()> device_picture_supply(const Context& ctx, const VideoGeometry& geom, unsigned keep);

}  // namespace vmaf::cuda
