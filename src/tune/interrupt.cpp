#include "tune/interrupt.hpp"

#include <atomic>
#include <csignal>

namespace vmaf::tune {

namespace {

std::atomic<bool> g_interrupted{false};
std::atomic<int> g_depth{0};
struct sigaction g_old_int, g_old_term;

extern "C" void on_interrupt(int) {
    g_interrupted = true;
}

}  // namespace

InterruptScope::InterruptScope() : outer_(g_depth++ == 0) {
    if (!outer_) return;
    g_interrupted = false;
    struct sigaction sa {};
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, &sa, &g_old_int);
    ::sigaction(SIGTERM, &sa, &g_old_term);
}

InterruptScope::~InterruptScope() {
    --g_depth;
    if (!outer_) return;
    ::sigaction(SIGINT, &g_old_int, nullptr);
    ::sigaction(SIGTERM, &g_old_term, nullptr);
}

bool interrupted() {
    return g_interrupted;
}

}  // namespace vmaf::tune
