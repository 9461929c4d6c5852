/* libvmaf C API, source- and binary-compatible with upstream libvmaf 3.x.
 * A thin layer over the vmaf-engine C++ library. Functions return 0 or a
 * negative errno; -EAGAIN means a score is not available (yet). */
#ifndef VMAF_LIBVMAF_H_
#define VMAF_LIBVMAF_H_

#include <stdint.h>
#include <stdio.h>

#include "libvmaf/feature.h"
#include "libvmaf/model.h"
#include "libvmaf/picture.h"

#ifdef __cplusplus
extern "C" {
#endif

enum VmafLogLevel {
    VMAF_LOG_LEVEL_NONE = 0,
    VMAF_LOG_LEVEL_ERROR,
    VMAF_LOG_LEVEL_WARNING,
    VMAF_LOG_LEVEL_INFO,
    VMAF_LOG_LEVEL_DEBUG
};

enum VmafOutputFormat {
    VMAF_OUTPUT_FORMAT_NONE = 0,
    VMAF_OUTPUT_FORMAT_XML,
    VMAF_OUTPUT_FORMAT_JSON,
    VMAF_OUTPUT_FORMAT_CSV,
    VMAF_OUTPUT_FORMAT_SUB
};

enum VmafPoolingMethod {
    VMAF_POOL_METHOD_UNKNOWN = 0,
    VMAF_POOL_METHOD_MIN,
    VMAF_POOL_METHOD_MAX,
    VMAF_POOL_METHOD_MEAN,
    VMAF_POOL_METHOD_HARMONIC_MEAN,
    VMAF_POOL_METHOD_NB
};

/* n_threads 0: all work on the calling thread; n_subsample: score only every
 * n-th frame (0 or 1: all); cpumask: set bits disable SIMD levels; gpumask:
 * set bits disable GPUs (0 with an imported CUDA state: use it). */
typedef struct VmafConfiguration {
    enum VmafLogLevel log_level;
    unsigned n_threads;
    unsigned n_subsample;
    uint64_t cpumask;
    uint64_t gpumask;
} VmafConfiguration;

typedef struct VmafContext VmafContext;

int vmaf_init(VmafContext **vmaf, VmafConfiguration cfg);

/* Registers the features the model needs; the model stays the caller's. */
int vmaf_use_features_from_model(VmafContext *vmaf, VmafModel *model);
int vmaf_use_features_from_model_collection(VmafContext *vmaf,
                                            VmafModelCollection *model_collection);

/* Registers one feature extractor. Takes ownership of opts_dict (may be NULL). */
int vmaf_use_feature(VmafContext *vmaf, const char *feature_name,
                     VmafFeatureDictionary *opts_dict);

/* Stores an externally computed score for frame `index`. */
int vmaf_import_feature_score(VmafContext *vmaf, const char *feature_name,
                              double value, unsigned index);

/* Scores one pair; takes ownership of both pictures (they are unreferenced,
 * also on error). Indices start at 0 and increase by one. ref == dist == NULL
 * flushes: remaining frames are finished, after which no pictures are read. */
int vmaf_read_pictures(VmafContext *vmaf, VmafPicture *ref, VmafPicture *dist,
                       unsigned index);

int vmaf_score_at_index(VmafContext *vmaf, VmafModel *model, double *score,
                        unsigned index);
int vmaf_score_at_index_model_collection(VmafContext *vmaf,
                                         VmafModelCollection *model_collection,
                                         VmafModelCollectionScore *score,
                                         unsigned index);
int vmaf_feature_score_at_index(VmafContext *vmaf, const char *feature_name,
                                double *score, unsigned index);

/* Pools frames index_low..index_high (inclusive; subsampled frames skipped). */
int vmaf_score_pooled(VmafContext *vmaf, VmafModel *model,
                      enum VmafPoolingMethod pool_method, double *score,
                      unsigned index_low, unsigned index_high);
int vmaf_score_pooled_model_collection(VmafContext *vmaf,
                                       VmafModelCollection *model_collection,
                                       enum VmafPoolingMethod pool_method,
                                       VmafModelCollectionScore *score,
                                       unsigned index_low, unsigned index_high);
int vmaf_feature_score_pooled(VmafContext *vmaf, const char *feature_name,
                              enum VmafPoolingMethod pool_method, double *score,
                              unsigned index_low, unsigned index_high);

typedef struct VmafPictureConfiguration {
    struct {
        unsigned w, h;
        unsigned bpc;
        enum VmafPixelFormat pix_fmt;
    } pic_params;
    unsigned pic_cnt;
} VmafPictureConfiguration;

/* Sets up a pool of pic_cnt pictures of one geometry; pictures return to it
 * when their last reference is dropped. */
int vmaf_preallocate_pictures(VmafContext *vmaf, VmafPictureConfiguration cfg);
int vmaf_fetch_preallocated_picture(VmafContext *vmaf, VmafPicture *pic);

/* Frees the context (flushing is the caller's job). */
int vmaf_close(VmafContext *vmaf);

int vmaf_write_output(VmafContext *vmaf, const char *output_path,
                      enum VmafOutputFormat fmt);

const char *vmaf_version(void);

#ifdef __cplusplus
}
#endif

#endif /* VMAF_LIBVMAF_H_ */
