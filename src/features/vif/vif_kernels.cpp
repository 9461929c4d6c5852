#include "features/vif/vif_kernels.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "core/scratch.hpp"
#include "core/simd.hpp"

namespace vmaf::vif {

/// Defined in vif_simd.cpp (its only entry point, so that the linker keeps
/// the object and its registering static initialisers).
simd::KernelRegistry<VifKernels>& vif_registry();

const Kernel kKernels[kScales] = {
    {17, {489, 935, 1640, 2640, 3896, 5274, 6547, 7455, 7784, 7455, 6547, 5274, 3896, 2640, 1640, 935, 489}},
    {9, {1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244}},
    {5, {3571, 16004, 26386, 16004, 3571}},
    {3, {10904, 43728, 10904}},
};

VerticalNorm vertical_norm(unsigned scale, unsigned bpc) {
    if (scale == 0) {
        const unsigned sq = 2 * (bpc - 8);
        return {bpc, 1u << (bpc - 1), sq, sq == 0 ? 0 : std::uint64_t{1} << (sq - 1)};
    }
    return {16, 32768, 16, 32768};
}

namespace {

/// double -> int32 truncation as the hardware does it (the conversion of
/// upstream and of the SIMD kernels), without C++'s undefined behaviour out of
/// range: below INT32_MIN (and NaN) gives INT32_MIN on x86 and aarch64; above
/// INT32_MAX gives INT32_MIN on x86 (cvttsd2si) and INT32_MAX on aarch64.
std::int32_t to_i32_like_hardware(double v) {
    if (v >= -2147483648.0 && v < 2147483648.0) return static_cast<std::int32_t>(v);
#if defined(__aarch64__)
    if (v >= 2147483648.0) return INT32_MAX;
#endif
    return INT32_MIN;
}

}  // namespace

namespace {

/// Noise variance sigma_n^2 in the statistic's units (2.0 in Q16).
constexpr std::int32_t kSigmaNsq = 65536 << 1;

/// 2048 * log2(v) from v's 16 leading bits (v >= 2^17): v >> k lies in
/// [32768, 65535], whose logs the table holds. (Inputs below 2^16 are out of
/// contract; k is clamped only to keep such a call defined.)
inline std::int32_t log2_q11_lut(const std::uint16_t* table, std::uint64_t v) {
    const int k = std::max(static_cast<int>(std::bit_width(v)) - 16, 0);
    return static_cast<std::int32_t>(table[v >> k]) + 2048 * k;
}

/// Mirror an index into [0, n) without repeating the edge sample.
/// Valid for -n < i < 2n - 1, which kMinDimension guarantees for every use.
inline unsigned mirror(int i, unsigned n) {
    if (i < 0) return static_cast<unsigned>(-i);
    if (i >= static_cast<int>(n)) return static_cast<unsigned>(2 * (static_cast<int>(n) - 1) - i);
    return static_cast<unsigned>(i);
}

/// Fills the `half` margin entries on each side of a row stored at
/// row[half .. half + n), mirroring as `mirror` does.
template <typename U>
inline void mirror_margins(U* row, unsigned n, int half) {
    U* p = row + half;  // p[0] is the first real sample
    const int last = static_cast<int>(n) - 1;
    for (int f = 1; f <= half; ++f) {
        p[-f] = p[f];
        p[last + f] = p[last - f];
    }
}

/// One pixel's contribution. Inputs are the horizontally filtered sums:
/// mu1/mu2 are means in Q16 of the 16-bit-range units, xx/yy/xy are the
/// second moments before their final >> 16. The terms that do not depend on
/// the gain limit go to `shared` (its num_log untouched); the numerator term
/// under limits[i] is added to sums[i].num_log.
inline void accumulate_pixel(StatSums& shared, std::uint32_t mu1, std::uint32_t mu2, std::uint64_t xx,
                             std::uint64_t yy, std::uint64_t xy, const double* limits, unsigned n_limits,
                             const std::uint16_t* table, StatSums* sums) {
    constexpr std::uint64_t kHalf32 = std::uint64_t{1} << 31;
    const auto mu1_sq = static_cast<std::uint32_t>((std::uint64_t{mu1} * mu1 + kHalf32) >> 32);
    const auto mu2_sq = static_cast<std::uint32_t>((std::uint64_t{mu2} * mu2 + kHalf32) >> 32);
    const auto mu1_mu2 = static_cast<std::uint32_t>((std::uint64_t{mu1} * mu2 + kHalf32) >> 32);

    const auto xx_f = static_cast<std::uint32_t>((xx + 32768) >> 16);
    const auto yy_f = static_cast<std::uint32_t>((yy + 32768) >> 16);
    const auto xy_f = static_cast<std::uint32_t>((xy + 32768) >> 16);

    // Differences wrap in 32 bits and are reinterpreted as signed, as upstream does.
    const auto sigma1_sq = static_cast<std::int32_t>(xx_f - mu1_sq);
    const auto sigma2_sq = std::max(static_cast<std::int32_t>(yy_f - mu2_sq), std::int32_t{0});
    const auto sigma12 = static_cast<std::int32_t>(xy_f - mu1_mu2);

    if (sigma1_sq < kSigmaNsq) {
        shared.num_non_log += sigma2_sq;
        shared.den_non_log += 1;
        return;
    }

    // log2(1 + sigma1_sq / sigma_nsq) == log2(sigma_nsq + sigma1_sq) - 17, in Q11.
    shared.den_log += log2_q11_lut(table, static_cast<std::uint32_t>(std::int64_t{kSigmaNsq} + sigma1_sq)) - 2048 * 17;

    if (sigma12 > 0 && sigma2_sq > 0) {
        // Gain and residual noise of the distortion channel; double precision,
        // same operation order as upstream. The residual uses the unclamped gain.
        const double eps = 65536 * 1.0e-10;
        const double g = sigma12 / (sigma1_sq + eps);
        auto sv_sq = to_i32_like_hardware(sigma2_sq - g * sigma12);
        sv_sq = std::max(sv_sq, std::int32_t{0});

        // log2(1 + g^2 sigma1_sq / (sv_sq + sigma_nsq)) as a difference of logs.
        const auto denom = static_cast<std::uint32_t>(std::int64_t{sv_sq} + kSigmaNsq);
        const std::int32_t log_denom = log2_q11_lut(table, denom);
        for (unsigned i = 0; i < n_limits; ++i) {
            const double gl = (g < limits[i]) ? g : limits[i];
            const std::int64_t numer = static_cast<std::int64_t>(gl * gl * sigma1_sq) + denom;
            sums[i].num_log += log2_q11_lut(table, static_cast<std::uint64_t>(numer)) - log_denom;
        }
    }
}

}  // namespace

const std::array<std::uint16_t, 65536>& log2_table() {
    static const std::array<std::uint16_t, 65536> table = [] {
        std::array<std::uint16_t, 65536> t{};
        for (unsigned i = 32767; i < 65536; ++i) {
            // Single-precision log2 scaled in float, rounded in double: upstream's recipe.
            const float scaled = std::log2(static_cast<float>(i)) * 2048;
            t[i] = static_cast<std::uint16_t>(std::round(static_cast<double>(scaled)));
        }
        return t;
    }();
    return table;
}

std::int32_t log2_q11(std::uint64_t v) {
    return log2_q11_lut(log2_table().data(), v);
}

namespace ref {

template <typename T>
void stat_vfilter(const T* const* ref_rows, const T* const* dis_rows, unsigned w, const std::uint16_t* coeff,
                  unsigned taps, const VerticalNorm& norm, const StatRow& out) {
    // First moments in 32 bits, second moments in 64.
    for (unsigned j = 0; j < w; ++j) {
        std::uint32_t a_mu1 = 0, a_mu2 = 0;
        std::uint64_t a_xx = 0, a_yy = 0, a_xy = 0;
        for (unsigned k = 0; k < taps; ++k) {
            const std::uint32_t c = coeff[k];
            const std::uint32_t r = ref_rows[k][j];
            const std::uint32_t d = dis_rows[k][j];
            const std::uint32_t cr = c * r;
            const std::uint32_t cd = c * d;
            a_mu1 += cr;
            a_mu2 += cd;
            a_xx += std::uint64_t{cr} * r;
            a_yy += std::uint64_t{cd} * d;
            a_xy += std::uint64_t{cr} * d;
        }
        const auto xx = static_cast<std::uint32_t>((a_xx + norm.round_sq) >> norm.shift_sq);
        const auto yy = static_cast<std::uint32_t>((a_yy + norm.round_sq) >> norm.shift_sq);
        const auto xy = static_cast<std::uint32_t>((a_xy + norm.round_sq) >> norm.shift_sq);
        out.mu1[j] = bias16((a_mu1 + norm.round_mu) >> norm.shift_mu);
        out.mu2[j] = bias16((a_mu2 + norm.round_mu) >> norm.shift_mu);
        out.xx_lo[j] = bias16(xx), out.xx_hi[j] = bias16(xx >> 16);
        out.yy_lo[j] = bias16(yy), out.yy_hi[j] = bias16(yy >> 16);
        out.xy_lo[j] = bias16(xy), out.xy_hi[j] = bias16(xy >> 16);
    }
}

void stat_hfilter(const StatRow& in, unsigned w, const std::uint16_t* coeff, unsigned taps, const double* limits,
                  unsigned n_limits, const std::uint16_t* table, StatSums* sums) {
    StatSums shared;
    // Output j covers stored entries [j, j + taps).
    for (unsigned j = 0; j < w; ++j) {
        std::uint32_t a_mu1 = 0, a_mu2 = 0;
        std::uint64_t a_xx = 0, a_yy = 0, a_xy = 0;
        for (unsigned k = 0; k < taps; ++k) {
            const std::uint32_t c = coeff[k];
            auto moment = [&](const std::int16_t* lo, const std::int16_t* hi) {
                return (std::uint64_t{unbias16(hi[j + k])} << 16) | unbias16(lo[j + k]);
            };
            a_mu1 += c * unbias16(in.mu1[j + k]);
            a_mu2 += c * unbias16(in.mu2[j + k]);
            a_xx += c * moment(in.xx_lo, in.xx_hi);
            a_yy += c * moment(in.yy_lo, in.yy_hi);
            a_xy += c * moment(in.xy_lo, in.xy_hi);
        }
        accumulate_pixel(shared, a_mu1, a_mu2, a_xx, a_yy, a_xy, limits, n_limits, table, sums);
    }
    for (unsigned i = 0; i < n_limits; ++i) {
        sums[i].den_log += shared.den_log;
        sums[i].num_non_log += shared.num_non_log;
        sums[i].den_non_log += shared.den_non_log;
    }
}

template <typename T>
void sub_vfilter(const T* const* rows, unsigned w, const std::uint16_t* coeff, unsigned taps, unsigned shift,
                 std::uint32_t* out) {
    const std::uint32_t round = 1u << (shift - 1);
    for (unsigned j = 0; j < w; ++j) {
        std::uint32_t acc = 0;
        for (unsigned k = 0; k < taps; ++k) acc += std::uint32_t{coeff[k]} * std::uint32_t{rows[k][j]};
        out[j] = static_cast<std::uint16_t>((acc + round) >> shift);
    }
}

void sub_hfilter(const std::uint32_t* in, unsigned out_w, const std::uint16_t* coeff, unsigned taps,
                 std::uint16_t* dst) {
    for (unsigned oj = 0; oj < out_w; ++oj) {
        const unsigned j = 2 * oj;
        std::uint32_t acc = 0;
        for (unsigned k = 0; k < taps; ++k) acc += std::uint32_t{coeff[k]} * in[j + k];
        dst[oj] = static_cast<std::uint16_t>((acc + 32768) >> 16);
    }
}

template void stat_vfilter(const std::uint8_t* const*, const std::uint8_t* const*, unsigned, const std::uint16_t*,
                           unsigned, const VerticalNorm&, const StatRow&);
template void stat_vfilter(const std::uint16_t* const*, const std::uint16_t* const*, unsigned, const std::uint16_t*,
                           unsigned, const VerticalNorm&, const StatRow&);
template void sub_vfilter(const std::uint8_t* const*, unsigned, const std::uint16_t*, unsigned, unsigned,
                          std::uint32_t*);
template void sub_vfilter(const std::uint16_t* const*, unsigned, const std::uint16_t*, unsigned, unsigned,
                          std::uint32_t*);

}  // namespace ref

VifKernels select_kernels(unsigned cpumask) {
    return vif_registry().select(cpumask);
}

std::vector<std::pair<std::string, VifKernels>> kernel_variants() {
    return vif_registry().variants();
}

ScaleStat finish_statistic(const StatSums& sums) {
    ScaleStat out;
    out.num = static_cast<float>(
        static_cast<double>(sums.num_log) / 2048.0 +
        (static_cast<double>(sums.den_non_log) - (static_cast<double>(sums.num_non_log) / 16384.0) / 65025.0));
    out.den = static_cast<float>(static_cast<double>(sums.den_log) / 2048.0 + static_cast<double>(sums.den_non_log));
    return out;
}

template <typename T>
void scale_sums(const SampleView<T>& ref, const SampleView<T>& dis, unsigned scale, unsigned bpc,
                std::span<const double> limits, std::span<StatSums> out, const VifKernels& kern) {
    const Kernel& filt = kKernels[scale];
    const unsigned half = filt.half();
    const unsigned taps = filt.taps;
    const unsigned w = ref.width, h = ref.height;
    const VerticalNorm norm = vertical_norm(scale, bpc);
    const std::uint16_t* table = log2_table().data();
    const auto vfilter = kern.stat_vfilter(ref.data);

    // Vertically filtered rows, with `half` mirrored margin entries each side
    // and the padding stat_hfilter may read.
    ScratchScope scratch;
    const std::size_t len = w + 2 * static_cast<std::size_t>(half) + kStatRowPad;
    std::int16_t* buf = scratch.alloc<std::int16_t>(StatRow::kPlanes * len);
    std::fill(buf, buf + StatRow::kPlanes * len, std::int16_t{0});
    const StatRow rows = StatRow::over(buf, len);
    const StatRow inner = rows.offset(half);

    const T* ref_rows[17];
    const T* dis_rows[17];
    std::fill(out.begin(), out.end(), StatSums{});
    const auto n_limits = static_cast<unsigned>(std::min(limits.size(), out.size()));

    for (unsigned i = 0; i < h; ++i) {
        for (unsigned k = 0; k < taps; ++k) {
            const unsigned y = mirror(static_cast<int>(i) - static_cast<int>(half) + static_cast<int>(k), h);
            ref_rows[k] = ref.row(y);
            dis_rows[k] = dis.row(y);
        }
        vfilter(ref_rows, dis_rows, w, filt.coeff.data(), taps, norm, inner);
        for (unsigned p = 0; p < StatRow::kPlanes; ++p) mirror_margins(rows.plane(p), w, static_cast<int>(half));
        kern.stat_hfilter(rows, w, filt.coeff.data(), taps, limits.data(), n_limits, table, out.data());
    }
}

namespace {

/// subsample() into dst (width/2 x height/2, packed rows).
template <typename T>
void subsample_to(const SampleView<T>& src, unsigned scale, unsigned bpc, const VifKernels& kern, std::uint16_t* dst) {
    const Kernel& filt = kKernels[scale + 1];
    const unsigned half = filt.half();
    const unsigned taps = filt.taps;
    const unsigned w = src.width, h = src.height;
    const unsigned shift_v = scale == 0 ? bpc : 16;
    const auto vfilter = kern.sub_vfilter(src.data);
    const unsigned out_w = w / 2, out_h = h / 2;

    ScratchScope scratch;
    // (+1: sub_hfilter may read one entry past the last it uses.)
    std::uint32_t* row = scratch.alloc<std::uint32_t>(w + 2 * static_cast<std::size_t>(half) + 1);
    row[w + 2 * static_cast<std::size_t>(half)] = 0;
    const T* rows[17];

    // Only even rows/columns survive decimation, so only those are filtered.
    for (unsigned oi = 0; oi < out_h; ++oi) {
        const unsigned i = 2 * oi;
        for (unsigned k = 0; k < taps; ++k)
            rows[k] = src.row(mirror(static_cast<int>(i) - static_cast<int>(half) + static_cast<int>(k), h));
        vfilter(rows, w, filt.coeff.data(), taps, shift_v, row + half);
        mirror_margins(row, w, static_cast<int>(half));
        kern.sub_hfilter(row, out_w, filt.coeff.data(), taps, dst + static_cast<std::size_t>(oi) * out_w);
    }
}

SampleView<std::uint16_t> packed_view(const std::uint16_t* p, unsigned w, unsigned h) {
    return {p, static_cast<std::ptrdiff_t>(w * sizeof(std::uint16_t)), w, h};
}

}  // namespace

template <typename T>
ScalePlane subsample(const SampleView<T>& src, unsigned scale, unsigned bpc, const VifKernels& kern) {
    ScalePlane out;
    out.width = src.width / 2;
    out.height = src.height / 2;
    out.samples.resize(static_cast<std::size_t>(out.width) * out.height);
    subsample_to(src, scale, bpc, kern, out.samples.data());
    return out;
}

template <typename T>
void compute_vif(const SampleView<T>& ref, const SampleView<T>& dis, unsigned bpc, std::span<const double> limits,
                 bool skip_scale0, std::span<FrameStats> out, const VifKernels& k) {
    const std::size_t n = std::min(limits.size(), out.size());
    // Per-limit sums of one scale; a group is small (VMAF + NEG: two), so
    // only a larger one allocates.
    constexpr std::size_t kInline = 8;
    StatSums inline_sums[kInline];
    std::vector<StatSums> heap_sums(n > kInline ? n : 0);
    const std::span<StatSums> sums(n > kInline ? heap_sums.data() : inline_sums, n);
    auto statistic = [&](const auto& r, const auto& d, unsigned scale) {
        scale_sums(r, d, scale, bpc, limits.first(n), sums, k);
        for (std::size_t i = 0; i < n; ++i) out[i][scale] = finish_statistic(sums[i]);
    };
    for (std::size_t i = 0; i < n; ++i) out[i] = FrameStats{};
    if (!skip_scale0) statistic(ref, dis, 0);

    // Decimated planes live in per-thread scratch: no allocation per frame.
    ScratchScope scratch;
    unsigned w = ref.width / 2, h = ref.height / 2;
    std::uint16_t* r = scratch.alloc<std::uint16_t>(std::size_t{w} * h);
    std::uint16_t* d = scratch.alloc<std::uint16_t>(std::size_t{w} * h);
    subsample_to(ref, 0, bpc, k, r);
    subsample_to(dis, 0, bpc, k, d);
    for (unsigned scale = 1; scale < kScales; ++scale) {
        if (scale > 1) {
            std::uint16_t* r2 = scratch.alloc<std::uint16_t>(std::size_t{w / 2} * (h / 2));
            std::uint16_t* d2 = scratch.alloc<std::uint16_t>(std::size_t{w / 2} * (h / 2));
            subsample_to(packed_view(r, w, h), scale - 1, bpc, k, r2);
            subsample_to(packed_view(d, w, h), scale - 1, bpc, k, d2);
            r = r2, d = d2, w /= 2, h /= 2;
        }
        statistic(packed_view(r, w, h), packed_view(d, w, h), scale);
    }
}

template void scale_sums(const SampleView<std::uint8_t>&, const SampleView<std::uint8_t>&, unsigned, unsigned,
                         std::span<const double>, std::span<StatSums>, const VifKernels&);
template void scale_sums(const SampleView<std::uint16_t>&, const SampleView<std::uint16_t>&, unsigned, unsigned,
                         std::span<const double>, std::span<StatSums>, const VifKernels&);
template ScalePlane subsample(const SampleView<std::uint8_t>&, unsigned, unsigned, const VifKernels&);
template ScalePlane subsample(const SampleView<std::uint16_t>&, unsigned, unsigned, const VifKernels&);
template void compute_vif(const SampleView<std::uint8_t>&, const SampleView<std::uint8_t>&, unsigned,
                          std::span<const double>, bool, std::span<FrameStats>, const VifKernels&);
template void compute_vif(const SampleView<std::uint16_t>&, const SampleView<std::uint16_t>&, unsigned,
                          std::span<const double>, bool, std::span<FrameStats>, const VifKernels&);

}  // namespace vmaf::vif
