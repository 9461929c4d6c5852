// YUV4MPEG2 reader.
//
// Stream header: "YUV4MPEG2" then space-separated tags up to a newline, of any
// length. W and H are required; F (rate n:d), I (p/t/b/m/?), A (aspect n:d)
// and C (colourspace) are optional; X tags and unknown tags are ignored. A
// missing C means "420". Each frame is "FRAME", optional space-separated
// parameters and a newline, then the planes.
//
// Pictures follow the chroma conversions of upstream libvmaf's y4m input
// (the released vmaf tool decodes through them), so scores agree:
//   420 420jpeg 420mpeg2      4:2:0, samples as stored (mpeg2 siting is not
//                             resampled upstream either)
//   420paldv                  4:2:0, Cb/Cr shifted by the 6-tap Lanczos
//                             resamplers (horizontal, then Cb up / Cr down)
//   422                       4:2:2, chroma shifted a quarter pixel right by
//                             the 6-tap Lanczos resampler (mpeg2 -> jpeg siting)
//   411                       4:2:2, chroma upsampled x2 by 4-tap Mitchell filters
//   444                       4:4:4 as stored
//   444alpha                  4:4:4, the alpha plane is read and dropped
//   mono                      4:2:0 with neutral chroma (128)
//   420p10 422p10 444p10, p12 as stored, 10/12 bits (16-bit little-endian words)
//   420p16 422p16 444p16      as stored, 16 bits (beyond upstream, which lacks them)
// Upstream accepts no high-bit-depth mono ("mono10" ...), so neither does this.
//
// Differences from upstream: interlaced streams (I t/b/m) are read as frames
// and reported in StreamInfo instead of being refused; a missing F tag leaves
// the rate at 0/0 instead of failing; numbers must be whole tokens.
#include <algorithm>
#include <bit>
#include <mutex>
#include <charconv>
#include <cstring>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>
#include <utility>

#include "io/input_file.hpp"
#include "io/limits.hpp"
#include "io/readers.hpp"
#include "io/sniff.hpp"
#include "vmaf/error.hpp"
#include "vmaf/video_source.hpp"

namespace vmaf {

namespace {

constexpr std::size_t kMaxHeaderBytes = std::size_t{16} << 20;
constexpr std::size_t kMaxFrameHeaderBytes = std::size_t{1} << 16;

enum class Convert { None, Mono, DropAlpha, Shift422, Up411, PalDv };

struct Colorspace {
    std::string_view name;
    PixelFormat format;
    unsigned bpc;
    Convert convert;
};

constexpr Colorspace kColorspaces[] = {
    {"420", PixelFormat::Yuv420, 8, Convert::None},
    {"420jpeg", PixelFormat::Yuv420, 8, Convert::None},
    {"420mpeg2", PixelFormat::Yuv420, 8, Convert::None},
    {"420paldv", PixelFormat::Yuv420, 8, Convert::PalDv},
    {"411", PixelFormat::Yuv422, 8, Convert::Up411},
    {"422", PixelFormat::Yuv422, 8, Convert::Shift422},
    {"444", PixelFormat::Yuv444, 8, Convert::None},
    {"444alpha", PixelFormat::Yuv444, 8, Convert::DropAlpha},
    {"mono", PixelFormat::Yuv420, 8, Convert::Mono},
    {"420p10", PixelFormat::Yuv420, 10, Convert::None},
    {"422p10", PixelFormat::Yuv422, 10, Convert::None},
    {"444p10", PixelFormat::Yuv444, 10, Convert::None},
    {"420p12", PixelFormat::Yuv420, 12, Convert::None},
    {"422p12", PixelFormat::Yuv422, 12, Convert::None},
    {"444p12", PixelFormat::Yuv444, 12, Convert::None},
    {"420p16", PixelFormat::Yuv420, 16, Convert::None},
    {"422p16", PixelFormat::Yuv422, 16, Convert::None},
    {"444p16", PixelFormat::Yuv444, 16, Convert::None},
};

inline std::uint8_t clamp_u8(int v) { return static_cast<std::uint8_t>(std::clamp(v, 0, 255)); }

// 6-tap filter over a line of n samples with edge replication: taps apply to
// positions i + first .. i + first + 5, rounded by 64 and scaled by 1/128.
// `step` is the distance between neighbouring samples (1 for rows, the row
// pitch for columns).
void filter6(const std::uint8_t* src, std::ptrdiff_t src_step, std::uint8_t* dst, std::ptrdiff_t dst_step, int n,
             const int (&taps)[6], int first) {
    for (int i = 0; i < n; ++i) {
        int acc = 64;
        for (int k = 0; k < 6; ++k) {
            const int j = std::clamp(i + first + k, 0, n - 1);
            acc += taps[k] * src[j * src_step];
        }
        dst[i * dst_step] = clamp_u8(acc >> 7);
    }
}

// Quarter-pixel shift towards higher positions (mpeg2 -> jpeg siting).
constexpr int kShiftFwd[6] = {4, -17, 114, 35, -9, 1};
// The same shift towards lower positions.
constexpr int kShiftBack[6] = {1, -9, 35, 114, -17, 4};

// 4:1:1 -> 4:2:2: each source sample yields two outputs (Mitchell window).
void upsample411(const std::uint8_t* src, int n, std::uint8_t* dst, int dst_n) {
    static constexpr int kEven[4] = {1, 110, 18, -1};
    static constexpr int kOdd[4] = {-3, 50, 86, -5};
    for (int i = 0; i < n; ++i) {
        int even = 64, odd = 64;
        for (int k = 0; k < 4; ++k) {
            const int s = src[std::clamp(i - 1 + k, 0, n - 1)];
            even += kEven[k] * s;
            odd += kOdd[k] * s;
        }
        if (2 * i < dst_n) dst[2 * i] = clamp_u8(even >> 7);
        if (2 * i + 1 < dst_n) dst[2 * i + 1] = clamp_u8(odd >> 7);
    }
}

class Y4mSource final : public VideoSource {
public:
    explicit Y4mSource(io::InputFile in) : in_(std::move(in)) {
        parse_header();
        if (in_.remaining_known()) data_start_ = in_.tell();
    }

    const VideoGeometry& geometry() const override { return geom_; }
    const StreamInfo& info() const override { return info_; }
    const std::string& name() const override { return in_.path(); }

    void plan(const ReadPlan& p) override {
        pool_ = std::make_unique<PicturePool>(geom_, p.in_flight, p.allocator, p.luma_only);
        if (p.prefill) pool_->reserve(p.in_flight);
    }

    std::optional<Picture> read() override {
        if (!frame_header()) return std::nullopt;
        // A regular file too short for the frame fails before the picture is
        // allocated (a few header bytes must not cost a 16K x 16K allocation).
        if (in_.remaining_known() && in_.remaining() < payload_bytes_)
            io::throw_truncated(in_.path(), frame_, in_.remaining(), payload_bytes_);
        if (!pool_) pool_ = std::make_unique<PicturePool>(geom_);
        Picture pic = pool_->acquire();
        const unsigned bps = pic.bytes_per_sample();
        got_ = 0;
        read_into(pic.plane(0), bps);
        if (pic.luma_only()) {  // pass over the chroma (and alpha) payload
            const std::uint64_t rest = payload_bytes_ - got_;
            const std::uint64_t g = in_.skip(rest);
            got_ += g;
            if (g < rest) io::throw_truncated(in_.path(), frame_, got_, payload_bytes_);
            ++frame_;
            return pic;
        }
        switch (cs_->convert) {
            case Convert::None:
                for (unsigned p = 1; p < pic.planes(); ++p) read_into(pic.plane(p), bps);
                break;
            case Convert::DropAlpha:
                for (unsigned p = 1; p < 3; ++p) read_into(pic.plane(p), 1);
                read_scratch(std::size_t{geom_.width} * geom_.height);
                break;
            case Convert::Mono:
                for (unsigned p = 1; p < 3; ++p) {
                    const Plane& pl = pic.plane(p);
                    for (unsigned y = 0; y < pl.height; ++y) std::memset(pl.row<std::uint8_t>(y), 128, pl.width);
                }
                break;
            case Convert::Shift422:
            case Convert::PalDv: {
                const Plane& cb = pic.plane(1);
                const std::size_t plane_sz = std::size_t{cb.width} * cb.height;
                const std::uint8_t* src = read_scratch(2 * plane_sz);
                for (unsigned p = 1; p < 3; ++p, src += plane_sz) {
                    const Plane& pl = pic.plane(p);
                    const int w = static_cast<int>(pl.width), h = static_cast<int>(pl.height);
                    if (cs_->convert == Convert::Shift422) {
                        for (int y = 0; y < h; ++y)
                            filter6(src + std::size_t(y) * w, 1, pl.row<std::uint8_t>(y), 1, w, kShiftFwd, -2);
                        continue;
                    }
                    // 4:2:0 PAL DV: horizontal shift, then Cb up / Cr down.
                    tmp_.resize(plane_sz);
                    for (int y = 0; y < h; ++y)
                        filter6(src + std::size_t(y) * w, 1, tmp_.data() + std::size_t(y) * w, 1, w, kShiftFwd, -2);
                    for (int x = 0; x < w; ++x) {
                        if (p == 1)
                            filter6(tmp_.data() + x, w, pl.row<std::uint8_t>(0) + x, pl.stride, h, kShiftBack, -3);
                        else
                            filter6(tmp_.data() + x, w, pl.row<std::uint8_t>(0) + x, pl.stride, h, kShiftFwd, -2);
                    }
                }
                break;
            }
            case Convert::Up411: {
                const int w4 = static_cast<int>((geom_.width + 3) / 4);
                const std::size_t plane_sz = std::size_t(w4) * geom_.height;
                const std::uint8_t* src = read_scratch(2 * plane_sz);
                for (unsigned p = 1; p < 3; ++p, src += plane_sz) {
                    const Plane& pl = pic.plane(p);
                    for (unsigned y = 0; y < pl.height; ++y)
                        upsample411(src + std::size_t(y) * w4, w4, pl.row<std::uint8_t>(y), static_cast<int>(pl.width));
                }
                break;
            }
        }
        ++frame_;
        return pic;
    }

    std::optional<std::uint64_t> frames_left() const override {
        const Uniform& u = uniform();
        if (!u.yes) return std::nullopt;
        return u.frames > frame_ ? u.frames - frame_ : 0;
    }

    Picture read_frame(std::uint64_t index) override {
        if (!uniform().yes) return VideoSource::read_frame(index);
        const std::uint64_t abs = frame_ + index;
        const std::uint64_t off = whole_frame_at(abs);
        if (!pool_) pool_ = std::make_unique<PicturePool>(geom_);
        Picture pic = pool_->acquire();
        io::read_picture_at(in_, pic, off, abs, payload_bytes_);
        return pic;
    }

    bool has_plane_bytes() const override { return uniform().yes && std::endian::native == std::endian::little; }

    void read_plane_bytes(std::uint64_t index, unsigned plane, std::uint64_t at, void* dst, std::size_t n) override {
        if (!has_plane_bytes()) return VideoSource::read_plane_bytes(index, plane, at, dst, n);
        const std::uint64_t abs = frame_ + index;
        io::read_plane_bytes_at(in_, geom_, whole_frame_at(abs), abs, payload_bytes_, plane, at, dst, n);
    }

    void skip(unsigned n) override {
        for (unsigned i = 0; i < n; ++i) {
            if (!frame_header())
                throw Error(ErrorKind::Input, "cannot skip " + std::to_string(n) + " frames in " + in_.path() +
                                                  ": it ends after " + std::to_string(i));
            const std::uint64_t got = in_.skip(payload_bytes_);
            if (got < payload_bytes_) io::throw_truncated(in_.path(), frame_, got, payload_bytes_);
            ++frame_;
        }
    }

private:
    /// Random access: a regular file of frames stored as they are read
    /// (no conversion) whose every frame header is a bare "FRAME\n", so
    /// frame k's payload sits at a fixed offset. Found by reading each frame
    /// header once, at the first question; anything else (frame parameters,
    /// a converted colourspace, a pipe, a damaged tail) is read in order.
    struct Uniform {
        bool yes = false;
        std::uint64_t frames = 0;  ///< from data_start_, a truncated final frame counted
    };
    static constexpr std::uint64_t kFrameMarker = 6;  // "FRAME\n"

    const Uniform& uniform() const {
        std::call_once(uniform_once_, [this] {
            if (!data_start_ || cs_->convert != Convert::None) return;
            const std::uint64_t size = in_.size(), stride = kFrameMarker + payload_bytes_;
            std::uint64_t k = 0;
            for (std::uint64_t off = *data_start_; off < size; off += stride, ++k) {
                char marker[kFrameMarker];
                if (size - off < kFrameMarker || in_.read_at(marker, kFrameMarker, off) < kFrameMarker ||
                    std::memcmp(marker, "FRAME\n", kFrameMarker) != 0)
                    return;
            }
            uniform_.frames = k;
            uniform_.yes = true;
        });
        return uniform_;
    }

    /// Where frame `abs`'s payload starts; throws as read() would for a frame past the end or cut short.
    std::uint64_t whole_frame_at(std::uint64_t abs) const {
        const std::uint64_t stride = kFrameMarker + payload_bytes_;
        if (abs >= uniform_.frames)
            throw Error(ErrorKind::Input, "frame " + std::to_string(abs) + " is past the end of " + in_.path());
        const std::uint64_t off = *data_start_ + abs * stride + kFrameMarker;
        if (in_.size() - off < payload_bytes_) io::throw_truncated(in_.path(), abs, in_.size() - off, payload_bytes_);
        return off;
    }

    [[noreturn]] void bad_header(const std::string& what) const {
        std::string msg = "malformed Y4M header in " + in_.path() + ": " + what;
        if (const std::string seen = io::sniff_file(in_.path()); !seen.empty() && seen != "a Y4M file")
            msg += " (the file appears to be " + seen + ", not Y4M)";
        throw Error(ErrorKind::Input, msg);
    }

    static bool parse_uint(std::string_view s, unsigned& out) {
        if (s.empty()) return false;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
        return ec == std::errc() && end == s.data() + s.size();
    }

    static bool parse_ratio(std::string_view s, unsigned& num, unsigned& den) {
        const std::size_t colon = s.find(':');
        return colon != std::string_view::npos && parse_uint(s.substr(0, colon), num) &&
               parse_uint(s.substr(colon + 1), den);
    }

    void parse_header() {
        std::string line;
        for (;;) {
            const int c = in_.get();
            if (c < 0) {
                if (line.empty()) bad_header("empty file");
                bad_header("end of file inside the stream header");
            }
            if (c == '\n') break;
            line.push_back(static_cast<char>(c));
            if (line.size() == 9 && line != "YUV4MPEG2") bad_header("no YUV4MPEG2 signature");
            if (line.size() > kMaxHeaderBytes) bad_header("stream header longer than 16 MiB");
        }
        if (line.size() < 9 || line.compare(0, 9, "YUV4MPEG2") != 0) bad_header("no YUV4MPEG2 signature");
        if (line.size() > 9 && line[9] != ' ') bad_header("no YUV4MPEG2 signature");

        bool got_w = false, got_h = false;
        std::string chroma = "420";
        std::string_view rest(line);
        rest.remove_prefix(9);
        while (!rest.empty()) {
            const std::size_t sp = rest.find(' ');
            const std::string_view tok = rest.substr(0, sp);
            rest = sp == std::string_view::npos ? std::string_view() : rest.substr(sp + 1);
            if (tok.empty()) continue;
            const std::string_view val = tok.substr(1);
            switch (tok[0]) {
                case 'W':
                    if (!parse_uint(val, geom_.width)) bad_header("bad width '" + std::string(tok) + "'");
                    got_w = true;
                    break;
                case 'H':
                    if (!parse_uint(val, geom_.height)) bad_header("bad height '" + std::string(tok) + "'");
                    got_h = true;
                    break;
                case 'F':
                    if (!parse_ratio(val, info_.fps_num, info_.fps_den))
                        bad_header("bad frame rate '" + std::string(tok) + "'");
                    break;
                case 'A':
                    if (!parse_ratio(val, info_.sar_num, info_.sar_den))
                        bad_header("bad aspect ratio '" + std::string(tok) + "'");
                    break;
                case 'I':
                    if (val.size() != 1 || std::string_view("ptbm?").find(val[0]) == std::string_view::npos)
                        bad_header("bad interlace tag '" + std::string(tok) + "'");
                    info_.interlace = val[0];
                    break;
                case 'C': chroma = std::string(val); break;
                default: break;  // X comments and unknown tags
            }
        }
        if (!got_w) bad_header("no width (W)");
        if (!got_h) bad_header("no height (H)");
        if (geom_.width == 0 || geom_.height == 0) bad_header("zero width or height");
        if (geom_.width > io::kMaxDimension || geom_.height > io::kMaxDimension ||
            std::uint64_t{geom_.width} * geom_.height > io::kMaxPixels)
            bad_header(std::to_string(geom_.width) + "x" + std::to_string(geom_.height) + " is too large");
        for (const Colorspace& cs : kColorspaces) {
            if (cs.name == chroma) cs_ = &cs;
        }
        if (!cs_) bad_header("unsupported colourspace '" + chroma + "'");
        info_.colorspace = chroma;
        geom_.format = cs_->format;
        geom_.bpc = cs_->bpc;

        const std::uint64_t w = geom_.width, h = geom_.height;
        switch (cs_->convert) {
            case Convert::None:
            case Convert::Shift422:
            case Convert::PalDv:
                payload_bytes_ = io::planar_frame_bytes(geom_.format, geom_.bpc, geom_.width, geom_.height);
                break;
            case Convert::Mono: payload_bytes_ = w * h; break;
            case Convert::DropAlpha: payload_bytes_ = 4 * w * h; break;
            case Convert::Up411: payload_bytes_ = w * h + 2 * ((w + 3) / 4) * h; break;
        }
    }

    // Consumes the "FRAME[ params]\n" marker; false at a clean end of stream.
    bool frame_header() {
        char magic[5];
        const std::size_t got = in_.read(magic, sizeof magic);
        if (got == 0) return false;
        const auto bad = [&] {
            throw Error(ErrorKind::Input,
                        "malformed frame header at frame " + std::to_string(frame_) + " in " + in_.path());
        };
        if (got < sizeof magic || std::memcmp(magic, "FRAME", 5) != 0) bad();
        int c = in_.get();
        if (c == ' ') {
            std::size_t n = 0;
            do {
                c = in_.get();
            } while (c >= 0 && c != '\n' && ++n < kMaxFrameHeaderBytes);
        }
        if (c != '\n') bad();
        return true;
    }

    void read_into(const Plane& pl, unsigned bps) {
        const std::size_t want = std::size_t{pl.width} * pl.height * bps;
        const std::size_t got = io::read_plane(in_, pl, bps);
        got_ += got;
        if (got < want) io::throw_truncated(in_.path(), frame_, got_, payload_bytes_);
    }

    const std::uint8_t* read_scratch(std::size_t n) {
        scratch_.resize(n);
        const std::size_t got = in_.read(scratch_.data(), n);
        got_ += got;
        if (got < n) io::throw_truncated(in_.path(), frame_, got_, payload_bytes_);
        return scratch_.data();
    }

    io::InputFile in_;
    VideoGeometry geom_;
    std::unique_ptr<PicturePool> pool_;  ///< recycles frame storage
    StreamInfo info_;
    const Colorspace* cs_ = nullptr;
    std::uint64_t payload_bytes_ = 0;
    std::uint64_t frame_ = 0;  // index of the next frame
    std::uint64_t got_ = 0;    // payload bytes read of the current frame
    std::optional<std::uint64_t> data_start_;  ///< regular files: where frame 0's header starts
    mutable std::once_flag uniform_once_;
    mutable Uniform uniform_;
    std::vector<std::uint8_t> scratch_, tmp_;
};

}  // namespace

std::unique_ptr<VideoSource> open_y4m(const std::string& path) { return std::make_unique<Y4mSource>(io::InputFile(path)); }

std::unique_ptr<VideoSource> io::open_y4m(InputFile in) { return std::make_unique<Y4mSource>(std::move(in)); }

}  // namespace vmaf
