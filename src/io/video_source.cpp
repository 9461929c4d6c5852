#include "vmaf/video_source.hpp"

#include "vmaf/error.hpp"

namespace vmaf {

// Generic fallback: read and drop frames. The readers override it with seeks.
void VideoSource::skip(unsigned n) {
    for (unsigned i = 0; i < n; ++i) {
        if (!read())
            throw Error(ErrorKind::Input, "cannot skip " + std::to_string(n) + " frames in " + name() +
                                              ": it ends after " + std::to_string(i));
    }
}

Picture VideoSource::read_frame(std::uint64_t /*index*/) {
    throw Error(ErrorKind::Internal, name() + " cannot be read out of order");
}

void VideoSource::read_plane_bytes(std::uint64_t /*index*/, unsigned /*plane*/, std::uint64_t /*at*/, void* /*dst*/,
                                   std::size_t /*n*/) {
    throw Error(ErrorKind::Internal, name() + " does not hand out its plane bytes");
}

}  // namespace vmaf
