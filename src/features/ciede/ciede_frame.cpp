#include "features/ciede/ciede_frame.hpp"

namespace vmaf::ciede {

namespace {

constexpr unsigned kCacheBits = 16;

// Row `i` of `plane` widened to uint16 (4:4:4 input or luma).
void copy_row(const Picture& pic, unsigned plane, unsigned i, std::uint16_t* out) {
    const Plane& p = pic.plane(plane);
    if (pic.bpc() == 8) {
        const std::uint8_t* s = p.row<const std::uint8_t>(i);
        for (unsigned j = 0; j < p.width; ++j) out[j] = s[j];
    } else {
        const std::uint16_t* s = p.row<const std::uint16_t>(i);
        for (unsigned j = 0; j < p.width; ++j) out[j] = s[j];
    }
}

}  // namespace

LabCache::LabCache() : entries_(std::size_t{1} << kCacheBits, Entry{0, {}}) {}

Lab LabCache::get(unsigned y, unsigned u, unsigned v, unsigned bpc) {
    const std::uint64_t key =
        std::uint64_t{y} | std::uint64_t{u} << 16 | std::uint64_t{v} << 32 | std::uint64_t{bpc} << 48;
    Entry& e = entries_[(key * 0x9E3779B97F4A7C15ull) >> (64 - kCacheBits)];
    if (e.key != key) e = Entry{key, yuv_to_lab(y, u, v, bpc)};
    return e.lab;
}

void delta_e_columns(const LabColumns& in, std::size_t n, float* out) {
    for (std::size_t i = 0; i < n; ++i)
        out[i] = delta_e2000(Lab{in.l1[i], in.a1[i], in.b1[i]}, Lab{in.l2[i], in.a2[i], in.b2[i]});
}

double row_sum(const CiedeKernels& k, const RowPair& r, unsigned w, unsigned bpc, LabCache& cache, RowScratch& s,
               double sum) {
    const std::size_t cap = (std::size_t{w} + kColumnPad - 1) / kColumnPad * kColumnPad;
    for (auto& c : s.cols) c.assign(cap, 0.f);
    s.de.resize(cap);
    std::size_t m = 0;
    for (unsigned j = 0; j < w; ++j) {
        if (r.ry[j] == r.dy[j] && r.ru[j] == r.du[j] && r.rv[j] == r.dv[j]) continue;
        const Lab a = cache.get(r.ry[j], r.ru[j], r.rv[j], bpc);
        const Lab b = cache.get(r.dy[j], r.du[j], r.dv[j], bpc);
        s.cols[0][m] = a.l, s.cols[1][m] = a.a, s.cols[2][m] = a.b;
        s.cols[3][m] = b.l, s.cols[4][m] = b.a, s.cols[5][m] = b.b;
        ++m;
    }
    const LabColumns in{s.cols[0].data(), s.cols[1].data(), s.cols[2].data(),
                        s.cols[3].data(), s.cols[4].data(), s.cols[5].data()};
    k.delta_e(in, m, s.de.data());
    for (std::size_t i = 0; i < m; ++i) sum += s.de[i];
    return sum;
}

double frame_sum(const CiedeKernels& k, const Picture& ref, const Picture& dist, const ChromaUpsampler* up) {
    const unsigned w = ref.width(), h = ref.height(), bpc = ref.bpc();
    std::vector<std::uint16_t> buf(std::size_t{6} * w);
    std::uint16_t* rows[6];
    for (unsigned k = 0; k < 6; ++k) rows[k] = buf.data() + std::size_t{k} * w;
    thread_local LabCache cache;
    thread_local RowScratch scratch;
    double sum = 0.;
    for (unsigned i = 0; i < h; ++i) {
        copy_row(ref, 0, i, rows[0]);
        copy_row(dist, 0, i, rows[3]);
        for (unsigned p = 1; p <= 2; ++p) {
            if (up) {
                up->row(ref, p, i, rows[p]);
                up->row(dist, p, i, rows[3 + p]);
            } else {
                copy_row(ref, p, i, rows[p]);
                copy_row(dist, p, i, rows[3 + p]);
            }
        }
        sum = row_sum(k, RowPair{rows[0], rows[1], rows[2], rows[3], rows[4], rows[5]}, w, bpc, cache, scratch, sum);
    }
    return sum;
}

}  // namespace vmaf::ciede
