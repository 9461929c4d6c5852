#include "tune/source.hpp"

#include <openssl/evp.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "vmaf/error.hpp"

namespace vmaf::tune {

namespace {

std::string hex(const unsigned char* d, unsigned n) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (unsigned i = 0; i < n; ++i) {
        out += digits[d[i] >> 4];
        out += digits[d[i] & 15];
    }
    return out;
}

class Sha256 {
public:
    Sha256() : ctx_(EVP_MD_CTX_new(), EVP_MD_CTX_free) {
        if (!ctx_ || EVP_DigestInit_ex(ctx_.get(), EVP_sha256(), nullptr) != 1)
            throw Error(ErrorKind::Internal, "sha256 unavailable");
    }
    void update(const void* p, std::size_t n) { EVP_DigestUpdate(ctx_.get(), p, n); }
    std::string hex_digest() {
        unsigned char d[EVP_MAX_MD_SIZE];
        unsigned n = 0;
        EVP_DigestFinal_ex(ctx_.get(), d, &n);
        return hex(d, n);
    }

private:
    std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx_;
};

}  // namespace

std::string file_sha256(const std::string& path) {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), std::fclose);
    if (!f) throw Error(ErrorKind::Input, "cannot read " + path + ": " + std::strerror(errno));
    Sha256 h;
    std::vector<unsigned char> buf(1 << 20);
    for (std::size_t n; (n = std::fread(buf.data(), 1, buf.size(), f.get())) > 0;) h.update(buf.data(), n);
    if (std::ferror(f.get())) throw Error(ErrorKind::Input, "read error in " + path);
    return h.hex_digest();
}

std::string text_sha256(const std::string& text) {
    Sha256 h;
    h.update(text.data(), text.size());
    return h.hex_digest();
}

std::string ffmpeg_pix_fmt(const VideoGeometry& g) {
    std::string base;
    switch (g.format) {
        case PixelFormat::Yuv400:
            base = "gray";
            break;
        case PixelFormat::Yuv420:
            base = "yuv420p";
            break;
        case PixelFormat::Yuv422:
            base = "yuv422p";
            break;
        case PixelFormat::Yuv444:
            base = "yuv444p";
            break;
    }
    return g.bpc == 8 ? base : base + std::to_string(g.bpc) + "le";
}

std::unique_ptr<VideoSource> open_source(const SourceSpec& spec) {
    if (spec.raw) return open_yuv(spec.path, *spec.raw);
    return open_video(spec.path);
}

SourceFacts inspect_source(const SourceSpec& spec) {
    SourceFacts f;
    f.sha256 = file_sha256(spec.path);
    auto src = open_source(spec);
    const VideoGeometry& g = src->geometry();
    f.width = g.width;
    f.height = g.height;
    f.pix_fmt = ffmpeg_pix_fmt(g);
    f.geometry = g;
    if (spec.raw) {
        f.fps = spec.raw_fps;
    } else {
        const StreamInfo& info = src->info();
        f.fps = info.fps_den ? static_cast<double>(info.fps_num) / info.fps_den : 0;
    }
    if (f.fps <= 0) throw Error(ErrorKind::Input, spec.path + ": unknown frame rate (give --framerate)");
    if (const auto left = src->frames_left()) {
        f.frames = static_cast<unsigned>(*left);
    } else {
        ReadPlan plan;
        plan.luma_only = true;
        plan.in_flight = 1;
        src->plan(plan);
        while (src->read()) ++f.frames;
    }
    if (f.frames == 0) throw Error(ErrorKind::Input, spec.path + " has no frames");
    f.duration_s = f.frames / f.fps;
    return f;
}

}  // namespace vmaf::tune
