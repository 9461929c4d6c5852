/* libvmaf C API (upstream libvmaf 3.x compatible): models and collections. */
#ifndef VMAF_MODEL_H_
#define VMAF_MODEL_H_

#include <stdint.h>

#include "feature.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VmafModel VmafModel;

enum VmafModelFlags {
    VMAF_MODEL_FLAGS_DEFAULT = 0,
    VMAF_MODEL_FLAG_DISABLE_CLIP = (1 << 0),
    VMAF_MODEL_FLAG_ENABLE_TRANSFORM = (1 << 1),
    VMAF_MODEL_FLAG_DISABLE_TRANSFORM = (1 << 2)
};

/* name: the key scores are reported under (NULL: "vmaf"); flags: VmafModelFlags. */
typedef struct VmafModelConfig {
    const char *name;
    uint64_t flags;
} VmafModelConfig;

/* Loads a built-in model by version ("vmaf_v0.6.1", ...). 0 or negative errno. */
int vmaf_model_load(VmafModel **model, VmafModelConfig *cfg,
                    const char *version);
/* Loads a model from a JSON file. 0 or negative errno. */
int vmaf_model_load_from_path(VmafModel **model, VmafModelConfig *cfg,
                              const char *path);
/* Overrides options of one of the model's features (e.g. "adm",
 * {"adm_enhn_gain_limit": "1.0"}). Takes ownership of opts_dict (freed
 * whatever the result). A feature the model does not use is ignored. */
int vmaf_model_feature_overload(VmafModel *model, const char *feature_name,
                                VmafFeatureDictionary *opts_dict);
void vmaf_model_destroy(VmafModel *model);

/* A bootstrap set of models (opaque). */
typedef struct VmafModelCollection VmafModelCollection;

enum VmafModelCollectionScoreType {
    VMAF_MODEL_COLLECTION_SCORE_UNKNOWN = 0,
    VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP
};

typedef struct VmafModelCollectionScore {
    enum VmafModelCollectionScoreType type;
    struct {
        double bagging_score;
        double stddev;
        struct {
            struct {
                double lo, hi;
            } p95;
        } ci;
    } bootstrap;
} VmafModelCollectionScore;

/* Loads a built-in collection ("vmaf_b_v0.6.3"); *model receives its first
 * model (owned by the collection). 0 or negative errno. */
int vmaf_model_collection_load(VmafModel **model,
                               VmafModelCollection **model_collection,
                               VmafModelConfig *cfg, const char *version);
int vmaf_model_collection_load_from_path(VmafModel **model,
                                         VmafModelCollection **model_collection,
                                         VmafModelConfig *cfg,
                                         const char *path);
int vmaf_model_collection_feature_overload(VmafModel *model,
                                           VmafModelCollection **model_collection,
                                           const char *feature_name,
                                           VmafFeatureDictionary *opts_dict);
void vmaf_model_collection_destroy(VmafModelCollection *model_collection);

#ifdef __cplusplus
}
#endif

#endif /* VMAF_MODEL_H_ */
