// Per-thread scratch memory for compute(): a bump allocator over blocks that
// are kept between calls, so per-frame buffers cost neither an allocation nor
// page faults after the first frames. Memory is NOT zeroed.
//
// Usage, at the top of a compute() (which must not call another extractor):
//     ScratchScope scope;                       // releases everything on exit
//     auto* rows = scope.alloc<std::int32_t>(n); // 64-byte aligned
// Scopes nest (an inner scope releases only what it allocated).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace vmaf {

class ScratchArena {
public:
    /// The calling thread's arena.
    static ScratchArena& local();

    void* alloc(std::size_t bytes);
    std::size_t mark() const { return used_total(); }
    /// Releases everything allocated after `mark` (keeps the memory).
    void release(std::size_t mark);
    /// Bytes currently held by this thread's arena.
    std::size_t capacity() const;

private:
    struct Block {
        std::unique_ptr<std::uint8_t, void (*)(void*)> mem{nullptr, nullptr};
        std::size_t size = 0, used = 0;
    };
    std::size_t used_total() const;
    std::vector<Block> blocks_;
    std::size_t current_ = 0;  ///< index of the block being filled
};

class ScratchScope {
public:
    ScratchScope() : arena_(ScratchArena::local()), mark_(arena_.mark()) {}
    ~ScratchScope() { arena_.release(mark_); }
    ScratchScope(const ScratchScope&) = delete;
    ScratchScope& operator=(const ScratchScope&) = delete;

    /// `n` uninitialised objects of trivial type T, 64-byte aligned.
    template <typename T>
    T* alloc(std::size_t n) {
        return static_cast<T*>(arena_.alloc(n * sizeof(T)));
    }

private:
    ScratchArena& arena_;
    std::size_t mark_;
};

}  // namespace vmaf
