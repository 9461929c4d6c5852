// The planar pixel formats that pass between FFmpeg's libraries and our
// Pictures unchanged (native little-endian samples), in both directions.
#pragma once

extern "C" {
#include <libavutil/pixfmt.h>
}

#include "vmaf/picture.hpp"

namespace vmaf::io {

struct PlanarFormat {
    AVPixelFormat av;
    PixelFormat format;
    unsigned bpc;
};

inline constexpr PlanarFormat kPlanarFormats[] = {
    {AV_PIX_FMT_YUV420P, PixelFormat::Yuv420, 8},      {AV_PIX_FMT_YUV422P, PixelFormat::Yuv422, 8},
    {AV_PIX_FMT_YUV444P, PixelFormat::Yuv444, 8},      {AV_PIX_FMT_GRAY8, PixelFormat::Yuv400, 8},
    {AV_PIX_FMT_YUV420P10LE, PixelFormat::Yuv420, 10}, {AV_PIX_FMT_YUV422P10LE, PixelFormat::Yuv422, 10},
    {AV_PIX_FMT_YUV444P10LE, PixelFormat::Yuv444, 10}, {AV_PIX_FMT_GRAY10LE, PixelFormat::Yuv400, 10},
    {AV_PIX_FMT_YUV420P12LE, PixelFormat::Yuv420, 12}, {AV_PIX_FMT_YUV422P12LE, PixelFormat::Yuv422, 12},
    {AV_PIX_FMT_YUV444P12LE, PixelFormat::Yuv444, 12}, {AV_PIX_FMT_GRAY12LE, PixelFormat::Yuv400, 12},
    {AV_PIX_FMT_YUV420P16LE, PixelFormat::Yuv420, 16}, {AV_PIX_FMT_YUV422P16LE, PixelFormat::Yuv422, 16},
    {AV_PIX_FMT_YUV444P16LE, PixelFormat::Yuv444, 16}, {AV_PIX_FMT_GRAY16LE, PixelFormat::Yuv400, 16},
};

/// The geometry's format and depth for `f`, when `f` passes unchanged.
inline bool native_format(AVPixelFormat f, VideoGeometry& g) {
    for (const PlanarFormat& e : kPlanarFormats)
        if (e.av == f) {
            g.format = e.format;
            g.bpc = e.bpc;
            return true;
        }
    return false;
}

/// FFmpeg's name for a geometry's layout (AV_PIX_FMT_NONE for none).
inline AVPixelFormat av_format(PixelFormat format, unsigned bpc) {
    for (const PlanarFormat& e : kPlanarFormats)
        if (e.format == format && e.bpc == bpc) return e.av;
    return AV_PIX_FMT_NONE;
}

}  // namespace vmaf::io
