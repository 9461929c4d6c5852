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
//
// Each of T threads takes the next frame number and keeps its own stream;
// the file is cycled for SECONDS per path. Prints GB/s and frames/s.
//
//   cuda_input_paths FILE FRAME_BYTES THREADS [SECONDS] [WINDOW_FRAMES]
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

    run(su, "read-only", [&](unsigned, std::size_t k, cudaStream_t, void*, void* pinned) {
        pread_all(su.fd, pinned, su.frame, static_cast<off_t>(k * su.frame));
    });
    run(su, "read", [&](unsigned, std::size_t k, cudaStream_t s, void* dev, void* pinned) {
        pread_all(su.fd, pinned, su.frame, static_cast<off_t>(k * su.frame));
        need(cudaMemcpyAsync(dev, pinned, su.frame, cudaMemcpyHostToDevice, s), "copy");
        need(cudaStreamSynchronize(s), "sync");
    });
    run(su, "mapcopy", [&](unsigned, std::size_t k, cudaStream_t s, void* dev, void* pinned) {
        std::memcpy(pinned, su.map + k * su.frame, su.frame);
        need(cudaMemcpyAsync(dev, pinned, su.frame, cudaMemcpyHostToDevice, s), "copy");
        need(cudaStreamSynchronize(s), "sync");
    });
    // A frame is registered by one thread at a time (two threads can hold the
    // same frame when the file is shorter than the frames in flight).
    std::vector<std::mutex> frame_locks(su.frames);
    run(su, "register", [&](unsigned, std::size_t k, cudaStream_t s, void* dev, void*) {
        std::lock_guard<std::mutex> frame_lock(frame_locks[k]);
        const std::size_t begin = k * su.frame / page * page;
        const std::size_t end = ((k + 1) * su.frame + page - 1) / page * page;
        void* p = const_cast<unsigned char*>(su.map) + begin;
        need(cudaHostRegister(p, end - begin, cudaHostRegisterReadOnly | cudaHostRegisterPortable), "register");
        need(cudaMemcpyAsync(dev, su.map + k * su.frame, su.frame, cudaMemcpyHostToDevice, s), "copy");
        need(cudaStreamSynchronize(s), "sync");
        need(cudaHostUnregister(p), "unregister");
    });
    {
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
