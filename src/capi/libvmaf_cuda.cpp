// The C API's CUDA entry points over the engine's CUDA backend. An explicit
// GPU request fails loudly (negative errno + log line), never falls back.
#include "libvmaf/libvmaf_cuda.h"

#include "capi/capi_types.hpp"
#include "vmaf/engine.hpp"

using vmaf::capi::guarded;
using vmaf::capi::log_error;

/// Backend state created by vmaf::create_backend_state("cuda", device).
struct VmafCudaState {
    std::shared_ptr<void> state;
};

extern "C" int vmaf_cuda_state_init(VmafCudaState** cu_state, VmafCudaConfiguration cfg) {
    VMAF_REQUIRE(cu_state, "vmaf_cuda_state_init", "NULL state pointer");
    if (cfg.cu_ctx) {
        // The backend runs on a device's primary context; a foreign context is not supported yet.
        log_error("vmaf_cuda_state_init: cu_ctx is not supported (pass NULL: primary context of device 0)");
        return -ENOTSUP;
    }
    return guarded("vmaf_cuda_state_init", [&] {
        auto st = std::make_unique<VmafCudaState>();
        st->state = vmaf::create_backend_state("cuda", 0);
        *cu_state = st.release();
        return 0;
    });
}

extern "C" int vmaf_cuda_import_state(VmafContext* vmaf, VmafCudaState* cu_state) {
    VMAF_REQUIRE(vmaf && cu_state, "vmaf_cuda_import_state", "NULL argument");
    VMAF_REQUIRE(!vmaf->geometry && vmaf->model_keys.empty() && vmaf->collection_keys.empty() && !vmaf->cuda_imported,
                 "vmaf_cuda_import_state", "import the CUDA state right after vmaf_init, before features and models");
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
    VMAF_REQUIRE(vmaf->cuda_imported, "vmaf_cuda_preallocate_pictures", "no CUDA state imported");
    switch (vmaf::capi::enum_value(cfg.pic_prealloc_method)) {
        case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE: return 0;
        case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST: {
            VmafPictureConfiguration c{};
            c.pic_params.w = cfg.pic_params.w;
            c.pic_params.h = cfg.pic_params.h;
            c.pic_params.bpc = cfg.pic_params.bpc;
            std::memcpy(&c.pic_params.pix_fmt, &cfg.pic_params.pix_fmt, sizeof c.pic_params.pix_fmt);
            c.pic_cnt = 4;
            return vmaf_preallocate_pictures(vmaf, c);
        }
        case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE:
        case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED:
            log_error("vmaf_cuda_preallocate_pictures: DEVICE and HOST_PINNED pools are not implemented yet");
            return -ENOSYS;
        default:
            log_error("vmaf_cuda_preallocate_pictures: unknown method %d", vmaf::capi::enum_value(cfg.pic_prealloc_method));
            return -EINVAL;
    }
}

extern "C" int vmaf_cuda_fetch_preallocated_picture(VmafContext* vmaf, VmafPicture* pic) {
    return vmaf_fetch_preallocated_picture(vmaf, pic);
}

extern "C" int vmaf_cuda_state_free(VmafCudaState* cu_state) {
    VMAF_REQUIRE(cu_state, "vmaf_cuda_state_free", "NULL state");
    delete cu_state;
    return 0;
}
