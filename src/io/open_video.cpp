// open_video: picks the reader by the file's content.
#include <sys/stat.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <utility>

#include "io/av_source.hpp"
#include "io/input_file.hpp"
#include "io/readers.hpp"
#include "io/sniff.hpp"
#include "vmaf/error.hpp"
#include "vmaf/video_source.hpp"

namespace vmaf {

namespace {

/// A path that is not there (or is a directory) is named as such, before any
/// reader guesses at its format (which would blame the format for a typo in
/// the name).
void require_exists(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) throw Error(ErrorKind::Input, path + " is a directory, not a video");
        return;
    }
    const int err = errno;
    if (err == ENOENT) throw Error(ErrorKind::Input, path + " does not exist");
    throw Error(ErrorKind::Input, "cannot open " + path + ": " + std::strerror(err));
}

/// Whether `path` can be read more than once (probed, then opened again).
bool rereadable(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode);
}

/// Whether `path` is a non-empty regular file of whole raw frames of `raw`:
/// with no signature our sniff knows, that is raw YUV without asking
/// libavformat (whose probe would load FFmpeg's libraries).
bool whole_frames(const std::string& path, const VideoGeometry& raw) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) return false;
    const std::uint64_t frame = io::planar_frame_bytes(raw.format, raw.bpc, raw.width, raw.height);
    return frame > 0 && static_cast<std::uint64_t>(st.st_size) % frame == 0;
}

/// A pipe, FIFO or device (`ffmpeg ... -f yuv4mpegpipe - | vmaf -d /dev/stdin`):
/// read once, so its first bytes are peeked and the reader continues from them.
/// Y4M, or raw YUV with `raw`; a container is refused (its demuxer would need
/// the bytes already taken, and often seeking).
std::unique_ptr<VideoSource> open_stream(const std::string& path, const VideoGeometry* raw) {
    io::InputFile in(path);
    const std::string head = in.peek(512);
    const std::string seen =
        io::describe_format(reinterpret_cast<const unsigned char*>(head.data()), head.size());
    if (seen == "a Y4M file") return io::open_y4m(std::move(in));
    if (seen.empty() && raw) return io::open_yuv(std::move(in), *raw);
    if (seen.empty())
        throw Error(ErrorKind::Input, path + " is a pipe without a Y4M header (raw YUV needs -w/-h/-p/-b)");
    throw Error(ErrorKind::Input, path + " is a pipe carrying " + seen +
                                      ", which is read from files only (pipe Y4M instead: ffmpeg ... -f yuv4mpegpipe -)");
}

}  // namespace

std::unique_ptr<VideoSource> open_video(const std::string& path, const InputOptions& opts) {
    require_exists(path);
    if (!rereadable(path)) return open_stream(path, nullptr);
    const std::string seen = io::sniff_file(path);
    // Our own Y4M reader for Y4M.
    if (seen == "a Y4M file" || (seen.empty() && !io::av_input_available())) return open_y4m(path);
    try {
        return io::open_av(path, opts);
    } catch (const Error& e) {
        if (!seen.empty() || !io::av_input_available()) throw;
        // libavformat's reason, unless it only says the same (no format matched).
        const std::string unknown = path + " is not a video format this build recognises";
        const std::string why = e.what();
        throw Error(ErrorKind::Input, unknown + " (raw YUV needs -w/-h/-p/-b)" + (why == unknown ? "" : ": " + why));
    }
}

std::unique_ptr<VideoSource> open_input(const std::string& path, const VideoGeometry* raw, const InputOptions& opts) {
    require_exists(path);
    if (!rereadable(path)) return open_stream(path, raw);
    if (raw && io::sniff_file(path).empty() && (whole_frames(path, *raw) || io::probe_container(path).empty()))
        return open_yuv(path, *raw);
    return open_video(path, opts);
}

}  // namespace vmaf
