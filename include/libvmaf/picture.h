/* libvmaf C API (upstream libvmaf 3.x compatible): pictures. */
#ifndef VMAF_PICTURE_H_
#define VMAF_PICTURE_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum VmafPixelFormat {
    VMAF_PIX_FMT_UNKNOWN,
    VMAF_PIX_FMT_YUV420P,
    VMAF_PIX_FMT_YUV422P,
    VMAF_PIX_FMT_YUV444P,
    VMAF_PIX_FMT_YUV400P
};

/* Shared reference count of a picture's storage (opaque). */
typedef struct VmafRef VmafRef;

/* A planar frame. Samples are uint8_t for bpc 8, else uint16_t (native
 * endian); stride is in bytes. 4:0:0 pictures use plane 0 only. */
typedef struct VmafPicture {
    enum VmafPixelFormat pix_fmt;
    unsigned bpc;
    unsigned w[3], h[3];
    ptrdiff_t stride[3];
    void *data[3];
    VmafRef *ref;
    void *priv;
} VmafPicture;

/* Allocates storage for a w x h picture (bpc 8..16) with one reference.
 * Returns 0 or a negative errno. */
int vmaf_picture_alloc(VmafPicture *pic, enum VmafPixelFormat pix_fmt,
                       unsigned bpc, unsigned w, unsigned h);

/* Drops this handle's reference (storage is freed with the last one) and
 * clears *pic. Returns 0 or a negative errno. */
int vmaf_picture_unref(VmafPicture *pic);

#ifdef __cplusplus
}
#endif

#endif /* VMAF_PICTURE_H_ */
