// scale_video: pictures of another source resized with libswscale.
#include <cstring>
#include <map>

#include "io/av_api.hpp"
#include "io/av_formats.hpp"
#include "vmaf/error.hpp"
#include "vmaf/video_source.hpp"

namespace vmaf {

namespace {

int filter_flags(const std::string& name) {
    static const std::map<std::string, int> kFilters = {
        {"fast_bilinear", SWS_FAST_BILINEAR},
        {"bilinear", SWS_BILINEAR},
        {"bicubic", SWS_BICUBIC},
        {"neighbor", SWS_POINT},
        {"area", SWS_AREA},
        {"bicublin", SWS_BICUBLIN},
        {"gauss", SWS_GAUSS},
        {"sinc", SWS_SINC},
        {"lanczos", SWS_LANCZOS},
        {"spline", SWS_SPLINE},
    };
    const auto it = kFilters.find(name);
    if (it == kFilters.end())
        throw Error(ErrorKind::Usage,
                    "unknown scaling filter '" + name +
                        "' (bilinear, bicubic, lanczos, spline, area, neighbor, gauss, sinc, bicublin, fast_bilinear)");
    return it->second;
}

struct SwsFree {
    void operator()(SwsContext* p) const { io::av().sws_freeContext(p); }
};

class ScaledSource final : public VideoSource {
public:
    ScaledSource(std::unique_ptr<VideoSource> inner, unsigned width, unsigned height, const std::string& filter)
        : inner_(std::move(inner)), name_(inner_->name()) {
        const VideoGeometry& in = inner_->geometry();
        geom_ = in;
        geom_.width = width;
        geom_.height = height;
        const int flags = filter_flags(filter);
        sws_.reset(io::av().sws_getContext(static_cast<int>(in.width), static_cast<int>(in.height),
                                           io::av_format(in.format, in.bpc), static_cast<int>(width),
                                           static_cast<int>(height), io::av_format(geom_.format, geom_.bpc), flags,
                                           nullptr, nullptr, nullptr));
        if (!sws_)
            throw Error(ErrorKind::Input,
                        "cannot scale " + name_ + " to " + std::to_string(width) + "x" + std::to_string(height));
        info_ = inner_->info();
    }

    const VideoGeometry& geometry() const override { return geom_; }
    const StreamInfo& info() const override { return info_; }
    const std::string& name() const override { return name_; }
    std::optional<std::int64_t> timestamp() const override { return inner_->timestamp(); }
    std::uint64_t decode_errors() const override { return inner_->decode_errors(); }
    void plan(const ReadPlan& p) override {
        pool_ = std::make_unique<PicturePool>(geom_, p.in_flight, p.allocator, p.luma_only);
        if (p.prefill) pool_->reserve(p.in_flight);
    }

    std::optional<Picture> read() override {
        std::optional<Picture> src = inner_->read();  // whole pictures: every plane is scaled
        if (!src) return std::nullopt;
        if (!pool_) pool_ = std::make_unique<PicturePool>(geom_);
        Picture out = pool_->acquire();
        if (out.luma_only()) {
            // The scaler writes every plane: scale into a full picture, keep its luma.
            if (full_.empty()) full_ = Picture(geom_.format, geom_.bpc, geom_.width, geom_.height);
            scale(*src, full_);
            const Plane& from = full_.plane(0);
            const Plane& to = out.plane(0);
            for (unsigned y = 0; y < to.height; ++y)
                std::memcpy(to.row<std::uint8_t>(y), from.row<std::uint8_t>(y),
                            std::size_t{to.width} * out.bytes_per_sample());
        } else {
            scale(*src, out);
        }
        return out;
    }

private:
    void scale(const Picture& from, Picture& to) {
        const std::uint8_t* src[3] = {};
        int src_stride[3] = {};
        std::uint8_t* dst[3] = {};
        int dst_stride[3] = {};
        for (unsigned p = 0; p < from.planes(); ++p) {
            src[p] = static_cast<const std::uint8_t*>(from.plane(p).data);
            src_stride[p] = static_cast<int>(from.plane(p).stride);
            dst[p] = static_cast<std::uint8_t*>(to.plane(p).data);
            dst_stride[p] = static_cast<int>(to.plane(p).stride);
        }
        io::av().sws_scale(sws_.get(), src, src_stride, 0, static_cast<int>(from.height()), dst, dst_stride);
    }

    std::unique_ptr<VideoSource> inner_;
    std::string name_;
    VideoGeometry geom_;
    StreamInfo info_;
    std::unique_ptr<SwsContext, SwsFree> sws_;
    std::unique_ptr<PicturePool> pool_;
    Picture full_;
};

}  // namespace

std::unique_ptr<VideoSource> scale_video(std::unique_ptr<VideoSource> src, unsigned width, unsigned height,
                                         const std::string& filter) {
    if (width == src->geometry().width && height == src->geometry().height) return src;
    return std::make_unique<ScaledSource>(std::move(src), width, height, filter);
}

}  // namespace vmaf
