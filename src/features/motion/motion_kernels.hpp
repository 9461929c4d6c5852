// Scalar reference kernels of the integer motion feature.
//
// Upstream (libvmaf 3.2.0) measures motion between two luma planes A (the
// earlier frame) and B (the current one) as the sum of absolute values of the
// 5x5 separable low-pass filter applied to the *difference* A - B:
//
//   v(x, y) = sum_k F[k] * (A(x, r_k) - B(x, r_k))      r_k = reflect(y - 2 + k)
//   t(x, y) = (v(x, y) + 2^(bpc-1)) >> bpc              (floor shift; bpc=8 too)
//   u(x, y) = (sum_k F[k] * t(c_k, y) + 2^15) >> 16     c_k = reflect(x - 2 + k)
//   SAD     = sum_y (uint32 sum_x |u(x, y)|)            (per-row uint32 sums)
//
// v is formed per row from both frames' samples (no full-size intermediate
// planes): the whole measure runs in the ordered stage, which keeps the
// earlier frame's picture.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/simd.hpp"
#include "vmaf/picture.hpp"

namespace vmaf::motion {

/// The 5-tap filter; the taps sum to 65536.
inline constexpr int kTaps = 5;
inline constexpr std::uint32_t kFilter[kTaps] = {3571, 16004, 26386, 16004, 3571};

/// Maps an index into [0, size) by mirroring about the edge samples without
/// repeating them (-1 -> 1, size -> size - 2). Identical to upstream for every
/// index it uses when size >= 3; smaller planes (where upstream reads out of
/// bounds) fold repeatedly, and size 1 always maps to 0. Precondition: size >= 1.
int reflect(int idx, int size);

/// SAD of the blurred difference of two luma planes of the same size (prev = A,
/// the earlier frame; cur = B). Samples are uint8_t when bpc == 8, else
/// uint16_t. The sign matters: the shifts round towards -inf. `row` is scratch
/// of at least sad_scratch_size(w) values.
std::uint64_t blurred_difference_sad(const Plane& prev, const Plane& cur, unsigned bpc, std::int32_t* row);

/// Per-frame motion score from a SAD: min(SAD / 256 / (w*h) * fps_weight, max_val),
/// evaluated left to right in double as upstream does (w*h in unsigned arithmetic).
/// Kernel table: scalar reference by default, overridden per SIMD target
/// (motion_simd.cpp). Every entry gives bit-identical results for every input.
struct MotionKernels {
    using SadFn = std::uint64_t (*)(const Plane& prev, const Plane& cur, unsigned bpc, std::int32_t* scratch);
    SadFn blurred_difference_sad = &motion::blurred_difference_sad;
};

/// Scratch (int32 elements) every blurred_difference_sad kernel may use for width w.
inline std::size_t sad_scratch_size(unsigned w) { return 2 * (static_cast<std::size_t>(w) + 4); }

/// The SIMD targets compiled for motion (defined in motion_simd.cpp).
simd::KernelRegistry<MotionKernels>& motion_registry();

double sad_to_score(std::uint64_t sad, unsigned w, unsigned h, double fps_weight, double max_val);

/// Upstream's motion blend: score * factor + (1 - factor) * min(offset, score).
double blend(double score, double factor, double offset);

}  // namespace vmaf::motion
