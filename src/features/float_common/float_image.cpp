#include "features/float_common/float_image.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "vmaf/error.hpp"

namespace vmaf::floatfeat {

namespace {

struct Pool {
    std::vector<std::pair<std::size_t, float*>> free;  ///< (capacity, buffer)
    std::size_t bytes = 0;                             ///< held in `free`
    ~Pool() {
        for (auto& [c, p] : free) delete[] p;
    }
};

Pool& pool() {
    thread_local Pool p;
    return p;
}

/// A buffer of at least n floats: the smallest pooled one that fits, else a new one.
std::pair<float*, std::size_t> take(std::size_t n) {
    auto& f = pool().free;
    auto best = f.end();
    for (auto it = f.begin(); it != f.end(); ++it)
        if (it->first >= n && (best == f.end() || it->first < best->first)) best = it;
    if (best != f.end()) {
        const auto r = std::pair{best->second, best->first};
        pool().bytes -= best->first * sizeof(float);
        *best = f.back();
        f.pop_back();
        return r;
    }
    return {new float[n], n};
}

void give(float* p, std::size_t cap) {
    if (!p) return;
    Pool& pl = pool();
    const std::size_t bytes = cap * sizeof(float);
    if (pl.free.size() < FloatBuffer::kPoolSlots && pl.bytes + bytes <= FloatBuffer::kPoolBytes) {
        pl.free.emplace_back(cap, p);
        pl.bytes += bytes;
        return;
    }
    delete[] p;
}

}  // namespace

FloatBuffer::FloatBuffer(std::size_t n) : n_(n) {
    if (n) std::tie(p_, cap_) = take(n);
}

FloatBuffer::FloatBuffer(const FloatBuffer& o) : FloatBuffer(o.n_) {
    if (n_) std::memcpy(p_, o.p_, n_ * sizeof(float));
}

FloatBuffer& FloatBuffer::operator=(const FloatBuffer& o) {
    if (this != &o) *this = FloatBuffer(o);
    return *this;
}

FloatBuffer& FloatBuffer::operator=(FloatBuffer&& o) noexcept {
    if (this != &o) {
        give(p_, cap_);
        p_ = std::exchange(o.p_, nullptr);
        n_ = std::exchange(o.n_, 0);
        cap_ = std::exchange(o.cap_, 0);
    }
    return *this;
}

FloatBuffer::~FloatBuffer() {
    give(p_, cap_);
}

void require_size(std::string_view feature, unsigned w, unsigned h, unsigned min_w, unsigned min_h) {
    if (w >= min_w && h >= min_h) return;
    throw Error(ErrorKind::Input, std::string(feature) + ": frames must be at least " + std::to_string(min_w) + "x" +
                                      std::to_string(min_h) + " (got " + std::to_string(w) + "x" + std::to_string(h) +
                                      ")");
}

FloatImage to_float(const Plane& plane, unsigned bpc, int offset) {
    FloatImage out(plane.width, plane.height);
    const float off = static_cast<float>(offset);
    if (bpc == 8) {
        for (unsigned y = 0; y < plane.height; ++y) {
            const std::uint8_t* s = plane.row<std::uint8_t>(y);
            float* d = out.row(y);
            for (unsigned x = 0; x < plane.width; ++x) d[x] = static_cast<float>(s[x]) + off;
        }
        return out;
    }
    const float scaler = bpc == 10 ? 4.0f : bpc == 12 ? 16.0f : 256.0f;
    for (unsigned y = 0; y < plane.height; ++y) {
        const std::uint16_t* s = plane.row<std::uint16_t>(y);
        float* d = out.row(y);
        for (unsigned x = 0; x < plane.width; ++x) d[x] = static_cast<float>(s[x]) / scaler + off;
    }
    return out;
}

void convolve_mirror(const FloatKernels& kern, std::span<const float> f, const FloatImage& a, const FloatImage* b,
                     Tap tap, FloatImage& dst) {
    const int w = static_cast<int>(a.w), h = static_cast<int>(a.h);
    const int fw = static_cast<int>(f.size()), r = fw / 2;
    if (dst.w != a.w || dst.h != a.h) dst = FloatImage(a.w, a.h);
    std::vector<float> tmp(a.w);
    std::vector<const float*> ra(fw), rb(fw);
    for (int i = 0; i < h; ++i) {
        for (int k = 0; k < fw; ++k) {
            int ii = i - r + k;
            ii = ii < 0 ? -ii : (ii >= h ? 2 * h - ii - 2 : ii);
            ra[k] = a.row(ii);
            rb[k] = b ? b->row(ii) : nullptr;
        }
        kern.conv_rows(f.data(), fw, ra.data(), rb.data(), tap, tmp.data(), w);
        kern.conv_cols(f.data(), fw, tmp.data(), dst.row(i), w);
    }
}

}  // namespace vmaf::floatfeat
