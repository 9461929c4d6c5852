// Allocation-failure injection (after dav1d's alloc_fail harness): this
// binary replaces the global operator new/delete (every C++ allocation of
// the library goes through them, picture storage included) and, for every N
// from 1 to the number of allocations a complete run makes, runs the
// scenario again with the N-th allocation failing.
//
// Each run must end cleanly: either it completes with the same result as the
// run without injection (a failure swallowed into a wrong score is a bug),
// or it throws std::bad_alloc or vmaf::Error. A crash, std::terminate (an
// exception through a noexcept function or out of a thread) or, under ASan,
// a leak (reported at exit) fails the test.
//
// One exception: an allocation made inside nlohmann::json's value destructor
// is not failed (the library allocates in that noexcept destructor, so its
// failure is std::terminate by design); such N are counted and reported. The
// check reads the call stack, so the binary exports its symbols (-rdynamic).
//
// Scenarios: the Y4M reader over a small 8-bit and a 10-bit file, and the
// library API scoring a tiny pair with psnr and the vmaf_v0.6.1 model (on
// the calling thread, so that allocations are counted deterministically) and
// writing a JSON report.
//   alloc_fail_test TMPDIR [--stride K]    (K > 1 tries every K-th N only)
#include <algorithm>
#include <cxxabi.h>
#include <execinfo.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "vmaf/engine.hpp"
#include "vmaf/error.hpp"
#include "vmaf/video_source.hpp"

// ---- the hook ---------------------------------------------------------------

namespace {

std::atomic<bool> g_armed{false};
std::atomic<long> g_count{0};    // allocations while armed
std::atomic<long> g_fail_at{0};  // the allocation (1-based) that fails; 0: none

std::atomic<long> g_exempt{0};  // injections skipped (third-party destructor)

/// Whether the current allocation comes from nlohmann::json's value
/// destructor: it allocates (a stack to flatten nested values) inside a
/// noexcept destructor, so a failure there ends in std::terminate whatever
/// the caller does -- a limitation of the library, not of this code.
bool in_json_destructor() {
    void* frames[64];
    const int n = ::backtrace(frames, 64);
    char** names = ::backtrace_symbols(frames, n);  // malloc, not operator new
    bool found = false;
    for (int i = 0; names && i < n && !found; ++i) {
        const char* open = std::strchr(names[i], '(');
        const char* plus = open ? std::strchr(open, '+') : nullptr;
        if (!open || !plus) continue;
        const std::string mangled(open + 1, plus);
        int status = 0;
        char* plain = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
        if (plain) {
            const std::string_view f(plain);
            found = f.find("nlohmann") != std::string_view::npos &&
                    (f.find("json_value::destroy") != std::string_view::npos || f.find("::~basic_json") != std::string_view::npos);
            std::free(plain);
        }
    }
    std::free(names);
    return found;
}

void* allocate(std::size_t n, std::size_t align) {
    if (g_armed.load(std::memory_order_relaxed)) {
        const long k = g_count.fetch_add(1, std::memory_order_relaxed) + 1;
        if (k == g_fail_at.load(std::memory_order_relaxed)) {
            g_armed = false;  // no counting inside the check
            const bool exempt = in_json_destructor();
            g_armed = true;
            if (!exempt) return nullptr;
            ++g_exempt;
        }
    }
    if (n == 0) n = 1;
    void* p = align > alignof(std::max_align_t) ? std::aligned_alloc(align, (n + align - 1) / align * align)
                                                : std::malloc(n);
    return p;
}

void* allocate_or_throw(std::size_t n, std::size_t align) {
    void* p = allocate(n, align);
    if (!p) throw std::bad_alloc();
    return p;
}

}  // namespace

void* operator new(std::size_t n) { return allocate_or_throw(n, 0); }
void* operator new[](std::size_t n) { return allocate_or_throw(n, 0); }
void* operator new(std::size_t n, std::align_val_t a) { return allocate_or_throw(n, static_cast<std::size_t>(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return allocate_or_throw(n, static_cast<std::size_t>(a)); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return allocate(n, 0); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return allocate(n, 0); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
    return allocate(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
    return allocate(n, static_cast<std::size_t>(a));
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }

// ---- scenarios ----------------------------------------------------------------

namespace {

/// Writes a Y4M file of `frames` frames with a deterministic pattern
/// (`noise` != 0 perturbs it, for a distorted copy).
void write_y4m(const std::string& path, unsigned w, unsigned h, unsigned bpc, unsigned frames, unsigned noise) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) {
        std::perror(path.c_str());
        std::exit(2);
    }
    std::fprintf(f, "YUV4MPEG2 W%u H%u F25:1 Ip A1:1 C%s\n", w, h, bpc == 8 ? "420" : "420p10");
    const unsigned cw = (w + 1) / 2, ch = (h + 1) / 2, maxv = (1u << bpc) - 1;
    unsigned seed = 12345 + noise;
    for (unsigned i = 0; i < frames; ++i) {
        std::fputs("FRAME\n", f);
        auto sample = [&](unsigned x, unsigned y, unsigned p) {
            unsigned v = (x * 7 + y * 13 + i * 5 + p * 50) % (maxv + 1);
            if (noise) {
                seed = seed * 1103515245u + 12345u;
                v = std::min(maxv, v + ((seed >> 16) % (noise + 1)));
            }
            if (bpc == 8) std::fputc(static_cast<int>(v), f);
            else std::fputc(static_cast<int>(v & 255), f), std::fputc(static_cast<int>(v >> 8), f);
        };
        for (unsigned y = 0; y < h; ++y)
            for (unsigned x = 0; x < w; ++x) sample(x, y, 0);
        for (unsigned p = 1; p < 3; ++p)
            for (unsigned y = 0; y < ch; ++y)
                for (unsigned x = 0; x < cw; ++x) sample(x, y, p);
    }
    std::fclose(f);
}

/// Reads every frame; the result is the sum of the first luma row of each.
double read_all(const std::string& path) {
    auto src = vmaf::open_y4m(path);
    double sum = 0;
    while (auto pic = src->read()) {
        const vmaf::Plane& pl = pic->plane(0);
        for (unsigned x = 0; x < pl.width; ++x)
            sum += pic->bpc() > 8 ? pl.row<std::uint16_t>(0)[x] : pl.row<std::uint8_t>(0)[x];
    }
    return sum;
}

/// psnr + vmaf_v0.6.1 over the pair, report written; the result is the pooled vmaf.
double score(const std::string& ref_path, const std::string& dist_path, const std::string& report) {
    auto ref = vmaf::open_y4m(ref_path);
    auto dist = vmaf::open_y4m(dist_path);
    vmaf::EngineConfig cfg;
    cfg.threads = 0;
    vmaf::Engine engine(cfg);
    vmaf::ModelRequest model;
    model.version = "vmaf_v0.6.1";
    engine.add_model(model);
    engine.add_feature({"psnr", {}});
    engine.run(*ref, *dist);
    engine.write_report(report, vmaf::OutputFormat::Json, vmaf::Precision{});
    const auto mean = engine.pooled_mean("vmaf");
    const auto psnr = engine.pooled_mean("psnr_y");
    if (!mean || !psnr) throw std::runtime_error("no vmaf or psnr_y score");
    return *mean + *psnr * 1e-3;
}

struct Outcome {
    long allocations = 0, completed = 0, bad_alloc = 0, vmaf_error = 0, failures = 0;
};

Outcome sweep(const char* name, const std::function<double()>& scenario, long stride) {
    Outcome o;
    g_exempt = 0;
    g_count = 0;
    g_fail_at = 0;
    g_armed = true;
    const double expected = scenario();
    g_armed = false;
    o.allocations = g_count.load();
    for (long n = 1; n <= o.allocations; n += stride) {
        g_count = 0;
        g_fail_at = n;
        g_armed = true;
        try {
            const double got = scenario();
            g_armed = false;
            if (got == expected) {
                ++o.completed;  // the failed allocation had a fallback (or was past the end)
            } else {
                ++o.failures;
                std::printf("FAIL %s: allocation %ld failed, the run completed with %.17g instead of %.17g\n", name, n,
                            got, expected);
            }
        } catch (const std::bad_alloc&) {
            ++o.bad_alloc;
        } catch (const vmaf::Error&) {
            ++o.vmaf_error;
        } catch (const std::exception& e) {
            ++o.failures;
            std::printf("FAIL %s: allocation %ld failed, unexpected exception: %s\n", name, n, e.what());
        }
        g_armed = false;
    }
    std::printf("%s: %ld allocations per run, stride %ld: %ld completed, %ld std::bad_alloc, %ld vmaf::Error, "
                "%ld failed; %ld not injected (inside nlohmann::json's destructor)\n",
                name, o.allocations, stride, o.completed, o.bad_alloc, o.vmaf_error, o.failures, g_exempt.load());
    return o;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: alloc_fail_test TMPDIR [--stride K]\n");
        return 2;
    }
    const std::string dir = argv[1];
    long stride = 1;
    if (argc >= 4 && std::strcmp(argv[2], "--stride") == 0) stride = std::max(1L, std::atol(argv[3]));
    const std::string y8 = dir + "/af_8bit.y4m", y10 = dir + "/af_10bit.y4m", ref = dir + "/af_ref.y4m",
                      dist = dir + "/af_dist.y4m", report = dir + "/af_report.json";
    write_y4m(y8, 33, 17, 8, 2, 0);
    write_y4m(y10, 16, 9, 10, 2, 0);
    write_y4m(ref, 64, 64, 8, 3, 0);
    write_y4m(dist, 64, 64, 8, 3, 9);

    long failures = 0, passed = 0;
    for (const Outcome& o : {sweep("y4m_8bit", [&] { return read_all(y8); }, 1),
                             sweep("y4m_10bit", [&] { return read_all(y10); }, 1),
                             sweep("score_psnr_vmaf", [&] { return score(ref, dist, report); }, stride)}) {
        failures += o.failures;
        passed += o.completed + o.bad_alloc + o.vmaf_error;
    }
    std::printf("%ld passed, %ld failed\n", passed, failures);
    return failures ? 1 : 0;
}
