#include "io/av_api.hpp"

#include <dlfcn.h>

#include <optional>

#include "vmaf/error.hpp"

namespace vmaf::io {

namespace {

/// The sonames of the headers' major versions (the ABI compiled against).
struct Sonames {
    std::string avutil = "libavutil.so." + std::to_string(LIBAVUTIL_VERSION_MAJOR);
    std::string avcodec = "libavcodec.so." + std::to_string(LIBAVCODEC_VERSION_MAJOR);
    std::string avformat = "libavformat.so." + std::to_string(LIBAVFORMAT_VERSION_MAJOR);
    std::string swscale = "libswscale.so." + std::to_string(LIBSWSCALE_VERSION_MAJOR);
};

/// The table, or why it could not be loaded.
struct Loaded {
    AvApi api;
    std::optional<Error> error;
};

#if VMAF_AV_LINKED
// A build that links FFmpeg (VMAF_FFMPEG_DLOPEN=OFF, or static archives): the
// table holds the linked functions.
Loaded load() {
    Loaded out;
#define VMAF_AV_LINK(lib, name) out.api.name = &::name;
    VMAF_AV_FUNCTIONS(VMAF_AV_LINK)
#undef VMAF_AV_LINK
    return out;
}
#else
Loaded load() {
    Loaded out;
    try {
        const Sonames names;
        struct {
            void* avutil;
            void* avcodec;
            void* avformat;
            void* swscale;
        } handle{};
        // In dependency order, so that a missing library is named rather than
        // the one that needs it. Handles are kept for the process's lifetime.
        handle.avutil = open_library(names.avutil);
        handle.avcodec = open_library(names.avcodec);
        handle.avformat = open_library(names.avformat);
        handle.swscale = open_library(names.swscale);
#define VMAF_AV_RESOLVE(lib, name)                                                       \
    out.api.name = reinterpret_cast<decltype(out.api.name)>(::dlsym(handle.lib, #name)); \
    if (!out.api.name)                                                                   \
        throw Error(ErrorKind::Input,                                                    \
                    "FFmpeg's " + names.lib + " has no " #name " (container input and scaling are unavailable)");
        VMAF_AV_FUNCTIONS(VMAF_AV_RESOLVE)
#undef VMAF_AV_RESOLVE
    } catch (const Error& e) {
        out.error = e;
    }
    return out;
}
#endif

const Loaded& loaded() {
    static const Loaded table = load();  // initialised once, thread-safely
    return table;
}

}  // namespace

void* open_library(const std::string& soname) {
    void* h = ::dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (h) return h;
    const char* why = ::dlerror();
    throw Error(ErrorKind::Input, "cannot load FFmpeg's " + soname + ", needed for container input and scaling (" +
                                      (why ? why : "no reason given") + ")");
}

const AvApi& av() {
    const Loaded& l = loaded();
    if (l.error) throw *l.error;
    return l.api;
}

bool av_loadable() {
    return !loaded().error;
}

}  // namespace vmaf::io
