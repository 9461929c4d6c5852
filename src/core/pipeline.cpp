#include "core/pipeline.hpp"

#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

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

}  // namespace vmaf::engine_detail
