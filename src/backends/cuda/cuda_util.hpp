// Small RAII wrappers and helpers over the CUDA runtime, shared by the CUDA
// session and the feature twins. Host code only (compiled by the C++ compiler).
#pragma once

#include "backends/gpu/portability.hpp"
#include "backends/cuda/device_ledger.hpp"

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "vmaf/error.hpp"

namespace vmaf::cuda {

/// Throws vmaf::Error(Internal) naming `what` when `e` is not cudaSuccess.
inline void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw Error(ErrorKind::Internal, std::string(VMAF_GPU_LABEL ": ") + what + ": " + cudaGetErrorString(e));
}

/// Owner of one CUDA allocation; `Memory` provides alloc(bytes) and release(p).
template <typename Memory>
class CudaBuffer {
public:
    CudaBuffer() = default;
    explicit CudaBuffer(std::size_t bytes) : bytes_(bytes) {
        if (bytes) p_ = Memory::alloc(bytes);
    }
    ~CudaBuffer() {
        if (p_) Memory::release(p_, bytes_);
    }
    CudaBuffer(CudaBuffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
    CudaBuffer& operator=(CudaBuffer&& o) noexcept {
        std::swap(p_, o.p_);
        std::swap(bytes_, o.bytes_);
        return *this;
    }
    template <typename T = void>
    T* get() const {
        return static_cast<T*>(p_);
    }
    std::size_t size() const { return bytes_; }

private:
    void* p_ = nullptr;
    std::size_t bytes_ = 0;
};

struct DeviceMemory {
    static void* alloc(std::size_t bytes) {
        void* p = nullptr;
        check(cudaMalloc(&p, bytes), "cudaMalloc");
        DeviceLedger::allocated(bytes);
        return p;
    }
    static void release(void* p, std::size_t bytes) {
        cudaFree(p);
        DeviceLedger::freed(bytes);
    }
};

struct PinnedMemory {
    static void* alloc(std::size_t bytes) {
        void* p = nullptr;
        check(cudaHostAlloc(&p, bytes, cudaHostAllocDefault), "cudaHostAlloc");
        return p;
    }
    static void release(void* p, std::size_t) { cudaFreeHost(p); }
};

/// Device memory.
using DeviceBuffer = CudaBuffer<DeviceMemory>;
/// Page-locked host memory (staging for uploads and readbacks).
using PinnedBuffer = CudaBuffer<PinnedMemory>;

class Stream {
public:
    Stream() { check(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking), "cudaStreamCreate"); }
    ~Stream() {
        if (s_) cudaStreamDestroy(s_);
    }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    cudaStream_t get() const { return s_; }
    void sync() const { check(cudaStreamSynchronize(s_), "cudaStreamSynchronize"); }

private:
    cudaStream_t s_ = nullptr;
};

class Event {
public:
    Event() { check(cudaEventCreateWithFlags(&e_, cudaEventDisableTiming), "cudaEventCreate"); }
    ~Event() {
        if (e_) cudaEventDestroy(e_);
    }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    cudaEvent_t get() const { return e_; }

private:
    cudaEvent_t e_ = nullptr;
};

/// A free list of reusable objects (work contexts, buffers): acquire() makes
/// no more than were ever in use at once (and, with a `limit`, no more than
/// that: it then waits for a release), acquire_ready() up to its cap, so
/// memory is bounded by concurrency. First in, first out: the object handed out is the one released longest
/// ago, whose queued device work is the most likely to be done (a frame slot
/// released a moment ago still has that frame's kernels queued; reusing it
/// first would make the next frame wait for them).
template <typename T>
class Pool {
public:
    explicit Pool(std::function<std::unique_ptr<T>()> make, std::size_t limit = SIZE_MAX)
        : make_(std::move(make)), limit_(limit) {}

    /// With a limit, callers must not hold an object of this pool while
    /// waiting for anything but the device (the wait is for a holder to release one).
    std::unique_ptr<T> acquire() {
        std::unique_lock lk(m_);
        for (;;) {
            if (!free_.empty()) {
                auto p = std::move(free_.front());
                free_.pop_front();
                return p;
            }
            if (made_ < limit_) break;
            released_.wait(lk);
        }
        ++made_;  // reserved before it exists: no more than the limit are made at once
        lk.unlock();
        try {
            return make_();
        } catch (...) {
            lk.lock();
            --made_;
            released_.notify_one();
            throw;
        }
    }
    /// The longest-released object for which `ready` holds; else a new one
    /// while fewer than `cap` exist; else the longest-released one.
    std::unique_ptr<T> acquire_ready(const std::function<bool(T&)>& ready, std::size_t cap) {
        {
            std::lock_guard lk(m_);
            auto it = free_.begin();
            while (it != free_.end() && !ready(**it)) ++it;
            if (it == free_.end() && made_ >= cap && !free_.empty()) it = free_.begin();
            if (it != free_.end()) {
                auto p = std::move(*it);
                free_.erase(it);
                return p;
            }
            ++made_;
        }
        try {
            return make_();
        } catch (...) {
            std::lock_guard lk(m_);
            --made_;
            throw;
        }
    }
    void release(std::unique_ptr<T> p) {
        if (!p) return;
        {
            std::lock_guard lk(m_);
            free_.push_back(std::move(p));
        }
        released_.notify_one();
    }
    void clear() {
        std::lock_guard lk(m_);
        made_ -= free_.size();
        free_.clear();
    }

private:
    std::function<std::unique_ptr<T>()> make_;
    const std::size_t limit_;
    std::mutex m_;
    std::condition_variable released_;
    std::deque<std::unique_ptr<T>> free_;
    std::size_t made_ = 0;
};

/// RAII lease of a pooled object.
template <typename T>
class Lease {
public:
    explicit Lease(Pool<T>& pool) : pool_(pool), p_(pool.acquire()) {}
    ~Lease() { pool_.release(std::move(p_)); }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    T* operator->() const { return p_.get(); }
    T& operator*() const { return *p_; }

private:
    Pool<T>& pool_;
    std::unique_ptr<T> p_;
};

}  // namespace vmaf::cuda
