#include "backends/cuda/session.hpp"
#include "backends/cuda/gather.hpp"

#include "backends/cuda/device_pictures.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
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

/// The context a session started with `o` runs in (not checked).
Context context_of(const BackendStartOptions& o) {
    return o.external ? static_cast<const State*>(o.external.get())->context : Context(o.device);
}

std::unique_ptr<BackendSession> start(const BackendStartOptions& o) {
    // A caller's state was checked when it was made; primary() checks the device.
    const Context ctx = o.external ? context_of(o) : Context::primary(o.device);
    try {
        ctx.bind();
    } catch (const Error& e) {
        throw BackendError(VMAF_GPU_NAME, -EIO, std::string("cannot use the " VMAF_GPU_LABEL " context (") + e.what() + ")");
    }
    std::string err;
    if (!probe_device(err))
        throw BackendError(VMAF_GPU_NAME, -EIO,
                           VMAF_GPU_LABEL " device " + std::to_string(ctx.device()) + " cannot run kernels (" + err + ")");
    return std::make_unique<Session>(ctx);
}

std::shared_ptr<void> create_state(int device, void* native) {
    auto st = std::make_shared<State>();
    st->context = native ? Context::external(static_cast<NativeContext>(native)) : Context::primary(device);
    BackendStartOptions o;
    o.external = st;
    start(o);  // checks that the context runs kernels
    return st;
}

}  // namespace

namespace {

/// Frame slots (staging and a stream each) kept at most for pairs of
/// `pair_bytes` on the device: 8 to 16 within 1 GiB. A slot is made only when
/// every free one still has work queued. A fed frame holds its slot while it
/// is read, so fed runs want more than the 8 whole-picture runs made do: 16
/// slots and 2-piece rings were the best configuration at 8 and 16 threads for
/// 4K and 1080p (H200 host, session 11), for at most 16 pairs of 4K 10-bit
/// luma (531 MB).
std::size_t max_slots(std::size_t pair_bytes) {
    return std::clamp<std::size_t>((std::size_t{1} << 30) / std::max<std::size_t>(pair_bytes, 1), 8, 16);
}

}  // namespace

struct Session::Slot {
    PinnedBuffer host;
    DeviceBuffer dev;
    Stream stream;
    Event ready;
    Event caller;  ///< the caller's legacy-stream work on direct pictures
    DeviceFrame frame;
    bool direct = false;  ///< the last upload read the pictures themselves
    bool waited = false;  ///< this frame's copies wait for the caller's legacy-stream work
    std::shared_ptr<FrameResults> results;
    bool batched = false;  ///< a twin waits for the frame's one readback
};

namespace {

/// Page-locked picture storage: host memory registered with the driver, so
/// the upload copies straight from the reader's picture. Large buffers are
/// 2 MiB aligned and advised as huge pages, which makes first touch (and
/// registration) several times cheaper than 4 KiB pages.
class PinnedAllocator final : public PictureAllocator {
public:
    explicit PinnedAllocator(const Context& ctx) : ctx_(ctx) {}
    std::uint8_t* allocate(std::size_t bytes) override {
        constexpr std::size_t kHuge = std::size_t{2} << 20;
        const std::size_t align = bytes >= kHuge ? kHuge : 64;
        const std::size_t size = (bytes + align - 1) / align * align;
        void* p = nullptr;
        if (posix_memalign(&p, align, size) != 0) throw std::bad_alloc();
        if (align == kHuge) madvise(p, size, MADV_HUGEPAGE);
        // First touch here, in the caller's thread, not under the driver's
        // lock (and, while the runtime is still starting, meanwhile).
        std::memset(p, 0, size);
        try {
            ctx_.bind();
        } catch (...) {
            std::free(p);
            throw;
        }
        const cudaError_t e = cudaHostRegister(p, size, cudaHostRegisterPortable);
        if (e != cudaSuccess) {
            std::free(p);
            cudaGetLastError();
            check(e, "cudaHostRegister");
        }
        return static_cast<std::uint8_t*>(p);
    }
    void deallocate(std::uint8_t* p, std::size_t) noexcept override {
        try {
            ctx_.bind();
            cudaHostUnregister(p);
            cudaGetLastError();
        } catch (...) {
        }
        std::free(p);
    }
    MemoryKind memory() const override { return MemoryKind::PinnedHost; }

private:
    Context ctx_;
};

cudaMemcpyKind copy_kind(MemoryKind m) {
    return m == MemoryKind::Device ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice;
}

}  // namespace

/// A few small page-locked buffers a frame's pieces pass through on their
/// way to the device: written by the reading thread and taken by the copy
/// while still in the CPU's caches, so host memory sees each byte read once
/// (whole-frame staging writes it out and reads it back). On a 16-core H200
/// host, tests/cuda/input_paths.cu moved 42.6 GB/s from the page cache to the
/// device in 2 MiB pieces at 8 threads against 29.6 GB/s in whole frames;
/// two pieces a ring, in huge pages, gave the engine its best rows
/// (docs/benchmarks.md, session 11).
struct Session::FeedRing {
    static constexpr std::size_t kPiece = std::size_t{2} << 20;
    static constexpr unsigned kPieces = 2;
    PinnedAllocator alloc;
    std::uint8_t* base;
    Event copied[kPieces];  ///< recorded after the copy that last read the piece
    explicit FeedRing(const Context& ctx) : alloc(ctx), base(alloc.allocate(kPiece * kPieces)) {}
    ~FeedRing() { alloc.deallocate(base, kPiece * kPieces); }
    FeedRing(const FeedRing&) = delete;
    FeedRing& operator=(const FeedRing&) = delete;
    std::uint8_t* buf(unsigned k) const { return base + k * kPiece; }
};

std::shared_ptr<PictureAllocator> upload_allocator(const BackendStartOptions& o) {
    if (::access(kDriverNode, F_OK) != 0) return nullptr;  // no GPU driver loaded here
    return std::make_shared<PinnedAllocator>(context_of(o));
}

std::optional<DeviceTarget> Session::device_target() const {
#if defined(VMAF_GPU_HIP)
    return std::nullopt;  // no decoder delivers frames in HIP memory
#else
    // A decoder's frames live in the device's primary context: a caller's own context cannot read them.
    if (context_.external_handle()) return std::nullopt;
    return DeviceTarget{"cuda", context_.device(), context_.native()};
#endif
}

std::shared_ptr<PictureAllocator> Session::picture_allocator() {
    if (!pinned_) pinned_ = std::make_shared<PinnedAllocator>(context_);
    return pinned_;
}

std::function<Picture()> Session::picture_supply(const VideoGeometry& geom, MemoryKind kind, unsigned keep) {
    if (kind == MemoryKind::Device) return device_picture_supply(context_, geom, keep);
    if (kind != MemoryKind::PinnedHost) return {};
    auto pool = std::make_shared<PicturePool>(geom, keep, std::make_shared<PinnedAllocator>(context_));
    pool->reserve(keep);
    return [pool] { return pool->acquire(); };
}

Session::Session(Context context) : context_(context) {}

Session::~Session() {
    // The staging is freed in the session's context. It stays current on
    // this thread for the twins, which the engine destroys after the session.
    try {
        bind();
    } catch (...) {
    }
    active_.clear();
    slots_.reset();
    results_.reset();
    rings_.reset();
    if (const char* v = std::getenv("VMAF_CUDA_MEMORY"); v && *v && std::strcmp(v, "0") != 0)
        std::fprintf(stderr, "vmaf: " VMAF_GPU_LABEL " device memory: %s\n", DeviceLedger::report().c_str());
}

bool Session::has_twin(std::string_view kind_name) const { return find_twin(kind_name) != nullptr; }

std::unique_ptr<FeatureExtractor> Session::create_extractor(const ExtractorInfo& kind, const OptionValues& opts,
                                                            const VideoGeometry& geom, const ExtractorContext& ctx) {
    const TwinDescriptor* t = find_twin(kind.name);
    if (!t) return nullptr;
    bind();
    DeviceLedger::Scope label(kind.name);
    return created(t->create(*this, kind, opts, geom, ctx));
}

std::unique_ptr<FeatureExtractor> Session::created(std::unique_ptr<FeatureExtractor> twin) {
    // A twin's constructor fills its tables with cudaMemcpy / cudaMemset on
    // the legacy default stream: a pageable copy may return before its DMA
    // lands, and the lanes' non-blocking streams never wait for that stream.
    // Done here, once, before any frame's kernels are enqueued.
    check(cudaStreamSynchronize(nullptr), "twin set-up");
    return twin;
}

std::unique_ptr<FeatureExtractor> Session::create_group_extractor(const ExtractorInfo& kind,
                                                                  std::span<const OptionValues* const> sets,
                                                                  const VideoGeometry& geom,
                                                                  const ExtractorContext& ctx) {
    const TwinDescriptor* t = find_twin(kind.name);
    if (!t || !t->create_group) return nullptr;
    bind();
    DeviceLedger::Scope label(kind.name);
    return created(t->create_group(*this, kind, sets, geom, ctx));
}

void Session::run_begin(const VideoGeometry& geom, const PlaneNeeds& needs) {
    bind();
    {
        std::lock_guard lk(m_);
        active_.clear();
        results_bytes_ = 0;
        results_sealed_ = false;
    }
    results_ = std::make_unique<Pool<FrameResults>>([this] {
        bind();
        DeviceLedger::Scope label("frame results");
        auto r = std::make_unique<FrameResults>();
        r->dev = DeviceBuffer(results_bytes_);
        r->host = PinnedBuffer(results_bytes_);
        return r;
    });
    if (!rings_)
        rings_ = std::make_unique<Pool<FeedRing>>([this] {
            bind();
            return std::make_unique<FeedRing>(context_);
        });
    geom_ = geom;
    chroma_ = needs.chroma && geom.format != PixelFormat::Yuv400;
    reference_ = needs.reference;
    const unsigned planes = chroma_ ? 3 : 1;
    const int sides = reference_ ? 2 : 1;  // staged pictures: the distorted one last
    const unsigned bps = geom.bpc > 8 ? 2 : 1;
    const ChromaShift cs = chroma_shift(geom.format);
    unsigned pw[3], ph[3];
    std::size_t bytes = 0;
    for (unsigned p = 0; p < planes; ++p) {
        pw[p] = p ? (geom.width + (1u << cs.x) - 1) >> cs.x : geom.width;
        ph[p] = p ? (geom.height + (1u << cs.y) - 1) >> cs.y : geom.height;
        bytes += static_cast<std::size_t>(sides) * pw[p] * bps * ph[p];
    }
    const unsigned bpc = geom.bpc;
    slot_cap_ = max_slots(bytes);
    feed_pieces_.clear();
    std::size_t to = 0;
    for (int side = 2 - sides; side < 2; ++side)
        for (unsigned p = 0; p < planes; ++p) {
            const std::size_t plane = static_cast<std::size_t>(pw[p]) * bps * ph[p];
            for (std::size_t at = 0; at < plane; at += FeedRing::kPiece)
                feed_pieces_.push_back({side, p, at, std::min(FeedRing::kPiece, plane - at), to + at});
            to += plane;
        }
    slots_ = std::make_unique<Pool<Slot>>([=, this] {
        bind();
        DeviceLedger::Scope label("frame slots");
        auto s = std::make_unique<Slot>();
        s->dev = DeviceBuffer(bytes);
        s->frame.planes = planes;
        s->frame.bpc = bpc;
        s->frame.ready = s->ready.get();
        std::size_t off = 0;
        for (int side = 2 - sides; side < 2; ++side)
            for (unsigned p = 0; p < planes; ++p) {
                DevicePlane& dp = side ? s->frame.dist[p] : s->frame.ref[p];
                dp.data = s->dev.get<std::uint8_t>() + off;
                dp.pitch = static_cast<std::size_t>(pw[p]) * bps;
                dp.width = pw[p];
                dp.height = ph[p];
                off += dp.pitch * ph[p];
            }
        if (sides == 1) std::copy(std::begin(s->frame.dist), std::end(s->frame.dist), std::begin(s->frame.ref));
        return s;
    });
}

void Session::run_end() {
    bind();  // staging still active is freed in the session's context
    std::lock_guard lk(m_);
    active_.clear();
}

std::unique_ptr<Session::Slot> Session::begin_slot() {
    bind();
    // A slot whose last frame is done, else a new one (up to slot_cap_), else
    // the longest-released one: its last upload and every reader registered
    // by add_reader() must be done before the staging is overwritten.
    std::unique_ptr<Slot> s = slots_->acquire_ready(
        [](Slot& x) { return cudaStreamQuery(x.stream.get()) == cudaSuccess; }, slot_cap_);
    check(cudaStreamSynchronize(s->stream.get()), "cudaStreamSynchronize");
    {
        std::lock_guard lk(m_);
        results_sealed_ = true;
    }
    if (results_bytes_) {
        s->results = acquire_results();
        check(cudaMemsetAsync(s->results->dev.get(), 0, results_bytes_, s->stream.get()), "cudaMemsetAsync");
    }
    s->direct = false;
    s->waited = false;
    return s;
}

void Session::activate(unsigned index, std::unique_ptr<Slot> s) {
    check(cudaEventRecord(s->ready.get(), s->stream.get()), "cudaEventRecord");
    std::lock_guard lk(m_);
    active_[index] = std::move(s);
}

bool Session::takes_plane_feed() const { return true; }

void Session::frame_begin_fed(unsigned index, const PlaneFeed& feed) {
    bind();
    std::unique_ptr<FeedRing> ring = rings_->acquire();
    const std::vector<FeedPiece>& list = feed_pieces_;
    // A ring's worth read before the slot is taken: a slot may still wait
    // for the GPU's work on an earlier frame, the reads need not.
    const std::size_t early = std::min<std::size_t>(list.size(), FeedRing::kPieces);
    const auto read = [&](std::size_t i) {
        const unsigned k = static_cast<unsigned>(i % FeedRing::kPieces);
        check(cudaEventSynchronize(ring->copied[k].get()), "cudaEventSynchronize");
        feed(index, list[i].side, list[i].plane, list[i].at, ring->buf(k), list[i].n);
    };
    std::unique_ptr<Slot> s;
    try {
        for (std::size_t i = 0; i < early; ++i) read(i);
        s = begin_slot();
        cudaStream_t st = s->stream.get();
        for (std::size_t i = 0; i < list.size(); ++i) {
            if (i >= early) read(i);
            const unsigned k = static_cast<unsigned>(i % FeedRing::kPieces);
            check(cudaMemcpyAsync(s->dev.get<std::uint8_t>() + list[i].to, ring->buf(k), list[i].n,
                                  cudaMemcpyHostToDevice, st),
                  "upload");
            check(cudaEventRecord(ring->copied[k].get(), st), "cudaEventRecord");
        }
    } catch (...) {
        // Copies already queued read the ring and write the slot: both go back only after them.
        if (s) {
            cudaStreamSynchronize(s->stream.get());
            s->results.reset();
            slots_->release(std::move(s));
        }
        rings_->release(std::move(ring));
        throw;
    }
    rings_->release(std::move(ring));
    activate(index, std::move(s));
}

void Session::frame_begin(unsigned index, const Picture& ref, const Picture& dist) {
    std::unique_ptr<Slot> s = begin_slot();
    cudaStream_t st = s->stream.get();
    std::size_t off = 0;       // of the plane in the staging layout
    std::size_t run_from = 0;  // start of the pageable planes packed and not yet uploaded
    // Pageable planes are packed into the pinned staging and uploaded in one
    // copy per run of consecutive ones (one copy when both pictures are pageable).
    auto upload_run = [&] {
        if (off > run_from)
            check(cudaMemcpyAsync(s->dev.get<std::uint8_t>() + run_from, s->host.get<std::uint8_t>() + run_from,
                                  off - run_from, cudaMemcpyHostToDevice, st),
                  "upload");
    };
    for (int side = reference_ ? 0 : 1; side < 2; ++side) {
        const Picture& pic = side ? dist : ref;
        if (pic.planes() < s->frame.planes) throw Error(ErrorKind::Internal, VMAF_GPU_NAME ": a luma-only picture where chroma is needed");
        if (pic.memory() != MemoryKind::Host) {
            upload_run();
            if (pic.memory() == MemoryKind::Device && !s->waited) {
                // The caller may have filled the picture with work still
                // queued on the context's legacy default stream (FFmpeg's
                // cuMemcpy2D): the copies below follow it.
                check(cudaEventRecord(s->caller.get(), cudaStreamLegacy), "cudaEventRecord");
                check(cudaStreamWaitEvent(st, s->caller.get(), 0), "cudaStreamWaitEvent");
                s->waited = true;
            }
            s->direct = true;
        }
        for (unsigned p = 0; p < s->frame.planes; ++p) {
            const DevicePlane& dp = side ? s->frame.dist[p] : s->frame.ref[p];
            const Plane& src = pic.plane(p);
            if (src.width != dp.width || src.height != dp.height)
                throw Error(ErrorKind::Input, VMAF_GPU_NAME ": picture geometry differs from the run's");
            if (pic.memory() == MemoryKind::Host) {
                if (!s->host.size()) s->host = PinnedBuffer(s->dev.size());
                std::uint8_t* host = s->host.get<std::uint8_t>();
                for (unsigned y = 0; y < dp.height; ++y)
                    std::memcpy(host + off + y * dp.pitch, src.row<const std::uint8_t>(y), dp.pitch);
            } else if (src.step != 1 || src.shift != 0) {
                // A GPU decoder's interleaved or shifted plane: made planar on the device.
                check(gather_plane(const_cast<void*>(dp.data), dp.pitch, src.data, static_cast<std::size_t>(src.stride),
                                   dp.width, dp.height, src.step, src.shift, pic.bytes_per_sample(), st),
                      "gather_plane");
            } else {
                // Page-locked host or device memory: copied straight in.
                check(cudaMemcpy2DAsync(const_cast<void*>(dp.data), dp.pitch, src.data, static_cast<std::size_t>(src.stride),
                                        dp.pitch, dp.height, copy_kind(pic.memory()), st),
                      "upload");
            }
            off += dp.pitch * dp.height;
        }
        if (pic.memory() != MemoryKind::Host) run_from = off;
    }
    upload_run();
    activate(index, std::move(s));
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
    // Copies that read the pictures directly must be complete before the
    // caller releases them. A batched frame's pictures are held until its
    // finish stage, which waits for the readback queued below, after the
    // copies: the worker goes on at once. Readers still running were registered
    // with add_reader(); frame_begin synchronises the slot's stream before reuse.
    if (s->direct && (!s->batched || std::uncaught_exceptions() > 0))
        check(cudaEventSynchronize(s->ready.get()), "cudaEventSynchronize");
    if (s->batched) {
        // The one readback of the frame: the slot's stream waits for every
        // batched twin's work (add_reader), so this copy follows it.
        FrameResults& r = *s->results;
        check(cudaMemcpyAsync(r.host.get(), r.dev.get(), results_bytes_, cudaMemcpyDeviceToHost, s->stream.get()),
              "readback");
        check(cudaEventRecord(r.copied.get(), s->stream.get()), "cudaEventRecord");
        r.issued = true;
    }
    s->results.reset();
    s->batched = false;
    slots_->release(std::move(s));
}

std::shared_ptr<FrameResults> Session::acquire_results() {
    std::unique_ptr<FrameResults> r = results_->acquire();
    // Last used by an earlier frame: its readback must be done before the
    // area is zeroed on another stream.
    if (r->issued) check(cudaEventSynchronize(r->copied.get()), "cudaEventSynchronize");
    r->issued = false;
    Pool<FrameResults>* pool = results_.get();
    return {r.release(), [pool](FrameResults* p) { pool->release(std::unique_ptr<FrameResults>(p)); }};
}

ResultArea Session::reserve_results(std::size_t bytes) {
    std::lock_guard lk(m_);
    if (results_sealed_) throw Error(ErrorKind::Internal, VMAF_GPU_NAME ": results reserved after the run's first frame");
    const ResultArea a{(results_bytes_ + 7) / 8 * 8, bytes};
    results_bytes_ = a.offset + bytes;
    return a;
}

void* Session::results_device(unsigned index, ResultArea a) {
    std::lock_guard lk(m_);
    return active(index).results->dev.get<std::uint8_t>() + a.offset;
}

Results Session::submit(unsigned index, ResultArea a, cudaStream_t s, cudaEvent_t done, Dispatch mode) {
    std::shared_ptr<FrameResults> r;
    if (mode == Dispatch::Batched) {
        check(cudaEventRecord(done, s), "cudaEventRecord");
        std::lock_guard lk(m_);
        Slot& slot = active(index);
        check(cudaStreamWaitEvent(slot.stream.get(), done, 0), "cudaStreamWaitEvent");
        slot.batched = true;
        return Results(slot.results, a, false);
    }
    {
        std::lock_guard lk(m_);
        r = active(index).results;
    }
    check(cudaMemcpyAsync(r->host.get<std::uint8_t>() + a.offset, r->dev.get<std::uint8_t>() + a.offset, a.bytes,
                          cudaMemcpyDeviceToHost, s),
          "readback");
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
    return Results(std::move(r), a, true);
}

Session::Slot& Session::active(unsigned index) {
    auto it = active_.find(index);
    if (it == active_.end()) throw Error(ErrorKind::Internal, VMAF_GPU_NAME ": frame " + std::to_string(index) + " is not staged");
    return *it->second;
}

void Session::add_reader(unsigned index, cudaEvent_t done) {
    std::lock_guard lk(m_);
    check(cudaStreamWaitEvent(active(index).stream.get(), done, 0), "cudaStreamWaitEvent");
}

const DeviceFrame& Session::frame(unsigned index) {
    std::lock_guard lk(m_);
    return active(index).frame;
}

}  // namespace vmaf::cuda

namespace vmaf {
extern const BackendDescriptor VMAF_GPU_DESCRIPTOR;
const BackendDescriptor VMAF_GPU_DESCRIPTOR{.name = VMAF_GPU_NAME,
                                     .start = &cuda::start,
                                     .create_state = &cuda::create_state,
                                     .upload_allocator = &cuda::upload_allocator,
                                     .save_thread = &cuda::save_current,
                                     .restore_thread = &cuda::restore_current};
}  // namespace vmaf
