// ADM on the device: per scale a fused DWT (both pictures), then per gain
// limit one pass of decouple + CSF + contrast masking + den over tiles (the
// CSF planes never leave shared memory) that adds each row's exact sums to a
// row buffer, and a small pass that rounds and shifts each row's sums as the
// CPU does and adds them to the frame's totals. The integer
// arithmetic follows adm_scalar.cpp line for line (same casts, same wraps).
#include "backends/cuda/reduce.cuh"
#include "adm_cuda_kernels.hpp"

#include <type_traits>

namespace vmaf::adm::cuda {

namespace {

using i16 = short;
using i32 = int;
using i64 = long long;
using u16 = unsigned short;
using u32 = unsigned int;
using u64 = unsigned long long;

__constant__ i32 kLo[4] = {15826, 27411, 7345, -4240};
__constant__ i32 kHi[4] = {-4240, -7345, 27411, -15826};
constexpr i64 kLoSum = 46342;
constexpr i64 kQ32Round = -2147483648LL;

__device__ __forceinline__ int mirror(int k, int n) {
    if (k < 0) return -k;
    if (k >= n) return 2 * n - k - 1;
    return k;
}

struct ScaleBufs {
    i32* A[2];        ///< band A of ref / dis (int32, also scale 0)
    void* det[2][3];  ///< H, V, D of ref / dis
    u64* rows;        ///< per gain limit, per band row: kSumsPerScale row sums
    int band_h;       ///< rows of the band (the row sums' stride per limit)
};

std::size_t align_up(std::size_t v) { return (v + 255) & ~std::size_t{255}; }

/// Lays the four scales out in `base` (or only sizes them when base is null),
/// then each scale's row sums (kMaxGainLimits of them). The row sums must be
/// zero before the first frame; finish_rows leaves them zero.
std::size_t layout(unsigned w, unsigned h, char* base, ScaleBufs out[4]) {
    std::size_t off = 0;
    auto take = [&](std::size_t bytes) {
        void* p = base ? base + off : nullptr;
        off += align_up(bytes);
        return p;
    };
    unsigned bw = w, bh = h;
    for (int s = 0; s < 4; ++s) {
        bw = (bw + 1) / 2;
        bh = (bh + 1) / 2;
        const std::size_t n = static_cast<std::size_t>(bw) * bh;
        const std::size_t es = s == 0 ? 2 : 4;
        ScaleBufs b{};
        for (int side = 0; side < 2; ++side) b.A[side] = static_cast<i32*>(take(n * 4));
        for (int side = 0; side < 2; ++side)
            for (int t = 0; t < 3; ++t) b.det[side][t] = take(n * es);
        b.band_h = static_cast<int>(bh);
        if (out) out[s] = b;
    }
    bw = w, bh = h;
    for (int s = 0; s < 4; ++s) {
        bh = (bh + 1) / 2;
        void* r = take(std::size_t{bh} * kSumsPerScale * kMaxGainLimits * sizeof(u64));
        if (out) out[s].rows = static_cast<u64*>(r);
    }
    return off;
}

// ---------------------------------------------------------------------------
// DWT

struct DwtOut {
    i32* A;
    void* det[3];  ///< H, V, D
};

/// Scale 0's DWT of both pictures (blockIdx.z), tiled: kDwtRows x kDwtCols
/// outputs a block. The block's threads split into kDwtGroups groups of
/// kDwtIn threads; each filters one input column vertically for kDwtRows /
/// kDwtGroups output rows from one run of loaded samples (lo and hi into
/// shared memory; kDwtIn = 2 * kDwtCols + 2 columns, so one pass), then a
/// thread filters one output column of kDwtRows / 4 rows horizontally.
/// `Acc` holds the vertical sums: int is exact up to 15 bits a sample
/// (|sum| < 50582 * 2^15 < 2^31), long long beyond (and in a block holding a
/// sample past 15 bits, out of its bit depth's range); the horizontal sums of
/// 16-bit lo/hi always fit an int (54822 * 2^15 < 2^31).
constexpr int kDwtCols = 63, kDwtIn = 2 * kDwtCols + 2, kDwtGroups = 2, kDwtRows = 16;
constexpr int kDwtThreads = kDwtIn * kDwtGroups;
static_assert(kDwtIn == 128 && kDwtThreads == 256, "one input column per thread and group");

/// The horizontal stage of dwt0 and dwt123: thread t filters output column
/// j0 + t % 64 of kDwtRows / 4 rows from the vertical stage's lo / hi rows
/// (`s_lo`, `s_hi`), the sums in `Sum`, each band rounded as (sum + add) >>
/// shift and stored as `Det` (band A through Det into its int32 plane).
template <typename Sum, typename Det, typename Shared>
__device__ __forceinline__ void dwt_horizontal(const Shared (*s_lo)[kDwtIn], const Shared (*s_hi)[kDwtIn], int i0,
                                               int j0, int ow, int oh, Sum add, int shift, const DwtOut& o_ref,
                                               const DwtOut& o_dis) {
    const int jj = static_cast<int>(threadIdx.x) % 64, rq = static_cast<int>(threadIdx.x) / 64;
    const int j = j0 + jj;
    if (jj >= kDwtCols || j >= ow) return;
    i32* const oa = blockIdx.z ? o_dis.A : o_ref.A;
    Det* const oh_ = static_cast<Det*>(blockIdx.z ? o_dis.det[0] : o_ref.det[0]);
    Det* const ov_ = static_cast<Det*>(blockIdx.z ? o_dis.det[1] : o_ref.det[1]);
    Det* const od_ = static_cast<Det*>(blockIdx.z ? o_dis.det[2] : o_ref.det[2]);
#pragma unroll
    for (int q = 0; q < kDwtRows / 4; ++q) {
        const int r = rq * (kDwtRows / 4) + q, i = i0 + r;
        if (i >= oh) break;
        Sum sa = 0, sv = 0, sh = 0, sd = 0;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const Sum lo = s_lo[r][2 * jj + k], hi = s_hi[r][2 * jj + k];
            sa += kLo[k] * lo;
            sv += kHi[k] * lo;
            sh += kLo[k] * hi;
            sd += kHi[k] * hi;
        }
        const std::size_t idx = static_cast<std::size_t>(i) * ow + j;
        oa[idx] = static_cast<Det>((sa + add) >> shift);
        ov_[idx] = static_cast<Det>((sv + add) >> shift);
        oh_[idx] = static_cast<Det>((sh + add) >> shift);
        od_[idx] = static_cast<Det>((sd + add) >> shift);
    }
}

template <typename Sample, typename Acc>
__global__ void __launch_bounds__(kDwtThreads) dwt0(const unsigned char* ref, const unsigned char* dis,
                                                    std::size_t pitch, int w, int h, int ow, int oh, unsigned bpc,
                                                    DwtOut o_ref, DwtOut o_dis) {
    constexpr int kRowsPerGroup = kDwtRows / kDwtGroups, kRun = 2 * (kRowsPerGroup - 1) + 4;
    __shared__ i16 s_lo[kDwtRows][kDwtIn], s_hi[kDwtRows][kDwtIn];
    const unsigned char* src = blockIdx.z ? dis : ref;
    const int i0 = static_cast<int>(blockIdx.y) * kDwtRows, j0 = static_cast<int>(blockIdx.x) * kDwtCols;
    const int shift_v = static_cast<int>(bpc);
    {
        const int c = static_cast<int>(threadIdx.x) % kDwtIn, grp = static_cast<int>(threadIdx.x) / kDwtIn;
        // Columns and rows no output reads may mirror out of range: clamped.
        const int col = min(max(mirror(2 * j0 - 1 + c, w), 0), w - 1);
        const int r0 = 2 * (i0 + grp * kRowsPerGroup) - 1;
        Acc v[kRun];
        if (r0 >= 0 && r0 + kRun <= h) {
            const unsigned char* p = src + static_cast<std::size_t>(r0) * pitch + col * sizeof(Sample);
#pragma unroll
            for (int m = 0; m < kRun; ++m) v[m] = *reinterpret_cast<const Sample*>(p + m * pitch);
        } else {
#pragma unroll
            for (int m = 0; m < kRun; ++m)
                v[m] = reinterpret_cast<const Sample*>(
                    src + static_cast<std::size_t>(min(max(mirror(r0 + m, h), 0), h - 1)) * pitch)[col];
        }
        // int sums are exact only for samples below 2^15: a block holding one
        // past it (out of the bit depth's range) sums in 64 bits, as the CPU.
        unsigned seen = 0;
#pragma unroll
        for (int m = 0; m < kRun; ++m) seen |= static_cast<unsigned>(v[m]);
        const bool wide = __syncthreads_or(sizeof(Acc) == 4 && seen >= 32768u);
        auto vertical = [&](auto zero) {
            using A = decltype(zero);
            const A add = A{1} << (bpc - 1);
#pragma unroll
            for (int r = 0; r < kRowsPerGroup; ++r) {
                A acc_lo = 0, acc_hi = 0;
#pragma unroll
                for (int k = 0; k < 4; ++k) {
                    acc_lo += kLo[k] * static_cast<A>(v[2 * r + k]);
                    acc_hi += kHi[k] * static_cast<A>(v[2 * r + k]);
                }
                acc_lo -= static_cast<A>(kLoSum) * add;
                s_lo[grp * kRowsPerGroup + r][c] = static_cast<i16>((acc_lo + add) >> shift_v);
                s_hi[grp * kRowsPerGroup + r][c] = static_cast<i16>((acc_hi + add) >> shift_v);
            }
        };
        if (sizeof(Acc) == 4 && wide)
            vertical(i64{0});
        else
            vertical(Acc{0});
    }
    __syncthreads();
    // Horizontal: one output column (lanes: consecutive columns) of kDwtRows / 4 rows.
    dwt_horizontal<i32, i16>(s_lo, s_hi, i0, j0, ow, oh, 32768, 16, o_ref, o_dis);
}

/// Scales 1..3: dwt0's tiling over the previous scale's band A (int32), the
/// sums in 64 bits and each stage rounded and shifted as the CPU's.
__global__ void __launch_bounds__(kDwtThreads) dwt123(const i32* in_ref, const i32* in_dis, int w, int h, int ow,
                                                      int oh, i64 add_v, int shift_v, i64 add_h, int shift_h,
                                                      DwtOut o_ref, DwtOut o_dis) {
    constexpr int kRowsPerGroup = kDwtRows / kDwtGroups, kRun = 2 * (kRowsPerGroup - 1) + 4;
    __shared__ i32 s_lo[kDwtRows][kDwtIn], s_hi[kDwtRows][kDwtIn];
    const i32* src = blockIdx.z ? in_dis : in_ref;
    const int i0 = static_cast<int>(blockIdx.y) * kDwtRows, j0 = static_cast<int>(blockIdx.x) * kDwtCols;
    {
        const int c = static_cast<int>(threadIdx.x) % kDwtIn, grp = static_cast<int>(threadIdx.x) / kDwtIn;
        // Columns and rows no output reads may mirror out of range: clamped.
        const int col = min(max(mirror(2 * j0 - 1 + c, w), 0), w - 1);
        const int r0 = 2 * (i0 + grp * kRowsPerGroup) - 1;
        i32 v[kRun];
#pragma unroll
        for (int m = 0; m < kRun; ++m)
            v[m] = src[static_cast<std::size_t>(min(max(mirror(r0 + m, h), 0), h - 1)) * w + col];
#pragma unroll
        for (int r = 0; r < kRowsPerGroup; ++r) {
            i64 acc_lo = 0, acc_hi = 0;
#pragma unroll
            for (int k = 0; k < 4; ++k) {
                acc_lo += kLo[k] * i64{v[2 * r + k]};
                acc_hi += kHi[k] * i64{v[2 * r + k]};
            }
            s_lo[grp * kRowsPerGroup + r][c] = static_cast<i32>((acc_lo + add_v) >> shift_v);
            s_hi[grp * kRowsPerGroup + r][c] = static_cast<i32>((acc_hi + add_v) >> shift_v);
        }
    }
    __syncthreads();
    dwt_horizontal<i64, i32>(s_lo, s_hi, i0, j0, ow, oh, add_h, shift_h, o_ref, o_dis);
}

// ---------------------------------------------------------------------------
// Decouple + CSF

__device__ __forceinline__ bool angle_within_1deg(i64 ot_dp, i64 o_mag_sq, i64 t_mag_sq, float cos1) {
    const double dp = static_cast<double>(static_cast<float>(ot_dp)) / 4096.0;
    const double om = static_cast<double>(static_cast<float>(o_mag_sq)) / 4096.0;
    const double tm = static_cast<double>(static_cast<float>(t_mag_sq)) / 4096.0;
    return dp >= 0.0 && __dmul_rn(dp, dp) >= __dmul_rn(__dmul_rn(static_cast<double>(cos1), om), tm);
}

/// The CPU's apply_gain, with its tests of the float rst_f = (k / 2^15) *
/// (o / 64) written as the signs they are: both factors are exact in float
/// and their nonzero product (at least 2^-21) neither underflows nor
/// overflows, so rst_f > 0 exactly when k > 0 and o > 0, and rst_f < 0 when
/// k > 0 and o < 0. (`pos`/`neg` include the angle test.)
template <typename T>
__device__ __forceinline__ T apply_gain(T rst, T t, bool pos, bool neg, double egl) {
    // The results lie between rst and t, so the (truncating) casts are in range.
    if (pos) {
        const double g = __dmul_rn(static_cast<double>(rst), egl);
        rst = static_cast<T>(static_cast<i32>(g < t ? g : static_cast<double>(t)));
    } else if (neg) {
        const double g = __dmul_rn(static_cast<double>(rst), egl);
        rst = static_cast<T>(static_cast<i32>(g > t ? g : static_cast<double>(t)));
    }
    return rst;
}

/// apply_gain for an integer limit 1 <= e < 2^20: rst * e is then an integer
/// below 2^51, exact in double, so the CPU's double product, its comparisons
/// with t and its truncation (of a result between rst * e and t) are those of
/// the integer product.
template <typename T>
__device__ __forceinline__ T apply_gain_int(T rst, T t, bool pos, bool neg, long long e) {
    const long long g = static_cast<long long>(rst) * e;
    if (pos) rst = static_cast<T>(static_cast<i32>(g < t ? g : static_cast<long long>(t)));
    else if (neg) rst = static_cast<T>(static_cast<i32>(g > t ? g : static_cast<long long>(t)));
    return rst;
}

/// i64{u} * s, the CPU's 64-bit product, from one 32 x 32 -> 64 multiply:
/// u * (s mod 2^32) is u * s plus u * 2^32 when s < 0.
__device__ __forceinline__ i64 mul_us(u32 u, i32 s) {
    const u64 p = static_cast<u64>(u) * static_cast<u32>(s);
    return static_cast<i64>(s < 0 ? p - (static_cast<u64>(u) << 32) : p);
}

/// i64{a} * b from the two halves of one 32 x 32 product (the compiler
/// otherwise widens a truncated operand back to 64 bits and multiplies those).
__device__ __forceinline__ i64 mul_ss(i32 a, i32 b) {
    return static_cast<i64>((static_cast<u64>(static_cast<u32>(__mulhi(a, b))) << 32) | static_cast<u32>(a * b));
}

/// |v| of an int32 as the CPU's abs of its int64 widening, from 32 bits.
__device__ __forceinline__ u32 abs_u32(i32 v) { return v < 0 ? 0u - static_cast<u32>(v) : static_cast<u32>(v); }

/// CSF of one band sample: adds its masker contributions |c|/30 (flt) and
/// |c|/15 (cen), as the u32 values the masking threshold adds, to f and c.
__device__ __forceinline__ void csf0(i16 src, u32 rf, int shift, i32 add, u32& f, u32& c) {
    const i32 v = static_cast<i32>(rf) * src;
    const i16 cc = static_cast<i16>((v + add) >> shift);
    const i32 ac = cc < 0 ? -i32{cc} : i32{cc};
    f += static_cast<u32>(static_cast<i16>((4369 * ac + 2048) >> 12));
    c += static_cast<u32>(static_cast<i16>((8738 * ac + 2048) >> 12));
}

__device__ __forceinline__ void csf123(i32 src, u32 rf, u32& f, u32& c) {
    const i32 cc = static_cast<i32>((mul_us(rf, src) + (i64{1} << 27)) >> 28);
    const u64 ac = abs_u32(cc);
    f += static_cast<u32>(static_cast<i32>((static_cast<i64>(143165577ull * ac) + kQ32Round) >> 32));
    c += static_cast<u32>(static_cast<i32>((static_cast<i64>(286331153ull * ac) + kQ32Round) >> 32));
}

/// Gain limits one masking block serves (blockIdx.z picks which).
constexpr int kLimitsPerBlock = 2;

/// One band sample's decouple under each of the block's limits: restored
/// (r) and additive (a) parts per band, and over the bands the sums of the
/// maskers' CSF terms: fa/ca of a (|csf|/30, |csf|/15), fr/cr of r. The
/// threshold adds u32 values modulo 2^32, so adding the bands here first
/// gives its bits (as the CPU's fsum rows do).
template <typename P>
struct Decoupled {
    P r[kLimitsPerBlock][3], a[kLimitsPerBlock][3];
    u32 fa[kLimitsPerBlock], ca[kLimitsPerBlock], fr[kLimitsPerBlock], cr[kLimitsPerBlock];
};

struct MaskArgs {
    const void* o[3];  ///< ref detail bands H, V, D
    const void* t[3];  ///< dis detail bands
    ScaleParams sp;
    GainLimits egl;
    long long egl_int[kMaxGainLimits];  ///< egl.v[j] when an integer in [1, 2^20), else 0
    float cos1;
    bool aim;
    u64* rows;         ///< row sums: [limit][row - score.top][kSumsPerScale]
    int band_h;        ///< rows per limit in `rows`
};

/// One band sample's detail values of ref (o) and dis (t), zero outside the
/// decouple/CSF support (loaded apart from decouple_at, so that a step's loads
/// can be issued before the previous step's masking).
template <typename P>
struct Bands {
    P o[3], t[3];
    i32 rcp[3];  ///< the reciprocal table's entry for o (see gather_rcp), where o != 0
    bool in;
};

/// The reciprocal-table entries decouple_at divides by: lut[o] at scale 0,
/// else lut[o's 15 leading bits, rounded] (gathered apart, so that their
/// latency can overlap other work).
template <bool Scale0, typename P>
__device__ __forceinline__ void gather_rcp(Bands<P>& b, const i32* lut) {
#pragma unroll
    for (int t = 0; t < 3; ++t) {
        const P oo = b.o[t];
        b.rcp[t] = 0;
        if (!b.in || oo == 0) continue;
        if constexpr (Scale0) {
            b.rcp[t] = lut[oo];
        } else {
            const u32 abs_o = abs_u32(oo);
            u32 msb = abs_o;
            if (abs_o >= 32768) {
                const int shift = 17 - __clz(static_cast<int>(abs_o));
                msb = (abs_o + (u32{1} << (shift - 1))) >> shift;
            }
            b.rcp[t] = lut[msb];
        }
    }
}

template <typename P>
__device__ __forceinline__ Bands<P> load_bands(const MaskArgs& g, int i, int j) {
    const ScaleParams& sp = g.sp;
    Bands<P> b{};
    b.in = j >= sp.support.left && j < sp.support.right && i >= sp.support.top && i < sp.support.bottom;
    if (b.in) {
        const std::size_t idx = static_cast<std::size_t>(i) * sp.w + j;
#pragma unroll
        for (int t = 0; t < 3; ++t) {
            b.o[t] = static_cast<const P*>(g.o[t])[idx];
            b.t[t] = static_cast<const P*>(g.t[t])[idx];
        }
    }
    return b;
}

template <bool Scale0, typename P>
__device__ __forceinline__ void decouple_at(const MaskArgs& g, int l0, int nl, const Bands<P>& b, Decoupled<P>& d) {
    const ScaleParams& sp = g.sp;
#pragma unroll
    for (int l = 0; l < kLimitsPerBlock; ++l) {
        d.fa[l] = d.ca[l] = d.fr[l] = d.cr[l] = 0;
#pragma unroll
        for (int t = 0; t < 3; ++t) d.r[l][t] = d.a[l][t] = 0;
    }
    if (!b.in) return;
    const P* o = b.o;
    const P* tt = b.t;
    const bool angle = angle_within_1deg(i64{o[0]} * tt[0] + i64{o[1]} * tt[1], i64{o[0]} * o[0] + i64{o[1]} * o[1],
                                         i64{tt[0]} * tt[0] + i64{tt[1]} * tt[1], g.cos1);
#pragma unroll
    for (int t = 0; t < 3; ++t) {
        const P oo = o[t], ttt = tt[t];
        i32 k;
        if constexpr (Scale0) {
            const i32 tmp_k = oo == 0 ? 32768 : static_cast<i32>((i64{b.rcp[t]} * ttt + 16384) >> 15);
            k = tmp_k < 0 ? 0 : (tmp_k > 32768 ? 32768 : tmp_k);
        } else {
            i64 tmp_k = 32768;
            if (oo != 0) {
                const u32 abs_o = abs_u32(oo);
                const int shift = abs_o >= 32768 ? 17 - __clz(static_cast<int>(abs_o)) : 0;
                // The CPU multiplies by sign = +-1: a negation modulo 2^64.
                const i64 q = i64{b.rcp[t]} * ttt;
                tmp_k = ((oo < 0 ? -q : q) + (i64{1} << (14 + shift))) >> (15 + shift);
            }
            k = static_cast<i32>(tmp_k < 0 ? 0 : (tmp_k > 32768 ? 32768 : tmp_k));
        }
        const P rst0 = static_cast<P>((i64{k} * oo + 16384) >> 15);
        const bool pos = angle && k > 0 && oo > 0, neg = angle && k > 0 && oo < 0;
#pragma unroll
        for (int l = 0; l < kLimitsPerBlock; ++l) {
            if (l >= nl) break;
            const long long e = g.egl_int[l0 + l];
            const P rst = e ? apply_gain_int<P>(rst0, ttt, pos, neg, e) : apply_gain<P>(rst0, ttt, pos, neg, g.egl.v[l0 + l]);
            P add;
            if constexpr (Scale0) {
                add = static_cast<P>(ttt - rst);
                constexpr int kShift[3] = {15, 15, 17};
                constexpr i32 kAdd[3] = {16384, 16384, 65535};
                csf0(add, sp.rf[t], kShift[t], kAdd[t], d.fa[l], d.ca[l]);
                if (g.aim) csf0(rst, sp.rf[t], kShift[t], kAdd[t], d.fr[l], d.cr[l]);
            } else {
                add = static_cast<P>(static_cast<u32>(ttt) - static_cast<u32>(rst));
                csf123(add, sp.rf[t], d.fa[l], d.ca[l]);
                if (g.aim) csf123(rst, sp.rf[t], d.fr[l], d.cr[l]);
            }
            d.r[l][t] = rst;
            d.a[l][t] = add;
        }
    }
}

/// One pixel's contribution to a band's masked sum (the CPU's cm kernels,
/// given the target sample and the 3x3 threshold).
template <bool Scale0>
__device__ __forceinline__ i64 masked(i32 target, u32 thr, const ScaleParams& sp, int t) {
    if constexpr (Scale0) {
        constexpr int kShiftSub[3] = {10, 10, 12};
        constexpr int kShiftSq[3] = {29, 29, 30};
        constexpr i64 kAddSq[3] = {268435456, 268435456, 536870912};
        i32 x = target * static_cast<i32>(sp.rf[t]);
        x = static_cast<i32>(static_cast<u32>(x < 0 ? -x : x) - (thr << kShiftSub[t]));
        x = x < 0 ? 0 : x;
        const i32 x_sq = static_cast<i32>((i64{x} * x + kAddSq[t]) >> kShiftSq[t]);
        return (mul_ss(x_sq, x) + sp.cm_add_cub[t]) >> sp.cm_shift_cub[t];
    } else {
        i32 x = static_cast<i32>((mul_us(sp.rf[t], target) + (i64{1} << 27)) >> 28);
        x = static_cast<i32>(abs_u32(x) - thr);
        x = x < 0 ? 0 : x;
        const i32 x_sq = static_cast<i32>((i64{x} * x + 536870912) >> 30);
        return (mul_ss(x_sq, x) + sp.cm_add_cub[t]) >> sp.cm_shift_cub[t];
    }
}

/// Sums each of N values (N a power of two, at most 32) over an aligned
/// group of 32 lanes by halving exchanges: a lane gives away half of the
/// values it still holds and adds the other half's partner values, so N
/// values take N - 1 + log2(32 / N) exchanges, not 5 N. Afterwards every lane holds
/// the group's sum of value `lane / (32 / N)`; its result is v[0].
template <int C, int N>
__device__ __forceinline__ void reduce_scatter32_step(u64 (&v)[N], int lane) {
    if constexpr (C > 1) {
        constexpr int kMask = 16 * C / N;  // the lane bit that picks the half kept
        const bool upper = lane & kMask;   // keeps values [C/2, C) of those it holds
#pragma unroll
        for (int i = 0; i < C / 2; ++i) {
            const u64 keep = upper ? v[i + C / 2] : v[i], give = upper ? v[i] : v[i + C / 2];
            v[i] = keep + gpu::shfl_xor(give, kMask, 32);
        }
        reduce_scatter32_step<C / 2>(v, lane);
    }
}
template <int N>
__device__ __forceinline__ void reduce_scatter32(u64 (&v)[N], int lane) {
    static_assert(N >= 1 && N <= 32 && (N & (N - 1)) == 0, "a power of two, at most 32");
    reduce_scatter32_step<N>(v, lane);
#pragma unroll
    for (int m = 32 / N / 2; m > 0; m /= 2) v[0] += gpu::shfl_xor(v[0], m, 32);
}

// A strip of kStripCols scored columns and `strip_rows` rows, for up to
// kLimitsPerBlock gain limits, walked kStep rows at a time: each step
// decouples + CSFs the next kStep rows of the strip's one-sample ring (64
// ring columns: one sample a thread; the band data, the angle and k read and
// computed once for all limits) into a kBuf-row circular buffer in shared
// memory, then takes per scored sample and limit the 3x3 masking threshold
// and the masked sums (dlm, and aim), and den once (with the first limit);
// each row's sums are added to that row's entries of the limit's row sums
// (exact integer sums). The ring is computed once per strip, not per tile.
constexpr int kStripCols = 62, kRingW = kStripCols + 2, kStep = 4, kBuf = 8;
constexpr int kStripThreads = kStep * kRingW;
static_assert(kStripThreads == 256 && kRingW == 64, "one ring sample a thread; two 32-lane groups a row");
static_assert(kBuf >= kStep + 2 && (kBuf & (kBuf - 1)) == 0, "a step's rows and their two neighbours");

template <bool Scale0>
__global__ void __launch_bounds__(kStripThreads, 4) decouple_mask(MaskArgs g, const i32* lut, int strip_rows) {
    using P = std::conditional_t<Scale0, i16, i32>;
    const ScaleParams& sp = g.sp;
    constexpr int L = kLimitsPerBlock;
    __shared__ u32 s_fa[L][kBuf][kRingW], s_fr[L][kBuf][kRingW], s_ca[L][kBuf][kRingW], s_cr[L][kBuf][kRingW];
    __shared__ P s_r[L][3][kBuf][kRingW], s_a[L][3][kBuf][kRingW];
    const int l0 = static_cast<int>(blockIdx.z) * L;
    const int nl = min(L, static_cast<int>(g.egl.n) - l0);
    const int row0 = sp.score.top + static_cast<int>(blockIdx.y) * strip_rows;
    const int row_end = min(row0 + strip_rows, sp.score.bottom);
    const int col0 = sp.score.left + static_cast<int>(blockIdx.x) * kStripCols;
    const int cc = static_cast<int>(threadIdx.x) % kRingW, q = static_cast<int>(threadIdx.x) / kRingW;
    // The band samples of ring row `ring` (picture row row0 - 1 + ring) at this thread's ring column.
    auto load = [&](int ring) {
        // The CPU's neighbours: row/column 1 above/left of 0, the last one below/right of itself.
        int i = row0 - 1 + ring, j = col0 - 1 + cc;
        i = i < 0 ? 1 : (i >= sp.h ? sp.h - 1 : i);
        j = j < 0 ? 1 : (j >= sp.w ? sp.w - 1 : j);
        i = i < sp.h ? i : sp.h - 1;
        j = j < sp.w ? j : sp.w - 1;
        return load_bands<P>(g, i, j);
    };
    // Their decouple + CSF into ring row `ring`'s slot.
    auto fill = [&](int ring, const Bands<P>& b) {
        Decoupled<P> d;
        decouple_at<Scale0, P>(g, l0, nl, b, d);
        const int slot = ring & (kBuf - 1);
#pragma unroll
        for (int l = 0; l < L; ++l) {
            if (l >= nl) break;
            s_fa[l][slot][cc] = d.fa[l];
            s_fr[l][slot][cc] = d.fr[l];
            s_ca[l][slot][cc] = d.ca[l];
            s_cr[l][slot][cc] = d.cr[l];
#pragma unroll
            for (int t = 0; t < 3; ++t) {
                s_r[l][t][slot][cc] = d.r[l][t];
                s_a[l][t][slot][cc] = d.a[l][t];
            }
        }
    };
    if (q < 2) {  // the rows above the strip's first and the first
        Bands<P> b = load(q);
        gather_rcp<Scale0>(b, lut);
        fill(q, b);
    }
    Bands<P> next = load(2 + q);  // the first step's
    gather_rcp<Scale0>(next, lut);
    const int lane = static_cast<int>(threadIdx.x) % 32;
    const int x = cc;    // scored column col0 + x, centred on ring column x + 1
    const int j = col0 + x;
    const bool col_live = x < kStripCols && j < sp.score.right;
    const bool den_here = l0 == 0;
    for (int top = row0; top < row_end; top += kStep) {
        fill(top - row0 + 2 + q, next);  // picture rows top + 1 .. top + kStep
        __syncthreads();
        // The next step's samples, loaded while this step's are masked (their table entries after it).
        const bool more = top + kStep < row_end;
        if (more) next = load(top + kStep - row0 + 2 + q);
        const int i = top + q;
        if (i < row_end) {  // whole 32-lane groups: a row is two of them
            const int up = (i - row0) & (kBuf - 1), mid = (i - row0 + 1) & (kBuf - 1), dn = (i - row0 + 2) & (kBuf - 1);
            i64 dlm[L][3] = {}, aim[L][3] = {};
            u64 den[3] = {0, 0, 0};
            if (col_live) {
#pragma unroll
                for (int l = 0; l < L; ++l) {
                    if (l >= nl) break;
                    // 3x3: the ring's band sums of flt around the centre's of cen, added as u32 (wrapping, as the CPU's).
                    auto thr = [&](const u32 (&f)[kBuf][kRingW], u32 c) {
                        return f[up][x] + f[up][x + 1] + f[up][x + 2] + f[mid][x] + c + f[mid][x + 2] + f[dn][x] +
                               f[dn][x + 1] + f[dn][x + 2];
                    };
                    const u32 thr_a = thr(s_fa[l], s_ca[l][mid][x + 1]);
#pragma unroll
                    for (int t = 0; t < 3; ++t) dlm[l][t] = masked<Scale0>(s_r[l][t][mid][x + 1], thr_a, sp, t);
                    if (g.aim) {
                        const u32 thr_r = thr(s_fr[l], s_cr[l][mid][x + 1]);
#pragma unroll
                        for (int t = 0; t < 3; ++t) aim[l][t] = masked<Scale0>(s_a[l][t][mid][x + 1], thr_r, sp, t);
                    }
                }
                if (den_here) {
                    const std::size_t idx = static_cast<std::size_t>(i) * sp.w + j;
#pragma unroll
                    for (int t = 0; t < 3; ++t) {
                        if constexpr (Scale0) {
                            const i32 b = static_cast<const i16*>(g.o[t])[idx];
                            const u32 v = static_cast<u16>(b < 0 ? -b : b);
                            den[t] = static_cast<u64>(v * v) * v;  // v * v < 2^32
                        } else {
                            const u32 v32 = abs_u32(static_cast<const i32*>(g.o[t])[idx]);
                            const u64 v = v32;
                            den[t] = ((((static_cast<u64>(v32) * v32) + sp.den_add_sq) >> sp.den_shift_sq) * v +
                                      sp.den_add_cub) >>
                                     sp.den_shift_cub;
                        }
                    }
                }
            }
            // A row's sums over the group: den (with the first limit), then each limit's dlm and aim.
            constexpr int kVals = 3 + 6 * L, kN = kVals <= 8 ? 8 : (kVals <= 16 ? 16 : 32);
            static_assert(kVals <= 32, "one group exchange");
            u64 v[kN];
#pragma unroll
            for (int t = 0; t < 3; ++t) v[t] = den[t];
#pragma unroll
            for (int l = 0; l < L; ++l)
#pragma unroll
                for (int t = 0; t < 3; ++t) {
                    v[3 + 6 * l + t] = static_cast<u64>(dlm[l][t]);
                    v[6 + 6 * l + t] = static_cast<u64>(aim[l][t]);
                }
#pragma unroll
            for (int k = kVals; k < kN; ++k) v[k] = 0;
            reduce_scatter32(v, lane);
            const int idx = lane / (32 / kN);
            const int l = idx < 3 ? 0 : (idx - 3) / 6, k = idx < 3 ? idx : 3 + (idx - 3) % 6;
            if (lane % (32 / kN) == 0 && idx < kVals && l < nl && v[0]) {
                const std::size_t row = static_cast<std::size_t>(i - sp.score.top);
                atomicAdd(g.rows + (static_cast<std::size_t>(l0 + l) * g.band_h + row) * kSumsPerScale + k, v[0]);
            }
        }
        if (more) gather_rcp<Scale0>(next, lut);
        __syncthreads();  // the next step's rows overwrite the slots of this step's upper rows
    }
}

/// Rows a masking block walks: the most (of 32, 16, 8) that still leave 1024
/// blocks, else 4.
int strip_rows_for(int rows, int strips, int z) {
    for (int r = 32; r >= 8; r /= 2)
        if (static_cast<long long>((rows + r - 1) / r) * strips * z >= 1024) return r;
    return 4;
}

/// Each scored row's sums, rounded and shifted as the CPU does per row, added
/// to the frame's sums (block (k, scale, limit and row chunk): sum k of that
/// scale and limit over a quarter of its rows); the row sums are left zero.
struct RowFinish {
    u64* rows;  ///< as MaskArgs::rows
    int n_rows, band_h;
    unsigned long long den_add_acc;
    std::uint32_t den_shift_acc;
    long long cm_add_row;
    std::uint32_t cm_shift_row;
};
struct FinishArgs {
    RowFinish s[4];
};

constexpr unsigned kFinishThreads = 256, kFinishChunks = 4;  // blocks a (sum, scale, limit): row chunks
__global__ void __launch_bounds__(kFinishThreads) finish_rows(FinishArgs a, u64* sums) {
    const int k = static_cast<int>(blockIdx.x), scale = static_cast<int>(blockIdx.y);
    const int limit = static_cast<int>(blockIdx.z / kFinishChunks), chunk = static_cast<int>(blockIdx.z % kFinishChunks);
    RowFinish f;
    switch (scale) {  // a constant-index copy: no local-memory copy of the parameter
        case 0: f = a.s[0]; break;
        case 1: f = a.s[1]; break;
        case 2: f = a.s[2]; break;
        default: f = a.s[3];
    }
    if (!f.rows) return;  // a scale without masking (skipped scale 0, empty region)
    u64 total = 0;
    u64* base = f.rows + static_cast<std::size_t>(limit) * f.band_h * kSumsPerScale + k;
    const int per = (f.n_rows + static_cast<int>(kFinishChunks) - 1) / static_cast<int>(kFinishChunks);
    const int r_end = min(f.n_rows, (chunk + 1) * per);
    for (int r = chunk * per + static_cast<int>(threadIdx.x); r < r_end; r += kFinishThreads) {
        u64& cell = base[static_cast<std::size_t>(r) * kSumsPerScale];
        const u64 s = cell;
        cell = 0;
        if (k < 3)
            total += (s + f.den_add_acc) >> f.den_shift_acc;
        else
            total += static_cast<u64>((static_cast<i64>(s) + f.cm_add_row) >> f.cm_shift_row);
    }
    total = vmaf::cuda::block_sum<kFinishThreads>(total);
    if (threadIdx.x == 0 && total) atomicAdd(sums + static_cast<std::size_t>(limit) * kSums + scale * kSumsPerScale + k, total);
}

}  // namespace

std::size_t scratch_bytes(unsigned w, unsigned h) { return layout(w, h, nullptr, nullptr); }

void launch_adm(const void* ref, const void* dis, std::size_t pitch, const FrameParams& p, const GainLimits& egl,
                void* scratch, const std::int32_t* lut, unsigned long long* sums, cudaStream_t st) {
    ScaleBufs b[4];
    const auto w0 = static_cast<unsigned>(p.s[0].in_w), h0 = static_cast<unsigned>(p.s[0].in_h);
    layout(w0, h0, static_cast<char*>(scratch), b);
    FinishArgs fin{};
    for (int s = 0; s < 4; ++s) {
        const ScaleParams& sp = p.s[s];
        DwtOut o[2];
        for (int side = 0; side < 2; ++side) {
            o[side].A = b[s].A[side];
            for (int t = 0; t < 3; ++t) o[side].det[t] = b[s].det[side][t];
        }
        if (s == 0) {
            const dim3 tiles((sp.w + kDwtCols - 1) / kDwtCols, (sp.h + kDwtRows - 1) / kDwtRows, 2);
            const auto* r8 = static_cast<const unsigned char*>(ref);
            const auto* d8 = static_cast<const unsigned char*>(dis);
            if (p.bpc == 8)
                dwt0<unsigned char, i32><<<tiles, kDwtThreads, 0, st>>>(r8, d8, pitch, sp.in_w, sp.in_h, sp.w, sp.h,
                                                                        p.bpc, o[0], o[1]);
            else if (p.bpc <= 15)
                dwt0<unsigned short, i32><<<tiles, kDwtThreads, 0, st>>>(r8, d8, pitch, sp.in_w, sp.in_h, sp.w, sp.h,
                                                                         p.bpc, o[0], o[1]);
            else
                dwt0<unsigned short, i64><<<tiles, kDwtThreads, 0, st>>>(r8, d8, pitch, sp.in_w, sp.in_h, sp.w, sp.h,
                                                                         p.bpc, o[0], o[1]);
        } else {
            const dim3 tiles((sp.w + kDwtCols - 1) / kDwtCols, (sp.h + kDwtRows - 1) / kDwtRows, 2);
            dwt123<<<tiles, kDwtThreads, 0, st>>>(b[s - 1].A[0], b[s - 1].A[1], sp.in_w, sp.in_h, sp.w, sp.h,
                                                  sp.add_v, sp.shift_v, sp.add_h, sp.shift_h, o[0], o[1]);
        }
        if (s == 0 && p.skip_scale0) continue;
        const int rows = sp.score.bottom - sp.score.top, cols = sp.score.right - sp.score.left;
        if (rows <= 0 || cols <= 0) continue;
        // Decouple + CSF + masking of every limit (and den, with the first) in one pass.
        MaskArgs g{};
        for (int t = 0; t < 3; ++t) {
            g.o[t] = b[s].det[0][t];
            g.t[t] = b[s].det[1][t];
        }
        g.sp = sp;
        g.egl = egl;
        for (unsigned j = 0; j < egl.n; ++j) {
            const double e = egl.v[j];
            g.egl_int[j] = e >= 1.0 && e < 1048576.0 && e == static_cast<double>(static_cast<long long>(e))
                               ? static_cast<long long>(e)
                               : 0;
        }
        g.cos1 = p.cos1deg_sq;
        g.aim = !p.skip_aim;
        g.rows = b[s].rows;
        g.band_h = b[s].band_h;
        const int strips = (cols + kStripCols - 1) / kStripCols;
        const int zl = static_cast<int>((egl.n + kLimitsPerBlock - 1) / kLimitsPerBlock);
        const int sr = strip_rows_for(rows, strips, zl);
        const dim3 grid(strips, (rows + sr - 1) / sr, zl);
        if (s == 0)
            decouple_mask<true><<<grid, kStripThreads, 0, st>>>(g, lut, sr);
        else
            decouple_mask<false><<<grid, kStripThreads, 0, st>>>(g, lut, sr);
        fin.s[s] = RowFinish{b[s].rows, rows, b[s].band_h, sp.den_add_acc, sp.den_shift_acc,
                             sp.cm_add_row, sp.cm_shift_row};
    }
    finish_rows<<<dim3(kSumsPerScale, 4, egl.n * kFinishChunks), kFinishThreads, 0, st>>>(fin, sums);
}

}  // namespace vmaf::adm::cuda
