#include "backends/cuda/session.hpp"

#include <sys/mman.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>

namespace vmaf::cuda {

namespace detail {
extern const TwinDescriptor* const kTwins[];
extern const unsigned kTwinCount;
}  // namespace detail

namespace {

const TwinDescriptor* find_twin(std::string_view kind) {
    for (unsigned i = 0; i < detail::kTwinCount; ++i)
        if (detail::kTwins[i]->kind == kind) return detail::kTwins[i];
    return nullptr;
}

std::unique_ptr<BackendSession> start(const BackendStartOptions& o);

std::shared_ptr<void> create_state(int device) {
    BackendStartOptions o;
    o.device = device;
    start(o);  // validates the device
    auto st = std::make_shared<State>();
    st->device = device;
    return st;
}

std::unique_ptr<BackendSession> start(const BackendStartOptions& o) {
    int device = o.device;
    if (o.external) device = static_cast<const State*>(o.external.get())->device;
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
        cudaGetLastError();
        throw BackendError("cuda", -ENODEV, std::string("no usable CUDA device (") + cudaGetErrorString(e) + ")");
    }
    if (n <= 0) throw BackendError("cuda", -ENODEV, "no CUDA device found");
    if (device < 0 || device >= n)
        throw BackendError("cuda", -ENODEV,
                           "CUDA device " + std::to_string(device) + " does not exist (" + std::to_string(n) + " found)");
    if (const cudaError_t s = cudaSetDevice(device); s != cudaSuccess) {
        cudaGetLastError();
        throw BackendError("cuda", -EIO, std::string("cudaSetDevice failed (") + cudaGetErrorString(s) + ")");
    }
    std::string err;
    if (!probe_device(err)) throw BackendError("cuda", -EIO, "CUDA device " + std::to_string(device) + " cannot run kernels (" + err + ")");
    return std::make_unique<Session>(device);
}

}  // namespace

struct Session::Slot {
    PinnedBuffer host;
    DeviceBuffer dev;
    Stream stream;
    Event ready;
    DeviceFrame frame;
    bool direct = false;  ///< the last upload read the pictures themselves
};

namespace {

/// Page-locked picture storage: host memory registered with the driver, so
/// the upload copies straight from the reader's picture. Large buffers are
/// 2 MiB aligned and advised as huge pages, which makes first touch (and
/// registration) several times cheaper than 4 KiB pages.
class PinnedAllocator final : public PictureAllocator {
public:
    explicit PinnedAllocator(int device) : device_(device) {}
    std::uint8_t* allocate(std::size_t bytes) override {
        constexpr std::size_t kHuge = std::size_t{2} << 20;
        const std::size_t align = bytes >= kHuge ? kHuge : 64;
        const std::size_t size = (bytes + align - 1) / align * align;
        void* p = nullptr;
        if (posix_memalign(&p, align, size) != 0) throw std::bad_alloc();
        if (align == kHuge) madvise(p, size, MADV_HUGEPAGE);
        std::memset(p, 0, size);  // first touch here, in the caller's thread, not under the driver's lock
        check(cudaSetDevice(device_), "cudaSetDevice");
        if (const cudaError_t e = cudaHostRegister(p, size, cudaHostRegisterPortable); e != cudaSuccess) {
            std::free(p);
            check(e, "cudaHostRegister");
        }
        return static_cast<std::uint8_t*>(p);
    }
    void deallocate(std::uint8_t* p, std::size_t) noexcept override {
        cudaHostUnregister(p);
        std::free(p);
    }
    MemoryKind memory() const override { return MemoryKind::PinnedHost; }

private:
    int device_;
};

cudaMemcpyKind copy_kind(MemoryKind m) {
    return m == MemoryKind::Device ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice;
}

}  // namespace

std::shared_ptr<PictureAllocator> Session::picture_allocator() {
    if (!pinned_) pinned_ = std::make_shared<PinnedAllocator>(device_);
    return pinned_;
}

Session::Session(int device) : device_(device) {}

Session::~Session() {
    active_.clear();
    slots_.reset();
}

void Session::bind() const { check(cudaSetDevice(device_), "cudaSetDevice"); }

bool Session::has_twin(std::string_view kind_name) const { return find_twin(kind_name) != nullptr; }

std::unique_ptr<FeatureExtractor> Session::create_extractor(const ExtractorInfo& kind, const OptionValues& opts,
                                                            const VideoGeometry& geom, const ExtractorContext& ctx) {
    const TwinDescriptor* t = find_twin(kind.name);
    if (!t) return nullptr;
    bind();
    return t->create(*this, kind, opts, geom, ctx);
}

void Session::run_begin(const VideoGeometry& geom, bool needs_chroma) {
    bind();
    {
        std::lock_guard lk(m_);
        active_.clear();
    }
    geom_ = geom;
    chroma_ = needs_chroma && geom.format != PixelFormat::Yuv400;
    const unsigned planes = chroma_ ? 3 : 1;
    const unsigned bps = geom.bpc > 8 ? 2 : 1;
    const ChromaShift cs = chroma_shift(geom.format);
    unsigned pw[3], ph[3];
    std::size_t bytes = 0;
    for (unsigned p = 0; p < planes; ++p) {
        pw[p] = p ? (geom.width + (1u << cs.x) - 1) >> cs.x : geom.width;
        ph[p] = p ? (geom.height + (1u << cs.y) - 1) >> cs.y : geom.height;
        bytes += 2 * static_cast<std::size_t>(pw[p]) * bps * ph[p];
    }
    const unsigned bpc = geom.bpc;
    slots_ = std::make_unique<Pool<Slot>>([=, this] {
        bind();
        auto s = std::make_unique<Slot>();
        s->dev = DeviceBuffer(bytes);
        s->frame.planes = planes;
        s->frame.bpc = bpc;
        s->frame.ready = s->ready.get();
        std::size_t off = 0;
        for (int side = 0; side < 2; ++side)
            for (unsigned p = 0; p < planes; ++p) {
                DevicePlane& dp = side ? s->frame.dist[p] : s->frame.ref[p];
                dp.data = s->dev.get<std::uint8_t>() + off;
                dp.pitch = static_cast<std::size_t>(pw[p]) * bps;
                dp.width = pw[p];
                dp.height = ph[p];
                off += dp.pitch * ph[p];
            }
        return s;
    });
}

void Session::run_end() {
    std::lock_guard lk(m_);
    active_.clear();
}

void Session::frame_begin(unsigned index, const Picture& ref, const Picture& dist) {
    bind();
    std::unique_ptr<Slot> s = slots_->acquire();
    // A reused slot: its last upload and every reader registered by
    // add_reader() must be done before the staging is overwritten.
    check(cudaStreamSynchronize(s->stream.get()), "cudaStreamSynchronize");
    cudaStream_t st = s->stream.get();
    std::uint8_t* host = nullptr;
    std::size_t off = 0;     // of the plane in the staging layout
    std::size_t packed = 0;  // staging bytes to upload in one copy (host pictures)
    s->direct = false;
    for (int side = 0; side < 2; ++side) {
        const Picture& pic = side ? dist : ref;
        if (pic.planes() < s->frame.planes) throw Error(ErrorKind::Internal, "cuda: a luma-only picture where chroma is needed");
        for (unsigned p = 0; p < s->frame.planes; ++p) {
            const DevicePlane& dp = side ? s->frame.dist[p] : s->frame.ref[p];
            const Plane& src = pic.plane(p);
            if (src.width != dp.width || src.height != dp.height)
                throw Error(ErrorKind::Input, "cuda: picture geometry differs from the run's");
            if (pic.memory() == MemoryKind::Host) {
                // Pageable: pack into the pinned staging, uploaded below.
                if (packed != off) throw Error(ErrorKind::Internal, "cuda: pageable planes after direct ones");
                if (!s->host.size()) s->host = PinnedBuffer(s->dev.size());
                host = s->host.get<std::uint8_t>();
                for (unsigned y = 0; y < dp.height; ++y)
                    std::memcpy(host + off + y * dp.pitch, src.row<const std::uint8_t>(y), dp.pitch);
                packed += dp.pitch * dp.height;
            } else {
                // Page-locked host or device memory: copied straight in.
                check(cudaMemcpy2DAsync(const_cast<void*>(dp.data), dp.pitch, src.data, static_cast<std::size_t>(src.stride),
                                        dp.pitch, dp.height, copy_kind(pic.memory()), st),
                      "upload");
                s->direct = true;
            }
            off += dp.pitch * dp.height;
        }
    }
    if (packed) check(cudaMemcpyAsync(s->dev.get(), host, packed, cudaMemcpyHostToDevice, st), "upload");
    check(cudaEventRecord(s->ready.get(), st), "cudaEventRecord");
    std::lock_guard lk(m_);
    active_[index] = std::move(s);
}

void Session::frame_end(unsigned index) {
    std::unique_ptr<Slot> s;
    {
        std::lock_guard lk(m_);
        auto it = active_.find(index);
        if (it == active_.end()) return;
        s = std::move(it->second);
        active_.erase(it);
    }
    // The caller releases the pictures after this: copies that read them
    // directly must be complete. Readers still running were registered with
    // add_reader(); frame_begin synchronises the slot's stream before reuse.
    if (s->direct) check(cudaEventSynchronize(s->ready.get()), "cudaEventSynchronize");
    slots_->release(std::move(s));
}

void Session::add_reader(unsigned index, cudaEvent_t done) {
    std::lock_guard lk(m_);
    auto it = active_.find(index);
    if (it == active_.end()) throw Error(ErrorKind::Internal, "cuda: frame " + std::to_string(index) + " is not staged");
    check(cudaStreamWaitEvent(it->second->stream.get(), done, 0), "cudaStreamWaitEvent");
}

const DeviceFrame& Session::frame(unsigned index) {
    std::lock_guard lk(m_);
    auto it = active_.find(index);
    if (it == active_.end()) throw Error(ErrorKind::Internal, "cuda: frame " + std::to_string(index) + " is not staged");
    return it->second->frame;
}

}  // namespace vmaf::cuda

namespace vmaf {
extern const BackendDescriptor kCudaBackend;
const BackendDescriptor kCudaBackend{.name = "cuda", .start = &cuda::start, .create_state = &cuda::create_state};
}  // namespace vmaf
