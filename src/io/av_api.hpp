// FFmpeg's libraries (libavformat, libavcodec, libavutil, libswscale), opened
// with dlopen on first use rather than linked: a run on raw YUV or Y4M never
// loads them (they and their ~130 dependencies cost ~20 ms of start-up).
//
// The headers are those the build compiled against; the sonames come from
// their major versions (libavformat.so.<LIBAVFORMAT_VERSION_MAJOR>, ...), so
// the loaded libraries have the ABI of the declarations below.
//
// Call through the table: av().avformat_open_input(&fmt, path, nullptr, nullptr).
// A build that links FFmpeg instead (VMAF_FFMPEG_DLOPEN=OFF, or static
// archives; VMAF_AV_LINKED) fills the same table with the linked functions.
#pragma once

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/hwcontext.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
}

#include <string>

namespace vmaf::io {

// Every FFmpeg function the library calls: X(library, function). A function
// used without an entry here is an undefined symbol at link time.
#define VMAF_AV_FUNCTIONS(X)                  \
    X(avutil, av_log_set_level)               \
    X(avutil, av_strerror)                    \
    X(avutil, av_free)                        \
    X(avutil, av_pix_fmt_desc_get)            \
    X(avutil, av_get_pix_fmt_name)            \
    X(avutil, av_image_alloc)                 \
    X(avutil, av_frame_alloc)                 \
    X(avutil, av_frame_free)                  \
    X(avutil, av_frame_unref)                 \
    X(avutil, av_dict_set)                    \
    X(avutil, av_dict_free)                   \
    X(avutil, av_buffer_unref)                \
    X(avutil, av_hwdevice_ctx_create)         \
    X(avutil, av_hwdevice_ctx_alloc)          \
    X(avutil, av_hwdevice_ctx_init)           \
    X(avutil, av_hwframe_ctx_alloc)           \
    X(avutil, av_hwframe_ctx_init)            \
    X(avutil, av_hwframe_get_buffer)          \
    X(avutil, av_hwframe_transfer_data)       \
    X(avcodec, avcodec_get_name)              \
    X(avcodec, av_codec_iterate)              \
    X(avcodec, av_codec_is_decoder)           \
    X(avcodec, avcodec_get_hw_config)         \
    X(avcodec, avcodec_alloc_context3)        \
    X(avcodec, avcodec_free_context)          \
    X(avcodec, avcodec_parameters_to_context) \
    X(avcodec, avcodec_open2)                 \
    X(avcodec, avcodec_send_packet)           \
    X(avcodec, avcodec_receive_frame)         \
    X(avcodec, av_packet_alloc)               \
    X(avcodec, av_packet_free)                \
    X(avcodec, av_packet_unref)               \
    X(avformat, av_probe_input_format3)       \
    X(avformat, avformat_open_input)          \
    X(avformat, avformat_close_input)         \
    X(avformat, avformat_find_stream_info)    \
    X(avformat, av_find_best_stream)          \
    X(avformat, av_read_frame)                \
    X(avformat, av_seek_frame)                \
    X(avformat, avformat_seek_file)           \
    X(swscale, sws_getContext)                \
    X(swscale, sws_scale)                     \
    X(swscale, sws_freeContext)

/// Pointers to the functions above, each with its declared type.
struct AvApi {
#define VMAF_AV_MEMBER(lib, name) decltype(&::name) name = nullptr;
    VMAF_AV_FUNCTIONS(VMAF_AV_MEMBER)
#undef VMAF_AV_MEMBER
};

/// The table, loaded on the first call (thread-safe, once per process; the
/// libraries stay loaded). Throws vmaf::Error(Input) with one line naming the
/// library or function that could not be loaded, on this and every later call.
const AvApi& av();

/// Whether av() succeeds (loads the libraries when not yet tried).
bool av_loadable();

/// dlopen(soname, RTLD_NOW | RTLD_LOCAL); throws vmaf::Error(Input) naming
/// `soname` and what the dynamic loader said. Exposed for tests.
void* open_library(const std::string& soname);

}  // namespace vmaf::io
