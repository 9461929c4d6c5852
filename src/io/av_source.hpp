// Container and codec input through FFmpeg's libraries (libavformat,
// libavcodec, libswscale): any file they read becomes a VideoSource of
// decoded frames in presentation order.
#pragma once

#include <memory>
#include <string>

#include "vmaf/video_source.hpp"

namespace vmaf::io {

/// Whether this build has FFmpeg input.
bool av_input_available();

/// The libavformat demuxer the file's content (not its name) points to, or
/// "" when none is sure enough (raw YUV, text, ...; always "" without FFmpeg).
std::string probe_container(const std::string& path);

/// Opens `path` (any container/stream libavformat recognises). Planar YUV
/// 4:2:0/4:2:2/4:4:4 at 8/10/12/16 bits and gray are delivered untouched;
/// other pixel formats are converted with libswscale as `ffmpeg -pix_fmt`
/// would (StreamInfo::conversion says so). Throws vmaf::Error(Input) with one
/// line: not a video, no video stream, no decoder, a decode error (naming the
/// frame), or a build without FFmpeg.
/// With opts.skip_decode_errors, packets and frames that fail to decode are
/// left out and counted instead.
std::unique_ptr<VideoSource> open_av(const std::string& path, const InputOptions& opts = {});

}  // namespace vmaf::io
