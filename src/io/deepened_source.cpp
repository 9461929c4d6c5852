// deepen_video / common_bitdepth: a source delivered at a higher bit depth,
// each sample shifted left, as upstream's CLI fills a picture of the common
// bit depth from the shallower input (v3.0.0/v3.1.0 tools/vmaf.c).
#include <algorithm>
#include <cstdint>

#include "vmaf/error.hpp"
#include "vmaf/video_source.hpp"

namespace vmaf {

namespace {

class DeepenedSource final : public VideoSource {
public:
    DeepenedSource(std::unique_ptr<VideoSource> inner, unsigned bpc)
        : inner_(std::move(inner)), geom_(inner_->geometry()), shift_(bpc - inner_->geometry().bpc) {
        geom_.bpc = bpc;
    }

    const VideoGeometry& geometry() const override { return geom_; }
    const StreamInfo& info() const override { return inner_->info(); }
    const std::string& name() const override { return inner_->name(); }
    std::optional<std::int64_t> timestamp() const override { return inner_->timestamp(); }
    std::uint64_t decode_errors() const override { return inner_->decode_errors(); }
    std::optional<std::uint64_t> frames_left() const override { return inner_->frames_left(); }
    void skip(unsigned n) override { inner_->skip(n); }

    void plan(const ReadPlan& p) override {
        pool_ = std::make_unique<PicturePool>(geom_, p.in_flight, p.allocator, p.luma_only);
        if (p.prefill) pool_->reserve(p.in_flight);
        // The inner pictures live only until they are copied: plain host memory.
        ReadPlan inner = p;
        inner.allocator = nullptr;
        inner.prefill = false;
        inner_->plan(inner);
    }

    std::optional<Picture> read() override {
        std::optional<Picture> in = inner_->read();
        if (!in) return std::nullopt;
        return deepen(*in);
    }

    Picture read_frame(std::uint64_t index) override { return deepen(inner_->read_frame(index)); }

private:
    Picture deepen(const Picture& in) {
        if (!pool_) pool_ = std::make_unique<PicturePool>(geom_);
        Picture out = pool_->acquire();
        for (unsigned p = 0; p < out.planes(); ++p) {
            const Plane& from = in.plane(p);
            const Plane& to = out.plane(p);
            for (unsigned y = 0; y < to.height; ++y) {
                std::uint16_t* dst = to.row<std::uint16_t>(y);
                if (in.bpc() == 8) {
                    const std::uint8_t* src = from.row<std::uint8_t>(y);
                    for (unsigned x = 0; x < to.width; ++x) dst[x] = static_cast<std::uint16_t>(src[x] << shift_);
                } else {
                    const std::uint16_t* src = from.row<std::uint16_t>(y);
                    for (unsigned x = 0; x < to.width; ++x) dst[x] = static_cast<std::uint16_t>(src[x] << shift_);
                }
            }
        }
        return out;
    }

    std::unique_ptr<VideoSource> inner_;
    VideoGeometry geom_;
    unsigned shift_;
    std::unique_ptr<PicturePool> pool_;
};

}  // namespace

std::unique_ptr<VideoSource> deepen_video(std::unique_ptr<VideoSource> src, unsigned bpc) {
    const unsigned from = src->geometry().bpc;
    if (bpc == from) return src;
    if (bpc < from || bpc > 16)
        throw Error(ErrorKind::Usage, "cannot deliver " + src->name() + " (" + std::to_string(from) + "-bit) at " +
                                          std::to_string(bpc) + " bits");
    return std::make_unique<DeepenedSource>(std::move(src), bpc);
}

unsigned common_bitdepth(std::unique_ptr<VideoSource>& a, std::unique_ptr<VideoSource>& b) {
    const unsigned bpc = std::max(a->geometry().bpc, b->geometry().bpc);
    a = deepen_video(std::move(a), bpc);
    b = deepen_video(std::move(b), bpc);
    return bpc;
}

}  // namespace vmaf
