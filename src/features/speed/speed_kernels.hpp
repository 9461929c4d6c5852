// Kernel table of SpEED: the row primitive of its separable Gaussian filters
// and of its solver, the row sums of its 5x5-shift means and covariance, and
// the plane loading and frame differences.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/simd.hpp"

namespace vmaf::speed {

/// acc[j] += c * src[j] for j < n, each as a float multiply then a float add
/// (no fused multiply-add): the filter's taps accumulated in upstream's order.
void scale_add(float* acc, const float* src, float c, std::size_t n);

/// out[j] = sum over t < taps of coef[t] * rows[t][j] for j < n, accumulated from
/// 0 in tap order, each term a float multiply then a float add (no FMA): one
/// output row of a separable filter pass with its taps' source rows given.
void weighted_rows(float* out, const float* const* rows, const float* coef, int taps, std::size_t n);

/// Lanes of one accumulator group of cov_row (5 used, 3 scratch).
constexpr std::size_t kCovGroup = 8;

/// One row of the 5x5-shift covariance sums, in double:
/// for j < n (ascending), x < 5, c < 5:
///   acc[x * kCovGroup + c] += (double(a[x + j]) - ma[x]) * (double(b[c + j]) - mb[c])
/// each a double subtract, multiply and add (no FMA), so every accumulator
/// sees upstream's scalar order. acc[x * kCovGroup + 5 .. 7] are scratch
/// (unspecified on return). Reads a[0, n + 4) and b[0, n + 7): b must stay
/// readable 3 floats past the last sample a lane keeps.
void cov_row(double* acc, const float* a, const double* ma, const float* b, const double* mb, std::size_t n);

/// acc[c] += a[c + j] for j < n (ascending), c < 5: the float sums of the 5
/// column shifts of one row, each accumulated in order (no reassociation).
/// acc[5 .. 7] are scratch. Reads a[0, n + 7) (see cov_row).
void shift_sums(float* acc, const float* a, std::size_t n);

/// out[j] = float(src[j]) + offset for j < n (8-bit samples; exact).
void load_u8(float* out, const std::uint8_t* src, float offset, std::size_t n);

/// out[j] = float(src[j]) / scaler + offset for j < n (higher depths), a float
/// divide then a float add.
void load_u16(float* out, const std::uint16_t* src, float scaler, float offset, std::size_t n);

/// a[j] -= b[j] for j < n.
void subtract_row(float* a, const float* b, std::size_t n);

/// dst = x y (x rows x inner, y inner x cols, dst rows x cols, all row-major,
/// dst not overlapping x or y): every element accumulated from 0 over k
/// ascending, each term a float multiply then a float add (no FMA).
void mat_mul(float* dst, const float* x, const float* y, std::size_t rows, std::size_t inner, std::size_t cols);

/// Kernel table: scalar reference by default, overridden per SIMD target
/// (speed_simd.cpp). Every entry gives bit-identical results for every input.
struct SpeedKernels {
    using ScaleAddFn = void (*)(float* acc, const float* src, float c, std::size_t n);
    ScaleAddFn scale_add = &speed::scale_add;
    using WeightedRowsFn = void (*)(float* out, const float* const* rows, const float* coef, int taps, std::size_t n);
    WeightedRowsFn weighted_rows = &speed::weighted_rows;
    using CovRowFn = void (*)(double* acc, const float* a, const double* ma, const float* b, const double* mb,
                              std::size_t n);
    CovRowFn cov_row = &speed::cov_row;
    using ShiftSumsFn = void (*)(float* acc, const float* a, std::size_t n);
    ShiftSumsFn shift_sums = &speed::shift_sums;
    using LoadU8Fn = void (*)(float* out, const std::uint8_t* src, float offset, std::size_t n);
    LoadU8Fn load_u8 = &speed::load_u8;
    using LoadU16Fn = void (*)(float* out, const std::uint16_t* src, float scaler, float offset, std::size_t n);
    LoadU16Fn load_u16 = &speed::load_u16;
    using SubtractRowFn = void (*)(float* a, const float* b, std::size_t n);
    SubtractRowFn subtract_row = &speed::subtract_row;
    using MatMulFn = void (*)(float* dst, const float* x, const float* y, std::size_t rows, std::size_t inner,
                              std::size_t cols);
    MatMulFn mat_mul = &speed::mat_mul;
};

/// The SIMD targets compiled for SpEED (defined in speed_simd.cpp).
simd::KernelRegistry<SpeedKernels>& speed_registry();

}  // namespace vmaf::speed
