#include "features/ciede/ciede_upsample.hpp"

namespace vmaf::ciede {

namespace {

std::uint32_t sample(const Plane& p, unsigned bpc, unsigned r, unsigned c) {
    return bpc == 8 ? p.row<const std::uint8_t>(r)[c] : p.row<const std::uint16_t>(r)[c];
}

}  // namespace

ChromaUpsampler::ChromaUpsampler(PixelFormat fmt, unsigned w, unsigned h)
    : horizontal_half_(fmt == PixelFormat::Yuv420),
      w_(w),
      wc_(w >> 1),
      hc_(fmt == PixelFormat::Yuv420 ? h >> 1 : h),
      stride_((wc_ + 31u) & ~31u) {}

std::uint32_t ChromaUpsampler::flat_sample(const Picture& pic, unsigned plane, std::uint64_t k) const {
    if (stride_ == 0) return 0;
    std::uint64_t r = k / stride_;
    const auto c = static_cast<unsigned>(k % stride_);
    if (c >= wc_) return 0;  // row padding
    if (r >= hc_ && plane == 1) {
        r -= hc_;  // past U: V follows
        plane = 2;
    }
    if (r >= hc_) return 0;  // past V: outside upstream's allocation
    return sample(pic.plane(plane), pic.bpc(), static_cast<unsigned>(r), c);
}

void ChromaUpsampler::row(const Picture& pic, unsigned plane, unsigned i, std::uint16_t* out) const {
    const std::uint64_t base = std::uint64_t{i >> 1} * stride_;
    const unsigned last_col = horizontal_half_ ? (w_ - 1) >> 1 : w_ - 1;
    const bool in_plane = last_col < wc_ && (i >> 1) < hc_;
    if (in_plane) {  // every read lies in row i/2 of the plane
        const Plane& p = pic.plane(plane);
        const unsigned r = i >> 1;
        for (unsigned j = 0; j < w_; ++j)
            out[j] = static_cast<std::uint16_t>(sample(p, pic.bpc(), r, horizontal_half_ ? j >> 1 : j));
        return;
    }
    for (unsigned j = 0; j < w_; ++j)
        out[j] = static_cast<std::uint16_t>(flat_sample(pic, plane, base + (horizontal_half_ ? j >> 1 : j)));
}

}  // namespace vmaf::ciede
