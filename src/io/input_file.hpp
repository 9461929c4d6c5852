// Buffered, forward-only binary input over a std::FILE, shared by the raw YUV
// and Y4M readers. Everything that can fail throws vmaf::Error(Input) with a
// message naming the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "vmaf/picture.hpp"

namespace vmaf::io {

class InputFile {
public:
    /// Opens `path` for reading; throws naming the path when it is missing,
    /// unreadable or a directory.
    explicit InputFile(const std::string& path);
    ~InputFile();
    InputFile(InputFile&& other) noexcept;
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;
    InputFile& operator=(InputFile&&) = delete;

    const std::string& path() const { return path_; }

    /// Reads up to `n` bytes; returns how many were read (fewer only at end of
    /// file). Throws on an I/O error.
    std::size_t read(void* dst, std::size_t n);
    /// Next byte, or -1 at end of file. Throws on an I/O error.
    int get();

    /// Up to `n` bytes from the current position, left unconsumed: the next
    /// reads return them again. How a pipe's content is recognised before a
    /// reader takes it. Throws on an I/O error.
    std::string peek(std::size_t n);

    /// Skips `n` bytes; returns how many were skipped (fewer only at end of
    /// file). Seeks when the file is a regular file, else reads and discards.
    std::uint64_t skip(std::uint64_t n);
    /// Bytes left before end of file when that is known (regular files).
    bool remaining_known() const { return regular_; }
    std::uint64_t remaining() const;
    /// Current position of the forward reader (regular files).
    std::uint64_t tell() const;
    /// Size in bytes at open time (regular files).
    std::uint64_t size() const { return size_; }

    /// Regular files only: reads up to `n` bytes at byte `offset` without
    /// moving the forward reader; thread-safe. Returns fewer than `n` only at
    /// end of file. Throws on an I/O error.
    std::size_t read_at(void* dst, std::size_t n, std::uint64_t offset) const;

private:
    std::size_t read_stdio(void* dst, std::size_t n);

    std::string path_;
    std::FILE* f_ = nullptr;
    bool regular_ = false;
    std::uint64_t size_ = 0;
    std::vector<char> discard_;
    std::string ahead_;          // bytes peek() read from a non-regular file
    std::size_t ahead_pos_ = 0;  // how many of them reads have consumed
};

/// Bytes one frame of `fmt` at `bpc` occupies in the standard planar layout.
std::uint64_t planar_frame_bytes(PixelFormat fmt, unsigned bpc, unsigned width, unsigned height);

/// Reads `pl.height` rows of `pl.width` samples into `pl` (whole plane in one
/// call when the rows are contiguous). 16-bit samples are little-endian in
/// the file and converted to native order. Returns the bytes read; fewer than
/// the plane's size only at end of file.
std::size_t read_plane(InputFile& in, const Plane& pl, unsigned bytes_per_sample);
/// The same from byte `offset` of a regular file (InputFile::read_at); thread-safe.
std::size_t read_plane_at(const InputFile& in, const Plane& pl, unsigned bytes_per_sample, std::uint64_t offset);

/// Where plane `plane` lies in a frame of the standard planar layout (packed
/// rows, planes one after another): bytes from the frame's start, and its size.
struct PlaneBytes {
    std::uint64_t offset = 0, bytes = 0;
};
PlaneBytes planar_plane_bytes(PixelFormat fmt, unsigned bpc, unsigned width, unsigned height, unsigned plane);

/// Every plane of `pic` (a luma-only picture: plane 0) from byte `offset` of a
/// regular file in the standard planar layout; thread-safe. A short read throws
/// the truncation error for frame `frame` of `frame_bytes`.
void read_picture_at(const InputFile& in, const Picture& pic, std::uint64_t offset, std::uint64_t frame,
                     std::uint64_t frame_bytes);

/// Bytes [at, at + n) of plane `plane` of the frame of geometry `g` at byte
/// `offset` (standard planar layout), as stored, into `dst`; thread-safe.
/// Throws Error(Internal) for a range outside the plane, the truncation error
/// for frame `frame` of `frame_bytes` on a short read.
void read_plane_bytes_at(const InputFile& in, const VideoGeometry& g, std::uint64_t offset, std::uint64_t frame,
                         std::uint64_t frame_bytes, unsigned plane, std::uint64_t at, void* dst, std::size_t n);

/// Throws the reader's one-line truncation error.
[[noreturn]] void throw_truncated(const std::string& path, std::uint64_t frame, std::uint64_t got,
                                  std::uint64_t want);

}  // namespace vmaf::io
