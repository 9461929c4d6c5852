#include "vmaf/picture.hpp"

#include <cstdlib>
#include <new>

namespace vmaf {

ChromaShift chroma_shift(PixelFormat fmt) {
    switch (fmt) {
        case PixelFormat::Yuv420: return {1, 1};
        case PixelFormat::Yuv422: return {1, 0};
        default: return {0, 0};
    }
}

unsigned plane_count(PixelFormat fmt) { return fmt == PixelFormat::Yuv400 ? 1 : 3; }

const char* pixel_format_name(PixelFormat fmt) {
    switch (fmt) {
        case PixelFormat::Yuv400: return "400";
        case PixelFormat::Yuv420: return "420";
        case PixelFormat::Yuv422: return "422";
        case PixelFormat::Yuv444: return "444";
    }
    return "?";
}

namespace {
constexpr std::size_t kAlign = 64;
std::size_t align_up(std::size_t v) { return (v + kAlign - 1) / kAlign * kAlign; }
}  // namespace

Picture::Picture(PixelFormat fmt, unsigned bpc, unsigned width, unsigned height) : fmt_(fmt), bpc_(bpc) {
    const ChromaShift cs = chroma_shift(fmt);
    const unsigned bps = bpc > 8 ? 2 : 1;
    std::size_t total = 0;
    std::size_t offsets[3] = {};
    for (unsigned p = 0; p < plane_count(fmt); ++p) {
        Plane& pl = planes_[p];
        pl.width = p ? (width + (1u << cs.x) - 1) >> cs.x : width;
        pl.height = p ? (height + (1u << cs.y) - 1) >> cs.y : height;
        // One spare aligned row keeps SIMD over-reads of the last row in bounds.
        pl.stride = static_cast<std::ptrdiff_t>(align_up(std::size_t{pl.width} * bps));
        offsets[p] = total;
        total += static_cast<std::size_t>(pl.stride) * (pl.height + 1);
    }
    auto* raw = static_cast<std::uint8_t*>(std::aligned_alloc(kAlign, align_up(total)));
    if (!raw) throw std::bad_alloc();
    storage_.reset(raw, [](std::uint8_t* p) { std::free(p); });
    for (unsigned p = 0; p < plane_count(fmt); ++p) planes_[p].data = raw + offsets[p];
}

}  // namespace vmaf
