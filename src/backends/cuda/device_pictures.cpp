#include "backends/cuda/device_pictures.hpp"

#include <memory>
#include <mutex>
#include <vector>

#include "backends/cuda/cuda_util.hpp"

namespace vmaf::cuda {

namespace {

/// One picture's planes (null beyond the format's plane count).
struct Planes {
    void* data[3] = {};
    std::size_t pitch[3] = {};
};

class Supply {
public:
    Supply(const Context& ctx, const VideoGeometry& geom, unsigned keep) : ctx_(ctx), geom_(geom), keep_(keep) {
        const ChromaShift cs = chroma_shift(geom.format);
        count_ = plane_count(geom.format);
        for (unsigned p = 0; p < count_; ++p) {
            width_[p] = p ? (geom.width + (1u << cs.x) - 1) >> cs.x : geom.width;
            height_[p] = p ? (geom.height + (1u << cs.y) - 1) >> cs.y : geom.height;
        }
    }
    ~Supply() {
        for (Planes& p : free_) release(p);
    }
    Supply(const Supply&) = delete;
    Supply& operator=(const Supply&) = delete;

    void reserve() {
        while (true) {
            {
                std::lock_guard lk(m_);
                if (free_.size() >= keep_) return;
            }
            Planes p = allocate();
            std::lock_guard lk(m_);
            free_.push_back(p);
        }
    }

    static Picture acquire(const std::shared_ptr<Supply>& self) {
        Planes p;
        bool reused = false;
        {
            std::lock_guard lk(self->m_);
            if (!self->free_.empty()) {
                p = self->free_.back();
                self->free_.pop_back();
                reused = true;
            }
        }
        if (!reused) p = self->allocate();
        // The last copy of the picture gives its planes back.
        class Lease {
        public:
            Lease(std::shared_ptr<Supply> s, const Planes& p) : supply_(std::move(s)), planes_(p) {}
            ~Lease() { supply_->give_back(planes_); }
            Lease(const Lease&) = delete;
            Lease& operator=(const Lease&) = delete;

        private:
            std::shared_ptr<Supply> supply_;
            Planes planes_;
        };
        auto lease = std::make_shared<Lease>(self, p);
        Plane planes[3];
        for (unsigned i = 0; i < self->count_; ++i)
            planes[i] = Plane{p.data[i], static_cast<std::ptrdiff_t>(p.pitch[i]), self->width_[i], self->height_[i]};
        const VideoGeometry& g = self->geom_;
        return Picture::wrap(g.format, g.bpc, g.width, g.height, planes, MemoryKind::Device, std::move(lease));
    }

private:
    Planes allocate() {
        ctx_.bind();
        const std::size_t bps = geom_.bpc > 8 ? 2 : 1;
        Planes p;
        try {
            for (unsigned i = 0; i < count_; ++i) {
                check(cudaMallocPitch(&p.data[i], &p.pitch[i], width_[i] * bps, height_[i]), "cudaMallocPitch");
                check(cudaMemset2D(p.data[i], p.pitch[i], 0, width_[i] * bps, height_[i]), "cudaMemset2D");
            }
            // The zeroing is done before the caller can write the picture on a stream of its own.
            check(cudaStreamSynchronize(cudaStreamLegacy), "cudaStreamSynchronize");
        } catch (...) {
            release(p);
            throw;
        }
        return p;
    }
    void give_back(const Planes& p) noexcept {
        {
            std::lock_guard lk(m_);
            if (free_.size() < keep_) {
                free_.push_back(p);
                return;
            }
        }
        Planes q = p;
        release(q);
    }
    /// Frees in the planes' own context, on whichever thread releases them.
    void release(Planes& p) noexcept {
        try {
            ctx_.bind();
        } catch (...) {
            return;  // the context is gone: nothing can be freed in it
        }
        for (void*& d : p.data) {
            if (d) cudaFree(d);
            d = nullptr;
        }
        cudaGetLastError();
    }

    Context ctx_;
    VideoGeometry geom_;
    unsigned keep_;
    unsigned count_ = 1;
    unsigned width_[3] = {}, height_[3] = {};
    std::mutex m_;
    std::vector<Planes> free_;
};

}  // namespace

std::function<Picture()> device_picture_supply(const Context& ctx, const VideoGeometry& geom, unsigned keep) {
    auto supply = std::make_shared<Supply>(ctx, geom, keep);
    supply->reserve();
    return [supply] { return Supply::acquire(supply); };
}

}  // namespace vmaf::cuda
