// Pool's limit: acquire() never makes more objects than its limit, waits for
// a release instead, and hands out the longest-released one first.
#include "backends/cuda/cuda_util.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace vmaf::cuda {
namespace {

TEST(CudaPool, AcquireWaitsAtTheLimit) {
    std::atomic<int> made{0};
    Pool<int> pool([&] { return std::make_unique<int>(made++); }, 2);
    auto a = pool.acquire();
    auto b = pool.acquire();
    EXPECT_EQ(made.load(), 2);
    std::atomic<bool> got{false};
    std::unique_ptr<int> c;
    std::thread t([&] {
        c = pool.acquire();
        got = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_FALSE(got.load());  // waits: two exist and both are out
    pool.release(std::move(a));
    t.join();
    EXPECT_TRUE(got.load());
    EXPECT_EQ(*c, 0);  // the released one, not a third
    EXPECT_EQ(made.load(), 2);
}

TEST(CudaPool, ManyThreadsNeverExceedTheLimit) {
    std::atomic<int> made{0}, out{0}, most{0};
    Pool<int> pool([&] { return std::make_unique<int>(made++); }, 3);
    std::vector<std::thread> ts;
    for (int k = 0; k < 8; ++k)
        ts.emplace_back([&] {
            for (int i = 0; i < 200; ++i) {
                Lease<int> l(pool);
                const int now = ++out;
                for (int m = most.load(); now > m && !most.compare_exchange_weak(m, now);) {
                }
                std::this_thread::yield();
                --out;
            }
        });
    for (auto& t : ts) t.join();
    EXPECT_LE(made.load(), 3);
    EXPECT_LE(most.load(), 3);
}

TEST(CudaPool, FirstInFirstOutAndUnlimitedByDefault) {
    int n = 0;
    Pool<int> pool([&] { return std::make_unique<int>(n++); });
    std::vector<std::unique_ptr<int>> held;
    for (int k = 0; k < 5; ++k) held.push_back(pool.acquire());
    EXPECT_EQ(n, 5);
    pool.release(std::move(held[3]));
    pool.release(std::move(held[1]));
    EXPECT_EQ(*pool.acquire(), 3);
    EXPECT_EQ(*pool.acquire(), 1);
}

TEST(CudaPool, AFailedMakeFreesItsPlace) {
    int calls = 0;
    Pool<int> pool(
        [&]() -> std::unique_ptr<int> {
            if (calls++ == 0) throw std::runtime_error("no memory");
            return std::make_unique<int>(7);
        },
        1);
    EXPECT_THROW(pool.acquire(), std::runtime_error);
    EXPECT_EQ(*pool.acquire(), 7);  // the limit's place was given back
}

}  // namespace
}  // namespace vmaf::cuda
