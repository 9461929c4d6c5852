// The libvmaf C API (upstream 3.x compatible): a translation layer from the
// C types and calls to vmaf::Engine's push mode. Every entry point catches
// everything, returns a negative errno and logs one line; nothing throws out.
#include "libvmaf/libvmaf.h"

#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "capi/capi_types.hpp"
#include "core/registry.hpp"
#include "model/model.hpp"
#include "vmaf/engine.hpp"
#include "vmaf/error.hpp"

using vmaf::capi::guarded;
using vmaf::capi::log_error;

namespace {

std::atomic<int> g_log_level{VMAF_LOG_LEVEL_ERROR};

std::optional<vmaf::PixelFormat> to_format(int f) {
    switch (f) {
        case VMAF_PIX_FMT_YUV420P: return vmaf::PixelFormat::Yuv420;
        case VMAF_PIX_FMT_YUV422P: return vmaf::PixelFormat::Yuv422;
        case VMAF_PIX_FMT_YUV444P: return vmaf::PixelFormat::Yuv444;
        case VMAF_PIX_FMT_YUV400P: return vmaf::PixelFormat::Yuv400;
        default: return std::nullopt;
    }
}

VmafPixelFormat from_format(vmaf::PixelFormat f) {
    switch (f) {
        case vmaf::PixelFormat::Yuv420: return VMAF_PIX_FMT_YUV420P;
        case vmaf::PixelFormat::Yuv422: return VMAF_PIX_FMT_YUV422P;
        case vmaf::PixelFormat::Yuv444: return VMAF_PIX_FMT_YUV444P;
        case vmaf::PixelFormat::Yuv400: return VMAF_PIX_FMT_YUV400P;
    }
    return VMAF_PIX_FMT_UNKNOWN;
}

}  // namespace

namespace vmaf::capi {

void log_error(const char* fmt, ...) {
    if (g_log_level.load() < VMAF_LOG_LEVEL_ERROR) return;
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    std::fprintf(stderr, "libvmaf ERROR %s\n", buf);
}

int export_picture(Picture p, VmafPicture* out) {
    auto* r = new VmafRef{std::move(p)};
    const Picture& q = r->pic;
    *out = VmafPicture{};
    out->pix_fmt = from_format(q.format());
    out->bpc = q.bpc();
    for (unsigned i = 0; i < q.planes(); ++i) {
        out->w[i] = q.plane(i).width;
        out->h[i] = q.plane(i).height;
        out->stride[i] = q.plane(i).stride;
        out->data[i] = q.plane(i).data;
    }
    out->ref = r;
    return 0;
}

}  // namespace vmaf::capi

using vmaf::capi::export_picture;

// ---- feature dictionaries ----

extern "C" int vmaf_feature_dictionary_set(VmafFeatureDictionary** dict, const char* key, const char* val) {
    VMAF_REQUIRE(dict && key && val, "vmaf_feature_dictionary_set", "NULL argument");
    return guarded("vmaf_feature_dictionary_set", [&] {
        if (!*dict) *dict = new VmafFeatureDictionary;
        for (auto& kv : (*dict)->entries)
            if (kv.first == key) {
                kv.second = val;
                return 0;
            }
        (*dict)->entries.emplace_back(key, val);
        return 0;
    });
}

extern "C" int vmaf_feature_dictionary_free(VmafFeatureDictionary** dict) {
    VMAF_REQUIRE(dict, "vmaf_feature_dictionary_free", "NULL argument");
    delete *dict;
    *dict = nullptr;
    return 0;
}

// ---- pictures ----

extern "C" int vmaf_picture_alloc(VmafPicture* pic, VmafPixelFormat pix_fmt, unsigned bpc, unsigned w, unsigned h) {
    return vmaf::capi::alloc_picture(pic, vmaf::capi::enum_value(pix_fmt), bpc, w, h);
}

int vmaf::capi::picture_geometry(int pix_fmt, unsigned bpc, unsigned w, unsigned h, VideoGeometry& out) {
    const auto fmt = to_format(pix_fmt);
    VMAF_REQUIRE(fmt, "vmaf_picture_alloc", "unknown pixel format %d", pix_fmt);
    VMAF_REQUIRE(bpc >= 8 && bpc <= 16, "vmaf_picture_alloc", "unsupported bit depth %u", bpc);
    VMAF_REQUIRE(w > 0 && h > 0 && w <= vmaf::kMaxPictureDimension && h <= vmaf::kMaxPictureDimension &&
                     std::uint64_t{w} * h <= vmaf::kMaxPicturePixels,
                 "vmaf_picture_alloc", "unsupported size %ux%u (at most %u per side and %llu pixels)", w, h,
                 vmaf::kMaxPictureDimension, static_cast<unsigned long long>(vmaf::kMaxPicturePixels));
    out = VideoGeometry{*fmt, bpc, w, h};
    return 0;
}

int vmaf::capi::alloc_picture(VmafPicture* pic, int pix_fmt, unsigned bpc, unsigned w, unsigned h) {
    VMAF_REQUIRE(pic, "vmaf_picture_alloc", "NULL picture");
    VideoGeometry g;
    if (int e = picture_geometry(pix_fmt, bpc, w, h, g)) return e;
    return guarded("vmaf_picture_alloc", [&] {
        // Zeroed, so that samples a caller leaves unwritten (FFmpeg 5.1 fills
        // only half of each >8-bit row) score deterministically, as upstream's
        // fresh allocations do.
        vmaf::Picture p(g.format, g.bpc, g.width, g.height);
        for (unsigned i = 0; i < p.planes(); ++i)
            std::memset(p.plane(i).data, 0, static_cast<std::size_t>(p.plane(i).stride) * p.plane(i).height);
        return export_picture(std::move(p), pic);
    });
}

extern "C" int vmaf_picture_unref(VmafPicture* pic) {
    VMAF_REQUIRE(pic, "vmaf_picture_unref", "NULL picture");
    VMAF_REQUIRE(pic->ref, "vmaf_picture_unref", "picture holds no reference");
    const vmaf::BackendThreadGuard keep;  // the last reference to a device picture frees it
    delete pic->ref;
    *pic = VmafPicture{};
    return 0;
}

// ---- models ----

namespace {

bool flags_ok(const VmafModelConfig* cfg) {
    return !cfg || !(cfg->flags & ~uint64_t{VMAF_MODEL_FLAG_DISABLE_CLIP | VMAF_MODEL_FLAG_ENABLE_TRANSFORM |
                                            VMAF_MODEL_FLAG_DISABLE_TRANSFORM});
}

vmaf::ModelRequest request_from(const VmafModelConfig* cfg, const char* version, const char* path) {
    vmaf::ModelRequest r;
    if (version) r.version = version;
    if (path) r.path = path;
    r.name = cfg && cfg->name ? cfg->name : "vmaf";
    r.disable_clip = cfg && (cfg->flags & VMAF_MODEL_FLAG_DISABLE_CLIP);
    r.enable_transform = cfg && (cfg->flags & VMAF_MODEL_FLAG_ENABLE_TRANSFORM);
    return r;
}

/// Loads what `r` names (to validate it now, as upstream does); true if it is a collection.
bool check_model(const vmaf::ModelRequest& r) {
    if (!r.version.empty()) {
        if (vmaf::ModelCollection::is_builtin_collection(r.version)) return true;
        (void)vmaf::Model::builtin(r.version);
        return false;
    }
    std::FILE* f = std::fopen(r.path.c_str(), "rb");
    if (!f) throw vmaf::Error(vmaf::ErrorKind::Usage, "cannot open model file '" + r.path + "'");
    std::string text;
    char buf[65536];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
    std::fclose(f);
    if (vmaf::ModelCollection::is_collection_json(text)) {
        (void)vmaf::ModelCollection::from_json(text, r.path);
        return true;
    }
    (void)vmaf::Model::from_json(text, r.path);
    return false;
}

int load_model(const char* fn, VmafModel** model, VmafModelConfig* cfg, const char* version, const char* path) {
    VMAF_REQUIRE(model && (version || path), "vmaf_model_load", "NULL argument");
    VMAF_REQUIRE(flags_ok(cfg), "vmaf_model_load", "unknown model flags");
    return guarded(fn, [&] {
        vmaf::ModelRequest r = request_from(cfg, version, path);
        if (check_model(r))
            throw vmaf::Error(vmaf::ErrorKind::Usage, "'" + std::string(version ? version : path) +
                                                          "' is a model collection: use vmaf_model_collection_load");
        *model = new VmafModel{std::move(r), false};
        return 0;
    });
}

int load_collection(const char* fn, VmafModel** model, VmafModelCollection** coll, VmafModelConfig* cfg,
                    const char* version, const char* path) {
    VMAF_REQUIRE(model && coll && (version || path), "vmaf_model_collection_load", "NULL argument");
    VMAF_REQUIRE(flags_ok(cfg), "vmaf_model_collection_load", "unknown model flags");
    return guarded(fn, [&] {
        vmaf::ModelRequest r = request_from(cfg, version, path);
        if (!check_model(r))
            throw vmaf::Error(vmaf::ErrorKind::Usage, "'" + std::string(version ? version : path) +
                                                          "' is not a model collection");
        auto m = std::make_unique<VmafModel>(VmafModel{r, true});
        *coll = new VmafModelCollection{std::move(r)};
        *model = m.release();
        return 0;
    });
}

/// Takes ownership of `dict` (as upstream does). A feature the model does not
/// use is not an error (upstream ignores it); an unknown extractor name is.
int overload(const char* fn, vmaf::ModelRequest& r, const char* feature, VmafFeatureDictionary* dict) {
    std::unique_ptr<VmafFeatureDictionary> owned(dict);
    VMAF_REQUIRE(feature && dict, "vmaf_model_feature_overload", "NULL argument");
    if (!vmaf::find_extractor(feature)) {
        log_error("%s: unknown feature '%s'", fn, feature);
        return -EINVAL;
    }
    return guarded(fn, [&] {
        vmaf::ModelRequest probe = r;
        for (const auto& [k, v] : dict->entries) probe.overrides.emplace_back(std::string(feature) + "." + k, v);
        vmaf::Engine e;
        e.add_model(probe);  // validates feature and option names
        r = std::move(probe);
        return 0;
    });
}

}  // namespace

extern "C" int vmaf_model_load(VmafModel** model, VmafModelConfig* cfg, const char* version) {
    return load_model("vmaf_model_load", model, cfg, version, nullptr);
}

extern "C" int vmaf_model_load_from_path(VmafModel** model, VmafModelConfig* cfg, const char* path) {
    return load_model("vmaf_model_load_from_path", model, cfg, nullptr, path);
}

extern "C" int vmaf_model_feature_overload(VmafModel* model, const char* feature_name, VmafFeatureDictionary* opts) {
    if (!model) {
        delete opts;
        log_error("vmaf_model_feature_overload: NULL model");
        return -EINVAL;
    }
    return overload("vmaf_model_feature_overload", model->req, feature_name, opts);
}

extern "C" void vmaf_model_destroy(VmafModel* model) { delete model; }

extern "C" int vmaf_model_collection_load(VmafModel** model, VmafModelCollection** coll, VmafModelConfig* cfg,
                                          const char* version) {
    return load_collection("vmaf_model_collection_load", model, coll, cfg, version, nullptr);
}

extern "C" int vmaf_model_collection_load_from_path(VmafModel** model, VmafModelCollection** coll,
                                                    VmafModelConfig* cfg, const char* path) {
    return load_collection("vmaf_model_collection_load_from_path", model, coll, cfg, nullptr, path);
}

extern "C" int vmaf_model_collection_feature_overload(VmafModel* model, VmafModelCollection** coll,
                                                      const char* feature_name, VmafFeatureDictionary* opts) {
    if (!model || !coll || !*coll) {
        delete opts;
        log_error("vmaf_model_collection_feature_overload: NULL argument");
        return -EINVAL;
    }
    int err = overload("vmaf_model_collection_feature_overload", (*coll)->req, feature_name, opts);
    if (!err) model->req = (*coll)->req;
    return err;
}

extern "C" void vmaf_model_collection_destroy(VmafModelCollection* coll) { delete coll; }

// ---- context ----

extern "C" int vmaf_init(VmafContext** vmaf, VmafConfiguration cfg) {
    VMAF_REQUIRE(vmaf, "vmaf_init", "NULL context pointer");
    const int level = vmaf::capi::enum_value(cfg.log_level);
    VMAF_REQUIRE(level >= VMAF_LOG_LEVEL_NONE && level <= VMAF_LOG_LEVEL_DEBUG, "vmaf_init", "unknown log level %d",
                 level);
    g_log_level.store(level);
    return guarded("vmaf_init", [&] {
        vmaf::EngineConfig ec;
        ec.threads = cfg.n_threads;
        ec.subsample = cfg.n_subsample ? cfg.n_subsample : 1;
        ec.cpumask = static_cast<unsigned>(cfg.cpumask);
        ec.backend = "cpu";
        auto ctx = std::make_unique<VmafContext>();
        ctx->cfg = cfg;
        ctx->engine_cfg = ec;
        ctx->engine = std::make_unique<vmaf::Engine>(ec);
        *vmaf = ctx.release();
        return 0;
    });
}

extern "C" int vmaf_close(VmafContext* vmaf) {
    VMAF_REQUIRE(vmaf, "vmaf_close", "NULL context");
    const vmaf::BackendThreadGuard keep;
    return guarded("vmaf_close", [&] {
        delete vmaf;
        return 0;
    });
}

extern "C" const char* vmaf_version(void) { return vmaf::version(); }
