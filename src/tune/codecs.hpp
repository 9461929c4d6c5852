// The RFC 6381 `codecs` string of an encode (what HLS CODECS= and DASH
// @codecs name), read from the codec configuration record the container
// carries: avcC (H.264), hvcC (HEVC), av1C (AV1); VP9 (WebM carries none)
// from the encode's profile and the level its size and rate need.
#pragma once

#include <cstdint>
#include <string>

#include "vmaf/picture.hpp"

namespace vmaf::tune {

/// What the VP9 string is computed from (the other codecs ignore it).
struct StreamShape {
    unsigned width = 0, height = 0;
    double fps = 0;
    PixelFormat format = PixelFormat::Yuv420;
    unsigned bpc = 8;
};

/// "avc1.640015", "hev1.1.6.L93.B0", "av01.0.04M.08", "vp09.00.21.08"; "" when
/// the file has no record vmaf-tune understands (or cannot be read).
std::string codecs_string(const std::string& encoder, const std::string& path, const StreamShape& shape);

/// The string from a codec configuration record's bytes: `fourcc` is "avcC",
/// "hvcC" or "av1C"; `entry` the sample entry type for HEVC ("hev1"/"hvc1").
/// "" for a record too short or malformed.
std::string codecs_from_record(const std::string& fourcc, const std::uint8_t* rec, std::size_t size,
                               const std::string& entry = "hev1");

/// VP9's level (10 = 1.0, ..., 62 = 6.2): the lowest whose picture size and
/// luma sample rate limits hold `shape`.
unsigned vp9_level(const StreamShape& shape);

}  // namespace vmaf::tune
