// libFuzzer target: the raw YUV reader. The geometry (width, height, pixel
// format, bit depth, all unchecked values) comes from the input's first 10
// bytes, the file content from the rest. Bad geometry must be refused with
// vmaf::Error before any allocation; frames are read in order, out of order
// and skipped. Any exception other than vmaf::Error is a finding.
#include <cstdint>

#include "fuzz_util.hpp"
#include "vmaf/error.hpp"
#include "vmaf/video_source.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static vmaf::fuzz::MemFile file;
    vmaf::fuzz::Bytes in(data, size);
    vmaf::VideoGeometry g;
    // Mostly small sizes (fast runs) but any 32-bit value now and then.
    const std::uint8_t shape = in.u8();
    g.width = shape & 0x80 ? in.u32() : in.u8();
    g.height = shape & 0x40 ? in.u32() : in.u8();
    g.format = static_cast<vmaf::PixelFormat>(shape & 7);  // 4..7 are not formats
    const std::uint8_t depth = in.u8();
    g.bpc = depth & 0x80 ? depth : (depth & 0x40 ? 16u : 8u + 2u * (depth & 3));
    const std::uint8_t mode = in.u8();
    const std::string& path = file.set(in.rest());
    try {
        auto src = vmaf::open_yuv(path, g);
        if (mode & 1) {
            vmaf::ReadPlan plan;
            plan.luma_only = true;
            plan.in_flight = 2;
            src->plan(plan);
        }
        (void)src->frames_left();
        if (mode & 2) src->skip(mode >> 5);
        if (mode & 4) (void)src->read_frame((mode >> 3) & 3);
        for (unsigned i = 0; i < 64; ++i)
            if (!src->read()) break;
    } catch (const vmaf::Error&) {
    }
    return 0;
}
