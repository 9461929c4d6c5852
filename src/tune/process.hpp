// Runs a child program (ffmpeg) without a shell and collects what it printed.
#pragma once

#include <string>
#include <vector>

namespace vmaf::tune {

struct ProcessResult {
    int exit_code = -1;    ///< the exit status; 128 + N when killed by signal N; 127 when it could not start
    std::string out;       ///< stdout, when captured
    std::string err_tail;  ///< the last 4 KiB of stderr
    double elapsed_ms = 0;
};

/// Runs argv[0] (looked up in PATH) with `argv`, stdin from /dev/null. Waits
/// for it. Never throws for the child's failure: see exit_code.
ProcessResult run_process(const std::vector<std::string>& argv, bool capture_stdout = false);

/// The command line as a shell would take it (each word quoted where needed), for records.
std::string shell_quote(const std::vector<std::string>& argv);

}  // namespace vmaf::tune
