// open_video: picks the reader by the file's content.
#include "io/av_source.hpp"
#include "io/sniff.hpp"
#include "vmaf/error.hpp"
#include "vmaf/video_source.hpp"

namespace vmaf {

std::unique_ptr<VideoSource> open_video(const std::string& path, const InputOptions& opts) {
    const std::string seen = io::sniff_file(path);
    // Our own Y4M reader for Y4M (and for pipes, which cannot be probed twice).
    if (seen == "a Y4M file" || (seen.empty() && !io::av_input_available())) return open_y4m(path);
    try {
        return io::open_av(path, opts);
    } catch (const Error& e) {
        if (!seen.empty() || !io::av_input_available()) throw;
        throw Error(ErrorKind::Input, path +
                                          " is not a video format this build recognises (raw YUV needs "
                                          "-w/-h/-p/-b): " +
                                          e.what());
    }
}

std::unique_ptr<VideoSource> open_input(const std::string& path, const VideoGeometry* raw, const InputOptions& opts) {
    if (raw && io::sniff_file(path).empty() && io::probe_container(path).empty()) return open_yuv(path, *raw);
    return open_video(path, opts);
}

}  // namespace vmaf
