#include "features/cambi/cambi_kernels.hpp"

#include <algorithm>
#include <limits>

namespace vmaf::cambi {

namespace {

std::uint16_t mode3(std::uint16_t a, std::uint16_t b, std::uint16_t c) {
    if (a == b || a == c) return a;
    if (b == c) return b;
    return std::min({a, b, c});
}

void add_range(std::uint16_t* h, int lo, int hi, std::uint16_t delta) {
    for (int c = lo; c < hi; ++c) h[c] = static_cast<std::uint16_t>(h[c] + delta);
}

}  // namespace

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

void slide_row(std::uint16_t* hist, int w, int pad, const std::uint16_t* out_vals, const std::uint16_t* out_mask,
               const std::uint16_t* in_vals, const std::uint16_t* in_mask, std::uint16_t band_base,
               std::uint16_t band_size) {
    for (int j = 0; j < w; ++j) {
        const std::uint16_t ro = out_vals ? static_cast<std::uint16_t>(out_vals[j] - band_base) : 0;
        const std::uint16_t ri = in_vals ? static_cast<std::uint16_t>(in_vals[j] - band_base) : 0;
        const bool sub = out_vals && out_mask[j] && ro < band_size;
        const bool add = in_vals && in_mask[j] && ri < band_size;
        if (sub && add && ro == ri) continue;
        const int lo = std::max(j - pad, 0), hi = std::min(j + pad + 1, w);
        if (sub) add_range(hist + std::size_t{ro} * w, lo, hi, 0xffff);
        if (add) add_range(hist + std::size_t{ri} * w, lo, hi, 1);
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
