// open_video: picks the reader by the file's first bytes.
#include "io/sniff.hpp"
#include "vmaf/error.hpp"
#include "vmaf/video_source.hpp"

namespace vmaf {

std::unique_ptr<VideoSource> open_video(const std::string& path) {
    const std::string seen = io::sniff_file(path);
    if (seen.empty() || seen == "a Y4M file") return open_y4m(path);  // pipes and Y4M; errors name the file
    throw Error(ErrorKind::Input, path + " appears to be " + seen +
                                      ", which this build cannot decode (it reads Y4M and raw YUV)");
}

}  // namespace vmaf
