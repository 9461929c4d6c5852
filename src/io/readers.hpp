// The Y4M and raw YUV readers over a file already opened (a pipe whose first
// bytes were peeked to recognise its content).
#pragma once

#include <memory>

#include "io/input_file.hpp"
#include "vmaf/video_source.hpp"

namespace vmaf::io {

/// YUV4MPEG2 from `in`'s current position (peeked bytes included).
std::unique_ptr<VideoSource> open_y4m(InputFile in);
/// Raw planar YUV of `geom` from `in`'s current position. Throws
/// vmaf::Error(Usage) for a bad geometry.
std::unique_ptr<VideoSource> open_yuv(InputFile in, const VideoGeometry& geom);

}  // namespace vmaf::io
