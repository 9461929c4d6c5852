/* libFuzzer target: random sequences of libvmaf C API calls on one context
 * (features, models, pictures of random geometry, flushes, queries, output,
 * CUDA calls and CUDA picture preallocation). Every call must return 0 or a negative errno; crashes, leaks
 * (with -fsanitize=address) and hangs are the findings.
 *   clang -g -fsanitize=fuzzer,address,undefined tests/fuzz/capi_fuzz.c \
 *         $(pkg-config --cflags --libs libvmaf) -o capi_fuzz
 *   LD_LIBRARY_PATH=$(pkg-config --variable=libdir libvmaf) ./capi_fuzz -max_total_time=60 */
#include <libvmaf/libvmaf.h>
#include <libvmaf/libvmaf_cuda.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct Input {
    const uint8_t *p;
    size_t n;
};

static unsigned take(struct Input *in, unsigned range)
{
    if (!in->n || !range) return 0;
    unsigned v = *in->p++;
    in->n--;
    return v % range;
}

static void check(int err)
{
    if (err > 0) abort(); /* the API returns 0 or a negative errno */
}

static const char *const kFeatures[] = {"psnr", "adm", "vif", "motion", "float_adm", "nope", ""};
static const char *const kKeys[] = {"psnr_y", "vmaf", "integer_adm2", "integer_motion2", "x", ""};
static const char *const kOptions[][2] = {{"enable_chroma", "false"}, {"enable_mse", "true"}, {"bogus", "1"},
                                          {"adm_enhn_gain_limit", "1.0"}, {"motion_force_zero", "true"}};
static const char *const kModels[] = {"vmaf_v0.6.1", "vmaf_b_v0.6.3", "vmaf_v0.6.1neg", "nope"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct Input in = {data, size};
    VmafConfiguration cfg = {VMAF_LOG_LEVEL_NONE, take(&in, 3), take(&in, 4), 0, 0};
    VmafContext *vmaf = NULL;
    if (vmaf_init(&vmaf, cfg)) return 0;
    VmafModel *models[4] = {0};
    VmafModelCollection *colls[4] = {0};
    unsigned n_models = 0, n_colls = 0, index = 0;
    VmafPicture held = {0};
    while (in.n) {
        switch (take(&in, 13)) {
        case 0: {
            VmafFeatureDictionary *d = NULL;
            unsigned k = take(&in, 3);
            for (unsigned i = 0; i < k; i++) {
                const char *const *o = kOptions[take(&in, 5)];
                check(vmaf_feature_dictionary_set(&d, o[0], o[1]));
            }
            check(vmaf_use_feature(vmaf, kFeatures[take(&in, 7)], d));
            break;
        }
        case 1:
            if (n_models < 4) {
                VmafModelConfig mc = {take(&in, 2) ? "vmaf" : "other", take(&in, 8)};
                if (!vmaf_model_load(&models[n_models], &mc, kModels[take(&in, 4)])) {
                    if (take(&in, 2)) {
                        VmafFeatureDictionary *d = NULL;
                        const char *const *o = kOptions[take(&in, 5)];
                        check(vmaf_feature_dictionary_set(&d, o[0], o[1]));
                        check(vmaf_model_feature_overload(models[n_models], kFeatures[take(&in, 7)], d));
                    }
                    check(vmaf_use_features_from_model(vmaf, models[n_models]));
                    n_models++;
                }
            }
            break;
        case 2:
            if (n_models < 4 && n_colls < 4) {
                VmafModelConfig mc = {"vmaf", 0};
                if (!vmaf_model_collection_load(&models[n_models], &colls[n_colls], &mc, kModels[take(&in, 4)])) {
                    check(vmaf_use_features_from_model_collection(vmaf, colls[n_colls]));
                    n_models++;
                    n_colls++;
                }
            }
            break;
        case 3:
        case 4:
        case 5: {
            /* A pair, usually of one small geometry, sometimes mismatched. */
            VmafPicture r, d;
            const unsigned fmt = 1 + take(&in, 4), bpc = take(&in, 4) ? 8 : 10;
            const unsigned w = 16 + take(&in, 3), h = 16 + take(&in, 2);
            if (vmaf_picture_alloc(&r, fmt, bpc, w, h)) break;
            if (vmaf_picture_alloc(&d, take(&in, 8) ? fmt : 1 + take(&in, 4), bpc, w, h)) {
                check(vmaf_picture_unref(&r));
                break;
            }
            for (unsigned p = 0; p < 3; p++)
                if (r.data[p]) {
                    memset(r.data[p], take(&in, 256), (size_t)r.stride[p] * r.h[p]);
                    memset(d.data[p], take(&in, 256), (size_t)d.stride[p] * d.h[p]);
                }
            if (bpc > 8) { /* keep samples in range */
                for (unsigned p = 0; p < 3; p++)
                    if (r.data[p]) {
                        memset(r.data[p], 1, (size_t)r.stride[p] * r.h[p]);
                        memset(d.data[p], 2, (size_t)d.stride[p] * d.h[p]);
                    }
            }
            const int err = vmaf_read_pictures(vmaf, &r, &d, take(&in, 8) ? index : index + 1);
            check(err);
            if (!err) index++;
            break;
        }
        case 6:
            check(vmaf_read_pictures(vmaf, NULL, NULL, 0));
            break;
        case 7: {
            double s;
            check(vmaf_feature_score_at_index(vmaf, kKeys[take(&in, 6)], &s, take(&in, 8)));
            check(vmaf_feature_score_pooled(vmaf, kKeys[take(&in, 6)], take(&in, 6), &s, take(&in, 4), take(&in, 8)));
            break;
        }
        case 8:
            if (n_models) {
                double s;
                VmafModel *m = models[take(&in, n_models)];
                check(vmaf_score_at_index(vmaf, m, &s, take(&in, 8)));
                check(vmaf_score_pooled(vmaf, m, take(&in, 6), &s, 0, take(&in, 8)));
            }
            if (n_colls) {
                VmafModelCollectionScore cs;
                check(vmaf_score_pooled_model_collection(vmaf, colls[take(&in, n_colls)], take(&in, 6), &cs, 0,
                                                         take(&in, 8)));
            }
            break;
        case 9:
            check(vmaf_import_feature_score(vmaf, kKeys[take(&in, 6)], take(&in, 100), take(&in, 8)));
            break;
        case 10: {
            VmafPictureConfiguration pc = {{16, 16, take(&in, 2) ? 8 : 10, 1 + take(&in, 5)}, take(&in, 4)};
            if (!held.ref) {
                check(vmaf_preallocate_pictures(vmaf, pc));
                check(vmaf_fetch_preallocated_picture(vmaf, &held));
            }
            break;
        }
        case 11: {
            VmafCudaState *cu = NULL;
            VmafCudaConfiguration cc = {NULL};
            if (!vmaf_cuda_state_init(&cu, cc)) {
                check(vmaf_cuda_import_state(vmaf, cu));
                check(vmaf_cuda_state_free(cu));
            }
            break;
        }
        case 12: {
            /* CUDA pictures (refused without an imported state): any method, geometry. */
            VmafCudaPictureConfiguration pc = {{16 + take(&in, 3), 16, take(&in, 2) ? 8 : 10, take(&in, 6)},
                                               (enum VmafCudaPicturePreallocationMethod)take(&in, 5)};
            check(vmaf_cuda_preallocate_pictures(vmaf, pc));
            VmafPicture r = {0}, d = {0};
            if (!vmaf_cuda_fetch_preallocated_picture(vmaf, &r) && !vmaf_cuda_fetch_preallocated_picture(vmaf, &d)) {
                if (take(&in, 2)) {
                    const int err = vmaf_read_pictures(vmaf, &r, &d, index);
                    check(err);
                    if (!err) index++;
                } else {
                    check(vmaf_picture_unref(&r));
                    check(vmaf_picture_unref(&d));
                }
            }
            if (r.ref) check(vmaf_picture_unref(&r));
            break;
        }
        }
    }
    if (held.ref) check(vmaf_picture_unref(&held));
    check(vmaf_close(vmaf));
    for (unsigned i = 0; i < n_models; i++) vmaf_model_destroy(models[i]);
    for (unsigned i = 0; i < n_colls; i++) vmaf_model_collection_destroy(colls[i]);
    return 0;
}
