// Picture: the planar image handed to feature extractors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace vmaf {

enum class PixelFormat : std::uint8_t { Yuv400, Yuv420, Yuv422, Yuv444 };

/// Chroma subsampling shifts of a pixel format (0 = full resolution).
struct ChromaShift {
    unsigned x = 0, y = 0;
};
ChromaShift chroma_shift(PixelFormat fmt);
/// Number of planes (1 for 4:0:0, 3 otherwise).
unsigned plane_count(PixelFormat fmt);
/// "420", "422", "444", "400".
const char* pixel_format_name(PixelFormat fmt);

/// Largest width or height of a picture the library allocates or wraps, and
/// largest width x height (e.g. 16384 x 16384).
inline constexpr unsigned kMaxPictureDimension = 32768;
inline constexpr std::uint64_t kMaxPicturePixels = std::uint64_t{1} << 28;
/// Throws vmaf::Error(Usage) with a one-line message unless 1 <= width,
/// height <= kMaxPictureDimension, width * height <= kMaxPicturePixels and
/// 8 <= bpc <= 16. Every picture constructor and pool checks this first, so
/// absurd sizes fail before any allocation (and before size arithmetic can
/// overflow).
void check_picture_geometry(unsigned width, unsigned height, unsigned bpc);

/// Geometry every picture of a run shares.
struct VideoGeometry {
    PixelFormat format = PixelFormat::Yuv420;
    unsigned bpc = 8;
    unsigned width = 0, height = 0;
    bool operator==(const VideoGeometry&) const = default;
};

/// One plane of samples. Samples are uint8_t when bpc == 8, else uint16_t
/// (native endian, value range [0, 2^bpc - 1]). `stride` is in bytes.
struct Plane {
    void* data = nullptr;
    std::ptrdiff_t stride = 0;
    unsigned width = 0, height = 0;
    /// Device memory only (a GPU decoder's frames, see Picture::wrap): samples
    /// sit `step` samples apart (2: one half of NV12/P010's interleaved
    /// chroma) and are stored shifted left by `shift` bits (P010: 6). Pictures
    /// in host memory are always step 1, shift 0.
    unsigned step = 1, shift = 0;

    template <typename T>
    T* row(unsigned y) const {
        return reinterpret_cast<T*>(static_cast<std::uint8_t*>(data) + stride * static_cast<std::ptrdiff_t>(y));
    }
};

/// Where a picture's samples live.
enum class MemoryKind : std::uint8_t {
    Host,        ///< ordinary (pageable) host memory
    PinnedHost,  ///< host memory the active GPU backend can copy from directly (page-locked)
    Device,      ///< memory of the active GPU backend's device (CUDA: device pointers)
};

/// Storage for the pictures of a PicturePool, e.g. page-locked memory a GPU
/// backend uploads from without an extra copy. Thread-safe.
class PictureAllocator {
public:
    virtual ~PictureAllocator() = default;
    /// `bytes` of storage, 64-byte aligned; throws std::bad_alloc.
    virtual std::uint8_t* allocate(std::size_t bytes) = 0;
    /// Returns storage from allocate(bytes).
    virtual void deallocate(std::uint8_t* p, std::size_t bytes) noexcept = 0;
    /// What allocate() returns.
    virtual MemoryKind memory() const = 0;
};

/// A frame: luma plus (unless 4:0:0) two chroma planes. Chroma planes of
/// odd-sized frames are ceil(w/2) (x ceil(h/2)) as in the standard raw layout.
/// A luma-only picture (see PicturePool) keeps its pixel format but has only
/// plane 0. Owns (or shares) its storage; rows of pictures the library
/// allocates start 64-byte aligned and strides are multiples of 64.
class PicturePool;

class Picture {
public:
    Picture() = default;
    Picture(PixelFormat fmt, unsigned bpc, unsigned width, unsigned height);

    /// A picture over memory the caller owns (e.g. a decoder's frame, or a
    /// CUDA device frame with MemoryKind::Device). `planes` gives plane_count(fmt)
    /// planes (or one with `luma_only`) whose widths/heights must match the
    /// format's layout (device planes may be interleaved or shifted, see
    /// Plane::step/shift); `owner` is kept alive until the last copy of the
    /// picture is released. Throws vmaf::Error(Usage) on an inconsistent layout.
    static Picture wrap(PixelFormat fmt, unsigned bpc, unsigned width, unsigned height, const Plane* planes,
                        MemoryKind memory, std::shared_ptr<void> owner, bool luma_only = false);

    PixelFormat format() const { return fmt_; }
    unsigned bpc() const { return bpc_; }
    unsigned width() const { return planes_[0].width; }
    unsigned height() const { return planes_[0].height; }
    /// Planes present: plane_count(format()), or 1 for a luma-only picture.
    unsigned planes() const { return luma_only_ ? 1 : plane_count(fmt_); }
    bool luma_only() const { return luma_only_; }
    MemoryKind memory() const { return memory_; }
    /// Bytes per sample: 1 for 8-bit, 2 above.
    unsigned bytes_per_sample() const { return bpc_ > 8 ? 2 : 1; }
    const Plane& plane(unsigned i) const { return planes_[i]; }
    Plane& plane(unsigned i) { return planes_[i]; }
    bool empty() const { return !storage_; }

private:
    friend class PicturePool;
    /// Lays the planes out; returns the number of bytes the storage needs.
    std::size_t layout(PixelFormat fmt, unsigned bpc, unsigned width, unsigned height, bool luma_only = false);
    void attach(std::shared_ptr<std::uint8_t> storage);

    PixelFormat fmt_ = PixelFormat::Yuv420;
    unsigned bpc_ = 8;
    bool luma_only_ = false;
    MemoryKind memory_ = MemoryKind::Host;
    Plane planes_[3];
    std::size_t offsets_[3] = {};
    std::shared_ptr<std::uint8_t> storage_;
};

/// Hands out pictures of one geometry, recycling the storage of pictures that
/// were released (up to `keep` buffers are kept for reuse; more are freed).
/// Saves a large allocation, and its page faults, per frame. Thread-safe;
/// pictures may outlive the pool (and keep its allocator alive).
class PicturePool {
public:
    /// `allocator` null: plain host memory. `luma_only`: pictures have plane 0 only.
    explicit PicturePool(const VideoGeometry& geom, unsigned keep = 64,
                         std::shared_ptr<PictureAllocator> allocator = nullptr, bool luma_only = false);
    ~PicturePool();
    PicturePool(const PicturePool&) = delete;
    PicturePool& operator=(const PicturePool&) = delete;

    /// A picture with unspecified sample values.
    Picture acquire();
    /// Allocates storage for `n` pictures ahead of use (at most `keep`), on
    /// several threads: first-touch page faults are a large part of a frame's
    /// cost at the start of a run.
    void reserve(unsigned n);

private:
    struct Shared;
    VideoGeometry geom_;
    bool luma_only_;
    std::shared_ptr<Shared> shared_;
};

}  // namespace vmaf
