// SIMD kernels of SpEED, one Highway source compiled for every target.
// Every kernel rounds each operation as the scalar reference (Mul then Add,
// never an FMA; each lane one accumulator in the reference's order), so every
// output is bit-identical.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/speed/speed_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "features/speed/speed_kernels.hpp"

#if HWY_TARGET != HWY_SCALAR
HWY_BEFORE_NAMESPACE();
namespace vmaf::HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;

void ScaleAdd(float* HWY_RESTRICT acc, const float* HWY_RESTRICT src, float c, std::size_t n) {
    const hn::ScalableTag<float> d;
    const std::size_t lanes = hn::Lanes(d);
    const auto vc = hn::Set(d, c);
    std::size_t j = 0;
    for (; j + lanes <= n; j += lanes)
        hn::StoreU(hn::Add(hn::LoadU(d, acc + j), hn::Mul(vc, hn::LoadU(d, src + j))), d, acc + j);
    for (; j < n; ++j) acc[j] += c * src[j];
}

void WeightedRows(float* HWY_RESTRICT out, const float* const* rows, const float* coef, int taps, std::size_t n) {
    const hn::ScalableTag<float> d;
    const std::size_t lanes = hn::Lanes(d);
    std::size_t j = 0;
    for (; j + lanes <= n; j += lanes) {
        auto acc = hn::Zero(d);
        for (int t = 0; t < taps; ++t) acc = hn::Add(acc, hn::Mul(hn::Set(d, coef[t]), hn::LoadU(d, rows[t] + j)));
        hn::StoreU(acc, d, out + j);
    }
    for (; j < n; ++j) {
        float acc = 0;
        for (int t = 0; t < taps; ++t) acc += coef[t] * rows[t][j];
        out[j] = acc;
    }
}

// CovRow and ShiftSums keep their accumulators in arrays of vectors, which
// sizeless (SVE) vector types cannot form: scalable targets keep the scalar
// reference for these two (the same sums in the same order).
#if !HWY_HAVE_SCALABLE
// One accumulator group (5 used lanes of speed::kCovGroup) is kGroupVecs vectors.
using DD = hn::CappedTag<double, speed::kCovGroup>;
constexpr std::size_t kGroupVecs = speed::kCovGroup / hn::MaxLanes(DD());

void CovRow(double* HWY_RESTRICT acc, const float* HWY_RESTRICT a, const double* ma, const float* HWY_RESTRICT b,
            const double* mb, std::size_t n) {
    const DD d;
    const hn::Rebind<float, DD> df;
    constexpr std::size_t L = hn::MaxLanes(d);
    using V = hn::Vec<DD>;
    HWY_ALIGN double mbp[speed::kCovGroup] = {mb[0], mb[1], mb[2], mb[3], mb[4], 0, 0, 0};
    V s[5][kGroupVecs], m[kGroupVecs];
    for (std::size_t v = 0; v < kGroupVecs; ++v) {
        m[v] = hn::Load(d, mbp + v * L);
        for (int x = 0; x < 5; ++x) s[x][v] = hn::LoadU(d, acc + x * speed::kCovGroup + v * L);
    }
    for (std::size_t j = 0; j < n; ++j) {
        V bv[kGroupVecs];
        for (std::size_t v = 0; v < kGroupVecs; ++v)
            bv[v] = hn::Sub(hn::PromoteTo(d, hn::LoadU(df, b + j + v * L)), m[v]);
        for (int x = 0; x < 5; ++x) {
            const V av = hn::Set(d, static_cast<double>(a[x + j]) - ma[x]);
            for (std::size_t v = 0; v < kGroupVecs; ++v) s[x][v] = hn::Add(s[x][v], hn::Mul(av, bv[v]));
        }
    }
    for (std::size_t v = 0; v < kGroupVecs; ++v)
        for (int x = 0; x < 5; ++x) hn::StoreU(s[x][v], d, acc + x * speed::kCovGroup + v * L);
}

void ShiftSums(float* HWY_RESTRICT acc, const float* HWY_RESTRICT a, std::size_t n) {
    const hn::CappedTag<float, speed::kCovGroup> d;
    constexpr std::size_t L = hn::MaxLanes(d), kVecs = speed::kCovGroup / L;
    hn::Vec<decltype(d)> s[kVecs];
    for (std::size_t v = 0; v < kVecs; ++v) s[v] = hn::LoadU(d, acc + v * L);
    for (std::size_t j = 0; j < n; ++j)
        for (std::size_t v = 0; v < kVecs; ++v) s[v] = hn::Add(s[v], hn::LoadU(d, a + j + v * L));
    for (std::size_t v = 0; v < kVecs; ++v) hn::StoreU(s[v], d, acc + v * L);
}
#endif  // !HWY_HAVE_SCALABLE

void LoadU8(float* HWY_RESTRICT out, const std::uint8_t* HWY_RESTRICT src, float offset, std::size_t n) {
    const hn::ScalableTag<float> d;
    const hn::Rebind<std::uint8_t, decltype(d)> d8;
    const hn::Rebind<std::int32_t, decltype(d)> di;
    const std::size_t lanes = hn::Lanes(d);
    const auto off = hn::Set(d, offset);
    std::size_t j = 0;
    for (; j + lanes <= n; j += lanes)
        hn::StoreU(hn::Add(hn::ConvertTo(d, hn::PromoteTo(di, hn::LoadU(d8, src + j))), off), d, out + j);
    for (; j < n; ++j) out[j] = static_cast<float>(src[j]) + offset;
}

void LoadU16(float* HWY_RESTRICT out, const std::uint16_t* HWY_RESTRICT src, float scaler, float offset,
             std::size_t n) {
    const hn::ScalableTag<float> d;
    const hn::Rebind<std::uint16_t, decltype(d)> d16;
    const hn::Rebind<std::int32_t, decltype(d)> di;
    const std::size_t lanes = hn::Lanes(d);
    const auto off = hn::Set(d, offset), sc = hn::Set(d, scaler);
    std::size_t j = 0;
    for (; j + lanes <= n; j += lanes)
        hn::StoreU(hn::Add(hn::Div(hn::ConvertTo(d, hn::PromoteTo(di, hn::LoadU(d16, src + j))), sc), off), d, out + j);
    for (; j < n; ++j) out[j] = static_cast<float>(src[j]) / scaler + offset;
}

void SubtractRow(float* HWY_RESTRICT a, const float* HWY_RESTRICT b, std::size_t n) {
    const hn::ScalableTag<float> d;
    const std::size_t lanes = hn::Lanes(d);
    std::size_t j = 0;
    for (; j + lanes <= n; j += lanes) hn::StoreU(hn::Sub(hn::LoadU(d, a + j), hn::LoadU(d, b + j)), d, a + j);
    for (; j < n; ++j) a[j] -= b[j];
}

#if !HWY_HAVE_SCALABLE
// dst = x y with each element summed in ascending k from zero, as the
// reference. A tile keeps R rows by V vectors of sums in registers, so R * V
// independent adds hide each other's latency (one vector a row waited on its
// own add 25 times). Columns go by whole vectors; the last vector of a row
// overlaps its neighbour rather than leaving a scalar tail: the columns it
// computes twice get the same value twice.
template <std::size_t R, std::size_t V, class D>
HWY_INLINE void MatMulTile(D d, float* HWY_RESTRICT dst, const float* HWY_RESTRICT x, const float* HWY_RESTRICT y,
                           std::size_t i, std::size_t inner, std::size_t cols, std::size_t j) {
    const std::size_t lanes = hn::Lanes(d);
    std::size_t at[V];
    for (std::size_t v = 0; v < V; ++v) at[v] = HWY_MIN(j + v * lanes, cols - lanes);
    hn::Vec<D> acc[R][V];
    for (std::size_t r = 0; r < R; ++r)
        for (std::size_t v = 0; v < V; ++v) acc[r][v] = hn::Zero(d);
    for (std::size_t k = 0; k < inner; ++k) {
        hn::Vec<D> yv[V];
        for (std::size_t v = 0; v < V; ++v) yv[v] = hn::LoadU(d, y + k * cols + at[v]);
        for (std::size_t r = 0; r < R; ++r) {
            const auto xv = hn::Set(d, x[(i + r) * inner + k]);
            for (std::size_t v = 0; v < V; ++v) acc[r][v] = hn::Add(acc[r][v], hn::Mul(xv, yv[v]));
        }
    }
    for (std::size_t r = 0; r < R; ++r)
        for (std::size_t v = 0; v < V; ++v) hn::StoreU(acc[r][v], d, dst + (i + r) * cols + at[v]);
}

/// Rows [i, i + R), every column (cols >= Lanes(d)), up to four vectors a tile.
template <std::size_t R, class D>
HWY_INLINE void MatMulRowTiles(D d, float* HWY_RESTRICT dst, const float* HWY_RESTRICT x,
                               const float* HWY_RESTRICT y, std::size_t i, std::size_t inner, std::size_t cols) {
    const std::size_t lanes = hn::Lanes(d);
    for (std::size_t j = 0; j < cols; j += 4 * lanes) {
        const std::size_t left = (cols - j + lanes - 1) / lanes;  // vectors still to cover
        if (left >= 4)
            MatMulTile<R, 4>(d, dst, x, y, i, inner, cols, j);
        else if (left == 3)
            MatMulTile<R, 3>(d, dst, x, y, i, inner, cols, j);
        else if (left == 2)
            MatMulTile<R, 2>(d, dst, x, y, i, inner, cols, j);
        else
            MatMulTile<R, 1>(d, dst, x, y, i, inner, cols, j);
    }
}

template <class D>
HWY_INLINE void MatMulRows(D d, float* HWY_RESTRICT dst, const float* HWY_RESTRICT x, const float* HWY_RESTRICT y,
                           std::size_t rows, std::size_t inner, std::size_t cols) {
    std::size_t i = 0;
    for (; i + 2 <= rows; i += 2) MatMulRowTiles<2>(d, dst, x, y, i, inner, cols);
    if (i < rows) MatMulRowTiles<1>(d, dst, x, y, i, inner, cols);
}

void MatMul(float* HWY_RESTRICT dst, const float* HWY_RESTRICT x, const float* HWY_RESTRICT y, std::size_t rows,
            std::size_t inner, std::size_t cols) {
    const hn::ScalableTag<float> d;
    const hn::CappedTag<float, 8> d8;
    const hn::CappedTag<float, 4> d4;
    if (cols >= hn::Lanes(d)) return MatMulRows(d, dst, x, y, rows, inner, cols);
    if (cols >= hn::Lanes(d8)) return MatMulRows(d8, dst, x, y, rows, inner, cols);
    if (cols >= hn::Lanes(d4)) return MatMulRows(d4, dst, x, y, rows, inner, cols);
    speed::mat_mul(dst, x, y, rows, inner, cols);  // under four columns: the reference
}
#else
// Scalable targets (sizeless vectors form no arrays): one vector of a row at a
// time, summed in ascending k, the tail lane by lane.
void MatMul(float* HWY_RESTRICT dst, const float* HWY_RESTRICT x, const float* HWY_RESTRICT y, std::size_t rows,
            std::size_t inner, std::size_t cols) {
    const hn::ScalableTag<float> d;
    const std::size_t lanes = hn::Lanes(d);
    for (std::size_t i = 0; i < rows; ++i) {
        std::size_t j = 0;
        for (; j + lanes <= cols; j += lanes) {
            auto acc = hn::Zero(d);
            for (std::size_t k = 0; k < inner; ++k)
                acc = hn::Add(acc, hn::Mul(hn::Set(d, x[i * inner + k]), hn::LoadU(d, y + k * cols + j)));
            hn::StoreU(acc, d, dst + i * cols + j);
        }
        for (; j < cols; ++j) {
            float acc = 0;
            for (std::size_t k = 0; k < inner; ++k) acc += x[i * inner + k] * y[k * cols + j];
            dst[i * cols + j] = acc;
        }
    }
}
#endif  // !HWY_HAVE_SCALABLE

void FillSpeedKernels(speed::SpeedKernels& k) {
    k.mat_mul = &MatMul;
    k.load_u8 = &LoadU8;
    k.load_u16 = &LoadU16;
    k.subtract_row = &SubtractRow;
    k.scale_add = &ScaleAdd;
    k.weighted_rows = &WeightedRows;
#if !HWY_HAVE_SCALABLE
    k.cov_row = &CovRow;
    k.shift_sums = &ShiftSums;
#endif
}

[[maybe_unused]] const bool kRegistered = speed::speed_registry().add(HWY_TARGET, &FillSpeedKernels);

}  // namespace
}  // namespace vmaf::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
#endif  // HWY_TARGET != HWY_SCALAR

#if HWY_ONCE
namespace vmaf::speed {

void scale_add(float* acc, const float* src, float c, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j) acc[j] += c * src[j];
}

void weighted_rows(float* out, const float* const* rows, const float* coef, int taps, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j) {
        float acc = 0;
        for (int t = 0; t < taps; ++t) acc += coef[t] * rows[t][j];
        out[j] = acc;
    }
}

void cov_row(double* acc, const float* a, const double* ma, const float* b, const double* mb, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j)
        for (std::size_t x = 0; x < 5; ++x) {
            const double av = static_cast<double>(a[x + j]) - ma[x];
            for (std::size_t c = 0; c < 5; ++c) acc[x * kCovGroup + c] += av * (static_cast<double>(b[c + j]) - mb[c]);
        }
}

void shift_sums(float* acc, const float* a, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j)
        for (std::size_t c = 0; c < 5; ++c) acc[c] += a[c + j];
}

void load_u8(float* out, const std::uint8_t* src, float offset, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j) out[j] = static_cast<float>(src[j]) + offset;
}

void load_u16(float* out, const std::uint16_t* src, float scaler, float offset, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j) out[j] = static_cast<float>(src[j]) / scaler + offset;
}

void subtract_row(float* a, const float* b, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j) a[j] -= b[j];
}

void mat_mul(float* dst, const float* x, const float* y, std::size_t rows, std::size_t inner, std::size_t cols) {
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t j = 0; j < cols; ++j) {
            float acc = 0;
            for (std::size_t k = 0; k < inner; ++k) acc += x[i * inner + k] * y[k * cols + j];
            dst[i * cols + j] = acc;
        }
}

simd::KernelRegistry<SpeedKernels>& speed_registry() {
    static simd::KernelRegistry<SpeedKernels> registry;
    return registry;
}

}  // namespace vmaf::speed
#endif
