// libFuzzer target: container and codec input through FFmpeg's libraries
// (open_video: content probing, demuxing, decoding, pixel format conversion,
// and pairing by timestamps). The first input byte picks how the file is
// consumed (read all, luma-only plan, skip frames, skip decode errors, align
// to a frame-rate grid); the rest is the file. Every failure must be a
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
        vmaf::InputOptions opts;
        opts.skip_decode_errors = mode & 2;
        // One decoder thread: the same code paths minus frame threading's
        // per-open thread start-up, which dominated on many-core machines.
        opts.decoder_threads = 1;
        auto src = vmaf::open_video(path, opts);
        if (mode & 16)
            src = vmaf::align_to_grid(std::move(src), mode & 32 ? vmaf::GridMode::Nearest : vmaf::GridMode::Exact, 24, 1);
        if (mode & 1) {
            vmaf::ReadPlan plan;
            plan.luma_only = true;
            plan.in_flight = 2;
            src->plan(plan);
        }
        if (mode & 4) src->skip(mode >> 6);
        for (unsigned i = 0; i < 16; ++i)
            if (!src->read()) break;
    } catch (const vmaf::Error&) {
    }
    return 0;
}
