#include "tune/codecs.hpp"

#include <cstdio>
#include <fstream>
#include <vector>

namespace vmaf::tune {

namespace {

std::string hex2(unsigned v) {
    char b[8];
    std::snprintf(b, sizeof b, "%02X", v & 0xff);
    return b;
}

std::string avc(const std::uint8_t* r, std::size_t n) {
    if (n < 4 || r[0] != 1) return {};
    char b[32];
    std::snprintf(b, sizeof b, "avc1.%02x%02x%02x", r[1], r[2], r[3]);
    return b;
}

std::string hevc(const std::uint8_t* r, std::size_t n, const std::string& entry) {
    if (n < 13 || r[0] != 1) return {};
    const unsigned space = r[1] >> 6, tier = (r[1] >> 5) & 1, profile = r[1] & 31;
    std::uint32_t compat = (std::uint32_t{r[2]} << 24) | (std::uint32_t{r[3]} << 16) | (r[4] << 8) | r[5];
    std::uint32_t reversed = 0;  // the flags are written least significant bit first
    for (int i = 0; i < 32; ++i) reversed |= ((compat >> i) & 1u) << (31 - i);
    const char space_letter[2] = {space ? static_cast<char>('A' + space - 1) : '\0', '\0'};
    char b[64];
    std::snprintf(b, sizeof b, "%s.%s%u.%X.%c%u", entry.c_str(), space_letter, profile, reversed, tier ? 'H' : 'L',
                  r[12]);
    std::string out = b;
    int last = 5;  // trailing zero constraint bytes are left out
    while (last >= 0 && r[6 + last] == 0) --last;
    for (int i = 0; i <= last; ++i) {
        out += '.';
        out += hex2(r[6 + i]);
    }
    return out;
}

std::string av1(const std::uint8_t* r, std::size_t n) {
    if (n < 4 || r[0] != 0x81) return {};
    const unsigned profile = r[1] >> 5, level = r[1] & 31, tier = r[2] >> 7;
    const unsigned depth = (r[2] & 0x20) ? 12 : (r[2] & 0x40) ? 10 : 8;
    char b[32];
    std::snprintf(b, sizeof b, "av01.%u.%02u%c.%02u", profile, level, tier ? 'H' : 'M', depth);
    return b;
}

/// Where `needle` starts in `hay` from `from`, or npos.
std::size_t find(const std::string& hay, const std::string& needle, std::size_t from = 0) {
    return hay.find(needle, from);
}

}  // namespace

std::string codecs_from_record(const std::string& fourcc, const std::uint8_t* rec, std::size_t size,
                               const std::string& entry) {
    if (fourcc == "avcC") return avc(rec, size);
    if (fourcc == "hvcC") return hevc(rec, size, entry);
    if (fourcc == "av1C") return av1(rec, size);
    return {};
}

unsigned vp9_level(const StreamShape& s) {
    // VP9 bitstream specification, Annex A: level, max picture size, max luma sample rate.
    static const struct {
        unsigned level;
        double size, rate;
    } kLevels[] = {{10, 36864, 829440},          {11, 73728, 2764800},        {20, 122880, 4608000},
                   {21, 245760, 9216000},        {30, 552960, 20736000},      {31, 983040, 36864000},
                   {40, 2228224, 83558400},      {41, 2228224, 160432128},    {50, 8912896, 311951360},
                   {51, 8912896, 588251136},     {52, 8912896, 1176502272},   {60, 35651584, 1176502272},
                   {61, 35651584, 2353004544.0}, {62, 35651584, 4706009088.0}};
    const double size = static_cast<double>(s.width) * s.height, rate = size * s.fps;
    for (const auto& l : kLevels)
        if (size <= l.size && rate <= l.rate) return l.level;
    return 62;
}

std::string codecs_string(const std::string& encoder, const std::string& path, const StreamShape& shape) {
    if (encoder == "libvpx-vp9") {
        const bool sub420 = shape.format == PixelFormat::Yuv420 || shape.format == PixelFormat::Yuv400;
        const unsigned profile = (shape.bpc > 8 ? 2 : 0) + (sub420 ? 0 : 1);
        char b[32];
        std::snprintf(b, sizeof b, "vp09.%02u.%02u.%02u", profile, vp9_level(shape), shape.bpc);
        return b;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) return {};
    // The record sits in the MP4 'moov' box (often at the end of the file) or
    // in Matroska's track header: scan the whole file in overlapping chunks.
    constexpr std::size_t kChunk = 1 << 20, kOverlap = 256;
    std::string buf;
    std::vector<char> chunk(kChunk);
    std::string entry = "hev1";
    for (;;) {
        in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        const auto got = static_cast<std::size_t>(in.gcount());
        if (got == 0) break;
        buf.append(chunk.data(), got);
        if (find(buf, "hvc1") != std::string::npos) entry = "hvc1";
        for (const char* fourcc : {"avcC", "hvcC", "av1C"}) {
            const std::size_t at = find(buf, fourcc);
            if (at == std::string::npos || at + 4 + 16 > buf.size()) continue;
            const auto* rec = reinterpret_cast<const std::uint8_t*>(buf.data() + at + 4);
            const std::string s = codecs_from_record(fourcc, rec, buf.size() - at - 4, entry);
            if (!s.empty()) return s;
        }
        // Matroska: CodecPrivate (ID 0x63A2), a one- or two-byte size, then an av1C record (0x81 ...).
        const bool av1_in_mkv = encoder.find("av1") != std::string::npos;
        for (std::size_t at = 0; av1_in_mkv && (at = buf.find("\x63\xA2", at)) != std::string::npos; ++at) {
            for (std::size_t len : {1u, 2u}) {
                if (at + 2 + len + 4 > buf.size()) continue;
                const auto* rec = reinterpret_cast<const std::uint8_t*>(buf.data() + at + 2 + len);
                const std::string s = av1(rec, buf.size() - at - 2 - len);
                if (!s.empty()) return s;
            }
        }
        if (buf.size() > kOverlap) buf.erase(0, buf.size() - kOverlap);
        if (got < chunk.size()) break;
    }
    return {};
}

}  // namespace vmaf::tune
