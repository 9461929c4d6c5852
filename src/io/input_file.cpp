#include "io/input_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <utility>

#include "vmaf/error.hpp"

namespace vmaf::io {

namespace {

constexpr std::size_t kStdioBuffer = std::size_t{1} << 20;

std::string errno_text(int err) { return err ? std::strerror(err) : "unknown error"; }

}  // namespace

InputFile::InputFile(const std::string& path) : path_(path) {
    errno = 0;
    f_ = std::fopen(path.c_str(), "rb");
    if (!f_) throw Error(ErrorKind::Input, "cannot open " + path + ": " + errno_text(errno));
    struct stat st {};
    if (::fstat(::fileno(f_), &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            std::fclose(f_);
            f_ = nullptr;
            throw Error(ErrorKind::Input, "cannot read " + path + ": is a directory");
        }
        if (S_ISREG(st.st_mode)) {
            regular_ = true;
            size_ = static_cast<std::uint64_t>(st.st_size);
        }
    }
    // Large reads bypass the stdio buffer; the buffer serves headers and rows.
    std::setvbuf(f_, nullptr, _IOFBF, kStdioBuffer);
}

InputFile::~InputFile() {
    if (f_) std::fclose(f_);
}

InputFile::InputFile(InputFile&& other) noexcept
    : path_(std::move(other.path_)),
      f_(std::exchange(other.f_, nullptr)),
      regular_(other.regular_),
      size_(other.size_),
      discard_(std::move(other.discard_)),
      ahead_(std::move(other.ahead_)),
      ahead_pos_(other.ahead_pos_) {}

std::string InputFile::peek(std::size_t n) {
    if (regular_) {
        std::string head(n, '\0');
        head.resize(read_at(head.data(), n, tell()));
        return head;
    }
    if (ahead_.size() - ahead_pos_ < n) {
        ahead_.erase(0, ahead_pos_);
        ahead_pos_ = 0;
        const std::size_t have = ahead_.size();
        ahead_.resize(n);
        ahead_.resize(have + read_stdio(ahead_.data() + have, n - have));
    }
    return ahead_.substr(ahead_pos_, n);
}

std::size_t InputFile::read_stdio(void* dst, std::size_t n) {
    const std::size_t got = std::fread(dst, 1, n, f_);
    if (got < n && std::ferror(f_))
        throw Error(ErrorKind::Input, "read error in " + path_ + ": " + errno_text(errno));
    return got;
}

std::size_t InputFile::read(void* dst, std::size_t n) {
    std::size_t done = 0;
    if (ahead_pos_ < ahead_.size()) {
        done = std::min(n, ahead_.size() - ahead_pos_);
        std::memcpy(dst, ahead_.data() + ahead_pos_, done);
        ahead_pos_ += done;
    }
    return done + (done < n ? read_stdio(static_cast<char*>(dst) + done, n - done) : 0);
}

int InputFile::get() {
    if (ahead_pos_ < ahead_.size()) return static_cast<unsigned char>(ahead_[ahead_pos_++]);
    const int c = std::getc(f_);
    if (c == EOF && std::ferror(f_))
        throw Error(ErrorKind::Input, "read error in " + path_ + ": " + errno_text(errno));
    return c;
}

std::uint64_t InputFile::remaining() const {
    const off_t pos = ::ftello(f_);
    if (pos < 0 || static_cast<std::uint64_t>(pos) >= size_) return 0;
    return size_ - static_cast<std::uint64_t>(pos);
}

std::uint64_t InputFile::tell() const {
    const off_t pos = ::ftello(f_);
    return pos < 0 ? 0 : static_cast<std::uint64_t>(pos);
}

std::size_t InputFile::read_at(void* dst, std::size_t n, std::uint64_t offset) const {
    const int fd = ::fileno(f_);
    std::size_t done = 0;
    while (done < n) {
        const ssize_t r = ::pread(fd, static_cast<char*>(dst) + done, n - done, static_cast<off_t>(offset + done));
        if (r < 0) {
            if (errno == EINTR) continue;
            throw Error(ErrorKind::Input, "read error in " + path_ + ": " + errno_text(errno));
        }
        if (r == 0) break;
        done += static_cast<std::size_t>(r);
    }
    return done;
}

std::uint64_t InputFile::skip(std::uint64_t n) {
    if (regular_) {
        const std::uint64_t k = std::min(n, remaining());
        if (k && ::fseeko(f_, static_cast<off_t>(k), SEEK_CUR) != 0)
            throw Error(ErrorKind::Input, "seek error in " + path_ + ": " + errno_text(errno));
        return k;
    }
    if (discard_.empty()) discard_.resize(kStdioBuffer);
    std::uint64_t done = 0;
    while (done < n) {
        const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(n - done, discard_.size()));
        const std::size_t got = read(discard_.data(), want);
        done += got;
        if (got < want) break;
    }
    return done;
}

std::uint64_t planar_frame_bytes(PixelFormat fmt, unsigned bpc, unsigned width, unsigned height) {
    const ChromaShift cs = chroma_shift(fmt);
    const std::uint64_t luma = std::uint64_t{width} * height;
    std::uint64_t chroma = 0;
    if (plane_count(fmt) == 3) {
        const std::uint64_t cw = (std::uint64_t{width} + (1u << cs.x) - 1) >> cs.x;
        const std::uint64_t ch = (std::uint64_t{height} + (1u << cs.y) - 1) >> cs.y;
        chroma = 2 * cw * ch;
    }
    return (luma + chroma) * (bpc > 8 ? 2 : 1);
}

namespace {

/// Fills `pl` from `read(dst, n, done)`, which reads up to n bytes of the
/// plane starting `done` bytes into it (whole plane in one call when rows are
/// contiguous), then converts little-endian 16-bit samples to native order.
template <typename Read>
std::size_t fill_plane(const Plane& pl, unsigned bytes_per_sample, Read&& read) {
    const std::size_t row_bytes = std::size_t{pl.width} * bytes_per_sample;
    std::size_t got = 0;
    if (static_cast<std::ptrdiff_t>(row_bytes) == pl.stride) {
        got = read(pl.data, row_bytes * pl.height, std::size_t{0});
    } else {
        for (unsigned y = 0; y < pl.height; ++y) {
            const std::size_t g = read(pl.row<std::uint8_t>(y), row_bytes, got);
            got += g;
            if (g < row_bytes) break;
        }
    }
    if constexpr (std::endian::native == std::endian::big) {
        if (bytes_per_sample == 2) {
            // Samples are little-endian in the file.
            for (unsigned y = 0; y < pl.height; ++y) {
                std::uint16_t* p = pl.row<std::uint16_t>(y);
                for (unsigned x = 0; x < pl.width; ++x) p[x] = static_cast<std::uint16_t>((p[x] >> 8) | (p[x] << 8));
            }
        }
    }
    return got;
}

}  // namespace

std::size_t read_plane(InputFile& in, const Plane& pl, unsigned bytes_per_sample) {
    return fill_plane(pl, bytes_per_sample, [&](void* dst, std::size_t n, std::size_t) { return in.read(dst, n); });
}

std::size_t read_plane_at(const InputFile& in, const Plane& pl, unsigned bytes_per_sample, std::uint64_t offset) {
    return fill_plane(pl, bytes_per_sample,
                      [&](void* dst, std::size_t n, std::size_t done) { return in.read_at(dst, n, offset + done); });
}

PlaneBytes planar_plane_bytes(PixelFormat fmt, unsigned bpc, unsigned width, unsigned height, unsigned plane) {
    const ChromaShift cs = chroma_shift(fmt);
    const std::uint64_t bps = bpc > 8 ? 2 : 1;
    const std::uint64_t luma = std::uint64_t{width} * height * bps;
    if (plane == 0) return {0, luma};
    const std::uint64_t cw = (std::uint64_t{width} + (1u << cs.x) - 1) >> cs.x;
    const std::uint64_t ch = (std::uint64_t{height} + (1u << cs.y) - 1) >> cs.y;
    const std::uint64_t chroma = cw * ch * bps;
    return {luma + (plane - 1) * chroma, chroma};
}

void read_picture_at(const InputFile& in, const Picture& pic, std::uint64_t offset, std::uint64_t frame,
                     std::uint64_t frame_bytes) {
    const unsigned bps = pic.bytes_per_sample();
    std::uint64_t pos = offset;
    for (unsigned p = 0; p < pic.planes(); ++p) {
        const Plane& pl = pic.plane(p);
        const std::size_t want = std::size_t{pl.width} * pl.height * bps;
        const std::size_t g = read_plane_at(in, pl, bps, pos);
        pos += g;
        if (g < want) throw_truncated(in.path(), frame, pos - offset, frame_bytes);  // the file shrank
    }
}

void read_plane_bytes_at(const InputFile& in, const VideoGeometry& g, std::uint64_t offset, std::uint64_t frame,
                         std::uint64_t frame_bytes, unsigned plane, std::uint64_t at, void* dst, std::size_t n) {
    const PlaneBytes pb = planar_plane_bytes(g.format, g.bpc, g.width, g.height, plane);
    if (plane >= plane_count(g.format) || at > pb.bytes || n > pb.bytes - at)
        throw Error(ErrorKind::Internal, "plane bytes out of range in " + in.path());
    if (n == 0) return;
    const std::uint64_t from = offset + pb.offset + at;
    const std::size_t got = in.read_at(dst, n, from);
    if (got < n) throw_truncated(in.path(), frame, from + got - offset, frame_bytes);  // the file shrank
}

void throw_truncated(const std::string& path, std::uint64_t frame, std::uint64_t got, std::uint64_t want) {
    throw Error(ErrorKind::Input, "truncated frame " + std::to_string(frame) + " in " + path + " (got " +
                                      std::to_string(got) + " of " + std::to_string(want) + " bytes)");
}

}  // namespace vmaf::io
