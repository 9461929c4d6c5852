#include "core/pipeline.hpp"

#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <memory>

namespace vmaf::engine_detail {

void run_stages(const Stages& s, unsigned threads, unsigned in_flight) {
    if (threads == 0) {
        Token t;
        while (s.read(t)) {
            s.work(t, false);
            s.collect(t);
        }
        return;
    }
    using Ptr = std::shared_ptr<Token>;
    tbb::task_arena arena(static_cast<int>(threads));
    arena.execute([&] {
        tbb::parallel_pipeline(
            in_flight,
            tbb::make_filter<void, Ptr>(tbb::filter_mode::serial_in_order,
                                        [&](tbb::flow_control& fc) -> Ptr {
                                            auto t = std::make_shared<Token>();
                                            if (!s.read(*t)) {
                                                fc.stop();
                                                return nullptr;
                                            }
                                            return t;
                                        }) &
                tbb::make_filter<Ptr, Ptr>(tbb::filter_mode::parallel,
                                           [&](Ptr t) {
                                               s.work(*t, true);
                                               return t;
                                           }) &
                tbb::make_filter<Ptr, void>(tbb::filter_mode::serial_in_order, [&](Ptr t) { s.collect(*t); }));
    });
}

unsigned pairs_in_flight(const VideoGeometry& g, bool luma_only, unsigned threads, bool gpu) {
    const unsigned cpu = threads * 2 + 1;
    if (!gpu) return cpu;
    const Picture probe(g.format, g.bpc, g.width, 1);
    const ChromaShift cs = chroma_shift(g.format);
    const unsigned planes = luma_only ? 1 : probe.planes();
    std::size_t picture = 0;
    for (unsigned p = 0; p < planes; ++p) {
        const std::size_t rows = p ? (g.height + (1u << cs.y) - 1) >> cs.y : g.height;
        picture += static_cast<std::size_t>(probe.plane(p).stride) * rows;
    }
    constexpr std::size_t kBudget = std::size_t{512} << 20;
    const std::size_t fit = std::clamp<std::size_t>(kBudget / (2 * picture), 4, 16);
    return static_cast<unsigned>(std::min<std::size_t>(cpu, fit));
}

}  // namespace vmaf::engine_detail
