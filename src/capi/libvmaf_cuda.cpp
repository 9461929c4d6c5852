// The C API's CUDA entry points over the engine's CUDA backend. An explicit
// GPU request fails loudly (negative errno + log line), never falls back.
#include "libvmaf/libvmaf_cuda.h"

#include "capi/capi_types.hpp"
#include "vmaf/engine.hpp"

using vmaf::capi::guarded;
using vmaf::capi::log_error;

/// Backend state created by vmaf::create_backend_state("cuda", ...): the
/// context the work runs in. Shared with every context that imports it.
struct VmafCudaState {
    std::shared_ptr<void> state;
};

namespace {

/// Pictures each preallocation keeps for reuse (upstream's ring holds 4).
constexpr unsigned kPreallocated = 4;

}  // namespace

extern "C" int vmaf_cuda_state_init(VmafCudaState** cu_state, VmafCudaConfiguration cfg) {
    VMAF_REQUIRE(cu_state, "vmaf_cuda_state_init", "NULL state pointer");
    const vmaf::BackendThreadGuard keep(true);  // the caller's current context survives
    return guarded("vmaf_cuda_state_init", [&] {
        auto st = std::make_unique<VmafCudaState>();
        // cu_ctx: the caller's CUcontext, used as is (not owned); NULL: the
        // primary context of device 0 (CUDA_VISIBLE_DEVICES numbering).
        st->state = vmaf::create_backend_state("cuda", 0, cfg.cu_ctx);
        *cu_state = st.release();
        return 0;
    });
}

extern "C" int vmaf_cuda_import_state(VmafContext* vmaf, VmafCudaState* cu_state) {
    VMAF_REQUIRE(vmaf && cu_state, "vmaf_cuda_import_state", "NULL argument");
    // The import replaces the context's engine: nothing added to the old one may be lost.
    VMAF_REQUIRE(!vmaf->geometry && !vmaf->engine_used && vmaf->model_keys.empty() && vmaf->collection_keys.empty() &&
                     !vmaf->cuda_imported,
                 "vmaf_cuda_import_state", "import the CUDA state right after vmaf_init, before features and models");
    const vmaf::BackendThreadGuard keep;
    return guarded("vmaf_cuda_import_state", [&] {
        vmaf::EngineConfig ec = vmaf->engine_cfg;
        ec.backend = "cuda";
        ec.backend_state = cu_state->state;
        auto engine = std::make_unique<vmaf::Engine>(ec);
        engine->select_backend();  // throws BackendError when CUDA cannot run
        vmaf->engine = std::move(engine);
        vmaf->engine_cfg = ec;
        vmaf->cuda_imported = true;
        return 0;
    });
}

extern "C" int vmaf_cuda_preallocate_pictures(VmafContext* vmaf, VmafCudaPictureConfiguration cfg) {
    VMAF_REQUIRE(vmaf, "vmaf_cuda_preallocate_pictures", "NULL context");
    VMAF_REQUIRE(vmaf->cuda_imported, "vmaf_cuda_preallocate_pictures",
                 "no CUDA state imported (vmaf_cuda_import_state)");
    const int method = vmaf::capi::enum_value(cfg.pic_prealloc_method);
    if (method < VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE ||
        method > VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED) {
        log_error("vmaf_cuda_preallocate_pictures: unknown method %d", method);
        return -EINVAL;
    }
    if (method == VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE) return 0;  // pictures come from vmaf_picture_alloc
    VMAF_REQUIRE(!vmaf->cuda_pictures, "vmaf_cuda_preallocate_pictures", "pictures already preallocated");
    vmaf::VideoGeometry g;
    if (int e = vmaf::capi::picture_geometry(vmaf::capi::enum_value(cfg.pic_params.pix_fmt), cfg.pic_params.bpc,
                                             cfg.pic_params.w, cfg.pic_params.h, g))
        return e;
    const vmaf::BackendThreadGuard keep;
    return guarded("vmaf_cuda_preallocate_pictures", [&] {
        if (method == VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST) {
            // Pageable host pictures: the backend stages them per frame.
            auto pool = std::make_shared<vmaf::PicturePool>(g, kPreallocated);
            pool->reserve(kPreallocated);
            vmaf->cuda_pictures = [pool] { return pool->acquire(); };
        } else {
            const auto kind = method == VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE ? vmaf::MemoryKind::Device
                                                                                      : vmaf::MemoryKind::PinnedHost;
            vmaf->cuda_pictures = vmaf->engine->backend_pictures(g, kind, kPreallocated);
        }
        return 0;
    });
}

extern "C" int vmaf_cuda_fetch_preallocated_picture(VmafContext* vmaf, VmafPicture* pic) {
    VMAF_REQUIRE(vmaf && pic, "vmaf_cuda_fetch_preallocated_picture", "NULL argument");
    VMAF_REQUIRE(vmaf->cuda_pictures, "vmaf_cuda_fetch_preallocated_picture",
                 "no preallocated pictures (vmaf_cuda_preallocate_pictures with DEVICE, HOST or HOST_PINNED)");
    const vmaf::BackendThreadGuard keep;
    return guarded("vmaf_cuda_fetch_preallocated_picture",
                   [&] { return vmaf::capi::export_picture(vmaf->cuda_pictures(), pic); });
}

extern "C" int vmaf_cuda_state_free(VmafCudaState* cu_state) {
    VMAF_REQUIRE(cu_state, "vmaf_cuda_state_free", "NULL state");
    delete cu_state;
    return 0;
}
