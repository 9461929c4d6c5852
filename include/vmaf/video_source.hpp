// Frame sources: raw planar YUV and Y4M files, read one frame at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "vmaf/picture.hpp"

namespace vmaf {

/// Extra facts a Y4M header or a container carries (absent for raw YUV).
struct StreamInfo {
    unsigned fps_num = 0, fps_den = 0;      ///< 0/0 when unknown
    unsigned sar_num = 0, sar_den = 0;      ///< 0/0 when unknown
    char interlace = '?';                   ///< 'p', 't', 'b', 'm' or '?'
    std::string colorspace;                 ///< Y4M C tag as written, e.g. "420jpeg"
    std::string container, codec;           ///< FFmpeg input: format and decoder names ("mov,mp4,...", "h264")
    /// FFmpeg input: non-empty when decoded pictures are converted to a planar
    /// format, saying from which to which (one line, for the user).
    std::string conversion;
    /// Unit of VideoSource::timestamp(): time_base_num/time_base_den seconds (0/0 without timestamps).
    unsigned time_base_num = 0, time_base_den = 0;
};

/// A GPU whose device memory pictures may be delivered in; see
/// VideoSource::decode_on_device().
struct DeviceTarget {
    std::string api;  ///< "cuda"
    int device = 0;   ///< device ordinal
    /// The context the pictures must belong to (cuda: the backend's CUcontext,
    /// the device's primary one); null: the device's primary context.
    void* native_context = nullptr;
};

/// How a consumer wants pictures delivered; see VideoSource::plan().
struct ReadPlan {
    /// Only plane 0 is needed: the source may leave chroma out (pictures are then luma-only).
    bool luma_only = false;
    /// Storage for the pictures (e.g. page-locked for a GPU backend); null: plain host memory.
    std::shared_ptr<PictureAllocator> allocator;
    /// Pictures the consumer holds at once, at most (sizes the source's recycling pool).
    unsigned in_flight = 64;
    /// Allocate the storage of `in_flight` pictures now rather than at first use.
    bool prefill = false;
};

class VideoSource {
public:
    virtual ~VideoSource() = default;
    virtual const VideoGeometry& geometry() const = 0;
    virtual const StreamInfo& info() const = 0;
    /// Path or label used in messages.
    virtual const std::string& name() const = 0;
    /// Reads the next frame into a freshly allocated picture. Returns nullopt
    /// at a clean end of stream; throws vmaf::Error(Input) on a truncated or
    /// malformed frame.
    virtual std::optional<Picture> read() = 0;
    /// Skips `n` frames; throws if the stream ends first.
    virtual void skip(unsigned n);

    /// Asks for pictures delivered as `plan` says, before the first read. A
    /// source may ignore any part of it (full pictures in host memory are
    /// always acceptable); the default ignores all of it.
    virtual void plan(const ReadPlan& /*plan*/) {}

    /// Random access (raw files with a fixed frame size): the number of frames
    /// from the current position to the end of the input, a partial final
    /// frame counted; nullopt when the source can only be read in order.
    virtual std::optional<std::uint64_t> frames_left() const { return std::nullopt; }
    /// With random access: frame `index` counted from the current position,
    /// without moving it; callable from several threads at once. Throws
    /// vmaf::Error(Input) for a truncated frame or an index at or past the end.
    virtual Picture read_frame(std::uint64_t index);

    /// With random access, and where the file holds each plane's rows packed
    /// with samples in this machine's byte order (raw YUV on a little-endian
    /// host): true, and read_plane_bytes() hands out the file's bytes as
    /// they are, so a GPU backend can read frames in pieces straight into
    /// its upload staging rather than into whole pictures first.
    virtual bool has_plane_bytes() const { return false; }
    /// Bytes [at, at + n) of plane `plane` (packed rows) of frame `index`,
    /// counted as read_frame() counts, into `dst`; callable from several
    /// threads at once. Throws vmaf::Error(Input) as read_frame() would for
    /// that frame (truncated, past the end), whatever the range; n == 0 only
    /// checks that. Requires has_plane_bytes().
    virtual void read_plane_bytes(std::uint64_t index, unsigned plane, std::uint64_t at, void* dst, std::size_t n);

    /// Presentation time of the picture the last read() returned, in
    /// StreamInfo::time_base units; nullopt for sources without timestamps
    /// (raw YUV, Y4M: their frames are evenly spaced by definition).
    virtual std::optional<std::int64_t> timestamp() const { return std::nullopt; }
    /// Frames left out so far because they failed to decode (only with
    /// InputOptions::skip_decode_errors; otherwise such a frame is an error).
    virtual std::uint64_t decode_errors() const { return 0; }

    /// Asks, before the first read, for pictures decoded on `target`'s GPU
    /// and delivered in its device memory (MemoryKind::Device; chroma may be
    /// interleaved, see Plane::step). Returns true when the source will;
    /// false (the default) keeps pictures in host memory, and then `why`,
    /// when the source could have but cannot for this stream, says why in one
    /// line (e.g. a codec profile the GPU's decoder lacks).
    virtual bool decode_on_device(const DeviceTarget& /*target*/, std::string& /*why*/) { return false; }
};

/// How open_video()/open_input() read a file.
struct InputOptions {
    /// Container input: a packet or frame that fails to decode is left out
    /// and counted (VideoSource::decode_errors()) instead of failing the read.
    bool skip_decode_errors = false;
    /// Container input: threads of the software decoder; 0 lets libavcodec
    /// choose (one per core). 1 suits many scoring processes side by side
    /// (GNU parallel, job arrays), which share the cores already.
    unsigned decoder_threads = 0;
};

/// How the frames of a timed input are matched to the slots of a frame-rate
/// grid (slot k at k / fps seconds after the input's first frame).
enum class GridMode {
    /// Every frame must sit on a slot (within a quarter of a frame interval):
    /// a frame off the grid (variable frame rate) is an error; a slot with
    /// no frame repeats the previous picture (a dropped frame); a second frame
    /// in one slot is skipped (a duplicated frame).
    Exact,
    /// Each slot takes the frame nearest its time (ties: the earlier frame),
    /// as FFmpeg's framesync with ts_sync_mode=nearest; any rate and spacing.
    Nearest,
};

/// What aligning an input to a grid did (filled in as it is read).
struct GridStats {
    std::uint64_t repeated = 0;  ///< slots given the previous picture again (no frame of their own)
    std::uint64_t skipped = 0;   ///< frames of the input no slot took
};

/// `src` delivered one picture per slot of the fps_num/fps_den grid, by the
/// frames' timestamps; `src` itself when it has none (it is read in order).
/// Frames skipped with skip() before the first read still count as frames
/// (the grid starts at the first frame read after them). Reading throws
/// vmaf::Error(Input) naming the frame when GridMode::Exact finds one off the
/// grid. `stats`, if given, is updated as frames are read.
std::unique_ptr<VideoSource> align_to_grid(std::unique_ptr<VideoSource> src, GridMode mode, unsigned fps_num,
                                           unsigned fps_den, std::shared_ptr<GridStats> stats = nullptr);

/// Raw planar YUV (Y, then U, then V; 16-bit little-endian above 8 bit).
/// Throws vmaf::Error on a missing file or a bad geometry.
std::unique_ptr<VideoSource> open_yuv(const std::string& path, const VideoGeometry& geom);
/// YUV4MPEG2. Throws vmaf::Error on a missing file or a malformed/unsupported header.
std::unique_ptr<VideoSource> open_y4m(const std::string& path);
/// Any video file whose format announces itself (not raw YUV, which needs
/// open_yuv), recognised by its content rather than its name. Throws
/// vmaf::Error naming what the file appears to be when it cannot be read.
std::unique_ptr<VideoSource> open_video(const std::string& path, const InputOptions& opts = {});
/// open_video() for files whose content announces a format; raw YUV with
/// `raw` otherwise (when given; else open_video's error). This is how the CLI
/// opens `-r`/`-d`: a container or Y4M is recognised even beside raw flags.
std::unique_ptr<VideoSource> open_input(const std::string& path, const VideoGeometry* raw,
                                        const InputOptions& opts = {});
/// `src` resized to width x height with the named libswscale filter
/// ("bicubic", "lanczos", "bilinear", "spline", "area", "neighbor", ...), as
/// FFmpeg's scale filter with flags=FILTER does; `src` itself when the size
/// already matches. Throws vmaf::Error(Usage) for an unknown filter, or when
/// the build has no FFmpeg.
std::unique_ptr<VideoSource> scale_video(std::unique_ptr<VideoSource> src, unsigned width, unsigned height,
                                         const std::string& filter);
/// `src` delivered at `bpc` bits per sample, every sample shifted left by
/// the difference (8-bit 235 becomes 10-bit 940); `src` itself when it already
/// has `bpc` bits. Throws vmaf::Error(Usage) for a shallower `bpc` or one above 16.
std::unique_ptr<VideoSource> deepen_video(std::unique_ptr<VideoSource> src, unsigned bpc);
/// Upstream's common bit depth (`vmaf --common_bitdepth`, implied by
/// `--aom_ctc v6.0` and later): the shallower of the two sources is deepened
/// to the other's bit depth, as upstream's CLI does before scoring. Returns
/// that bit depth.
unsigned common_bitdepth(std::unique_ptr<VideoSource>& a, std::unique_ptr<VideoSource>& b);

}  // namespace vmaf
