/* Scores two raw 8-bit 4:2:0 files with VMAF through the libvmaf C API.
 *   cc c_api_example.c $(pkg-config --cflags --libs libvmaf) -o vmaf_example
 *   ./vmaf_example REF.yuv DIST.yuv WIDTH HEIGHT */
#include <libvmaf/libvmaf.h>

#include <stdio.h>
#include <stdlib.h>

/* Reads one frame into a picture from vmaf_picture_alloc; 0 at end of file. */
static int read_frame(FILE *f, VmafPicture *pic)
{
    for (unsigned p = 0; p < 3; p++)
        for (unsigned y = 0; y < pic->h[p]; y++) {
            unsigned char *row = (unsigned char *)pic->data[p] + pic->stride[p] * (ptrdiff_t)y;
            if (fread(row, 1, pic->w[p], f) != pic->w[p]) return 0;
        }
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: %s REF.yuv DIST.yuv WIDTH HEIGHT\n", argv[0]);
        return 2;
    }
    const unsigned w = (unsigned)atoi(argv[3]), h = (unsigned)atoi(argv[4]);
    FILE *ref_file = fopen(argv[1], "rb"), *dist_file = fopen(argv[2], "rb");
    if (!ref_file || !dist_file) {
        fprintf(stderr, "cannot open the inputs\n");
        return 1;
    }

    VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_ERROR, .n_threads = 2 };
    VmafContext *vmaf = NULL;
    VmafModel *model = NULL;
    VmafModelConfig model_cfg = { .name = "vmaf" };
    if (vmaf_init(&vmaf, cfg) || vmaf_model_load(&model, &model_cfg, "vmaf_v0.6.1") ||
        vmaf_use_features_from_model(vmaf, model) || vmaf_use_feature(vmaf, "psnr", NULL))
        return 1;

    unsigned n = 0;
    for (;; n++) {
        VmafPicture ref, dist;
        if (vmaf_picture_alloc(&ref, VMAF_PIX_FMT_YUV420P, 8, w, h) ||
            vmaf_picture_alloc(&dist, VMAF_PIX_FMT_YUV420P, 8, w, h))
            return 1;
        if (!read_frame(ref_file, &ref) || !read_frame(dist_file, &dist)) {
            vmaf_picture_unref(&ref);
            vmaf_picture_unref(&dist);
            break;
        }
        if (vmaf_read_pictures(vmaf, &ref, &dist, n)) return 1; /* takes both pictures */
    }
    if (n == 0 || vmaf_read_pictures(vmaf, NULL, NULL, 0)) return 1; /* flush */

    double score, psnr;
    if (vmaf_score_pooled(vmaf, model, VMAF_POOL_METHOD_MEAN, &score, 0, n - 1) ||
        vmaf_feature_score_pooled(vmaf, "psnr_y", VMAF_POOL_METHOD_MEAN, &psnr, 0, n - 1))
        return 1;
    printf("libvmaf %s: %u frames, VMAF %.6f, PSNR-Y %.6f dB\n", vmaf_version(), n, score, psnr);

    vmaf_model_destroy(model);
    vmaf_close(vmaf);
    fclose(ref_file);
    fclose(dist_file);
    return 0;
}
