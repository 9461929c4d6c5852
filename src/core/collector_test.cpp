#include "core/collector.hpp"

#include <gtest/gtest.h>

namespace vmaf {
namespace {

TEST(Collector, OrderIsFirstWrite) {
    FeatureCollector fc;
    const Slot a = fc.slot("a"), b = fc.slot("b"), c = fc.slot("c");
    fc.write(c, 0, 1.0);
    fc.write(a, 0, 2.0);
    fc.write(b, 1, 3.0);  // b appears only from frame 1
    fc.write(b, 0, 4.0);
    EXPECT_EQ(fc.written_order(), (std::vector<Slot>{c, a, b}));
    EXPECT_EQ(fc.slot("a"), a);
    EXPECT_EQ(fc.frame_span(), 2u);
    EXPECT_TRUE(fc.has(b, 1));
    EXPECT_FALSE(fc.has(a, 1));
}

TEST(Collector, KeysOrderedAfterFramesComeLast) {
    FeatureCollector fc;
    const Slot late = fc.slot("integer_motion2"), model = fc.slot("vmaf"), a = fc.slot("a"), b = fc.slot("motion3");
    fc.order_after_frames(late);
    fc.order_after_frames(model);
    fc.write(a, 0, 1.0);
    fc.write(late, 0, 2.0);  // written early here; upstream writes it at flush
    fc.write(model, 0, 3.0);
    fc.write(b, 0, 4.0);  // first written at frame 1 by upstream, still before flush keys
    EXPECT_EQ(fc.written_order(), (std::vector<Slot>{a, b, late, model}));
}

TEST(Collector, PoolingMatchesUpstreamFormulas) {
    FeatureCollector fc;
    const Slot s = fc.slot("x");
    const double v[] = {1.0, 4.0, 2.0, 8.0};
    for (unsigned i = 0; i < 4; ++i) fc.write(s, i, v[i]);
    EXPECT_EQ(*fc.pool(s, PoolMethod::Min, 4, 1), 1.0);
    EXPECT_EQ(*fc.pool(s, PoolMethod::Max, 4, 1), 8.0);
    EXPECT_EQ(*fc.pool(s, PoolMethod::Mean, 4, 1), 15.0 / 4);
    double inv = 0;
    for (double x : v) inv += 1.0 / (x + 1.0);
    EXPECT_EQ(*fc.pool(s, PoolMethod::HarmonicMean, 4, 1), 4 / inv - 1.0);
    // subsample 2 pools frames 0 and 2
    EXPECT_EQ(*fc.pool(s, PoolMethod::Mean, 4, 2), 1.5);
    EXPECT_FALSE(fc.pool(s, PoolMethod::Mean, 5, 1).has_value());  // frame 4 missing
}

TEST(Collector, Aggregates) {
    FeatureCollector fc;
    fc.write_aggregate("apsnr_y", 30.0);
    fc.write_aggregate("apsnr_cb", 40.0);
    fc.write_aggregate("apsnr_y", 31.0);
    ASSERT_EQ(fc.aggregates().size(), 2u);
    EXPECT_EQ(fc.aggregates()[0].second, 31.0);
}

}  // namespace
}  // namespace vmaf
