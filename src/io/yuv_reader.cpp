// Raw planar YUV reader.
//
// Layout: each frame is the Y plane, then U, then V (none for 4:0:0), rows
// packed without padding; chroma planes are ceil(w/2) x ceil(h/2) for 4:2:0,
// ceil(w/2) x h for 4:2:2 and w x h for 4:4:4. Above 8 bits a sample is a
// 16-bit little-endian word; it is converted to native order.
//
// Out-of-range samples: a 10- or 12-bit file may hold words above 2^bpc - 1.
// Like upstream libvmaf, the reader passes them through unchanged (it never
// masks or clamps); it does not fail on them either.
//
// Errors: a frame cut short by end of file raises "truncated frame N in FILE
// (got X of Y bytes)" (N counts from 0); no partial picture is returned.
//
// Regular files are read with positioned reads, so frames can also be read
// out of order and from several threads (read_frame); pipes are read in order.
#include <algorithm>
#include <bit>
#include <vector>
#include <memory>
#include <optional>
#include <utility>

#include "io/input_file.hpp"
#include "io/limits.hpp"
#include "io/readers.hpp"
#include "io/sniff.hpp"
#include "vmaf/error.hpp"
#include "vmaf/video_source.hpp"

namespace vmaf {

namespace {

class YuvSource final : public VideoSource {
public:
    YuvSource(io::InputFile in, const VideoGeometry& geom)
        : in_(std::move(in)),
          geom_(geom),
          frame_bytes_(io::planar_frame_bytes(geom.format, geom.bpc, geom.width, geom.height)),
          pool_(std::make_unique<PicturePool>(geom)) {}

    const VideoGeometry& geometry() const override { return geom_; }
    const StreamInfo& info() const override { return info_; }
    const std::string& name() const override { return in_.path(); }

    void plan(const ReadPlan& p) override {
        pool_ = std::make_unique<PicturePool>(geom_, p.in_flight, p.allocator, p.luma_only);
        if (p.prefill) pool_->reserve(p.in_flight);
    }

    std::optional<std::uint64_t> frames_left() const override {
        if (!in_.remaining_known()) return std::nullopt;
        const std::uint64_t start = frame_ * frame_bytes_;
        return in_.size() <= start ? 0 : (in_.size() - start + frame_bytes_ - 1) / frame_bytes_;
    }

    Picture read_frame(std::uint64_t index) override {
        if (!in_.remaining_known()) return VideoSource::read_frame(index);
        const std::uint64_t abs = frame_ + index;
        const std::uint64_t off = whole_frame_at(abs);
        Picture pic = pool_->acquire();
        io::read_picture_at(in_, pic, off, abs, frame_bytes_);
        return pic;
    }

    bool has_plane_bytes() const override {
        return in_.remaining_known() && std::endian::native == std::endian::little;
    }

    void read_plane_bytes(std::uint64_t index, unsigned plane, std::uint64_t at, void* dst, std::size_t n) override {
        if (!has_plane_bytes()) return VideoSource::read_plane_bytes(index, plane, at, dst, n);
        const std::uint64_t abs = frame_ + index;
        io::read_plane_bytes_at(in_, geom_, whole_frame_at(abs), abs, frame_bytes_, plane, at, dst, n);
    }

    std::optional<Picture> read() override {
        if (in_.remaining_known()) {
            if (frame_ * frame_bytes_ >= in_.size()) return std::nullopt;
            Picture pic = read_frame(0);
            ++frame_;
            return pic;
        }
        // A pipe or device: in order through the buffered reader.
        Picture pic = pool_->acquire();
        const unsigned bps = pic.bytes_per_sample();
        std::uint64_t got = 0;
        for (unsigned p = 0; p < pic.planes(); ++p) {
            const Plane& pl = pic.plane(p);
            const std::size_t want = std::size_t{pl.width} * pl.height * bps;
            const std::size_t g = io::read_plane(in_, pl, bps);
            got += g;
            if (g < want) {
                if (got == 0) return std::nullopt;  // clean end of stream
                io::throw_truncated(in_.path(), frame_, got, frame_bytes_);
            }
        }
        if (got < frame_bytes_) {  // a luma-only picture: pass over the chroma
            const std::uint64_t g = in_.skip(frame_bytes_ - got);
            if (g < frame_bytes_ - got) io::throw_truncated(in_.path(), frame_, got + g, frame_bytes_);
        }
        ++frame_;
        return pic;
    }

    void skip(unsigned n) override {
        const std::uint64_t want = frame_bytes_ * n;
        std::uint64_t got = 0;
        if (in_.remaining_known()) {
            const std::uint64_t start = frame_ * frame_bytes_;
            got = in_.size() > start ? std::min(want, in_.size() - start) : 0;
        } else {
            got = in_.skip(want);
        }
        if (got < want) {
            const std::uint64_t whole = got / frame_bytes_;
            const std::uint64_t part = got % frame_bytes_;
            frame_ += whole;
            if (part) io::throw_truncated(in_.path(), frame_, part, frame_bytes_);
            throw Error(ErrorKind::Input, "cannot skip " + std::to_string(n) + " frames in " + in_.path() +
                                              ": it ends after " + std::to_string(whole));
        }
        frame_ += n;
    }

private:
    /// Where frame `abs` starts in the file; throws when it is past the end or cut short.
    std::uint64_t whole_frame_at(std::uint64_t abs) const {
        const std::uint64_t off = abs * frame_bytes_;
        if (off >= in_.size())
            throw Error(ErrorKind::Input, "frame " + std::to_string(abs) + " is past the end of " + in_.path());
        if (in_.size() - off < frame_bytes_) io::throw_truncated(in_.path(), abs, in_.size() - off, frame_bytes_);
        return off;
    }

    io::InputFile in_;
    VideoGeometry geom_;
    StreamInfo info_;
    std::uint64_t frame_bytes_;
    std::unique_ptr<PicturePool> pool_;  ///< recycles frame storage
    std::uint64_t frame_ = 0;            ///< index of the next frame read()/read_frame(0) returns
};

void validate(const std::string& path, const VideoGeometry& g) {
    const auto bad = [&](const std::string& what) {
        throw Error(ErrorKind::Usage, "invalid geometry for " + path + ": " + what);
    };
    if (g.width == 0 || g.height == 0) bad("width and height must be positive");
    if (g.width > io::kMaxDimension || g.height > io::kMaxDimension ||
        std::uint64_t{g.width} * g.height > io::kMaxPixels)
        bad(std::to_string(g.width) + "x" + std::to_string(g.height) + " is too large");
    if (g.bpc != 8 && g.bpc != 10 && g.bpc != 12 && g.bpc != 16)
        bad("bit depth " + std::to_string(g.bpc) + " is not one of 8, 10, 12, 16");
    switch (g.format) {
        case PixelFormat::Yuv400:
        case PixelFormat::Yuv420:
        case PixelFormat::Yuv422:
        case PixelFormat::Yuv444: break;
        default: bad("unknown pixel format");
    }
}

}  // namespace

std::unique_ptr<VideoSource> open_yuv(const std::string& path, const VideoGeometry& geom) {
    validate(path, geom);
    // Raw YUV has no header, so any file would be read: refuse the formats
    // that announce themselves rather than score their bytes as pictures.
    if (const std::string seen = io::sniff_file(path); !seen.empty())
        throw Error(ErrorKind::Input, path + " appears to be " + seen + ", not raw YUV" +
                                          (seen == "a Y4M file" ? " (drop -w/-h/-p/-b to read it as Y4M)" : ""));
    return std::make_unique<YuvSource>(io::InputFile(path), geom);
}

std::unique_ptr<VideoSource> io::open_yuv(InputFile in, const VideoGeometry& geom) {
    validate(in.path(), geom);
    return std::make_unique<YuvSource>(std::move(in), geom);
}

}  // namespace vmaf
