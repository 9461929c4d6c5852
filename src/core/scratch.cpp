#include "core/scratch.hpp"

#include <cstdlib>
#include <new>

namespace vmaf {

namespace {
constexpr std::size_t kAlign = 64;
constexpr std::size_t kMinBlock = std::size_t{1} << 20;
std::size_t round_up(std::size_t v) { return (v + kAlign - 1) / kAlign * kAlign; }
}  // namespace

ScratchArena& ScratchArena::local() {
    thread_local ScratchArena arena;
    return arena;
}

std::size_t ScratchArena::used_total() const {
    // Blocks before current_ are full as far as marks are concerned.
    std::size_t total = 0;
    for (std::size_t i = 0; i < blocks_.size() && i <= current_; ++i) total += (i < current_ ? blocks_[i].size : blocks_[i].used);
    return total;
}

void* ScratchArena::alloc(std::size_t bytes) {
    bytes = round_up(bytes ? bytes : 1);
    // Bytes skipped at the end of a block count as used, so marks stay monotonic.
    while (current_ < blocks_.size()) {
        Block& b = blocks_[current_];
        if (b.size - b.used >= bytes) {
            void* p = b.mem.get() + b.used;
            b.used += bytes;
            return p;
        }
        if (current_ + 1 == blocks_.size()) break;
        ++current_;
        blocks_[current_].used = 0;
    }
    Block nb;
    nb.size = round_up(bytes > kMinBlock ? bytes : kMinBlock);
    void* mem = std::aligned_alloc(kAlign, nb.size);
    if (!mem) throw std::bad_alloc();
    nb.mem = std::unique_ptr<std::uint8_t, void (*)(void*)>(static_cast<std::uint8_t*>(mem), std::free);
    nb.used = bytes;
    if (!blocks_.empty() && blocks_[current_].used == 0 && current_ + 1 == blocks_.size()) {
        // Replace an empty last block that was too small.
        blocks_[current_] = std::move(nb);
    } else {
        blocks_.push_back(std::move(nb));
        current_ = blocks_.size() - 1;
    }
    return blocks_[current_].mem.get();
}

void ScratchArena::release(std::size_t mark) {
    std::size_t offset = 0;
    for (std::size_t i = 0; i < blocks_.size(); ++i) {
        if (mark <= offset + blocks_[i].size) {
            blocks_[i].used = mark - offset;
            current_ = i;
            return;
        }
        offset += blocks_[i].size;
    }
}

std::size_t ScratchArena::capacity() const {
    std::size_t total = 0;
    for (const auto& b : blocks_) total += b.size;
    return total;
}

}  // namespace vmaf
