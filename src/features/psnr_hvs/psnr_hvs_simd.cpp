// SIMD kernels of PSNR-HVS, one Highway source compiled for every target
// (foreach_target), registered in psnr_hvs_registry().
//
// Lanes are blocks: a vector holds the same sample (or coefficient) of N
// neighbouring blocks of a block row, so every per-block computation of the
// scalar reference (sums in coefficient order, the integer DCT, divisions,
// the masking threshold) runs unchanged per lane, and the results are
// bit-identical. The one substitution: the scalar reference takes the
// masking square root in double and rounds to float; here sqrt is taken in
// float. Both are correctly rounded and the /32 is exact, so they agree.
// The float sum over blocks (plane_error) stays sequential: its order is
// upstream's and cannot be changed.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "features/psnr_hvs/psnr_hvs_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstring>

#include "features/psnr_hvs/psnr_hvs_kernels.hpp"

#if HWY_TARGET != HWY_SCALAR
HWY_BEFORE_NAMESPACE();
namespace vmaf::HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;
using DI = hn::ScalableTag<std::int32_t>;
using DF = hn::Rebind<float, DI>;
using DU = hn::Rebind<std::uint32_t, DI>;
using VI = hn::Vec<DI>;
using VF = hn::Vec<DF>;

constexpr std::size_t kMaxN = HWY_MAX_BYTES / sizeof(std::int32_t);

// The DCT's lane operations on int32 vectors (wrapping, as the scalar ones).
struct VecOps {
    using V = VI;
    static V add(V a, V b) { return hn::Add(a, b); }
    static V sub(V a, V b) { return hn::Sub(a, b); }
    static V half(V a) {
        return hn::ShiftRight<1>(hn::Add(a, hn::BitCast(DI(), hn::ShiftRight<31>(hn::BitCast(DU(), a)))));
    }
    template <std::int32_t C, std::int32_t R, int S>
    static V mul_round(V a) {
        return hn::ShiftRight<S>(hn::Add(hn::Mul(a, hn::Set(DI(), C)), hn::Set(DI(), R)));
    }
};

#include "features/psnr_hvs/psnr_hvs_dct.inc"

// Samples of `lanes` blocks starting at block b0, coefficient-major:
// out[k * N + l] = sample k (row-major) of block min(b0 + l, last).
template <typename T>
void gather(const Plane& p, unsigned y, unsigned b0, unsigned last, std::size_t N, std::int32_t* out) {
    for (unsigned i = 0; i < 8; ++i) {
        const T* row = p.row<const T>(y + i);
        for (std::size_t l = 0; l < N; ++l) {
            const T* s = row + psnr_hvs::kStep * std::min(b0 + static_cast<unsigned>(l), last);
            for (unsigned j = 0; j < 8; ++j) out[(8 * i + j) * N + l] = s[j];
        }
    }
}

// Variance ratio per lane (see the scalar variance_ratio).
VF VarianceRatio(const std::int32_t* s, std::size_t N) {
    const DF df;
    VF gmean = hn::Zero(df), m0 = gmean, m1 = gmean, m2 = gmean, m3 = gmean;
    for (unsigned k = 0; k < 64; ++k) {
        const VF v = hn::ConvertTo(df, hn::Load(DI(), s + k * N));
        gmean = hn::Add(gmean, v);
        switch ((k >> 5) + ((k & 4) >> 1)) {
            case 0:
                m0 = hn::Add(m0, v);
                break;
            case 1:
                m1 = hn::Add(m1, v);
                break;
            case 2:
                m2 = hn::Add(m2, v);
                break;
            default:
                m3 = hn::Add(m3, v);
                break;
        }
    }
    gmean = hn::Div(gmean, hn::Set(df, 64.f));
    const VF sixteen = hn::Set(df, 16.f);
    m0 = hn::Div(m0, sixteen), m1 = hn::Div(m1, sixteen), m2 = hn::Div(m2, sixteen), m3 = hn::Div(m3, sixteen);
    VF gvar = hn::Zero(df), v0 = gvar, v1 = gvar, v2 = gvar, v3 = gvar;
    for (unsigned k = 0; k < 64; ++k) {
        const VF v = hn::ConvertTo(df, hn::Load(DI(), s + k * N));
        const VF dg = hn::Sub(v, gmean);
        gvar = hn::Add(gvar, hn::Mul(dg, dg));
        switch ((k >> 5) + ((k & 4) >> 1)) {
            case 0: {
                const VF d = hn::Sub(v, m0);
                v0 = hn::Add(v0, hn::Mul(d, d));
                break;
            }
            case 1: {
                const VF d = hn::Sub(v, m1);
                v1 = hn::Add(v1, hn::Mul(d, d));
                break;
            }
            case 2: {
                const VF d = hn::Sub(v, m2);
                v2 = hn::Add(v2, hn::Mul(d, d));
                break;
            }
            default: {
                const VF d = hn::Sub(v, m3);
                v3 = hn::Add(v3, hn::Mul(d, d));
                break;
            }
        }
    }
    constexpr float kBlockScale = 1 / 63.f * 64, kQuadScale = 1 / 15.f * 16;
    gvar = hn::Mul(gvar, hn::Set(df, kBlockScale));
    const VF qs = hn::Set(df, kQuadScale);
    v0 = hn::Mul(v0, qs), v1 = hn::Mul(v1, qs), v2 = hn::Mul(v2, qs), v3 = hn::Mul(v3, qs);
    const VF ratio = hn::Div(hn::Add(hn::Add(hn::Add(v0, v1), v2), v3), gvar);
    return hn::IfThenElse(hn::Gt(gvar, hn::Zero(df)), ratio, gvar);
}

// In place: samples -> coefficients of every lane's block (see fdct8x8).
void Dct8x8(std::int32_t* s, std::int32_t* t, std::size_t N) {
    const DI di;
    auto at = [N](std::int32_t* base, unsigned k) { return base + k * N; };
    for (unsigned c = 0; c < 8; ++c) {
        VI x0 = hn::Load(di, at(s, c)), x1 = hn::Load(di, at(s, 8 + c)), x2 = hn::Load(di, at(s, 16 + c)),
           x3 = hn::Load(di, at(s, 24 + c)), x4 = hn::Load(di, at(s, 32 + c)), x5 = hn::Load(di, at(s, 40 + c)),
           x6 = hn::Load(di, at(s, 48 + c)), x7 = hn::Load(di, at(s, 56 + c));
        fdct8<VecOps>(x0, x1, x2, x3, x4, x5, x6, x7);
        hn::Store(x0, di, at(t, 8 * c)), hn::Store(x1, di, at(t, 8 * c + 1)), hn::Store(x2, di, at(t, 8 * c + 2));
        hn::Store(x3, di, at(t, 8 * c + 3)), hn::Store(x4, di, at(t, 8 * c + 4)), hn::Store(x5, di, at(t, 8 * c + 5));
        hn::Store(x6, di, at(t, 8 * c + 6)), hn::Store(x7, di, at(t, 8 * c + 7));
    }
    for (unsigned f = 0; f < 8; ++f) {
        VI x0 = hn::Load(di, at(t, f)), x1 = hn::Load(di, at(t, 8 + f)), x2 = hn::Load(di, at(t, 16 + f)),
           x3 = hn::Load(di, at(t, 24 + f)), x4 = hn::Load(di, at(t, 32 + f)), x5 = hn::Load(di, at(t, 40 + f)),
           x6 = hn::Load(di, at(t, 48 + f)), x7 = hn::Load(di, at(t, 56 + f));
        fdct8<VecOps>(x0, x1, x2, x3, x4, x5, x6, x7);
        hn::Store(x0, di, at(s, 8 * f)), hn::Store(x1, di, at(s, 8 * f + 1)), hn::Store(x2, di, at(s, 8 * f + 2));
        hn::Store(x3, di, at(s, 8 * f + 3)), hn::Store(x4, di, at(s, 8 * f + 4)), hn::Store(x5, di, at(s, 8 * f + 5));
        hn::Store(x6, di, at(s, 8 * f + 6)), hn::Store(x7, di, at(s, 8 * f + 7));
    }
}

// Masking strength per lane (see the scalar block_mask).
VF BlockMask(const std::int32_t* c, VF ratio, const psnr_hvs::Weights& w, std::size_t N) {
    const DF df;
    VF m = hn::Zero(df);
    for (unsigned k = 1; k < 64; ++k) {
        const VI v = hn::Load(DI(), c + k * N);
        m = hn::Add(m, hn::Mul(hn::ConvertTo(df, hn::Mul(v, v)), hn::Set(df, w.mask[k])));
    }
    return hn::Div(hn::Sqrt(hn::Mul(m, ratio)), hn::Set(df, 32.f));
}

template <typename T>
void BlockRowT(const Plane& ref, const Plane& dist, unsigned y, unsigned n, const psnr_hvs::Weights& w, float* out) {
    const DI di;
    const DF df;
    const std::size_t N = hn::Lanes(di);
    HWY_ALIGN std::int32_t s[64 * kMaxN], d[64 * kMaxN], tmp[64 * kMaxN];
    HWY_ALIGN float part[kMaxN];
    for (unsigned b0 = 0; b0 < n; b0 += static_cast<unsigned>(N)) {
        const unsigned lanes = std::min<unsigned>(static_cast<unsigned>(N), n - b0);
        gather<T>(ref, y, b0, n - 1, N, s);
        gather<T>(dist, y, b0, n - 1, N, d);
        const VF s_ratio = VarianceRatio(s, N), d_ratio = VarianceRatio(d, N);
        Dct8x8(s, tmp, N);
        Dct8x8(d, tmp, N);
        const VF sm = BlockMask(s, s_ratio, w, N), dm = BlockMask(d, d_ratio, w, N);
        const VF mask = hn::IfThenElse(hn::Gt(dm, sm), dm, sm);
        for (unsigned k = 0; k < 64; ++k) {
            VF err = hn::ConvertTo(df, hn::Abs(hn::Sub(hn::Load(di, s + k * N), hn::Load(di, d + k * N))));
            if (k != 0) {
                const VF t = hn::Div(mask, hn::Set(df, w.mask[k]));
                err = hn::IfThenZeroElse(hn::Lt(err, t), hn::Sub(err, t));
            }
            const VF e = hn::Mul(err, hn::Set(df, w.csf[k]));
            const VF c = hn::Mul(e, e);
            float* dst = out + std::size_t{k} * n + b0;
            if (lanes == N) {
                hn::StoreU(c, df, dst);
            } else {
                hn::Store(c, df, part);
                std::memcpy(dst, part, lanes * sizeof(float));
            }
        }
    }
}

void BlockRow(const Plane& ref, const Plane& dist, unsigned bpc, unsigned y, unsigned n, const psnr_hvs::Weights& w,
              float* out) {
    if (bpc == 8)
        BlockRowT<std::uint8_t>(ref, dist, y, n, w, out);
    else
        BlockRowT<std::uint16_t>(ref, dist, y, n, w, out);
}

void FillPsnrHvsKernels(psnr_hvs::PsnrHvsKernels& k) {
    k.block_row = &BlockRow;
}

[[maybe_unused]] const bool kRegistered = psnr_hvs::psnr_hvs_registry().add(HWY_TARGET, &FillPsnrHvsKernels);

}  // namespace
}  // namespace vmaf::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();
#endif  // HWY_TARGET != HWY_SCALAR

#if HWY_ONCE
namespace vmaf::psnr_hvs {

simd::KernelRegistry<PsnrHvsKernels>& psnr_hvs_registry() {
    static simd::KernelRegistry<PsnrHvsKernels> registry;
    return registry;
}

}  // namespace vmaf::psnr_hvs
#endif
