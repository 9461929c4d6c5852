// usage: consumer REF.yuv DIST.yuv WIDTH HEIGHT
// Prints the pooled VMAF v0.6.1 score with %.17g.
#include <cstdio>
#include <cstdlib>

#include "vmaf/engine.hpp"

int main(int argc, char** argv) {
    if (argc != 5) return 2;
    const vmaf::VideoGeometry geom{vmaf::PixelFormat::Yuv420, 8, static_cast<unsigned>(std::atoi(argv[3])),
                                   static_cast<unsigned>(std::atoi(argv[4]))};
    try {
        auto ref = vmaf::open_yuv(argv[1], geom);
        auto dist = vmaf::open_yuv(argv[2], geom);
        vmaf::Engine engine;
        vmaf::ModelRequest model;
        model.version = "vmaf_v0.6.1";
        engine.add_model(model);
        engine.run(*ref, *dist);
        std::printf("%.17g\n", *engine.pooled_mean("vmaf"));
    } catch (const vmaf::Error& e) {
        std::fprintf(stderr, "consumer: %s\n", e.what());
        return 1;
    }
    return 0;
}
