// libFuzzer target: the `vmaf` command-line parser (tools/vmaf/cli_args).
// The input is a NUL-separated argument list (argv[1..]); with the first
// byte odd, the first argument is also parsed alone as a --model value and
// the second as a --feature value. Every failure must be a UsageError (the
// CLI's exit 1): no other exception, no exit, no crash.
#include <cstdint>
#include <string>
#include <vector>

#include "cli_args.hpp"
#include "fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    vmaf::fuzz::Bytes in(data, size);
    const std::uint8_t mode = in.u8();
    std::vector<std::string> args{"vmaf"};
    while (!in.empty() && args.size() < 64) args.emplace_back(in.cstr());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    try {
        (void)vmaf::cli::parse_args(static_cast<int>(args.size()), argv.data());
    } catch (const vmaf::cli::UsageError&) {
    }
    if (mode & 1) {
        try {
            if (args.size() > 1) (void)vmaf::cli::parse_model(args[1]);
        } catch (const vmaf::cli::UsageError&) {
        }
        try {
            if (args.size() > 2) (void)vmaf::cli::parse_feature(args[2]);
        } catch (const vmaf::cli::UsageError&) {
        }
    }
    return 0;
}
