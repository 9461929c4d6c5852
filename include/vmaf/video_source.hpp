// Frame sources: raw planar YUV and Y4M files, read one frame at a time.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "vmaf/picture.hpp"

namespace vmaf {

/// Extra facts a Y4M header carries (absent for raw YUV).
struct StreamInfo {
    unsigned fps_num = 0, fps_den = 0;      ///< 0/0 when unknown
    unsigned sar_num = 0, sar_den = 0;      ///< 0/0 when unknown
    char interlace = '?';                   ///< 'p', 't', 'b', 'm' or '?'
    std::string colorspace;                 ///< Y4M C tag as written, e.g. "420jpeg"
};

class VideoSource {
public:
    virtual ~VideoSource() = default;
    virtual const VideoGeometry& geometry() const = 0;
    virtual const StreamInfo& info() const = 0;
    /// Path or label used in messages.
    virtual const std::string& name() const = 0;
    /// Reads the next frame into a freshly allocated picture. Returns nullopt
    /// at a clean end of stream; throws vmaf::Error(Input) on a truncated or
    /// malformed frame.
    virtual std::optional<Picture> read() = 0;
    /// Skips `n` frames; throws if the stream ends first.
    virtual void skip(unsigned n);
};

/// Raw planar YUV (Y, then U, then V; 16-bit little-endian above 8 bit).
/// Throws vmaf::Error on a missing file or a bad geometry.
std::unique_ptr<VideoSource> open_yuv(const std::string& path, const VideoGeometry& geom);
/// YUV4MPEG2. Throws vmaf::Error on a missing file or a malformed/unsupported header.
std::unique_ptr<VideoSource> open_y4m(const std::string& path);

}  // namespace vmaf
