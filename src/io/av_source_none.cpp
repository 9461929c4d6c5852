// Built without FFmpeg's libraries (VMAF_ENABLE_FFMPEG=OFF or not found):
// containers are named and refused.
#include "io/av_source.hpp"
#include "io/sniff.hpp"
#include "vmaf/error.hpp"

namespace vmaf::io {

bool av_input_available() {
    return false;
}

std::string probe_container(const std::string&) {
    return {};
}

std::unique_ptr<VideoSource> open_av(const std::string& path, const InputOptions& /*opts*/) {
    const std::string seen = sniff_file(path);
    throw Error(ErrorKind::Input, path + (seen.empty() ? " is not a Y4M file" : " appears to be " + seen) +
                                      ", and this build has no FFmpeg input (it reads Y4M and raw YUV)");
}

}  // namespace vmaf::io

namespace vmaf {

std::unique_ptr<VideoSource> scale_video(std::unique_ptr<VideoSource> src, unsigned width, unsigned height,
                                         const std::string&) {
    if (width == src->geometry().width && height == src->geometry().height) return src;
    throw Error(ErrorKind::Usage, "scaling " + src->name() + " needs a build with FFmpeg's libswscale");
}

}  // namespace vmaf
