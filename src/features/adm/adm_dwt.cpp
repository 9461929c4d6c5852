// Fixed-point Daubechies-2 analysis step used by integer ADM.
//
// Separable: a vertical pass (4 taps, decimating rows) into a low and a high
// row buffer, then a horizontal pass (4 taps, decimating columns) of each.
// Output sample i of a level reads input samples 2i-1 .. 2i+2; indices
// outside [0, n) are mirrored as upstream does: -1 -> 1 at the start, and
// n -> n-1, n+1 -> n-2 at the end (valid for n >= 5, see kMinSize).
#include <cstdint>
#include <vector>

#include "features/adm/adm_kernels.hpp"

namespace vmaf::adm {

namespace {

// Q15-ish filter taps; the low-pass taps sum to 46342 (~ sqrt(2) * 2^15).
constexpr std::int32_t kLo[4] = {15826, 27411, 7345, -4240};
constexpr std::int32_t kHi[4] = {-4240, -7345, 27411, -15826};
constexpr std::int32_t kLoSum = 46342;

inline int mirror(int k, int n) {
    if (k < 0) return -k;
    if (k >= n) return 2 * n - k - 1;
    return k;
}

/// Source taps of every output sample of a level over `n` inputs.
std::vector<int> tap_indices(int n) {
    const int half = (n + 1) / 2;
    std::vector<int> idx(static_cast<std::size_t>(half) * 4);
    for (int i = 0; i < half; ++i)
        for (int k = 0; k < 4; ++k) idx[static_cast<std::size_t>(i) * 4 + k] = mirror(2 * i - 1 + k, n);
    return idx;
}

inline std::int64_t round_shift(std::int64_t v, std::int64_t add, int shift) { return (v + add) >> shift; }

template <typename Sample>
void dwt_scale0_impl(const Plane& src, unsigned bpc, Subbands<std::int16_t>& out, bool lo_only) {
    const int w = static_cast<int>(src.width), h = static_cast<int>(src.height);
    const int ow = (w + 1) / 2, oh = (h + 1) / 2;
    out.a.resize(ow, oh);
    if (!lo_only) {
        out.h.resize(ow, oh);
        out.v.resize(ow, oh);
        out.d.resize(ow, oh);
    }
    const std::vector<int> iy = tap_indices(h), ix = tap_indices(w);

    // Vertical pass: samples of `bpc` bits -> int16 centred on zero
    // (the low-pass DC offset of mid-grey is removed), scaled by 2^-bpc.
    const int shift_v = static_cast<int>(bpc);
    const std::int64_t add_v = std::int64_t{1} << (bpc - 1);
    std::vector<std::int16_t> lo(static_cast<std::size_t>(w)), hi(static_cast<std::size_t>(w));

    for (int i = 0; i < oh; ++i) {
        const Sample* r[4];
        for (int k = 0; k < 4; ++k) r[k] = src.row<const Sample>(static_cast<unsigned>(iy[i * 4 + k]));
        for (int j = 0; j < w; ++j) {
            std::int64_t acc_lo = 0, acc_hi = 0;
            for (int k = 0; k < 4; ++k) {
                const std::int64_t s = r[k][j];
                acc_lo += kLo[k] * s;
                acc_hi += kHi[k] * s;
            }
            acc_lo -= std::int64_t{kLoSum} * add_v;
            lo[j] = static_cast<std::int16_t>(round_shift(acc_lo, add_v, shift_v));
            hi[j] = static_cast<std::int16_t>(round_shift(acc_hi, add_v, shift_v));
        }
        // Horizontal pass: int16 -> int16, scaled by 2^-16.
        for (int j = 0; j < ow; ++j) {
            const int* t = &ix[static_cast<std::size_t>(j) * 4];
            std::int64_t a = 0, v = 0, hh = 0, d = 0;
            for (int k = 0; k < 4; ++k) {
                a += kLo[k] * std::int64_t{lo[t[k]]};
                v += kHi[k] * std::int64_t{lo[t[k]]};
                hh += kLo[k] * std::int64_t{hi[t[k]]};
                d += kHi[k] * std::int64_t{hi[t[k]]};
            }
            out.a.at(i, j) = static_cast<std::int16_t>(round_shift(a, 32768, 16));
            if (lo_only) continue;
            out.v.at(i, j) = static_cast<std::int16_t>(round_shift(v, 32768, 16));
            out.h.at(i, j) = static_cast<std::int16_t>(round_shift(hh, 32768, 16));
            out.d.at(i, j) = static_cast<std::int16_t>(round_shift(d, 32768, 16));
        }
    }
}

}  // namespace

void dwt_scale0(const Plane& src, unsigned bpc, Subbands<std::int16_t>& out, bool lo_only) {
    if (bpc == 8)
        dwt_scale0_impl<std::uint8_t>(src, bpc, out, lo_only);
    else
        dwt_scale0_impl<std::uint16_t>(src, bpc, out, lo_only);
}

void dwt_scale123(const Band<std::int32_t>& src, int scale, Subbands<std::int32_t>& out) {
    // Rounding of the two passes per level (index scale - 1).
    static constexpr std::int64_t kAddV[3] = {0, 32768, 32768};
    static constexpr int kShiftV[3] = {0, 16, 16};
    static constexpr std::int64_t kAddH[3] = {16384, 32768, 16384};
    static constexpr int kShiftH[3] = {15, 16, 15};
    const std::int64_t add_v = kAddV[scale - 1], add_h = kAddH[scale - 1];
    const int shift_v = kShiftV[scale - 1], shift_h = kShiftH[scale - 1];

    const int w = src.w, h = src.h;
    const int ow = (w + 1) / 2, oh = (h + 1) / 2;
    out.a.resize(ow, oh);
    out.h.resize(ow, oh);
    out.v.resize(ow, oh);
    out.d.resize(ow, oh);
    const std::vector<int> iy = tap_indices(h), ix = tap_indices(w);
    std::vector<std::int32_t> lo(static_cast<std::size_t>(w)), hi(static_cast<std::size_t>(w));

    for (int i = 0; i < oh; ++i) {
        const std::int32_t* r[4];
        for (int k = 0; k < 4; ++k) r[k] = src.row(iy[i * 4 + k]);
        for (int j = 0; j < w; ++j) {
            std::int64_t acc_lo = 0, acc_hi = 0;
            for (int k = 0; k < 4; ++k) {
                acc_lo += kLo[k] * std::int64_t{r[k][j]};
                acc_hi += kHi[k] * std::int64_t{r[k][j]};
            }
            lo[j] = static_cast<std::int32_t>(round_shift(acc_lo, add_v, shift_v));
            hi[j] = static_cast<std::int32_t>(round_shift(acc_hi, add_v, shift_v));
        }
        for (int j = 0; j < ow; ++j) {
            const int* t = &ix[static_cast<std::size_t>(j) * 4];
            std::int64_t a = 0, v = 0, hh = 0, d = 0;
            for (int k = 0; k < 4; ++k) {
                a += kLo[k] * std::int64_t{lo[t[k]]};
                v += kHi[k] * std::int64_t{lo[t[k]]};
                hh += kLo[k] * std::int64_t{hi[t[k]]};
                d += kHi[k] * std::int64_t{hi[t[k]]};
            }
            out.a.at(i, j) = static_cast<std::int32_t>(round_shift(a, add_h, shift_h));
            out.v.at(i, j) = static_cast<std::int32_t>(round_shift(v, add_h, shift_h));
            out.h.at(i, j) = static_cast<std::int32_t>(round_shift(hh, add_h, shift_h));
            out.d.at(i, j) = static_cast<std::int32_t>(round_shift(d, add_h, shift_h));
        }
    }
}

}  // namespace vmaf::adm
