/* libvmaf C API (upstream libvmaf 3.x compatible): feature option dictionaries. */
#ifndef VMAF_FEATURE_H_
#define VMAF_FEATURE_H_

#ifdef __cplusplus
extern "C" {
#endif

/* A list of key=value options for one feature extractor (opaque). */
typedef struct VmafFeatureDictionary VmafFeatureDictionary;

/* Adds or replaces key=val; *dict may be NULL (a new dictionary is made).
 * Strings are copied. Returns 0 or a negative errno. */
int vmaf_feature_dictionary_set(VmafFeatureDictionary **dict, const char *key,
                                const char *val);

/* Frees *dict and sets it to NULL. Returns 0 or a negative errno. */
int vmaf_feature_dictionary_free(VmafFeatureDictionary **dict);

#ifdef __cplusplus
}
#endif

#endif /* VMAF_FEATURE_H_ */
