#include "vmaf/picture.hpp"

#include <cstdlib>
#include <mutex>
#include <new>
#include <vector>

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

std::size_t Picture::layout(PixelFormat fmt, unsigned bpc, unsigned width, unsigned height) {
    fmt_ = fmt;
    bpc_ = bpc;
    const ChromaShift cs = chroma_shift(fmt);
    const unsigned bps = bpc > 8 ? 2 : 1;
    std::size_t total = 0;
    for (unsigned p = 0; p < plane_count(fmt); ++p) {
        Plane& pl = planes_[p];
        pl.width = p ? (width + (1u << cs.x) - 1) >> cs.x : width;
        pl.height = p ? (height + (1u << cs.y) - 1) >> cs.y : height;
        // One spare aligned row keeps SIMD over-reads of the last row in bounds.
        pl.stride = static_cast<std::ptrdiff_t>(align_up(std::size_t{pl.width} * bps));
        offsets_[p] = total;
        total += static_cast<std::size_t>(pl.stride) * (pl.height + 1);
    }
    return align_up(total);
}

void Picture::attach(std::shared_ptr<std::uint8_t> storage) {
    storage_ = std::move(storage);
    for (unsigned p = 0; p < plane_count(fmt_); ++p) planes_[p].data = storage_.get() + offsets_[p];
}

Picture::Picture(PixelFormat fmt, unsigned bpc, unsigned width, unsigned height) {
    const std::size_t bytes = layout(fmt, bpc, width, height);
    auto* raw = static_cast<std::uint8_t*>(std::aligned_alloc(kAlign, bytes));
    if (!raw) throw std::bad_alloc();
    attach(std::shared_ptr<std::uint8_t>(raw, [](std::uint8_t* p) { std::free(p); }));
}

struct PicturePool::Shared {
    std::mutex mu;
    std::vector<std::uint8_t*> free;
    unsigned keep = 0;
    bool closed = false;
};

PicturePool::PicturePool(const VideoGeometry& geom, unsigned keep) : geom_(geom), shared_(std::make_shared<Shared>()) {
    shared_->keep = keep;
}

PicturePool::~PicturePool() {
    std::lock_guard<std::mutex> lock(shared_->mu);
    shared_->closed = true;
    for (auto* p : shared_->free) std::free(p);
    shared_->free.clear();
}

Picture PicturePool::acquire() {
    Picture pic;
    const std::size_t bytes = pic.layout(geom_.format, geom_.bpc, geom_.width, geom_.height);
    std::uint8_t* raw = nullptr;
    {
        std::lock_guard<std::mutex> lock(shared_->mu);
        if (!shared_->free.empty()) {
            raw = shared_->free.back();
            shared_->free.pop_back();
        }
    }
    if (!raw) raw = static_cast<std::uint8_t*>(std::aligned_alloc(kAlign, bytes));
    if (!raw) throw std::bad_alloc();
    // The deleter returns the buffer to the pool while it is open and not full.
    pic.attach(std::shared_ptr<std::uint8_t>(raw, [shared = shared_](std::uint8_t* p) {
        {
            std::lock_guard<std::mutex> lock(shared->mu);
            if (!shared->closed && shared->free.size() < shared->keep) {
                shared->free.push_back(p);
                return;
            }
        }
        std::free(p);
    }));
    return pic;
}

}  // namespace vmaf
