#include "features/cambi/cambi_kernels.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace vmaf::cambi {

namespace {

// reciprocal(i) = 1/i rounded to 9 significant decimal digits, then to float;
// 0 for i = 0. That is the table upstream ships: its values are decimal
// literals, and 42 of them differ from 1.0f / i in the last bit. Made on
// first use (reciprocal_table()): 4226 printf/strtof round trips cost ~10M
// instructions, which every process paid at start-up as a static object.
struct Reciprocals {
    float v[kReciprocalTableSize];
    Reciprocals() {
        v[0] = 0.0f;
        char buf[32];
        for (int i = 1; i < kReciprocalTableSize; ++i) {
            std::snprintf(buf, sizeof buf, "%.9g", 1.0 / i);
            v[i] = std::strtof(buf, nullptr);
        }
    }
};

std::uint16_t mode3(std::uint16_t a, std::uint16_t b, std::uint16_t c) {
    if (a == b || a == c) return a;
    if (b == c) return b;
    return std::min({a, b, c});
}

void add_range(std::uint16_t* h, int lo, int hi, std::uint16_t delta) {
    for (int c = lo; c < hi; ++c) h[c] = static_cast<std::uint16_t>(h[c] + delta);
}

}  // namespace

const float* reciprocal_table() {
    static const Reciprocals table;  // built once, thread-safely
    return table.v;
}

void band_codes_row(const std::uint16_t* vals, const std::uint16_t* mask, std::uint16_t band_base,
                    std::uint16_t band_size, std::uint16_t* out, std::size_t w) {
    for (std::size_t j = 0; j < w; ++j) {
        const auto r = static_cast<std::uint16_t>(vals[j] - band_base);
        out[j] = mask[j] && r < band_size ? r : kNoCode;
    }
}

void c_values_row(const std::uint16_t* hist, int stride, int w, const std::uint16_t* codes, const ScoreParams& p,
                  float* out, TopkStats& stats) {
    const float* recip = reciprocal_table();
    for (int j = 0; j < w; ++j) {
        out[j] = 0.0f;
        if (codes[j] == kNoCode) continue;
        const int row = codes[j];
        const std::uint16_t* hc = hist + j;
        const std::uint16_t p0 = hc[std::size_t(row) * stride];
        float best = 0.0f;
        for (std::uint32_t act = p.active[row + p.band_base + p.num_diffs]; act; act &= act - 1) {
            const int d = std::countr_zero(act);
            const int up = row + (d + 1), down = row - (d + 1);
            const std::uint16_t p1 = hc[std::size_t(up) * stride];
            const std::uint16_t p2 = down >= 0 ? hc[std::size_t(down) * stride] : 0;
            const std::uint16_t q = p1 > p2 ? p1 : p2;
            const float v = static_cast<float>(kContrastWeights[d] * p0 * q) * recip[q + p0];
            if (v > best) best = v;
        }
        out[j] = best;
        if (best != 0.0f) {
            stats.sum += best;
            ++stats.nonzero;
            stats.min_nonzero = std::min(stats.min_nonzero, best);
        }
    }
}

void mode3_row(const std::uint16_t* a, const std::uint16_t* b, const std::uint16_t* c, std::uint16_t* out,
               std::size_t n) {
    for (std::size_t j = 0; j < n; ++j) out[j] = mode3(a[j], b[j], c[j]);
}

void flat_row(const std::uint16_t* row, const std::uint16_t* below, std::uint16_t* out, std::size_t w) {
    for (std::size_t j = 0; j + 1 < w; ++j) out[j] = row[j] == row[j + 1];
    out[w - 1] = 1;
    if (below)
        for (std::size_t j = 0; j < w; ++j) out[j] = out[j] && row[j] == below[j];
}

void box7_above(const std::uint16_t* colsum, std::uint32_t threshold, std::uint16_t* out, std::size_t w) {
    for (std::size_t j = 0; j < w; ++j) {
        std::uint32_t s = 0;
        for (int t = -3; t <= 3; ++t) s += colsum[static_cast<std::ptrdiff_t>(j) + t];
        out[j] = s > threshold;
    }
}

void slide_row(std::uint16_t* hist, int stride, int w, int pad, const std::uint16_t* out_codes,
               const std::uint16_t* in_codes) {
    for (int j = 0; j < w; ++j) {
        const std::uint16_t ro = out_codes ? out_codes[j] : kNoCode;
        const std::uint16_t ri = in_codes ? in_codes[j] : kNoCode;
        if (ro == ri) continue;
        const int lo = std::max(j - pad, 0), hi = std::min(j + pad + 1, w);
        if (ro != kNoCode) add_range(hist + std::size_t{ro} * stride, lo, hi, 0xffff);
        if (ri != kNoCode) add_range(hist + std::size_t{ri} * stride, lo, hi, 1);
    }
}

TopkStats topk_stats(const float* c, std::size_t n) {
    TopkStats st;
    st.min_nonzero = std::numeric_limits<float>::infinity();
    for (std::size_t i = 0; i < n; ++i) {
        if (c[i] == 0.0f) continue;
        st.sum += c[i];
        ++st.nonzero;
        st.min_nonzero = std::min(st.min_nonzero, c[i]);
    }
    return st;
}

void anti_dither_row(std::uint16_t* r, const std::uint16_t* below, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j) r[j] = (r[j] + r[j + 1] + below[j] + below[j + 1]) >> 2;
}

}  // namespace vmaf::cambi
