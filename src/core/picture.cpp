#include "vmaf/picture.hpp"

#include "vmaf/error.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
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
/// Picture storage: the aligned global operator new (throws std::bad_alloc),
/// so that tests replacing operator new see every allocation of the library.
std::uint8_t* aligned_new(std::size_t bytes) {
    return static_cast<std::uint8_t*>(::operator new(align_up(bytes), std::align_val_t{kAlign}));
}
void aligned_delete(std::uint8_t* p) noexcept { ::operator delete(p, std::align_val_t{kAlign}); }
}  // namespace

void check_picture_geometry(unsigned width, unsigned height, unsigned bpc) {
    if (width == 0 || height == 0 || width > kMaxPictureDimension || height > kMaxPictureDimension ||
        std::uint64_t{width} * height > kMaxPicturePixels)
        throw Error(ErrorKind::Usage, "picture size " + std::to_string(width) + "x" + std::to_string(height) +
                                          " is out of range (1 to " + std::to_string(kMaxPictureDimension) +
                                          " per side, at most " + std::to_string(kMaxPicturePixels) + " pixels)");
    if (bpc < 8 || bpc > 16)
        throw Error(ErrorKind::Usage, "picture bit depth " + std::to_string(bpc) + " is out of range (8 to 16)");
}

std::size_t Picture::layout(PixelFormat fmt, unsigned bpc, unsigned width, unsigned height, bool luma_only) {
    check_picture_geometry(width, height, bpc);
    fmt_ = fmt;
    bpc_ = bpc;
    luma_only_ = luma_only && plane_count(fmt) > 1;
    const ChromaShift cs = chroma_shift(fmt);
    const unsigned bps = bpc > 8 ? 2 : 1;
    std::size_t total = 0;
    for (unsigned p = 0; p < planes(); ++p) {
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
    for (unsigned p = 0; p < planes(); ++p) planes_[p].data = storage_.get() + offsets_[p];
}

Picture Picture::wrap(PixelFormat fmt, unsigned bpc, unsigned width, unsigned height, const Plane* planes,
                      MemoryKind memory, std::shared_ptr<void> owner, bool luma_only) {
    Picture pic;
    pic.layout(fmt, bpc, width, height, luma_only);
    const unsigned row_min = bpc > 8 ? 2 : 1;
    for (unsigned p = 0; p < pic.planes(); ++p) {
        const Plane& in = planes[p];
        Plane& out = pic.planes_[p];
        if (in.width != out.width || in.height != out.height || !in.data || in.step < 1 || in.step > 2 ||
            in.shift >= 8 * row_min || (memory != MemoryKind::Device && (in.step != 1 || in.shift != 0)) ||
            in.stride < static_cast<std::ptrdiff_t>(std::size_t{in.width} * row_min * in.step))
            throw Error(ErrorKind::Usage, "wrapped picture: plane " + std::to_string(p) + " is " +
                                              std::to_string(in.width) + "x" + std::to_string(in.height) + " (stride " +
                                              std::to_string(in.stride) + "), expected " + std::to_string(out.width) +
                                              "x" + std::to_string(out.height));
        out = in;
    }
    pic.memory_ = memory;
    // The aliasing constructor ties the caller's owner to the picture's lifetime.
    pic.storage_ = std::shared_ptr<std::uint8_t>(std::move(owner), static_cast<std::uint8_t*>(planes[0].data));
    return pic;
}

Picture::Picture(PixelFormat fmt, unsigned bpc, unsigned width, unsigned height) {
    const std::size_t bytes = layout(fmt, bpc, width, height);
    std::uint8_t* raw = aligned_new(bytes);
    attach(std::shared_ptr<std::uint8_t>(raw, [](std::uint8_t* p) { aligned_delete(p); }));
}

namespace {

/// Plain aligned host memory.
class HostAllocator final : public PictureAllocator {
public:
    std::uint8_t* allocate(std::size_t bytes) override { return aligned_new(bytes); }
    void deallocate(std::uint8_t* p, std::size_t) noexcept override { aligned_delete(p); }
    MemoryKind memory() const override { return MemoryKind::Host; }
};

}  // namespace

struct PicturePool::Shared {
    std::mutex mu;
    std::vector<std::uint8_t*> free;
    std::shared_ptr<PictureAllocator> alloc;
    std::size_t bytes = 0;
    unsigned keep = 0;
    bool closed = false;
};

PicturePool::PicturePool(const VideoGeometry& geom, unsigned keep, std::shared_ptr<PictureAllocator> allocator,
                         bool luma_only)
    : geom_(geom), luma_only_(luma_only), shared_(std::make_shared<Shared>()) {
    shared_->keep = keep;
    shared_->alloc = allocator ? std::move(allocator) : std::make_shared<HostAllocator>();
    Picture probe;
    shared_->bytes = probe.layout(geom_.format, geom_.bpc, geom_.width, geom_.height, luma_only_);
}

PicturePool::~PicturePool() {
    std::lock_guard<std::mutex> lock(shared_->mu);
    shared_->closed = true;
    for (auto* p : shared_->free) shared_->alloc->deallocate(p, shared_->bytes);
    shared_->free.clear();
}

void PicturePool::reserve(unsigned n) {
    std::size_t have = 0;
    {
        std::lock_guard<std::mutex> lock(shared_->mu);
        have = shared_->free.size();
        n = std::min(n, shared_->keep);
    }
    if (have >= n) return;
    std::vector<std::uint8_t*> fresh(n - have, nullptr);
    try {
        tbb::parallel_for(std::size_t{0}, fresh.size(), [&](std::size_t i) {
            std::uint8_t* p = shared_->alloc->allocate(shared_->bytes);
            // Pageable memory: fault the pages in now. Page-locked or device
            // memory is resident once allocated.
            if (shared_->alloc->memory() == MemoryKind::Host) std::memset(p, 0, shared_->bytes);
            fresh[i] = p;
        });
    } catch (...) {
        for (std::uint8_t* p : fresh)
            if (p) shared_->alloc->deallocate(p, shared_->bytes);
        throw;
    }
    std::lock_guard<std::mutex> lock(shared_->mu);
    shared_->free.insert(shared_->free.end(), fresh.begin(), fresh.end());
}

Picture PicturePool::acquire() {
    Picture pic;
    pic.layout(geom_.format, geom_.bpc, geom_.width, geom_.height, luma_only_);
    pic.memory_ = shared_->alloc->memory();
    std::uint8_t* raw = nullptr;
    {
        std::lock_guard<std::mutex> lock(shared_->mu);
        if (!shared_->free.empty()) {
            raw = shared_->free.back();
            shared_->free.pop_back();
        }
    }
    if (!raw) raw = shared_->alloc->allocate(shared_->bytes);
    // The deleter returns the buffer to the pool while it is open and not full.
    // It runs in destructors, so it must not throw: when the free list cannot
    // grow (out of memory), the buffer is freed instead.
    pic.attach(std::shared_ptr<std::uint8_t>(raw, [shared = shared_](std::uint8_t* p) noexcept {
        {
            std::lock_guard<std::mutex> lock(shared->mu);
            if (!shared->closed && shared->free.size() < shared->keep) {
                try {
                    shared->free.push_back(p);
                    return;
                } catch (const std::bad_alloc&) {
                }
            }
        }
        shared->alloc->deallocate(p, shared->bytes);
    }));
    return pic;
}

}  // namespace vmaf
