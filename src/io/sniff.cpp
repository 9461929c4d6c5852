#include "io/sniff.hpp"

#include <sys/stat.h>

#include <cstdio>
#include <cstring>

namespace vmaf::io {

namespace {

bool starts(const unsigned char* h, std::size_t n, std::size_t at, const char* magic, std::size_t len) {
    return n >= at + len && std::memcmp(h + at, magic, len) == 0;
}

/// An Annex-B start code followed by a NAL unit that opens H.264 or HEVC
/// streams (access unit delimiter, SPS, VPS).
bool annex_b(const unsigned char* h, std::size_t n) {
    std::size_t at;
    if (starts(h, n, 0, "\0\0\0\1", 4))
        at = 4;
    else if (starts(h, n, 0, "\0\0\1", 3))
        at = 3;
    else
        return false;
    if (n < at + 2) return false;
    const unsigned h264 = h[at] & 0x1f, hevc = (h[at] >> 1) & 0x3f;
    const bool h264_ok = !(h[at] & 0x80) && (h264 == 9 || h264 == 7);
    const bool hevc_ok = !(h[at] & 0x80) && (hevc == 32 || hevc == 35) && h[at + 1] == 1;
    return h264_ok || hevc_ok;
}

}  // namespace

std::string describe_format(const unsigned char* h, std::size_t n) {
    if (starts(h, n, 0, "YUV4MPEG2", 9)) return "a Y4M file";
    if (starts(h, n, 4, "ftyp", 4)) return "an MP4/MOV (ISO BMFF) container";
    if (starts(h, n, 0, "\x1a\x45\xdf\xa3", 4)) return "a Matroska/WebM container";
    if (starts(h, n, 0, "DKIF", 4)) return "an IVF stream (VP8/VP9/AV1)";
    if (starts(h, n, 0, "RIFF", 4) && starts(h, n, 8, "AVI ", 4)) return "an AVI container";
    if (starts(h, n, 0, "OggS", 4)) return "an Ogg container";
    if (starts(h, n, 0, "FLV\x01", 4)) return "an FLV container";
    if (n >= 377 && h[0] == 0x47 && h[188] == 0x47 && h[376] == 0x47) return "an MPEG transport stream";
    if (starts(h, n, 0, "\0\0\1\xba", 4)) return "an MPEG program stream";
    if (annex_b(h, n)) return "an H.264/HEVC elementary stream";
    if (starts(h, n, 0, "\x89PNG\r\n\x1a\n", 8)) return "a PNG image";
    if (starts(h, n, 0, "\xff\xd8\xff", 3)) return "a JPEG image";
    return {};
}

std::string sniff_file(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return {};
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return {};
    unsigned char head[512];
    const std::size_t n = std::fread(head, 1, sizeof head, f);
    std::fclose(f);
    return describe_format(head, n);
}

}  // namespace vmaf::io
