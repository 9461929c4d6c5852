// Device kernels of the xpsnr twin (host-callable launchers). Each CUDA
// block sums one XPSNR block, with the CPU's integer arithmetic: the sums
// equal the CPU's exactly.
#pragma once

#include "backends/gpu/portability.hpp"

#include <cstddef>
#include <cstdint>

namespace vmaf::xpsnr::cuda {

/// A rectangle [x0, x1) x [y0, y1) of a plane; empty when x1 <= x0 or y1 <= y0.
struct Rect {
    int x0, x1, y0, y1;
};

/// out[i] = squared error of block i of a pw x ph plane cut into bw x bh
/// blocks (nbx per row), `nblocks` blocks. x86: the filter's x86 row sums
/// (sse_line_x86, bpc >= 15). Pitch in bytes, both planes.
void launch_block_sse(const void* a, const void* b, std::size_t pitch, unsigned pw, unsigned ph, unsigned bw,
                      unsigned bh, unsigned nbx, unsigned nblocks, unsigned bpc, bool x86, unsigned long long* out,
                      cudaStream_t s);

/// out[i] = spatial activity of luma block i over its window win[i] (plain:
/// every sample; down: even positions, the 6x6 high-pass on 2x2 sums).
void launch_spatial(const void* luma, std::size_t pitch, unsigned w, unsigned h, unsigned bpc, bool down,
                    const Rect* win, unsigned nblocks, unsigned long long* out, cudaStream_t s);

/// out[i] = temporal activity of luma block i over rect[i] against p1 (and
/// p2 for order 2); down: 2x2 groups, 0 outside the picture.
void launch_temporal(const void* cur, const void* p1, const void* p2, std::size_t pitch, unsigned w, unsigned h,
                     unsigned bpc, unsigned order, bool down, const Rect* rect, unsigned nblocks,
                     unsigned long long* out, cudaStream_t s);

}  // namespace vmaf::xpsnr::cuda
