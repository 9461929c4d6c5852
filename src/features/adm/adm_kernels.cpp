// Integer ADM: decouple, CSF, contrast masking and the per-scale sums, plus
// the four-scale pipeline. See adm_kernels.hpp for the overall structure.
//
// Fixed-point conventions (as upstream): scale-0 details are int16 carrying
// 6 fractional bits fewer than the float model expects (the "pending" shifts
// that the final float conversions undo); scales 1..3 are int32. All integer
// arithmetic below reproduces upstream's rounding (round-half-up shifts,
// truncating casts, two's-complement wrap of narrowing stores).
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <numbers>
#include <span>

#include <math.h>

#include "features/adm/adm_kernels.hpp"
#include "features/adm/adm_simd.hpp"
#include "features/adm/adm_fixed_point.hpp"
#include "vmaf/error.hpp"

namespace vmaf::adm {

namespace {

using i16 = std::int16_t;
using i32 = std::int32_t;
using i64 = std::int64_t;
using u16 = std::uint16_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

// ---------------------------------------------------------------------------
// Decouple, CSF and contrast masking of one scale, fused row by row.
//
// Decouple splits the distorted details into R (restored) and A (additive);
// the CSF of one of them (out = src * csf rounded to the band's format,
// flt = |out| / 30) masks the other: DLM (num) masks R by csf(A), AIM masks
// A by csf(R). Contrast masking of a pixel of the scoring region reads the
// masker's flt over its 3x3 neighbourhood (centre replaced by |csf| / 15;
// rows/columns off the band mirrored: -1 -> 1, h -> h-1) summed over the
// three orientations (the csf kernels keep flt summed over orientations).
// Each row sum (AdmKernels::cm*) is rounded and shifted by the layout's
// cm_shift_row before joining the total.
//
// All of it is per row: decouple and CSF of band row y depend on row y only,
// and masking row i needs rows i-1..i+1 (mirrored). So rows are produced on
// demand into a ring of four slots (the needed rows never span more than
// three consecutive indices) and consumed while they are in cache, instead
// of full-band passes; every value is the one the full-band passes gave.
//
// Several enhancement-gain limits (a group: VMAF + VMAF NEG) share a ring
// slot's detail rows (for scale 0: the DWT rows themselves) and the
// denominator; decouple, CSF and masking, which depend on the limit, run per
// limit over the shared rows, each into its own ring and sums.

template <typename T>
struct ScaleKernels;
template <>
struct ScaleKernels<i16> {
    static constexpr auto decouple = &AdmKernels::decouple0;
    static constexpr auto cm = &AdmKernels::cm0;
};
template <>
struct ScaleKernels<i32> {
    static constexpr auto decouple = &AdmKernels::decouple123;
    static constexpr auto cm = &AdmKernels::cm123;
};

/// CSF of n samples of orientation theta (the kernel and constants of the
/// band's format); adds |csf| / 30 to fsum.
void csf_row(const AdmKernels& k, const ScaleLayout& l, int theta, const i16* src, int n, i16* out, i32* fsum) {
    static constexpr int kShift[3] = {15, 15, 17};
    static constexpr i32 kAdd[3] = {16384, 16384, 65535};  // sic: not 2^16 for D
    k.csf0(src, n, static_cast<u16>(l.rf[theta]), kShift[theta], kAdd[theta], out, fsum);
}
void csf_row(const AdmKernels& k, const ScaleLayout& l, int theta, const i32* src, int n, i32* out, i32* fsum) {
    k.csf123(src, n, l.rf[theta], out, fsum);
}

/// Rows of one band row under one gain limit: decoupled R and A and the CSF
/// of each per orientation, and the sums over orientations of |CSF| / 30.
template <typename T>
struct FusedRow {
    T* r[3];
    T* a[3];
    T* csf_a[3];
    T* csf_r[3];
    i32* fsum_a;
    i32* fsum_r;
};

struct ScaleTerms {
    float num = 0, aim = 0;
};

/// The scale's terms under each gain limit (out[g] for limits[g]) for w x h
/// bands whose detail rows come from `details(y, slot, o, t)` (sets the full
/// rows H, V, D of band row y of the reference, o, and of the distorted
/// picture, t; `slot` in [0, 4) names storage the rows may live in until that
/// slot is asked for again); `score_row(i, o)` is called once per row of the
/// scoring region, in order. p.enhn_gain_limit is not used.
template <typename T, typename DetailRows, typename ScoreRow>
void score_scale(int w, int h, int scale, const Params& p, std::span<const double> limits, const AdmKernels& k,
                 DetailRows details, ScoreRow score_row, ScaleTerms* out) {
    const ScaleLayout l = scale_layout(p, scale, w, h);
    const Rect sup = support_region(w, h);
    const Rect sc = score_region(w, h);
    const bool aim = !p.skip_aim;
    const std::size_t ng = limits.size();
    ScratchArena& arena = ScratchArena::local();
    // Per limit: [num H, V, D, aim H, V, D].
    i64* acc = static_cast<i64*>(arena.alloc(sizeof(i64) * 6 * ng));
    std::fill_n(acc, 6 * ng, i64{0});
    if (sup.right > sup.left) {
        constexpr int kSlots = 4;
        // Slot s's rows under limit g are ring[s * ng + g]; its detail rows o are shared.
        auto* ring = static_cast<FusedRow<T>*>(arena.alloc(sizeof(FusedRow<T>) * kSlots * ng));
        const T* slot_o[kSlots][3] = {};
        int ring_row[kSlots] = {-1, -1, -1, -1};
        const std::size_t uw = static_cast<std::size_t>(w);
        T* mem = static_cast<T*>(arena.alloc(sizeof(T) * kSlots * ng * 12 * uw));
        i32* sums = static_cast<i32*>(arena.alloc(sizeof(i32) * kSlots * ng * 2 * uw));
        for (std::size_t q = 0; q < kSlots * ng; ++q) {
            for (int t = 0; t < 3; ++t) {
                T* base = mem + (q * 12 + static_cast<std::size_t>(t) * 4) * uw;
                ring[q].r[t] = base;
                ring[q].a[t] = base + uw;
                ring[q].csf_a[t] = base + 2 * uw;
                ring[q].csf_r[t] = base + 3 * uw;
            }
            ring[q].fsum_a = sums + q * 2 * uw;
            ring[q].fsum_r = sums + (q * 2 + 1) * uw;
        }
        const int x0 = sup.left, n = sup.right - sup.left;
        // The slot holding band row y (within the support region), computed if not in the ring.
        auto row = [&](int y) -> int {
            const int s = y % kSlots;
            if (ring_row[s] == y) return s;
            const T* t[3];
            details(y, s, slot_o[s], t);
            const T* o[3];
            for (int th = 0; th < 3; ++th) {
                o[th] = slot_o[s][th] + x0;
                t[th] += x0;
            }
            for (std::size_t g = 0; g < ng; ++g) {
                FusedRow<T>& fr = ring[static_cast<std::size_t>(s) * ng + g];
                T* rr[3];
                T* aa[3];
                for (int th = 0; th < 3; ++th) {
                    rr[th] = fr.r[th] + x0;
                    aa[th] = fr.a[th] + x0;
                }
                (k.*ScaleKernels<T>::decouple)(o, t, n, limits[g], rr, aa);
                std::fill_n(fr.fsum_a + x0, n, 0);
                if (aim) std::fill_n(fr.fsum_r + x0, n, 0);
                for (int th = 0; th < 3; ++th) {
                    csf_row(k, l, th, fr.a[th] + x0, n, fr.csf_a[th] + x0, fr.fsum_a + x0);
                    if (aim) csf_row(k, l, th, fr.r[th] + x0, n, fr.csf_r[th] + x0, fr.fsum_r + x0);
                }
            }
            ring_row[s] = y;
            return s;
        };
        CmRow<T> cm{};
        for (int t = 0; t < 3; ++t) {
            cm.rf[t] = l.rf[t];
            cm.shift_cub[t] = l.cm_shift_cub[t];
            cm.add_cub[t] = half_of_shift(l.cm_shift_cub[t]);
        }
        cm.w = w;
        cm.j0 = std::max(sc.left, 0);
        cm.j1 = std::min(sc.right, w);
        const u32 row_shift = l.cm_shift_row;
        const i64 add = half_of_shift(row_shift);
        for (int i = std::max(sc.top, 0); i < std::min(sc.bottom, h); ++i) {
            const int up = i == 0 ? 1 : i - 1, down = i == h - 1 ? h - 1 : i + 1;
            const int su = row(up);
            const int sd = row(down);
            const int sc_slot = row(i);
            score_row(i, slot_o[sc_slot]);
            for (std::size_t g = 0; g < ng; ++g) {
                const FusedRow<T>& ru = ring[static_cast<std::size_t>(su) * ng + g];
                const FusedRow<T>& rd = ring[static_cast<std::size_t>(sd) * ng + g];
                const FusedRow<T>& rc = ring[static_cast<std::size_t>(sc_slot) * ng + g];
                // Contrast masking of row i: `target` details masked by `masker`
                // (the other band's CSF) with the fsums of rows i-1, i, i+1.
                auto masked = [&](i32* FusedRow<T>::*fsum, T* (FusedRow<T>::*masker)[3],
                                  T* (FusedRow<T>::*target)[3], i64 (&inner)[3]) {
                    if (cm.j1 <= cm.j0) return;
                    cm.fsum[0] = ru.*fsum;
                    cm.fsum[1] = rc.*fsum;
                    cm.fsum[2] = rd.*fsum;
                    for (int t = 0; t < 3; ++t) {
                        cm.masker[t] = (rc.*masker)[t];
                        cm.target[t] = (rc.*target)[t];
                    }
                    (k.*ScaleKernels<T>::cm)(cm, inner);
                };
                i64* acc_num = acc + 6 * g;
                i64* acc_aim = acc_num + 3;
                i64 inner[3] = {0, 0, 0};
                masked(&FusedRow<T>::fsum_a, &FusedRow<T>::csf_a, &FusedRow<T>::r, inner);
                for (int t = 0; t < 3; ++t) acc_num[t] += (inner[t] + add) >> row_shift;
                if (!aim) continue;
                i64 inner_aim[3] = {0, 0, 0};
                masked(&FusedRow<T>::fsum_r, &FusedRow<T>::csf_r, &FusedRow<T>::a, inner_aim);
                for (int t = 0; t < 3; ++t) acc_aim[t] += (inner_aim[t] + add) >> row_shift;
            }
        }
    }
    for (std::size_t g = 0; g < ng; ++g) {
        out[g].num = num_from_sums(scale, l, w, h, acc + 6 * g, p.noise_weight);
        out[g].aim = aim ? num_from_sums(scale, l, w, h, acc + 6 * g + 3, 0.0) : 0.0f;
    }
}

// ---------------------------------------------------------------------------
// Scale 0 streamed from the pictures: the DWT rows of H, V and D are made
// when the fused rows need them (in their ring slot) and never stored as
// bands; band A (for scale 1) is written whole. The denominator (sum over
// the scoring region of |ref detail|^3 per orientation, AdmKernels::den0 per
// row, shifted) is taken from the same rows.

void score_scale0(const Plane& ref, const Plane& dis, unsigned bpc, const Params& p, std::span<const double> limits,
                  const AdmKernels& k, Band<i16>& ref_a, Band<i16>& dis_a, std::span<Result> res) {
    const int w = (static_cast<int>(ref.width) + 1) / 2, h = (static_cast<int>(ref.height) + 1) / 2;
    ref_a.resize(w, h);
    dis_a.resize(w, h);
    ScratchArena& arena = ScratchArena::local();
    const std::size_t uw = static_cast<std::size_t>(w);
    i16* lo = static_cast<i16*>(arena.alloc(sizeof(i16) * 2 * ref.width));
    i16* hi = lo + ref.width;
    i16* rows = static_cast<i16*>(arena.alloc(sizeof(i16) * 4 * 6 * uw));  // [slot][ref/dis][H, V, D]
    char* have_a = static_cast<char*>(arena.alloc(static_cast<std::size_t>(h)));
    std::fill_n(have_a, h, 0);
    auto details = [&](int y, int slot, const i16* o[3], const i16* t[3]) {
        i16* base = rows + static_cast<std::size_t>(slot) * 6 * uw;
        // Subbands order: H = 0, V = 1, D = 2; dwt0_horz writes a, v, h, d.
        dwt_scale0_row(ref, bpc, y, k, lo, hi, ref_a.row(y), base + uw, base, base + 2 * uw);
        dwt_scale0_row(dis, bpc, y, k, lo, hi, dis_a.row(y), base + 4 * uw, base + 3 * uw, base + 5 * uw);
        have_a[y] = 1;
        for (int th = 0; th < 3; ++th) {
            o[th] = base + static_cast<std::size_t>(th) * uw;
            t[th] = base + static_cast<std::size_t>(3 + th) * uw;
        }
    };
    const ScaleLayout l = scale_layout(p, 0, w, h);
    const Rect& reg = l.score;
    u64 den[3] = {0, 0, 0};
    auto score_row = [&](int, const i16* const o[3]) {
        for (int th = 0; th < 3; ++th)
            den[th] += (k.den0(o[th] + reg.left, reg.right - reg.left) + l.den_add_acc) >> l.den_shift_acc;
    };
    ScaleTerms* terms = static_cast<ScaleTerms*>(arena.alloc(sizeof(ScaleTerms) * limits.size()));
    score_scale<i16>(w, h, 0, p, limits, k, details, score_row, terms);
    // Rows the masking did not need: band A only.
    for (int y = 0; y < h; ++y)
        if (!have_a[y]) {
            dwt_scale0_row(ref, bpc, y, k, lo, hi, ref_a.row(y), nullptr, nullptr, nullptr);
            dwt_scale0_row(dis, bpc, y, k, lo, hi, dis_a.row(y), nullptr, nullptr, nullptr);
        }
    const float den_scale = den_from_sums(p, 0, l, den);
    for (std::size_t g = 0; g < limits.size(); ++g) {
        res[g].den_scale[0] = den_scale;
        res[g].num_scale[0] = terms[g].num;
        if (!p.skip_aim) res[g].aim_scale[0] = terms[g].aim;
    }
}

// ---------------------------------------------------------------------------
// Denominator of scales 1..3: sum over the scoring region of |ref detail|^3
// per orientation (AdmKernels::den123, per row, shifted); finished by
// den_from_sums.

float den_scale123(const Subbands<i32>& ref, int scale, const Params& p, const AdmKernels& k) {
    const ScaleLayout l = scale_layout(p, scale, ref.h.w, ref.h.h);
    const Rect& reg = l.score;
    const u64 add_cub = half_of_shift(l.den_shift_cub);
    u64 acc[3] = {0, 0, 0};
    for (int theta = 0; theta < 3; ++theta) {
        const Band<i32>& b = ref.detail(theta);
        for (int i = reg.top; i < reg.bottom; ++i) {
            const u64 inner = k.den123(b.row(i) + reg.left, reg.right - reg.left, l.den_shift_sq, l.den_add_sq,
                                       l.den_shift_cub, add_cub);
            acc[theta] += (inner + l.den_add_acc) >> l.den_shift_acc;
        }
    }
    return den_from_sums(p, scale, l, acc);
}

}  // namespace

Rect score_region(int w, int h) {
    const int left = static_cast<int>(w * 0.1 - 0.5);
    const int top = static_cast<int>(h * 0.1 - 0.5);
    return {left, top, w - left, h - top};
}

Rect support_region(int w, int h) {
    const int left = static_cast<int>(w * 0.1 - 0.5 - 1);
    const int top = static_cast<int>(h * 0.1 - 0.5 - 1);
    Rect r{left, top, w - left + 2, h - top + 2};
    r.left = std::max(r.left, 0);
    r.top = std::max(r.top, 0);
    r.right = std::min(r.right, w);
    r.bottom = std::min(r.bottom, h);
    return r;
}

Result compute(const Plane& ref, const Plane& dis, unsigned bpc, const Params& p) {
    return compute(ref, dis, bpc, p, scalar_kernels());
}

Result compute(const Plane& ref, const Plane& dis, unsigned bpc, const Params& p, const AdmKernels& k) {
    Result res;
    compute(ref, dis, bpc, p, std::span<const double>(&p.enhn_gain_limit, 1), std::span<Result>(&res, 1), k);
    return res;
}

void compute(const Plane& ref, const Plane& dis, unsigned bpc, const Params& p, std::span<const double> limits,
             std::span<Result> out, const AdmKernels& k) {
    if (out.size() != limits.size()) throw Error(ErrorKind::Internal, "adm: one result per gain limit");
    if (ref.width != dis.width || ref.height != dis.height)
        throw Error(ErrorKind::Input, "adm: reference and distorted pictures differ in size");
    if (ref.width < kMinSize || ref.height < kMinSize)
        throw Error(ErrorKind::Input, "adm: pictures must be at least 33x33");
    if (bpc < 8 || bpc > 16) throw Error(ErrorKind::Input, "adm: unsupported bit depth");

    ScratchScope scope;  // every Band below lives in this thread's scratch arena
    std::fill(out.begin(), out.end(), Result{});
    Subbands<i16> ref0, dis0;
    if (p.skip_scale0) {
        dwt_scale0(ref, bpc, ref0, true, k);
        dwt_scale0(dis, bpc, dis0, true, k);
        for (Result& res : out) {
            res.num_scale[0] = 0.0f;
            res.den_scale[0] = static_cast<float>(1e-10);  // avoids 0/0 in the scale score
        }
    } else {
        score_scale0(ref, dis, bpc, p, limits, k, ref0.a, dis0.a, out);
    }

    ScaleTerms* terms = static_cast<ScaleTerms*>(ScratchArena::local().alloc(sizeof(ScaleTerms) * limits.size()));
    Band<i32> ref_a, dis_a;
    for (int scale = 1; scale < 4; ++scale) {
        Subbands<i32> rs, ds;
        if (scale == 1) {
            dwt_scale1(ref0.a, rs, k);
            dwt_scale1(dis0.a, ds, k);
        } else {
            dwt_scale123(ref_a, scale, rs, k);
            dwt_scale123(dis_a, scale, ds, k);
        }
        const float den = den_scale123(rs, scale, p, k);
        score_scale<i32>(
            rs.h.w, rs.h.h, scale, p, limits, k,
            [&](int y, int, const i32* o[3], const i32* t[3]) {
                for (int th = 0; th < 3; ++th) {
                    o[th] = rs.detail(th).row(y);
                    t[th] = ds.detail(th).row(y);
                }
            },
            [](int, const i32* const*) {}, terms);
        for (std::size_t g = 0; g < out.size(); ++g) {
            out[g].den_scale[scale] = den;
            out[g].num_scale[scale] = terms[g].num;
            if (!p.skip_aim) out[g].aim_scale[scale] = terms[g].aim;
        }
        ref_a = std::move(rs.a);
        dis_a = std::move(ds.a);
    }

    for (Result& res : out) finish_result(res, ref.width, ref.height);
}

}  // namespace vmaf::adm
