#include "io/av_source.hpp"

#include "io/av_api.hpp"

extern "C" {
// hwcontext_cuda.h needs only the CUDA driver API's handle types, declared
// here so that the build needs no CUDA headers (libavcodec loads the driver).
#ifndef CUDA_VERSION
#define CUDA_VERSION 0
typedef struct CUctx_st* CUcontext;
typedef struct CUstream_st* CUstream;
#endif
#include <libavutil/hwcontext_cuda.h>
}

#include <sys/stat.h>

#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

#include "io/av_formats.hpp"
#include "io/limits.hpp"
#include "vmaf/error.hpp"

namespace vmaf::io {

bool av_input_available() {
    return av_loadable();
}

namespace {

/// libavformat's best guess from the first `bytes` of the file, by content alone
/// (no file name, so no extension), with its score; nullptr when none.
const AVInputFormat* probe_content(const std::string& path, int& score, std::size_t bytes = 1 << 20) {
    score = 0;
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return nullptr;
    std::vector<unsigned char> buf(bytes + AVPROBE_PADDING_SIZE, 0);
    const std::size_t n = std::fread(buf.data(), 1, bytes, f);
    std::fclose(f);
    AVProbeData pd{};
    pd.filename = "";
    pd.buf = buf.data();
    pd.buf_size = static_cast<int>(n);
    return av().av_probe_input_format3(&pd, 1, &score);
}

/// Below this, a guess is too weak to take raw bytes for a container.
constexpr int kMinProbeScore = AVPROBE_SCORE_EXTENSION + 1;

std::string av_error(int err) {
    char buf[AV_ERROR_MAX_STRING_SIZE] = {};
    av().av_strerror(err, buf, sizeof buf);
    return buf;
}

/// The planar format another pixel format is converted to: the same chroma
/// resolution (RGB counts as 4:4:4) and the next supported bit depth.
AVPixelFormat conversion_target(AVPixelFormat f, VideoGeometry& g) {
    const AVPixFmtDescriptor* d = av().av_pix_fmt_desc_get(f);
    if (!d) throw Error(ErrorKind::Input, "unknown pixel format");
    const int depth = d->comp[0].depth;
    g.bpc = depth <= 8 ? 8 : depth <= 10 ? 10 : depth <= 12 ? 12 : 16;
    const bool rgb = d->flags & AV_PIX_FMT_FLAG_RGB;
    if (!rgb && d->nb_components <= 2)
        g.format = PixelFormat::Yuv400;
    else if (rgb || (d->log2_chroma_w == 0 && d->log2_chroma_h == 0))
        g.format = PixelFormat::Yuv444;
    else if (d->log2_chroma_h == 0)
        g.format = PixelFormat::Yuv422;
    else
        g.format = PixelFormat::Yuv420;
    return av_format(g.format, g.bpc);
}

// Owners of the libav objects, so that a constructor that throws frees what it made.
struct FormatClose {
    void operator()(AVFormatContext* p) const { av().avformat_close_input(&p); }
};
struct CodecFree {
    void operator()(AVCodecContext* p) const { av().avcodec_free_context(&p); }
};
struct PacketFree {
    void operator()(AVPacket* p) const { av().av_packet_free(&p); }
};
struct FrameFree {
    void operator()(AVFrame* p) const { av().av_frame_free(&p); }
};
struct SwsFree {
    void operator()(SwsContext* p) const { av().sws_freeContext(p); }
};
struct ImageFree {
    void operator()(std::uint8_t* p) const { av().av_free(p); }
};

class AvSource final : public VideoSource {
public:
    AvSource(const std::string& path, const InputOptions& opts)
        : path_(path), skip_errors_(opts.skip_decode_errors), decoder_threads_(opts.decoder_threads) {
        av().av_log_set_level(AV_LOG_QUIET);  // errors are ours to report, in one line
        // The format is decided by the content; pipes (not probed here) by libavformat.
        int score = 0;
        const AVInputFormat* by_content = probe_content(path, score);
        if (by_content && score < kMinProbeScore) by_content = nullptr;
        struct stat sb {};
        if (!by_content && ::stat(path.c_str(), &sb) == 0 && S_ISREG(sb.st_mode))
            throw Error(ErrorKind::Input, path + " is not a video format this build recognises");
        AVFormatContext* fmt = nullptr;
        if (int r = av().avformat_open_input(&fmt, path.c_str(), by_content, nullptr); r < 0)
            throw Error(ErrorKind::Input, "cannot read " + path + " as a video: " + av_error(r));
        fmt_.reset(fmt);
        if (int r = av().avformat_find_stream_info(fmt_.get(), nullptr); r < 0)
            throw Error(ErrorKind::Input, "cannot read " + path + " as a video: " + av_error(r));
        const AVCodec* codec = nullptr;
        stream_ = av().av_find_best_stream(fmt_.get(), AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
        if (stream_ == AVERROR_STREAM_NOT_FOUND) throw Error(ErrorKind::Input, path + " has no video stream");
        if (stream_ < 0 || !codec) {
            // No stream index comes back with AVERROR_DECODER_NOT_FOUND: look again without a decoder.
            const int any = av().av_find_best_stream(fmt_.get(), AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
            const char* name = any >= 0 ? av().avcodec_get_name(fmt_->streams[any]->codecpar->codec_id) : "unknown";
            throw Error(ErrorKind::Input, path + ": no decoder for its video codec (" + std::string(name) + ")");
        }
        const AVStream* st = fmt_->streams[stream_];
        codec_ = codec;
        open_decoder(nullptr);
        if (ctx_->width <= 0 || ctx_->height <= 0 || ctx_->pix_fmt == AV_PIX_FMT_NONE)
            throw Error(ErrorKind::Input, path + ": the video stream has no picture size or pixel format");
        geom_.width = static_cast<unsigned>(ctx_->width);
        geom_.height = static_cast<unsigned>(ctx_->height);
        if (geom_.width > kMaxDimension || geom_.height > kMaxDimension ||
            std::uint64_t{geom_.width} * geom_.height > kMaxPixels)
            throw Error(ErrorKind::Input, path + ": " + std::to_string(geom_.width) + "x" +
                                              std::to_string(geom_.height) + " is too large");
        src_fmt_ = ctx_->pix_fmt;
        if (!native_format(src_fmt_, geom_)) {
            dst_fmt_ = conversion_target(src_fmt_, geom_);
            info_.conversion = std::string("converting ") + av().av_get_pix_fmt_name(src_fmt_) + " to " +
                               av().av_get_pix_fmt_name(dst_fmt_) + " with libswscale (as ffmpeg -pix_fmt " +
                               av().av_get_pix_fmt_name(dst_fmt_) + " would)";
        }
        const AVRational fr = st->avg_frame_rate.num > 0 ? st->avg_frame_rate : st->r_frame_rate;
        if (fr.num > 0 && fr.den > 0) {
            info_.fps_num = static_cast<unsigned>(fr.num);
            info_.fps_den = static_cast<unsigned>(fr.den);
        }
        if (st->sample_aspect_ratio.num > 0) {
            info_.sar_num = static_cast<unsigned>(st->sample_aspect_ratio.num);
            info_.sar_den = static_cast<unsigned>(st->sample_aspect_ratio.den);
        }
        if (st->time_base.num > 0 && st->time_base.den > 0) {
            info_.time_base_num = static_cast<unsigned>(st->time_base.num);
            info_.time_base_den = static_cast<unsigned>(st->time_base.den);
        }
        info_.container = fmt_->iformat->name;
        info_.codec = codec->name;
        pkt_.reset(av().av_packet_alloc());
        frame_.reset(av().av_frame_alloc());
        if (!pkt_ || !frame_) throw std::bad_alloc();
    }

    const VideoGeometry& geometry() const override { return geom_; }
    const StreamInfo& info() const override { return info_; }
    const std::string& name() const override { return path_; }
    std::optional<std::int64_t> timestamp() const override { return timestamp_; }
    std::uint64_t decode_errors() const override { return errors_; }

    void plan(const ReadPlan& p) override {
        luma_only_ = p.luma_only;
        pool_ = std::make_unique<PicturePool>(geom_, p.in_flight, p.allocator, p.luma_only);
        if (p.prefill) pool_->reserve(p.in_flight);
    }

    bool decode_on_device(const DeviceTarget& target, std::string& why) override {
        if (target.api != "cuda" || frames_ || packets_ || have_frame_) return false;
        // The decoder of this codec with a CUDA hwaccel: the one opened, or
        // another (e.g. FFmpeg's own av1 where libdav1d was preferred).
        const AVCodec* hw_codec = nullptr;
        void* it = nullptr;
        for (const AVCodec* c = codec_; c && !hw_codec; c = av().av_codec_iterate(&it)) {
            if (!av().av_codec_is_decoder(c) || c->id != codec_->id) continue;
            for (int i = 0; const AVCodecHWConfig* h = av().avcodec_get_hw_config(c, i); ++i)
                if (h->device_type == AV_HWDEVICE_TYPE_CUDA && (h->methods & AV_CODEC_HW_CONFIG_METHOD_HW_DEVICE_CTX))
                    hw_codec = c;
        }
        if (!hw_codec) {
            why = std::string("no GPU decoder for ") + codec_->name + " in this build: decoding in software";
            return false;
        }
        AVBufferRef* device = nullptr;
        if (const int r = cuda_device(target, device); r < 0) {
            why = "cannot open the GPU's decoder (" + av_error(r) + "): decoding in software";
            return false;
        }
        const AVCodec* sw_codec = codec_;
        codec_ = hw_codec;
        open_decoder(device);
        // The first frame tells whether the GPU took the stream (profile, bit depth, chroma).
        bool got = false;
        try {
            got = decode_next();
        } catch (const Error&) {
            if (codec_ == sw_codec) throw;  // the stream's own error
        }
        if (got && frame_->format == AV_PIX_FMT_CUDA) {
            have_frame_ = true;
            info_.codec += " (NVDEC)";
            return true;
        }
        why = std::string("the GPU's decoder does not take this ") + av().avcodec_get_name(codec_->id) + " stream (" +
              av().av_get_pix_fmt_name(src_fmt_) + "): decoding in software";
        if (codec_ != sw_codec) {
            // That decoder may have no software path: start over with the usual one.
            codec_ = sw_codec;
            av().av_frame_unref(frame_.get());
            reopen_input();
            open_decoder(nullptr);
            return false;
        }
        have_frame_ = got;  // a software frame, delivered first
        return false;
    }

    std::optional<Picture> read() override {
        if (have_frame_)
            have_frame_ = false;
        else if (!decode_next())
            return std::nullopt;
        if (frame_->format == AV_PIX_FMT_CUDA) return device_picture();
        if (!pool_) pool_ = std::make_unique<PicturePool>(geom_);
        Picture pic = pool_->acquire();
        const std::uint8_t* const* src = frame_->data;
        const int* src_stride = frame_->linesize;
        if (dst_fmt_ != AV_PIX_FMT_NONE) {
            convert();
            src = conv_;
            src_stride = conv_stride_;
        }
        const unsigned bps = pic.bytes_per_sample();
        for (unsigned p = 0; p < pic.planes(); ++p) {
            const Plane& pl = pic.plane(p);
            const std::size_t row = std::size_t{pl.width} * bps;
            for (unsigned y = 0; y < pl.height; ++y)
                std::memcpy(pl.row<std::uint8_t>(y), src[p] + static_cast<std::ptrdiff_t>(y) * src_stride[p], row);
        }
        delivered();
        return pic;
    }

private:
    /// A CUDA device context for libavcodec over `target`'s own context (so
    /// frames belong to it), or the device's primary context.
    static int cuda_device(const DeviceTarget& target, AVBufferRef*& out) {
        if (!target.native_context) {
            AVDictionary* opts = nullptr;
            av().av_dict_set(&opts, "primary_ctx", "1", 0);
            const int r = av().av_hwdevice_ctx_create(&out, AV_HWDEVICE_TYPE_CUDA,
                                                      std::to_string(target.device).c_str(), opts, 0);
            av().av_dict_free(&opts);
            return r;
        }
        out = av().av_hwdevice_ctx_alloc(AV_HWDEVICE_TYPE_CUDA);
        if (!out) return AVERROR(ENOMEM);
        auto* hw = reinterpret_cast<AVHWDeviceContext*>(out->data);
        static_cast<AVCUDADeviceContext*>(hw->hwctx)->cuda_ctx = static_cast<CUcontext>(target.native_context);
        const int r = av().av_hwdevice_ctx_init(out);
        if (r < 0) av().av_buffer_unref(&out);
        return r;
    }

    /// Seeks back to the start after a trial decode (before any frame was delivered).
    void reopen_input() {
        constexpr std::int64_t kFirst = std::numeric_limits<std::int64_t>::min();
        if (av().av_seek_frame(fmt_.get(), stream_, kFirst, AVSEEK_FLAG_BACKWARD) < 0 &&
            av().avformat_seek_file(fmt_.get(), -1, kFirst, 0, 0, 0) < 0)
            throw Error(ErrorKind::Input, path_ + ": cannot go back to the start after trying the GPU's decoder");
        draining_ = false;
        packets_ = 0;
    }

    /// (Re)creates the decoder; with `device` (ownership taken), frames may
    /// come in that CUDA device's memory.
    void open_decoder(AVBufferRef* device) {
        const AVStream* st = fmt_->streams[stream_];
        ctx_.reset(av().avcodec_alloc_context3(codec_));
        if (!ctx_ || av().avcodec_parameters_to_context(ctx_.get(), st->codecpar) < 0) {
            av().av_buffer_unref(&device);
            throw Error(ErrorKind::Input, path_ + ": cannot set up the " + std::string(codec_->name) + " decoder");
        }
        ctx_->thread_count = static_cast<int>(decoder_threads_);  // 0: libavcodec's choice
        ctx_->thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE;
        // A damaged stream is an error, not a concealed (silently different) picture.
        ctx_->err_recognition |= AV_EF_EXPLODE;
        if (device) {
            ctx_->hw_device_ctx = device;
            ctx_->get_format = prefer_cuda;
            // The GPU decodes: frame threads would only add decode surfaces
            // (each adds one; NVDEC refuses more than 32). Delivered frames
            // are copies out of the surfaces, so the pictures the pipeline
            // holds need no extra ones.
            ctx_->thread_count = 1;
        }
        if (int r = av().avcodec_open2(ctx_.get(), codec_, nullptr); r < 0)
            throw Error(ErrorKind::Input,
                        path_ + ": cannot open the " + std::string(codec_->name) + " decoder: " + av_error(r));
    }

    /// The CUDA surface format when the decoder offers it, else the software one.
    static AVPixelFormat prefer_cuda(AVCodecContext*, const AVPixelFormat* fmts) {
        for (const AVPixelFormat* p = fmts; *p != AV_PIX_FMT_NONE; ++p)
            if (*p == AV_PIX_FMT_CUDA) return *p;
        for (const AVPixelFormat* p = fmts; *p != AV_PIX_FMT_NONE; ++p)
            if (!(av().av_pix_fmt_desc_get(*p)->flags & AV_PIX_FMT_FLAG_HWACCEL)) return *p;
        return AV_PIX_FMT_NONE;
    }

    /// frame_ (a CUDA frame) as a picture in device memory that keeps the
    /// decoder's surface until released: luma as it is, NV12/P010 chroma as
    /// two interleaved halves, P010/P016 samples shifted (Plane::step/shift).
    Picture device_picture() {
        const auto* fc = reinterpret_cast<const AVHWFramesContext*>(frame_->hw_frames_ctx->data);
        const AVPixelFormat sw = fc->sw_format;
        const unsigned bps = geom_.bpc > 8 ? 2 : 1;
        const bool semi = sw == AV_PIX_FMT_NV12 || sw == AV_PIX_FMT_P010 || sw == AV_PIX_FMT_P016;
        const bool planar444 = sw == AV_PIX_FMT_YUV444P || sw == AV_PIX_FMT_YUV444P16;
        const unsigned stored = sw == AV_PIX_FMT_NV12 || sw == AV_PIX_FMT_YUV444P ? 8 : 16;
        if ((!semi && !planar444) || (semi && geom_.format != PixelFormat::Yuv420) ||
            (planar444 && geom_.format != PixelFormat::Yuv444) || (stored == 8) != (geom_.bpc == 8))
            throw Error(ErrorKind::Input, path_ + ": the GPU's decoder gives " + av().av_get_pix_fmt_name(sw) +
                                              " frames for a " + av().av_get_pix_fmt_name(src_fmt_) +
                                              " stream, which cannot be scored on the GPU");
        const unsigned shift = stored - geom_.bpc;
        const unsigned w = geom_.width, h = geom_.height;
        // The decoder's frame is one of its few output surfaces (32 at most,
        // mapped until released): the picture gets a device-to-device copy in
        // a frame pool of our own, and the surface goes back at once.
        AVFrame* copy = device_copy(sw);
        std::shared_ptr<void> owner(copy, [](void* f) {
            AVFrame* frame = static_cast<AVFrame*>(f);
            av().av_frame_free(&frame);
        });
        Plane planes[3];
        planes[0] = Plane{copy->data[0], copy->linesize[0], w, h, 1, shift};
        if (semi) {
            const unsigned cw = (w + 1) / 2, ch = (h + 1) / 2;
            planes[1] = Plane{copy->data[1], copy->linesize[1], cw, ch, 2, shift};
            planes[2] = Plane{copy->data[1] + bps, copy->linesize[1], cw, ch, 2, shift};
        } else {
            for (int p = 1; p < 3; ++p) planes[p] = Plane{copy->data[p], copy->linesize[p], w, h, 1, shift};
        }
        Picture pic = Picture::wrap(geom_.format, geom_.bpc, w, h, planes, MemoryKind::Device, std::move(owner), luma_only_);
        delivered();
        return pic;
    }

    /// A copy of frame_ (a CUDA frame of `sw` layout) in device memory from
    /// this source's own pool, which grows to what the pipeline holds.
    AVFrame* device_copy(AVPixelFormat sw) {
        if (!copies_) {
            const auto* fc = reinterpret_cast<const AVHWFramesContext*>(frame_->hw_frames_ctx->data);
            AVBufferRef* ref = av().av_hwframe_ctx_alloc(fc->device_ref);
            if (!ref) throw std::bad_alloc();
            auto* own = reinterpret_cast<AVHWFramesContext*>(ref->data);
            own->format = AV_PIX_FMT_CUDA;
            own->sw_format = sw;
            own->width = frame_->width;
            own->height = frame_->height;
            if (const int r = av().av_hwframe_ctx_init(ref); r < 0) {
                av().av_buffer_unref(&ref);
                throw Error(ErrorKind::Input, path_ + ": cannot set up GPU frame copies: " + av_error(r));
            }
            copies_.reset(ref);
        }
        std::unique_ptr<AVFrame, FrameFree> copy(av().av_frame_alloc());
        if (!copy) throw std::bad_alloc();
        if (int r = av().av_hwframe_get_buffer(copies_.get(), copy.get(), 0); r < 0)
            throw Error(ErrorKind::Input, path_ + ": cannot allocate a GPU frame: " + av_error(r));
        if (int r = av().av_hwframe_transfer_data(copy.get(), frame_.get(), 0); r < 0)
            throw Error(ErrorKind::Input, path_ + ": cannot copy a decoded GPU frame: " + av_error(r));
        return copy.release();
    }

    /// Bookkeeping after read() hands out frame_'s picture.
    void delivered() {
        timestamp_.reset();
        if (frame_->best_effort_timestamp != AV_NOPTS_VALUE && info_.time_base_den)
            timestamp_ = frame_->best_effort_timestamp;
        av().av_frame_unref(frame_.get());
        ++frames_;
    }

    /// Decodes the next frame into frame_; false at the end of the stream.
    bool decode_next() {
        for (;;) {
            const int r = av().avcodec_receive_frame(ctx_.get(), frame_.get());
            if (r == 0) {
                if (frame_->width != ctx_->width || frame_->height != ctx_->height ||
                    frame_->width != static_cast<int>(geom_.width) ||
                    frame_->height != static_cast<int>(geom_.height) ||
                    (frame_->format != src_fmt_ && frame_->format != AV_PIX_FMT_CUDA))
                    throw Error(ErrorKind::Input, path_ + ": frame " + std::to_string(frames_) +
                                                      " changes the picture size or pixel format");
                if ((frame_->flags & AV_FRAME_FLAG_CORRUPT) || frame_->decode_error_flags) {
                    if (!skip_errors_)
                        throw Error(ErrorKind::Input, path_ + ": frame " + std::to_string(frames_) +
                                                          " is corrupt (--skip_decode_errors leaves such frames out)");
                    ++errors_;
                    av().av_frame_unref(frame_.get());
                    continue;
                }
                return true;
            }
            if (r == AVERROR_EOF) return false;
            if (r != AVERROR(EAGAIN)) {
                if (!skip_errors_)
                    throw Error(ErrorKind::Input,
                                path_ + ": decode error at frame " + std::to_string(frames_) + ": " + av_error(r));
                ++errors_;
                continue;
            }
            if (draining_) return false;
            const int rr = av().av_read_frame(fmt_.get(), pkt_.get());
            if (rr == AVERROR_EOF) {
                draining_ = true;
                av().avcodec_send_packet(ctx_.get(), nullptr);
                continue;
            }
            if (rr < 0)
                throw Error(ErrorKind::Input,
                            path_ + ": read error after frame " + std::to_string(frames_) + ": " + av_error(rr));
            if (pkt_->stream_index != stream_) {
                av().av_packet_unref(pkt_.get());
                continue;
            }
            const std::int64_t pts = pkt_->pts != AV_NOPTS_VALUE ? pkt_->pts : pkt_->dts;
            const int sr = av().avcodec_send_packet(ctx_.get(), pkt_.get());
            av().av_packet_unref(pkt_.get());
            ++packets_;
            if (sr < 0 && sr != AVERROR(EAGAIN) && skip_errors_) {
                ++errors_;
            } else if (sr < 0 && sr != AVERROR(EAGAIN)) {
                // Decoding runs ahead of output: name the damaged packet by its position and time.
                std::string where = "packet " + std::to_string(packets_ - 1) + " (decode order)";
                if (pts != AV_NOPTS_VALUE) {
                    char t[48];
                    std::snprintf(t, sizeof t, ", %.3f s",
                                  static_cast<double>(pts) * av_q2d(fmt_->streams[stream_]->time_base));
                    where += t;
                }
                throw Error(ErrorKind::Input, path_ + ": decode error in " + where + ", after " +
                                                  std::to_string(frames_) + " frames: " + av_error(sr) +
                                                  " (--skip_decode_errors leaves such frames out)");
            }
        }
    }

    void convert() {
        if (!sws_) {
            // ffmpeg's CLI scales with flags=bicubic by default.
            sws_.reset(av().sws_getContext(ctx_->width, ctx_->height, src_fmt_, ctx_->width, ctx_->height, dst_fmt_,
                                           SWS_BICUBIC, nullptr, nullptr, nullptr));
            if (!sws_ || av().av_image_alloc(conv_, conv_stride_, ctx_->width, ctx_->height, dst_fmt_, 64) < 0)
                throw Error(ErrorKind::Input, path_ + ": cannot convert " + av().av_get_pix_fmt_name(src_fmt_));
            conv_owner_.reset(conv_[0]);
        }
        av().sws_scale(sws_.get(), frame_->data, frame_->linesize, 0, ctx_->height, conv_, conv_stride_);
    }

    std::string path_;
    const AVCodec* codec_ = nullptr;
    bool have_frame_ = false;  ///< frame_ holds a decoded frame read() has not delivered
    bool luma_only_ = false;   ///< from plan(): device pictures carry plane 0 only
    std::unique_ptr<AVFormatContext, FormatClose> fmt_;
    std::unique_ptr<AVCodecContext, CodecFree> ctx_;
    std::unique_ptr<AVPacket, PacketFree> pkt_;
    std::unique_ptr<AVFrame, FrameFree> frame_;
    std::unique_ptr<SwsContext, SwsFree> sws_;
    struct BufferUnref {
        void operator()(AVBufferRef* p) const { av().av_buffer_unref(&p); }
    };
    std::unique_ptr<AVBufferRef, BufferUnref> copies_;  ///< frames context of device_copy()
    std::unique_ptr<std::uint8_t, ImageFree> conv_owner_;  ///< the converted picture's buffer (conv_ points into it)
    std::uint8_t* conv_[4] = {};
    int conv_stride_[4] = {};
    int stream_ = -1;
    bool draining_ = false;
    AVPixelFormat src_fmt_ = AV_PIX_FMT_NONE, dst_fmt_ = AV_PIX_FMT_NONE;
    VideoGeometry geom_;
    StreamInfo info_;
    std::unique_ptr<PicturePool> pool_;
    std::optional<std::int64_t> timestamp_;  ///< of the frame read() returned last
    bool skip_errors_ = false;
    unsigned decoder_threads_ = 0;
    std::uint64_t errors_ = 0;  ///< packets and frames left out for failing to decode
    unsigned frames_ = 0;   ///< frames delivered
    unsigned packets_ = 0;  ///< video packets sent to the decoder
};

}  // namespace

std::string probe_container(const std::string& path) {
    if (!av_loadable()) return "";  // as in a build without FFmpeg
    int score = 0;
    // Whether raw flags meet a container: its signature is in the first bytes,
    // and probing a megabyte of raw samples with every demuxer costs ~0.1 s.
    const AVInputFormat* f = probe_content(path, score, 64 << 10);
    return f && score >= kMinProbeScore ? f->name : "";
}

std::unique_ptr<VideoSource> open_av(const std::string& path, const InputOptions& opts) {
    try {
        av();
    } catch (const Error& e) {
        throw Error(ErrorKind::Input, path + ": " + e.what());
    }
    return std::make_unique<AvSource>(path, opts);
}

}  // namespace vmaf::io
