// libFuzzer target: the Y4M reader over arbitrary files (stream headers of
// any length and content, frame markers, truncation). The first input byte
// picks how the file is consumed (read all, luma-only plan, skip first,
// out-of-order read_frame); the rest is the file. Every failure must be a
// vmaf::Error: any other exception, a crash, a leak or a hang is a finding.
#include <cstdint>

#include "fuzz_util.hpp"
#include "vmaf/error.hpp"
#include "vmaf/video_source.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static vmaf::fuzz::MemFile file;
    vmaf::fuzz::Bytes in(data, size);
    const std::uint8_t mode = in.u8();
    const std::string& path = file.set(in.rest());
    try {
        auto src = vmaf::open_y4m(path);
        if (mode & 1) {
            vmaf::ReadPlan plan;
            plan.luma_only = true;
            plan.in_flight = 2;  // no prefill: it would only time memset on 32768-wide headers
            src->plan(plan);
        }
        if (mode & 4) src->skip(mode >> 5);
        if (mode & 8) (void)src->read_frame(mode >> 5);
        for (unsigned i = 0; i < 64; ++i)
            if (!src->read()) break;
    } catch (const vmaf::Error&) {
    }
    return 0;
}
