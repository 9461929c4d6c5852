#include "tune/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

extern char** environ;

namespace vmaf::tune {

ProcessResult run_process(const std::vector<std::string>& argv, bool capture_stdout) {
    ProcessResult r;
    const auto t0 = std::chrono::steady_clock::now();
    int out_pipe[2] = {-1, -1}, err_pipe[2] = {-1, -1};
    if ((capture_stdout && ::pipe2(out_pipe, O_CLOEXEC) != 0) || ::pipe2(err_pipe, O_CLOEXEC) != 0) {
        r.err_tail = "cannot create a pipe";
        return r;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (capture_stdout)
        posix_spawn_file_actions_adddup2(&fa, out_pipe[1], 1);
    else
        posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, err_pipe[1], 2);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = -1;
    const int rc = ::posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    if (capture_stdout) ::close(out_pipe[1]);
    ::close(err_pipe[1]);
    if (rc != 0) {
        if (capture_stdout) ::close(out_pipe[0]);
        ::close(err_pipe[0]);
        r.exit_code = 127;
        r.err_tail = "cannot run " + argv[0] + ": " + std::string(std::strerror(rc));
        return r;
    }
    std::string err;
    pollfd fds[2] = {{err_pipe[0], POLLIN, 0}, {capture_stdout ? out_pipe[0] : -1, POLLIN, 0}};
    int open_fds = capture_stdout ? 2 : 1;
    char buf[65536];
    while (open_fds > 0) {
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        for (int k = 0; k < 2; ++k) {
            if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            const ssize_t n = ::read(fds[k].fd, buf, sizeof buf);
            if (n > 0) {
                (k == 0 ? err : r.out).append(buf, static_cast<std::size_t>(n));
                if (err.size() > (1 << 16)) err.erase(0, err.size() - 4096);
            } else if (n == 0 || errno != EINTR) {
                ::close(fds[k].fd);
                fds[k].fd = -1;
                --open_fds;
            }
        }
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.err_tail = err.size() > 4096 ? err.substr(err.size() - 4096) : err;
    r.elapsed_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

std::string shell_quote(const std::vector<std::string>& argv) {
    std::string out;
    for (const std::string& a : argv) {
        if (!out.empty()) out += ' ';
        const bool plain = !a.empty() && a.find_first_not_of(
                                             "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                             "0123456789_-+=/.,:@%") == std::string::npos;
        if (plain) {
            out += a;
            continue;
        }
        out += '\'';
        for (char c : a) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
        out += '\'';
    }
    return out;
}

}  // namespace vmaf::tune
