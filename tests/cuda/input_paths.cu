// How fast frames can go from a file in the page cache to the GPU, by path:
//
//   read      pread() into a per-thread pinned buffer, then a copy to the device
//   read-only the same pread()s without the copy (the host side alone)
//   register  the file mmap()ed once; each frame's pages registered
//             (cudaHostRegister, read-only), copied straight to the device by
//             DMA, unregistered
//   window    the mapping registered in windows of W frames, each window once;
//             frames copied by DMA from the registered window
//   mapcopy   memcpy from the mapping into a pinned buffer, then the copy
//   chunked   pread() in chunks of C bytes into a per-thread ring of R small
//             pinned buffers, each chunk copied to its place in the device
//             frame as soon as it is read (the ring stays in the CPU's cache,
//             so host memory sees the page cache read once); chunk-ro: the
//             same reads without the copies; chunk-copy: the copies
//             without the reads (the DMA side alone)
//
// Each of T threads takes the next frame number and keeps its own stream;
// the file is cycled for SECONDS per path. Prints GB/s and frames/s.
//
//   cuda_input_paths FILE FRAME_BYTES THREADS [SECONDS] [WINDOW_FRAMES]
// CHUNKS=C1,C2,... (bytes) and RING=R (default 4) set the chunked paths;
// STREAMS=S makes the chunk paths share S upload streams among the threads
// (default: each thread its own). PATHS=read,chunked,... picks the paths (default all).
// FILE is created (FRAME_BYTES x 64, non-zero bytes) if it does not exist.
#include <cuda_runtime.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

void need(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return;
    std::fprintf(stderr, "cuda_input_paths: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
}

struct Setup {
    int fd = -1;
    std::size_t frame = 0, frames = 0;
    const unsigned char* map = nullptr;
    unsigned threads = 1, window = 8;
    double seconds = 3;
};

using Body = std::function<void(unsigned thread, std::size_t frame_index, cudaStream_t s, void* dev, void* pinned)>;

double run(const Setup& su, const char* name, const Body& body) {
    std::atomic<std::uint64_t> next{0};
    std::atomic<bool> stop{false};
    std::vector<std::thread> ts;
    std::atomic<std::uint64_t> done{0};
    const auto t0 = std::chrono::steady_clock::now();
    for (unsigned t = 0; t < su.threads; ++t)
        ts.emplace_back([&, t] {
            cudaStream_t s;
            need(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
            void* dev = nullptr;
            void* pinned = nullptr;
            need(cudaMalloc(&dev, su.frame), "cudaMalloc");
            need(cudaHostAlloc(&pinned, su.frame, cudaHostAllocPortable), "cudaHostAlloc");
            while (!stop.load(std::memory_order_relaxed)) {
                const std::uint64_t k = next.fetch_add(1);
                body(t, k % su.frames, s, dev, pinned);
                done.fetch_add(1);
            }
            cudaFree(dev);
            cudaFreeHost(pinned);
            cudaStreamDestroy(s);
        });
    std::this_thread::sleep_for(std::chrono::duration<double>(su.seconds));
    stop = true;
    for (auto& th : ts) th.join();
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double fps = done.load() / secs;
    std::printf("%-10s threads %2u  %8.1f frames/s  %6.1f GB/s\n", name, su.threads, fps, fps * su.frame / 1e9);
    std::fflush(stdout);
    return fps;
}

void pread_all(int fd, void* dst, std::size_t n, off_t at) {
    auto* p = static_cast<unsigned char*>(dst);
    while (n) {
        const ssize_t r = pread(fd, p, n, at);
        if (r <= 0) {
            std::perror("pread");
            std::exit(1);
        }
        p += r;
        n -= static_cast<std::size_t>(r);
        at += r;
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: cuda_input_paths FILE FRAME_BYTES THREADS [SECONDS] [WINDOW_FRAMES]\n");
        return 2;
    }
    Setup su;
    su.frame = std::strtoull(argv[2], nullptr, 10);
    su.threads = static_cast<unsigned>(std::atoi(argv[3]));
    if (argc > 4) su.seconds = std::atof(argv[4]);
    if (argc > 5) su.window = static_cast<unsigned>(std::atoi(argv[5]));
    struct stat sb {};
    if (stat(argv[1], &sb) != 0) {
        const int fd = open(argv[1], O_WRONLY | O_CREAT, 0644);
        std::vector<unsigned char> buf(su.frame);
        for (std::size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<unsigned char>(i * 2654435761u >> 13);
        for (int k = 0; k < 64; ++k)
            if (write(fd, buf.data(), buf.size()) != static_cast<ssize_t>(buf.size())) return 1;
        close(fd);
        stat(argv[1], &sb);
    }
    su.fd = open(argv[1], O_RDONLY);
    su.frames = static_cast<std::size_t>(sb.st_size) / su.frame;
    {  // into the page cache
        std::vector<unsigned char> buf(1 << 24);
        while (read(su.fd, buf.data(), buf.size()) > 0) {
        }
    }
    need(cudaSetDevice(0), "cudaSetDevice");
    void* m = mmap(nullptr, su.frames * su.frame, PROT_READ, MAP_SHARED | MAP_POPULATE, su.fd, 0);
    if (m == MAP_FAILED) {
        std::perror("mmap");
        return 1;
    }
    su.map = static_cast<const unsigned char*>(m);
    std::printf("file %s: %zu frames of %zu bytes\n", argv[1], su.frames, su.frame);
    const long page = sysconf(_SC_PAGESIZE);
    const std::string paths = std::getenv("PATHS") ? std::getenv("PATHS") : "";
    const auto want = [&](const char* name) {
        if (paths.empty()) return true;
        const std::string p = "," + paths + ",";
        return p.find("," + std::string(name) + ",") != std::string::npos;
    };
    std::vector<std::size_t> chunks;
    {
        std::string c = std::getenv("CHUNKS") ? std::getenv("CHUNKS") : "1048576";
        for (std::size_t at = 0; at < c.size();) {
            const std::size_t comma = c.find(',', at);
            chunks.push_back(std::strtoull(c.substr(at, comma - at).c_str(), nullptr, 10));
            at = comma == std::string::npos ? c.size() : comma + 1;
        }
    }
    std::vector<cudaStream_t> shared(std::getenv("STREAMS") ? std::atoi(std::getenv("STREAMS")) : 0);
    for (cudaStream_t& st : shared) need(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking), "stream");
    const auto upload_stream = [&](unsigned t, cudaStream_t own) {
        return shared.empty() ? own : shared[t % shared.size()];
    };
    const unsigned ring = std::getenv("RING") ? static_cast<unsigned>(std::atoi(std::getenv("RING"))) : 4;
    for (const std::size_t chunk : chunks) {
        // Per-thread rings, made on first use by the thread that owns them.
        struct Ring {
            std::vector<void*> bufs;
            std::vector<cudaEvent_t> used;
            unsigned next = 0;
        };
        std::vector<Ring> rings(su.threads);
        const auto ring_of = [&](unsigned t) -> Ring& {
            Ring& r = rings[t];
            if (r.bufs.empty()) {
                r.bufs.resize(ring);
                r.used.resize(ring);
                for (unsigned i = 0; i < ring; ++i) {
                    need(cudaHostAlloc(&r.bufs[i], chunk, cudaHostAllocPortable), "ring alloc");
                    need(cudaEventCreateWithFlags(&r.used[i], cudaEventDisableTiming), "event");
                }
            }
            return r;
        };
        char name[64];
        std::snprintf(name, sizeof name, "chunk-ro %zuK", chunk >> 10);
        if (want("chunk-ro"))
            run(su, name, [&](unsigned t, std::size_t k, cudaStream_t, void*, void*) {
                Ring& r = ring_of(t);
                for (std::size_t at = 0; at < su.frame; at += chunk) {
                    const std::size_t n = std::min(chunk, su.frame - at);
                    pread_all(su.fd, r.bufs[r.next], n, static_cast<off_t>(k * su.frame + at));
                    r.next = (r.next + 1) % ring;
                }
            });
        // One frame through the ring: each piece read (or not) and copied to its place.
        const auto pieces = [&](bool read, unsigned t, std::size_t k, cudaStream_t own, void* dev) {
            const cudaStream_t s = upload_stream(t, own);
            Ring& r = ring_of(t);
            for (std::size_t at = 0; at < su.frame; at += chunk) {
                const std::size_t n = std::min(chunk, su.frame - at);
                need(cudaEventSynchronize(r.used[r.next]), "ring wait");
                if (read) pread_all(su.fd, r.bufs[r.next], n, static_cast<off_t>(k * su.frame + at));
                need(cudaMemcpyAsync(static_cast<unsigned char*>(dev) + at, r.bufs[r.next], n, cudaMemcpyHostToDevice,
                                     s),
                     "copy");
                need(cudaEventRecord(r.used[r.next], s), "record");
                r.next = (r.next + 1) % ring;
            }
            need(cudaEventSynchronize(r.used[(r.next + ring - 1) % ring]), "frame wait");
        };
        std::snprintf(name, sizeof name, "chunked %zuK", chunk >> 10);
        if (want("chunked"))
            run(su, name, [&](unsigned t, std::size_t k, cudaStream_t own, void* dev, void*) {
                pieces(true, t, k, own, dev);
            });
        std::snprintf(name, sizeof name, "chunk-copy %zuK", chunk >> 10);
        if (want("chunk-copy"))
            run(su, name, [&](unsigned t, std::size_t k, cudaStream_t own, void* dev, void*) {
                pieces(false, t, k, own, dev);
            });
        for (Ring& r : rings)
            for (unsigned i = 0; i < r.bufs.size(); ++i) {
                cudaFreeHost(r.bufs[i]);
                cudaEventDestroy(r.used[i]);
            }
    }
    if (!want("read-only") && !want("read") && !want("mapcopy") && !want("register") && !want("window")) return 0;

    if (want("read-only")) run(su, "read-only", [&](unsigned, std::size_t k, cudaStream_t, void*, void* pinned) {
        pread_all(su.fd, pinned, su.frame, static_cast<off_t>(k * su.frame));
    });
    if (want("read")) run(su, "read", [&](unsigned, std::size_t k, cudaStream_t s, void* dev, void* pinned) {
        pread_all(su.fd, pinned, su.frame, static_cast<off_t>(k * su.frame));
        need(cudaMemcpyAsync(dev, pinned, su.frame, cudaMemcpyHostToDevice, s), "copy");
        need(cudaStreamSynchronize(s), "sync");
    });
    if (want("mapcopy")) run(su, "mapcopy", [&](unsigned, std::size_t k, cudaStream_t s, void* dev, void* pinned) {
        std::memcpy(pinned, su.map + k * su.frame, su.frame);
        need(cudaMemcpyAsync(dev, pinned, su.frame, cudaMemcpyHostToDevice, s), "copy");
        need(cudaStreamSynchronize(s), "sync");
    });
    // A frame is registered by one thread at a time (two threads can hold the
    // same frame when the file is shorter than the frames in flight).
    std::vector<std::mutex> frame_locks(su.frames);
    if (want("register")) run(su, "register", [&](unsigned, std::size_t k, cudaStream_t s, void* dev, void*) {
        std::lock_guard<std::mutex> frame_lock(frame_locks[k]);
        const std::size_t begin = k * su.frame / page * page;
        const std::size_t end = ((k + 1) * su.frame + page - 1) / page * page;
        void* p = const_cast<unsigned char*>(su.map) + begin;
        need(cudaHostRegister(p, end - begin, cudaHostRegisterReadOnly | cudaHostRegisterPortable), "register");
        need(cudaMemcpyAsync(dev, su.map + k * su.frame, su.frame, cudaMemcpyHostToDevice, s), "copy");
        need(cudaStreamSynchronize(s), "sync");
        need(cudaHostUnregister(p), "unregister");
    });
    if (want("window")) {
        // Windows of su.window frames, each registered by the first thread to
        // need it and released when every frame of it is done.
        struct Window {
            std::mutex m;
            unsigned users = 0, done = 0;
            bool registered = false;
            void* p = nullptr;
        };
        const std::size_t nwin = (su.frames + su.window - 1) / su.window;
        std::vector<Window> wins(nwin);
        run(su, "window", [&](unsigned, std::size_t k, cudaStream_t s, void* dev, void*) {
            Window& w = wins[k / su.window];
            const std::size_t first = k / su.window * su.window;
            const std::size_t count = std::min<std::size_t>(su.window, su.frames - first);
            {
                std::lock_guard<std::mutex> g(w.m);
                if (!w.registered) {
                    const std::size_t begin = first * su.frame / page * page;
                    const std::size_t end = ((first + count) * su.frame + page - 1) / page * page;
                    w.p = const_cast<unsigned char*>(su.map) + begin;
                    need(cudaHostRegister(w.p, end - begin, cudaHostRegisterReadOnly | cudaHostRegisterPortable),
                         "register window");
                    w.registered = true;
                }
            }
            need(cudaMemcpyAsync(dev, su.map + k * su.frame, su.frame, cudaMemcpyHostToDevice, s), "copy");
            need(cudaStreamSynchronize(s), "sync");
            std::lock_guard<std::mutex> g(w.m);
            if (++w.done == count) {
                need(cudaHostUnregister(w.p), "unregister window");
                w.registered = false;
                w.done = 0;
            }
        });
    }
    return 0;
}
