#include "core/scratch.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <thread>

namespace vmaf {
namespace {

TEST(Scratch, ReusesMemoryAcrossScopes) {
    void* first = nullptr;
    {
        ScratchScope s;
        first = s.alloc<std::uint8_t>(1000);
        std::memset(first, 1, 1000);
    }
    ScratchScope s;
    EXPECT_EQ(s.alloc<std::uint8_t>(1000), first);
}

TEST(Scratch, AlignedDistinctAndNested) {
    ScratchScope outer;
    auto* a = outer.alloc<std::int32_t>(10);
    auto* b = outer.alloc<std::int32_t>(3 << 20);  // larger than one block
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a) % 64, 0u);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b) % 64, 0u);
    std::memset(b, 0xff, sizeof(std::int32_t) * (3 << 20));
    a[9] = 42;
    {
        ScratchScope inner;
        auto* c = inner.alloc<std::int32_t>(16);
        c[0] = 7;
        EXPECT_NE(static_cast<void*>(c), static_cast<void*>(a));
    }
    EXPECT_EQ(a[9], 42);
    auto* d = outer.alloc<std::int32_t>(16);  // reuses the inner scope's memory
    d[15] = 1;
    EXPECT_EQ(a[9], 42);
    EXPECT_EQ(b[(3 << 20) - 1], -1);
}

TEST(Scratch, CapacityStaysBoundedOverManyCalls) {
    std::size_t cap = 0;
    for (int frame = 0; frame < 200; ++frame) {
        ScratchScope s;
        for (std::size_t k = 1; k <= 5; ++k) s.alloc<double>(k * 50000);
        if (frame == 0) cap = ScratchArena::local().capacity();
    }
    EXPECT_EQ(ScratchArena::local().capacity(), cap);
}

TEST(Scratch, ThreadsHaveTheirOwnArena) {
    void* mine = nullptr;
    void* theirs = nullptr;
    ScratchScope s;
    mine = s.alloc<char>(64);
    std::thread t([&] {
        ScratchScope o;
        theirs = o.alloc<char>(64);
    });
    t.join();
    EXPECT_NE(mine, theirs);
}

}  // namespace
}  // namespace vmaf
