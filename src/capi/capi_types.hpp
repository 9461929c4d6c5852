// Definitions of the C API's opaque types (private to the library).
#pragma once

#include <cerrno>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libvmaf/libvmaf.h"
#include "vmaf/engine.hpp"
#include "vmaf/picture.hpp"

/// A VmafPicture's reference: one share of the picture's storage.
struct VmafRef {
    vmaf::Picture pic;
};

struct VmafFeatureDictionary {
    std::vector<std::pair<std::string, std::string>> entries;
};

/// A model is the request that adds it to an engine (validated at load).
struct VmafModel {
    vmaf::ModelRequest req;
    bool collection = false;  ///< the handle vmaf_model_collection_load returns
};

struct VmafModelCollection {
    vmaf::ModelRequest req;
};

struct VmafContext {
    VmafConfiguration cfg{};
    vmaf::EngineConfig engine_cfg;
    std::unique_ptr<vmaf::Engine> engine;
    std::vector<std::string> model_keys;       ///< report keys of models in use
    std::vector<std::string> collection_keys;  ///< report keys of collections in use
    std::optional<vmaf::VideoGeometry> geometry;
    std::unique_ptr<vmaf::PicturePool> pool;       ///< vmaf_preallocate_pictures
    std::function<vmaf::Picture()> cuda_pictures;  ///< vmaf_cuda_preallocate_pictures (DEVICE, HOST, HOST_PINNED)
    bool engine_used = false;  ///< a feature or an imported score was added (models: model_keys)
    bool flushed = false;
    bool cuda_imported = false;
};

namespace vmaf::capi {
/// The integer in a C enum field: C callers may store any int there, which
/// C++ may not load as the enum type.
template <typename E>
int enum_value(const E& e) {
    static_assert(sizeof(E) == sizeof(int));
    int v;
    std::memcpy(&v, &e, sizeof v);
    return v;
}
/// One "libvmaf ERROR ..." line on stderr unless the log level is NONE.
void log_error(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
/// The geometry of the pictures vmaf_picture_alloc makes from these parameters
/// (the format as the int a C caller stored); -EINVAL, logged as
/// vmaf_picture_alloc logs it, where it would refuse them.
int picture_geometry(int pix_fmt, unsigned bpc, unsigned w, unsigned h, VideoGeometry& out);
/// vmaf_picture_alloc with the format as the int a C caller stored.
int alloc_picture(VmafPicture* pic, int pix_fmt, unsigned bpc, unsigned w, unsigned h);
/// Fills `out` with a new reference to `p`.
int export_picture(Picture p, VmafPicture* out);
}  // namespace vmaf::capi

/// Runs `f`, mapping exceptions to negative errno with a log line naming `fn`.
namespace vmaf::capi {
template <typename F>
int guarded(const char* fn, F&& f) {
    try {
        return f();
    } catch (const vmaf::BackendError& e) {
        log_error("%s: %s", fn, e.what());
        return e.error_number() < 0 ? e.error_number() : -EIO;
    } catch (const vmaf::Error& e) {
        log_error("%s: %s", fn, e.what());
        return e.kind() == vmaf::ErrorKind::Internal ? -EIO : -EINVAL;
    } catch (const std::bad_alloc&) {
        log_error("%s: out of memory", fn);
        return -ENOMEM;
    } catch (const std::exception& e) {
        log_error("%s: %s", fn, e.what());
        return -EINVAL;
    } catch (...) {
        log_error("%s: unknown failure", fn);
        return -EIO;
    }
}
}  // namespace vmaf::capi

#define VMAF_REQUIRE(cond, fn, ...)          \
    do {                                     \
        if (!(cond)) {                       \
            vmaf::capi::log_error(fn ": " __VA_ARGS__);  \
            return -EINVAL;                  \
        }                                    \
    } while (0)

