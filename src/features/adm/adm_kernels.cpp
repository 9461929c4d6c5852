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
// Small helpers reproducing C conversions of the reference implementation.


// ---------------------------------------------------------------------------
// Decouple over the support region (per-pixel work: AdmKernels::decouple*).

template <typename T, typename Fn>
void decouple(const Subbands<T>& ref, const Subbands<T>& dis, double egl, Details<T>& r, Details<T>& a, Fn fn) {
    const int w = ref.h.w, h = ref.h.h;
    r.resize(w, h);
    a.resize(w, h);
    const Rect reg = support_region(w, h);
    if (reg.right <= reg.left) return;
    for (int i = reg.top; i < reg.bottom; ++i) {
        const T* o[3];
        const T* t[3];
        T* rr[3];
        T* aa[3];
        for (int theta = 0; theta < 3; ++theta) {
            o[theta] = ref.detail(theta).row(i) + reg.left;
            t[theta] = dis.detail(theta).row(i) + reg.left;
            rr[theta] = r.b[theta].row(i) + reg.left;
            aa[theta] = a.b[theta].row(i) + reg.left;
        }
        fn(o, t, reg.right - reg.left, egl, rr, aa);
    }
}

// ---------------------------------------------------------------------------
// CSF: over the support region, out = src * csf (rounded to the band's
// format) and flt = |out| / 30 (the masker's neighbourhood contribution).

void csf_scale0(const Details<i16>& src, const Params& p, Details<i16>& out, Details<i16>& flt, const AdmKernels& k) {
    const int w = src.b[0].w, h = src.b[0].h;
    out.resize(w, h);
    flt.resize(w, h);
    const ScaleLayout layout = scale_layout(p, 0, w, h);
    const std::uint32_t* rf = layout.rf;
    static constexpr int kShift[3] = {15, 15, 17};
    static constexpr i32 kAdd[3] = {16384, 16384, 65535};  // sic: not 2^16 for D
    const Rect reg = support_region(w, h);
    if (reg.right <= reg.left) return;
    for (int theta = 0; theta < 3; ++theta)
        for (int i = reg.top; i < reg.bottom; ++i)
            k.csf0(src.b[theta].row(i) + reg.left, reg.right - reg.left, static_cast<u16>(rf[theta]), kShift[theta],
                   kAdd[theta], out.b[theta].row(i) + reg.left, flt.b[theta].row(i) + reg.left);
}

void csf_scale123(const Details<i32>& src, const Params& p, int scale, Details<i32>& out, Details<i32>& flt,
                  const AdmKernels& k) {
    const int w = src.b[0].w, h = src.b[0].h;
    out.resize(w, h);
    flt.resize(w, h);
    const ScaleLayout layout = scale_layout(p, scale, w, h);
    const std::uint32_t* rf = layout.rf;
    const Rect reg = support_region(w, h);
    if (reg.right <= reg.left) return;
    for (int theta = 0; theta < 3; ++theta)
        for (int i = reg.top; i < reg.bottom; ++i)
            k.csf123(src.b[theta].row(i) + reg.left, reg.right - reg.left, rf[theta], out.b[theta].row(i) + reg.left,
                     flt.b[theta].row(i) + reg.left);
}

// ---------------------------------------------------------------------------
// Denominator: sum over the scoring region of |ref detail|^3 per
// orientation (AdmKernels::den*, per row, shifted); finished by den_from_sums.

float den_scale0(const Subbands<i16>& ref, const Params& p, const AdmKernels& k) {
    const ScaleLayout l = scale_layout(p, 0, ref.h.w, ref.h.h);
    const Rect& reg = l.score;
    u64 acc[3] = {0, 0, 0};
    for (int theta = 0; theta < 3; ++theta) {
        const Band<i16>& b = ref.detail(theta);
        for (int i = reg.top; i < reg.bottom; ++i)
            acc[theta] += (k.den0(b.row(i) + reg.left, reg.right - reg.left) + l.den_add_acc) >> l.den_shift_acc;
    }
    return den_from_sums(p, 0, l, acc);
}

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

// ---------------------------------------------------------------------------
// Contrast masking. For each pixel of the scoring region, the masking
// threshold is, summed over the three orientations, the 3x3 neighbourhood of
// the masker's |csf|/30 with the centre replaced by |csf|/15. Neighbours off
// the band are mirrored: row/col -1 -> 1, row h -> h-1, col w -> w-1.
// Each row sum (AdmKernels::cm*) is rounded and shifted by `row_shift`
// before joining the total.

template <typename T, typename Fn>
void cm_accumulate(const Details<T>& target, const Details<T>& masker, const Details<T>& masker_flt,
                   CmRow<T> row, u32 row_shift, i64 acc[3], Fn fn) {
    const int w = target.b[0].w, h = target.b[0].h;
    const Rect reg = score_region(w, h);
    const i64 add = half_of_shift(row_shift);
    row.w = w;
    row.j0 = std::max(reg.left, 0);
    row.j1 = std::min(reg.right, w);
    for (int i = std::max(reg.top, 0); i < std::min(reg.bottom, h); ++i) {
        const int up = i == 0 ? 1 : i - 1, down = i == h - 1 ? h - 1 : i + 1;
        for (int t = 0; t < 3; ++t) {
            row.flt[t][0] = masker_flt.b[t].row(up);
            row.flt[t][1] = masker_flt.b[t].row(i);
            row.flt[t][2] = masker_flt.b[t].row(down);
            row.masker[t] = masker.b[t].row(i);
            row.target[t] = target.b[t].row(i);
        }
        i64 inner[3] = {0, 0, 0};
        if (row.j1 > row.j0) fn(row, inner);
        for (int t = 0; t < 3; ++t) acc[t] += (inner[t] + add) >> row_shift;
    }
}

/// Scale 0: target = decoupled band (R for DLM, A for AIM); masker = CSF of
/// the other band.
float cm_scale0(const Details<i16>& target, const Details<i16>& masker, const Details<i16>& masker_flt,
                const Params& p, double noise_weight, const AdmKernels& k) {
    const int w = target.b[0].w, h = target.b[0].h;
    const ScaleLayout l = scale_layout(p, 0, w, h);
    CmRow<i16> row{};
    for (int t = 0; t < 3; ++t) {
        row.rf[t] = l.rf[t];
        row.shift_cub[t] = l.cm_shift_cub[t];
        row.add_cub[t] = half_of_shift(l.cm_shift_cub[t]);
    }
    i64 acc[3] = {0, 0, 0};
    cm_accumulate(target, masker, masker_flt, row, l.cm_shift_row, acc, k.cm0);
    return num_from_sums(0, l, w, h, acc, noise_weight);
}

float cm_scale123(const Details<i32>& target, const Details<i32>& masker, const Details<i32>& masker_flt,
                  const Params& p, int scale, double noise_weight, const AdmKernels& k) {
    const int w = target.b[0].w, h = target.b[0].h;
    const ScaleLayout l = scale_layout(p, scale, w, h);
    CmRow<i32> row{};
    for (int t = 0; t < 3; ++t) {
        row.rf[t] = l.rf[t];
        row.shift_cub[t] = l.cm_shift_cub[t];
        row.add_cub[t] = half_of_shift(l.cm_shift_cub[t]);
    }
    i64 acc[3] = {0, 0, 0};
    cm_accumulate(target, masker, masker_flt, row, l.cm_shift_row, acc, k.cm123);
    return num_from_sums(scale, l, w, h, acc, noise_weight);
}

// ---------------------------------------------------------------------------

Band<i32> widen(const Band<i16>& b) {
    Band<i32> out;
    out.resize(b.w, b.h);
    const std::size_t n = static_cast<std::size_t>(b.w) * static_cast<std::size_t>(b.h);
    for (std::size_t k = 0; k < n; ++k) out.p[k] = b.p[k];
    return out;
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
    if (ref.width != dis.width || ref.height != dis.height)
        throw Error(ErrorKind::Input, "adm: reference and distorted pictures differ in size");
    if (ref.width < kMinSize || ref.height < kMinSize)
        throw Error(ErrorKind::Input, "adm: pictures must be at least 33x33");
    if (bpc < 8 || bpc > 16) throw Error(ErrorKind::Input, "adm: unsupported bit depth");

    ScratchScope scope;  // every Band below lives in this thread's scratch arena
    Result res;
    Subbands<i16> ref0, dis0;
    dwt_scale0(ref, bpc, ref0, p.skip_scale0, k);
    dwt_scale0(dis, bpc, dis0, p.skip_scale0, k);

    if (p.skip_scale0) {
        res.num_scale[0] = 0.0f;
        res.den_scale[0] = static_cast<float>(1e-10);  // avoids 0/0 in the scale score
    } else {
        Details<i16> r, a, csf, flt;
        decouple(ref0, dis0, p.enhn_gain_limit, r, a, k.decouple0);
        res.den_scale[0] = den_scale0(ref0, p, k);
        csf_scale0(a, p, csf, flt, k);
        res.num_scale[0] = cm_scale0(r, csf, flt, p, p.noise_weight, k);
        if (!p.skip_aim) {
            csf_scale0(r, p, csf, flt, k);
            res.aim_scale[0] = cm_scale0(a, csf, flt, p, 0.0, k);
        }
    }

    Band<i32> ref_a = widen(ref0.a), dis_a = widen(dis0.a);
    for (int scale = 1; scale < 4; ++scale) {
        Subbands<i32> rs, ds;
        dwt_scale123(ref_a, scale, rs, k);
        dwt_scale123(dis_a, scale, ds, k);
        Details<i32> r, a, csf, flt;
        decouple(rs, ds, p.enhn_gain_limit, r, a, k.decouple123);
        res.den_scale[scale] = den_scale123(rs, scale, p, k);
        csf_scale123(a, p, scale, csf, flt, k);
        res.num_scale[scale] = cm_scale123(r, csf, flt, p, scale, p.noise_weight, k);
        if (!p.skip_aim) {
            csf_scale123(r, p, scale, csf, flt, k);
            res.aim_scale[scale] = cm_scale123(a, csf, flt, p, scale, 0.0, k);
        }
        ref_a = std::move(rs.a);
        dis_a = std::move(ds.a);
    }

    finish_result(res, ref.width, ref.height);
    return res;
}

}  // namespace vmaf::adm
