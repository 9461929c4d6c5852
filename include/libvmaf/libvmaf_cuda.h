/* libvmaf C API (upstream libvmaf 3.x compatible): CUDA. */
#ifndef VMAF_LIBVMAF_CUDA_H_
#define VMAF_LIBVMAF_CUDA_H_

#include "libvmaf/libvmaf.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VmafCudaState VmafCudaState;

typedef struct VmafCudaConfiguration {
    /* CUcontext the work runs in (the caller's, e.g. FFmpeg's hardware
     * device's; not owned: it must outlive every VmafContext that imports the
     * state and every picture fetched from them). NULL: the primary context
     * of device 0. */
    void *cu_ctx;
} VmafCudaConfiguration;

/* Returns -ENOSYS when the library has no CUDA, -ENODEV without a usable
 * device, -EINVAL when cu_ctx is not a valid context. */
int vmaf_cuda_state_init(VmafCudaState **cu_state, VmafCudaConfiguration cfg);
/* Right after vmaf_init, before features and models. The state is shared:
 * vmaf_cuda_state_free may come before or after vmaf_close. */
int vmaf_cuda_import_state(VmafContext *vmaf, VmafCudaState *cu_state);

enum VmafCudaPicturePreallocationMethod {
    VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE = 0,
    VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE,
    VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST,
    VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED
};

typedef struct VmafCudaPictureConfiguration {
    struct {
        unsigned w, h;
        unsigned bpc;
        enum VmafPixelFormat pix_fmt;
    } pic_params;
    enum VmafCudaPicturePreallocationMethod pic_prealloc_method;
} VmafCudaPictureConfiguration;

/* After the import, once. DEVICE: data[] are device pointers in the state's
 * context (pitched planes); HOST_PINNED: page-locked host memory; HOST:
 * ordinary host memory; NONE: no pool (use vmaf_picture_alloc). */
int vmaf_cuda_preallocate_pictures(VmafContext *vmaf,
                                   VmafCudaPictureConfiguration cfg);
/* A picture from the pool (a new reference; back to the pool when the last
 * reference is dropped, e.g. by vmaf_read_pictures). */
int vmaf_cuda_fetch_preallocated_picture(VmafContext *vmaf, VmafPicture *pic);

int vmaf_cuda_state_free(VmafCudaState *cu_state);

#ifdef __cplusplus
}
#endif

#endif /* VMAF_LIBVMAF_CUDA_H_ */
