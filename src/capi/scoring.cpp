// The C API's context operations: registering features and models, pushing
// pictures, querying and writing scores. Each maps onto vmaf::Engine's push mode.
#include <algorithm>
#include <cstring>
#include <string>

#include "capi/capi_types.hpp"
#include "core/feature_name.hpp"
#include "libvmaf/libvmaf.h"
#include "vmaf/engine.hpp"
#include "vmaf/error.hpp"

using vmaf::capi::guarded;
using vmaf::capi::log_error;

namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

/// The key a feature name given to the C API is kept under. Callers written
/// for upstream name scores as its feature collector does: the extractor's
/// name ("VMAF_integer_feature_adm2_score"), or, with non-default feature
/// parameters, its report alias plus the option suffix ("integer_adm2_egl_1").
/// Our collector keeps every score under the name upstream's report prints,
/// i.e. that name's alias, so the alias of either form is the key; report
/// names ("integer_adm2") are their own alias and are accepted as well.
std::string score_key(const char* feature_name) { return std::string(vmaf::feature_alias(feature_name)); }

/// Features and models can only be added before the first picture.
int check_configurable(VmafContext* vmaf, const char* fn) {
    if (vmaf->geometry) {
        log_error("%s: features and models must be added before the first picture", fn);
        return -EINVAL;
    }
    return 0;
}

/// A score that is missing: not yet computed (-EAGAIN) or never will be (-EINVAL).
int missing(VmafContext* vmaf, const char* fn, const std::string& key, unsigned index) {
    if (!vmaf->flushed) return -EAGAIN;
    log_error("%s: no score '%s' at index %u", fn, key.c_str(), index);
    return -EINVAL;
}

/// Takes over the picture (consumed whatever the outcome) after checking the
/// caller has not changed its fields.
int take_picture(VmafPicture* pic, vmaf::Picture& out, const char* which) {
    if (!pic->ref) {
        log_error("vmaf_read_pictures: %s picture was not allocated by libvmaf (no reference)", which);
        return -EINVAL;
    }
    out = std::move(pic->ref->pic);
    const bool same = pic->bpc == out.bpc() && pic->w[0] == out.width() && pic->h[0] == out.height() &&
                      pic->data[0] == out.plane(0).data && pic->stride[0] == out.plane(0).stride;
    delete pic->ref;
    *pic = VmafPicture{};
    if (!same) {
        log_error("vmaf_read_pictures: %s picture's fields were changed after allocation", which);
        return -EINVAL;
    }
    return 0;
}

std::optional<vmaf::Engine::Pool> to_pool(int m) {
    switch (m) {
        case VMAF_POOL_METHOD_MIN: return vmaf::Engine::Pool::Min;
        case VMAF_POOL_METHOD_MAX: return vmaf::Engine::Pool::Max;
        case VMAF_POOL_METHOD_MEAN: return vmaf::Engine::Pool::Mean;
        case VMAF_POOL_METHOD_HARMONIC_MEAN: return vmaf::Engine::Pool::HarmonicMean;
        default: return std::nullopt;
    }
}

const char* const kBootstrapSuffixes[] = {"_bagging", "_stddev", "_ci_p95_lo", "_ci_p95_hi"};

void fill_bootstrap(VmafModelCollectionScore* s, const double v[4]) {
    s->type = VMAF_MODEL_COLLECTION_SCORE_BOOTSTRAP;
    s->bootstrap.bagging_score = v[0];
    s->bootstrap.stddev = v[1];
    s->bootstrap.ci.p95.lo = v[2];
    s->bootstrap.ci.p95.hi = v[3];
}

}  // namespace

extern "C" int vmaf_use_features_from_model(VmafContext* vmaf, VmafModel* model) {
    VMAF_REQUIRE(vmaf && model, "vmaf_use_features_from_model", "NULL argument");
    if (int e = check_configurable(vmaf, "vmaf_use_features_from_model")) return e;
    return guarded("vmaf_use_features_from_model", [&] {
        auto& keys = model->collection ? vmaf->collection_keys : vmaf->model_keys;
        if (model->collection && contains(keys, model->req.name)) return 0;  // its collection is in use
        vmaf->engine->add_model(model->req);
        keys.push_back(model->req.name);
        return 0;
    });
}

extern "C" int vmaf_use_features_from_model_collection(VmafContext* vmaf, VmafModelCollection* coll) {
    VMAF_REQUIRE(vmaf && coll, "vmaf_use_features_from_model_collection", "NULL argument");
    if (int e = check_configurable(vmaf, "vmaf_use_features_from_model_collection")) return e;
    return guarded("vmaf_use_features_from_model_collection", [&] {
        if (contains(vmaf->collection_keys, coll->req.name)) return 0;
        vmaf->engine->add_model(coll->req);
        vmaf->collection_keys.push_back(coll->req.name);
        return 0;
    });
}

extern "C" int vmaf_use_feature(VmafContext* vmaf, const char* feature_name, VmafFeatureDictionary* opts) {
    std::unique_ptr<VmafFeatureDictionary> owned(opts);  // ours whatever happens
    VMAF_REQUIRE(vmaf && feature_name, "vmaf_use_feature", "NULL argument");
    if (int e = check_configurable(vmaf, "vmaf_use_feature")) return e;
    return guarded("vmaf_use_feature", [&] {
        vmaf::FeatureRequest r;
        r.name = feature_name;
        if (owned) r.options = owned->entries;
        vmaf->engine->add_feature(r);
        vmaf->engine_used = true;
        return 0;
    });
}

extern "C" int vmaf_import_feature_score(VmafContext* vmaf, const char* feature_name, double value, unsigned index) {
    VMAF_REQUIRE(vmaf && feature_name && *feature_name, "vmaf_import_feature_score", "NULL argument");
    return guarded("vmaf_import_feature_score", [&] {
        const std::string key = score_key(feature_name);
        if (vmaf->engine->score_at(key, index)) {
            log_error("vmaf_import_feature_score: '%s' already has a score at index %u", feature_name, index);
            return -EINVAL;
        }
        vmaf->engine->import_score(key, index, value);
        vmaf->engine_used = true;
        return 0;
    });
}

extern "C" int vmaf_read_pictures(VmafContext* vmaf, VmafPicture* ref, VmafPicture* dist, unsigned index) {
    if (!vmaf) {
        log_error("vmaf_read_pictures: NULL context");
        return -EINVAL;
    }
    // The backend binds its context on this thread; the caller's is restored.
    const vmaf::BackendThreadGuard keep;
    if (!ref != !dist) {
        log_error("vmaf_read_pictures: only one of reference and distorted given");
        return -EINVAL;
    }
    if (vmaf->flushed) {
        log_error("vmaf_read_pictures: context already flushed");
        if (ref) {
            if (ref->ref) vmaf_picture_unref(ref);
            if (dist->ref) vmaf_picture_unref(dist);
        }
        return -EINVAL;
    }
    if (!ref) {
        vmaf->flushed = true;
        if (!vmaf->geometry) return 0;
        return guarded("vmaf_read_pictures", [&] {
            vmaf->engine->push_flush();
            return 0;
        });
    }
    vmaf::Picture r, d;
    const int er = take_picture(ref, r, "reference");
    const int ed = take_picture(dist, d, "distorted");
    if (er) return er;
    if (ed) return ed;
    if (index != vmaf->engine->pushed()) {
        log_error("vmaf_read_pictures: index %u out of order (expected %u)", index, vmaf->engine->pushed());
        return -EINVAL;
    }
    return guarded("vmaf_read_pictures", [&] {
        if (!vmaf->geometry) {
            const vmaf::VideoGeometry g{r.format(), r.bpc(), r.width(), r.height()};
            vmaf->engine->push_begin(g);
            vmaf->geometry = g;
        }
        vmaf->engine->push(std::move(r), std::move(d));
        return 0;
    });
}

extern "C" int vmaf_score_at_index(VmafContext* vmaf, VmafModel* model, double* score, unsigned index) {
    VMAF_REQUIRE(vmaf && model && score, "vmaf_score_at_index", "NULL argument");
    const std::string& key = model->req.name;
    VMAF_REQUIRE(contains(model->collection ? vmaf->collection_keys : vmaf->model_keys, key), "vmaf_score_at_index",
                 "model '%s' is not in use (vmaf_use_features_from_model)", key.c_str());
    const auto v = vmaf->engine->score_at(key, index);
    if (!v) return missing(vmaf, "vmaf_score_at_index", key, index);
    *score = *v;
    return 0;
}

extern "C" int vmaf_score_at_index_model_collection(VmafContext* vmaf, VmafModelCollection* coll,
                                                    VmafModelCollectionScore* score, unsigned index) {
    VMAF_REQUIRE(vmaf && coll && score, "vmaf_score_at_index_model_collection", "NULL argument");
    VMAF_REQUIRE(contains(vmaf->collection_keys, coll->req.name), "vmaf_score_at_index_model_collection",
                 "collection '%s' is not in use", coll->req.name.c_str());
    double v[4];
    for (int k = 0; k < 4; ++k) {
        const std::string key = coll->req.name + kBootstrapSuffixes[k];
        const auto s = vmaf->engine->score_at(key, index);
        if (!s) return missing(vmaf, "vmaf_score_at_index_model_collection", key, index);
        v[k] = *s;
    }
    fill_bootstrap(score, v);
    return 0;
}

extern "C" int vmaf_feature_score_at_index(VmafContext* vmaf, const char* feature_name, double* score,
                                           unsigned index) {
    VMAF_REQUIRE(vmaf && feature_name && score, "vmaf_feature_score_at_index", "NULL argument");
    const auto v = vmaf->engine->score_at(score_key(feature_name), index);
    if (!v) return missing(vmaf, "vmaf_feature_score_at_index", feature_name, index);
    *score = *v;
    return 0;
}

namespace {

/// Pools `key`; a missing score is logged under `shown` (the caller's name).
int pooled(VmafContext* vmaf, const char* fn, const std::string& key, VmafPoolingMethod m, double* score,
           unsigned low, unsigned high, const char* shown = nullptr) {
    const auto pool = to_pool(vmaf::capi::enum_value(m));
    if (!pool) {
        log_error("%s: unknown pooling method %d", fn, vmaf::capi::enum_value(m));
        return -EINVAL;
    }
    if (low > high) {
        log_error("%s: index_low %u > index_high %u", fn, low, high);
        return -EINVAL;
    }
    const auto v = vmaf->engine->pooled(key, *pool, low, high);
    if (!v) return missing(vmaf, fn, shown ? std::string(shown) : key, high);
    *score = *v;
    return 0;
}

}  // namespace

extern "C" int vmaf_score_pooled(VmafContext* vmaf, VmafModel* model, VmafPoolingMethod pool_method, double* score,
                                 unsigned index_low, unsigned index_high) {
    VMAF_REQUIRE(vmaf && model && score, "vmaf_score_pooled", "NULL argument");
    const std::string& key = model->req.name;
    VMAF_REQUIRE(contains(model->collection ? vmaf->collection_keys : vmaf->model_keys, key), "vmaf_score_pooled",
                 "model '%s' is not in use (vmaf_use_features_from_model)", key.c_str());
    return pooled(vmaf, "vmaf_score_pooled", key, pool_method, score, index_low, index_high);
}

extern "C" int vmaf_score_pooled_model_collection(VmafContext* vmaf, VmafModelCollection* coll,
                                                  VmafPoolingMethod pool_method, VmafModelCollectionScore* score,
                                                  unsigned index_low, unsigned index_high) {
    VMAF_REQUIRE(vmaf && coll && score, "vmaf_score_pooled_model_collection", "NULL argument");
    VMAF_REQUIRE(contains(vmaf->collection_keys, coll->req.name), "vmaf_score_pooled_model_collection",
                 "collection '%s' is not in use", coll->req.name.c_str());
    double v[4];
    for (int k = 0; k < 4; ++k)
        if (int e = pooled(vmaf, "vmaf_score_pooled_model_collection", coll->req.name + kBootstrapSuffixes[k],
                           pool_method, &v[k], index_low, index_high))
            return e;
    fill_bootstrap(score, v);
    return 0;
}

extern "C" int vmaf_feature_score_pooled(VmafContext* vmaf, const char* feature_name, VmafPoolingMethod pool_method,
                                         double* score, unsigned index_low, unsigned index_high) {
    VMAF_REQUIRE(vmaf && feature_name && score, "vmaf_feature_score_pooled", "NULL argument");
    return pooled(vmaf, "vmaf_feature_score_pooled", score_key(feature_name), pool_method, score, index_low,
                  index_high, feature_name);
}

extern "C" int vmaf_preallocate_pictures(VmafContext* vmaf, VmafPictureConfiguration cfg) {
    VMAF_REQUIRE(vmaf, "vmaf_preallocate_pictures", "NULL context");
    VMAF_REQUIRE(!vmaf->pool, "vmaf_preallocate_pictures", "pictures already preallocated");
    vmaf::VideoGeometry g;
    if (int e = vmaf::capi::picture_geometry(vmaf::capi::enum_value(cfg.pic_params.pix_fmt), cfg.pic_params.bpc,
                                             cfg.pic_params.w, cfg.pic_params.h, g))
        return e;
    VMAF_REQUIRE(cfg.pic_cnt > 0 && cfg.pic_cnt <= 1024, "vmaf_preallocate_pictures", "pic_cnt %u out of range",
                 cfg.pic_cnt);
    return guarded("vmaf_preallocate_pictures", [&] {
        auto pool = std::make_unique<vmaf::PicturePool>(g, cfg.pic_cnt);
        pool->reserve(cfg.pic_cnt);
        vmaf->pool = std::move(pool);
        return 0;
    });
}

extern "C" int vmaf_fetch_preallocated_picture(VmafContext* vmaf, VmafPicture* pic) {
    VMAF_REQUIRE(vmaf && pic, "vmaf_fetch_preallocated_picture", "NULL argument");
    VMAF_REQUIRE(vmaf->pool, "vmaf_fetch_preallocated_picture", "no preallocated pictures (vmaf_preallocate_pictures)");
    return guarded("vmaf_fetch_preallocated_picture",
                   [&] { return vmaf::capi::export_picture(vmaf->pool->acquire(), pic); });
}

extern "C" int vmaf_write_output(VmafContext* vmaf, const char* output_path, VmafOutputFormat fmt) {
    VMAF_REQUIRE(vmaf && output_path, "vmaf_write_output", "NULL argument");
    vmaf::OutputFormat f;
    switch (vmaf::capi::enum_value(fmt)) {
        case VMAF_OUTPUT_FORMAT_XML: f = vmaf::OutputFormat::Xml; break;
        case VMAF_OUTPUT_FORMAT_JSON: f = vmaf::OutputFormat::Json; break;
        case VMAF_OUTPUT_FORMAT_CSV: f = vmaf::OutputFormat::Csv; break;
        case VMAF_OUTPUT_FORMAT_SUB: f = vmaf::OutputFormat::Sub; break;
        default: log_error("vmaf_write_output: unknown output format %d", vmaf::capi::enum_value(fmt)); return -EINVAL;
    }
    VMAF_REQUIRE(vmaf->flushed && vmaf->geometry, "vmaf_write_output",
                 "no scores to write: read pictures and flush (vmaf_read_pictures(vmaf, NULL, NULL, 0)) first");
    return guarded("vmaf_write_output", [&] {
        vmaf->engine->write_report(output_path, f, vmaf::Precision{});
        return 0;
    });
}
