// Sources of a sweep and the facts every row records about them.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "vmaf/video_source.hpp"

namespace vmaf::tune {

/// How to read a source: raw planar YUV needs its geometry and frame rate;
/// anything else (Y4M, containers) is recognised by content.
struct SourceSpec {
    std::string path;
    std::optional<VideoGeometry> raw;  ///< set for raw YUV (--width --height --pix-fmt)
    std::string raw_pix_fmt;           ///< ffmpeg's name for the raw layout, e.g. "yuv420p10le"
    double raw_fps = 24;               ///< --framerate for raw YUV
};

/// What the rows say about a source; computed once per sweep.
struct SourceFacts {
    std::string sha256;  ///< of the file's bytes
    unsigned width = 0, height = 0;
    std::string pix_fmt;  ///< ffmpeg's name ("yuv420p", "yuv422p10le", ...)
    VideoGeometry geometry;
    double fps = 0;
    unsigned frames = 0;
    double duration_s = 0;  ///< frames / fps
};

/// Opens `spec` for reading frames. Throws vmaf::Error with a one-line message.
std::unique_ptr<VideoSource> open_source(const SourceSpec& spec);
/// Reads the whole source once (hash, geometry, frame count). Throws vmaf::Error.
SourceFacts inspect_source(const SourceSpec& spec);
/// ffmpeg's pixel format name for a geometry ("yuv420p", "yuv444p12le", "gray10le").
std::string ffmpeg_pix_fmt(const VideoGeometry& g);
/// Hex sha256 of a file's bytes. Throws vmaf::Error when it cannot be read.
std::string file_sha256(const std::string& path);
/// Hex sha256 of a string.
std::string text_sha256(const std::string& text);

}  // namespace vmaf::tune
