// Fixed-point Daubechies-2 analysis step used by integer ADM.
//
// Separable: a vertical pass (4 taps, decimating rows) into a low and a high
// row buffer, then a horizontal pass (4 taps, decimating columns) of each.
// Output sample i of a level reads input samples 2i-1 .. 2i+2; indices
// outside [0, n) are mirrored as upstream does: -1 -> 1 at the start, and
// n -> n-1, n+1 -> n-2 at the end (valid for n >= 5, see kMinSize).
// The per-row arithmetic lives in the AdmKernels table (adm_scalar.cpp and
// its SIMD versions in adm_simd.cpp); this file does the row bookkeeping.
#include <cstdint>
#include <vector>

#include "features/adm/adm_kernels.hpp"
#include "features/adm/adm_simd.hpp"

namespace vmaf::adm {

namespace {

inline int mirror(int k, int n) {
    if (k < 0) return -k;
    if (k >= n) return 2 * n - k - 1;
    return k;
}

template <typename Sample>
const Sample* const* source_rows(const Plane& src, int i, const Sample* r[4]) {
    const int h = static_cast<int>(src.height);
    for (int t = 0; t < 4; ++t) r[t] = src.row<const Sample>(static_cast<unsigned>(mirror(2 * i - 1 + t, h)));
    return r;
}

}  // namespace

void dwt_scale0_row(const Plane& src, unsigned bpc, int i, const AdmKernels& k, std::int16_t* lo, std::int16_t* hi,
                    std::int16_t* a, std::int16_t* v, std::int16_t* h, std::int16_t* d) {
    const int w = static_cast<int>(src.width);
    if (bpc == 8) {
        const std::uint8_t* r[4];
        k.dwt0_vert8(source_rows(src, i, r), w, lo, hi);
    } else {
        const std::uint16_t* r[4];
        k.dwt0_vert16(source_rows(src, i, r), w, bpc, lo, hi);
    }
    k.dwt0_horz(lo, hi, w, a, v, h, d);
}

void dwt_scale0(const Plane& src, unsigned bpc, Subbands<std::int16_t>& out, bool lo_only, const AdmKernels& k) {
    const int w = static_cast<int>(src.width), h = static_cast<int>(src.height);
    const int ow = (w + 1) / 2, oh = (h + 1) / 2;
    out.a.resize(ow, oh);
    if (!lo_only) {
        out.h.resize(ow, oh);
        out.v.resize(ow, oh);
        out.d.resize(ow, oh);
    }
    ScratchScope scope;
    std::int16_t* lo = scope.alloc<std::int16_t>(static_cast<std::size_t>(w));
    std::int16_t* hi = scope.alloc<std::int16_t>(static_cast<std::size_t>(w));
    for (int i = 0; i < oh; ++i) {
        if (lo_only)
            dwt_scale0_row(src, bpc, i, k, lo, hi, out.a.row(i), nullptr, nullptr, nullptr);
        else
            dwt_scale0_row(src, bpc, i, k, lo, hi, out.a.row(i), out.v.row(i), out.h.row(i), out.d.row(i));
    }
}

void dwt_scale0(const Plane& src, unsigned bpc, Subbands<std::int16_t>& out, bool lo_only) {
    dwt_scale0(src, bpc, out, lo_only, scalar_kernels());
}

namespace {

/// One level of scales 1..3 from `src` (int16 band A of scale 0 for scale 1,
/// else int32); `vert` runs the vertical pass of one output row.
template <typename Src, typename VertFn>
void dwt_scale123_impl(const Band<Src>& src, int scale, Subbands<std::int32_t>& out, const AdmKernels& k, VertFn vert) {
    // Rounding of the horizontal pass per level (index scale - 1).
    static constexpr std::int64_t kAddH[3] = {16384, 32768, 16384};
    static constexpr int kShiftH[3] = {15, 16, 15};
    const std::int64_t add_h = kAddH[scale - 1];
    const int shift_h = kShiftH[scale - 1];

    const int w = src.w, h = src.h;
    const int ow = (w + 1) / 2, oh = (h + 1) / 2;
    out.a.resize(ow, oh);
    out.h.resize(ow, oh);
    out.v.resize(ow, oh);
    out.d.resize(ow, oh);
    ScratchScope scope;
    std::int32_t* lo = scope.alloc<std::int32_t>(static_cast<std::size_t>(w));
    std::int32_t* hi = scope.alloc<std::int32_t>(static_cast<std::size_t>(w));
    for (int i = 0; i < oh; ++i) {
        const Src* r[4];
        for (int t = 0; t < 4; ++t) r[t] = src.row(mirror(2 * i - 1 + t, h));
        vert(r, w, lo, hi);
        k.dwt123_horz(lo, hi, w, add_h, shift_h, out.a.row(i), out.v.row(i), out.h.row(i), out.d.row(i));
    }
}

}  // namespace

void dwt_scale1(const Band<std::int16_t>& src, Subbands<std::int32_t>& out, const AdmKernels& k) {
    // The vertical pass of scale 1 neither rounds nor shifts.
    dwt_scale123_impl(src, 1, out, k, [&](const std::int16_t* const r[4], int w, std::int32_t* lo, std::int32_t* hi) {
        k.dwt1_vert(r, w, lo, hi);
    });
}

void dwt_scale123(const Band<std::int32_t>& src, int scale, Subbands<std::int32_t>& out, const AdmKernels& k) {
    // Rounding of the vertical pass per level (index scale - 1).
    static constexpr std::int64_t kAddV[3] = {0, 32768, 32768};
    static constexpr int kShiftV[3] = {0, 16, 16};
    const std::int64_t add_v = kAddV[scale - 1];
    const int shift_v = kShiftV[scale - 1];
    dwt_scale123_impl(src, scale, out, k,
                      [&](const std::int32_t* const r[4], int w, std::int32_t* lo, std::int32_t* hi) {
                          k.dwt123_vert(r, w, add_v, shift_v, lo, hi);
                      });
}

void dwt_scale123(const Band<std::int32_t>& src, int scale, Subbands<std::int32_t>& out) {
    dwt_scale123(src, scale, out, scalar_kernels());
}

}  // namespace vmaf::adm
