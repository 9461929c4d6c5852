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
#include <memory>
#include <optional>

#include "io/input_file.hpp"
#include "io/limits.hpp"
#include "vmaf/error.hpp"
#include "vmaf/video_source.hpp"

namespace vmaf {

namespace {

class YuvSource final : public VideoSource {
public:
    YuvSource(const std::string& path, const VideoGeometry& geom)
        : in_(path), geom_(geom), frame_bytes_(io::planar_frame_bytes(geom.format, geom.bpc, geom.width, geom.height)) {}

    const VideoGeometry& geometry() const override { return geom_; }
    const StreamInfo& info() const override { return info_; }
    const std::string& name() const override { return in_.path(); }

    std::optional<Picture> read() override {
        if (!pool_) pool_ = std::make_unique<PicturePool>(geom_);
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
        ++frame_;
        return pic;
    }

    void skip(unsigned n) override {
        const std::uint64_t want = frame_bytes_ * n;
        const std::uint64_t got = in_.skip(want);
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
    io::InputFile in_;
    VideoGeometry geom_;
    std::unique_ptr<PicturePool> pool_;  ///< recycles frame storage
    StreamInfo info_;
    std::uint64_t frame_bytes_;
    std::uint64_t frame_ = 0;  // index of the next frame
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
    return std::make_unique<YuvSource>(path, geom);
}

}  // namespace vmaf
