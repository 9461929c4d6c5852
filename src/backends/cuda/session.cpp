#include "backends/cuda/session.hpp"

#include <cerrno>
#include <cstring>

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
};

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
        s->host = PinnedBuffer(bytes);
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
    // Pack the planes into pinned staging, then one upload.
    auto* host = s->host.get<std::uint8_t>();
    std::size_t off = 0;
    for (int side = 0; side < 2; ++side) {
        const Picture& pic = side ? dist : ref;
        for (unsigned p = 0; p < s->frame.planes; ++p) {
            const DevicePlane& dp = side ? s->frame.dist[p] : s->frame.ref[p];
            const Plane& src = pic.plane(p);
            if (src.width != dp.width || src.height != dp.height)
                throw Error(ErrorKind::Input, "cuda: picture geometry differs from the run's");
            for (unsigned y = 0; y < dp.height; ++y) std::memcpy(host + off + y * dp.pitch, src.row<const std::uint8_t>(y), dp.pitch);
            off += dp.pitch * dp.height;
        }
    }
    check(cudaMemcpyAsync(s->dev.get(), host, off, cudaMemcpyHostToDevice, s->stream.get()), "upload");
    check(cudaEventRecord(s->ready.get(), s->stream.get()), "cudaEventRecord");
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
    // Readers still running were registered with add_reader(); frame_begin
    // synchronises the slot's stream before reusing it.
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
