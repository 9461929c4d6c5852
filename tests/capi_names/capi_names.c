/*
 * The feature names a libvmaf feature collector answers, with their values.
 *
 * Written against libvmaf's public C API only, so that the same source links
 * against Netflix's libvmaf (make_reference.sh: the reference list in
 * testdata/capi_names/) and against ours (names_test.py compares the two).
 *
 *   capi_names REF.yuv DIST.yuv WIDTH HEIGHT FRAMES [CASE_ID...]
 *
 * Reads the first FRAMES pairs of two raw 8-bit 4:2:0 files and, for every
 * case below (one or more extractors with options, or models), scores them
 * with n_threads 0 and prints, for every candidate name:
 *   avail NAME PHASE...   per phase, one character per frame: '1' answered,
 *                         'I' -EINVAL, 'A' -EAGAIN, '?' another error. Phases:
 *                         r0..rN-1 (after vmaf_read_pictures of frame k),
 *                         flush (after vmaf_read_pictures(NULL, NULL)),
 *                         scored (after vmaf_score_pooled of the models, as
 *                         upstream's vmaf tool does before writing).
 *   value NAME REPORT V0 V1 ...   the final per-frame values (%.17g); REPORT is
 *                         the name upstream's report writer prints (its alias).
 *   pooled NAME MIN MAX MEAN HMEAN  vmaf_feature_score_pooled over all frames.
 *   absent NAME CODES     a candidate never answered (CODES: the last phase).
 *   score_pooled[_collection] ...  vmaf_score_pooled[_model_collection] (mean).
 *   model LABEL PHASE...  vmaf_score_at_index of each model (LABEL: its
 *                         version), codes as for avail;
 *   model_value LABEL V0 V1 ...  their final values.
 *   changed NAME FRAME A B  a value answered before the end differs from the last.
 *   metric NAME COVERED   every <metric name=...> of vmaf_write_output's XML
 *                         (one per collector entry) and whether a candidate
 *                         answering under that report name was found.
 * Upstream's collector has no call that lists its names, so the candidates
 * are derived from upstream's source (see CANDIDATES below) and the XML's
 * metric list checks that none was missed.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libvmaf/libvmaf.h>
#include <libvmaf/model.h>

#define MAX_FRAMES 64
#define MAX_NAMES 512
#define MAX_PHASES (MAX_FRAMES + 2)

/*
 * CANDIDATES. Per extractor, every name its source hands to
 * vmaf_feature_collector_append / _append_with_dict (libvmaf/src/feature/,
 * upstream commit f85a8536), which includes its provided_features. An
 * extractor whose feature parameters are not all default names its scores,
 * in feature_name.c, alias(name) + "_" + option alias + "_" + value (%g) per
 * non-default parameter (sorted by option name; booleans without the value);
 * names appended through the dictionary but missing from provided_features
 * keep their bare name. Each case states that suffix; a candidate is then
 * tried as NAME, alias(NAME) and alias(NAME) + SUFFIX.
 */
static const char *const ADM[] = {
    "VMAF_integer_feature_adm2_score", "VMAF_integer_feature_aim_score", "VMAF_integer_feature_adm3_score",
    "integer_adm_scale0", "integer_adm_scale1", "integer_adm_scale2", "integer_adm_scale3",
    "integer_adm", "integer_adm_num", "integer_adm_den",
    "integer_adm_num_scale0", "integer_adm_den_scale0", "integer_adm_num_scale1", "integer_adm_den_scale1",
    "integer_adm_num_scale2", "integer_adm_den_scale2", "integer_adm_num_scale3", "integer_adm_den_scale3",
    NULL};
static const char *const VIF[] = {
    "VMAF_integer_feature_vif_scale0_score", "VMAF_integer_feature_vif_scale1_score",
    "VMAF_integer_feature_vif_scale2_score", "VMAF_integer_feature_vif_scale3_score",
    "integer_vif", "integer_vif_num", "integer_vif_den",
    "integer_vif_num_scale0", "integer_vif_den_scale0", "integer_vif_num_scale1", "integer_vif_den_scale1",
    "integer_vif_num_scale2", "integer_vif_den_scale2", "integer_vif_num_scale3", "integer_vif_den_scale3",
    NULL};
static const char *const MOTION[] = {
    "VMAF_integer_feature_motion_sad_score", "VMAF_integer_feature_motion_score",
    "VMAF_integer_feature_motion2_score", "VMAF_integer_feature_motion3_score", NULL};
static const char *const PSNR[] = {
    "psnr_y", "psnr_cb", "psnr_cr", "mse_y", "mse_cb", "mse_cr", "apsnr_y", "apsnr_cb", "apsnr_cr", NULL};
static const char *const PSNR_HVS[] = {"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs", NULL};
static const char *const CIEDE[] = {"ciede2000", NULL};
static const char *const FLOAT_SSIM[] = {"float_ssim", "float_ssim_l", "float_ssim_c", "float_ssim_s", NULL};
static const char *const FLOAT_MS_SSIM[] = {
    "float_ms_ssim",
    "float_ms_ssim_l_scale0", "float_ms_ssim_l_scale1", "float_ms_ssim_l_scale2", "float_ms_ssim_l_scale3",
    "float_ms_ssim_l_scale4",
    "float_ms_ssim_c_scale0", "float_ms_ssim_c_scale1", "float_ms_ssim_c_scale2", "float_ms_ssim_c_scale3",
    "float_ms_ssim_c_scale4",
    "float_ms_ssim_s_scale0", "float_ms_ssim_s_scale1", "float_ms_ssim_s_scale2", "float_ms_ssim_s_scale3",
    "float_ms_ssim_s_scale4",
    NULL};
static const char *const CAMBI[] = {"Cambi_feature_cambi_score", "cambi_source", "cambi_full_reference", NULL};
static const char *const FLOAT_PSNR[] = {"float_psnr", NULL};
static const char *const FLOAT_ANSNR[] = {"float_ansnr", "float_anpsnr", NULL};
static const char *const FLOAT_MOMENT[] = {
    "float_moment", "float_moment_ref1st", "float_moment_dis1st", "float_moment_ref2nd", "float_moment_dis2nd",
    NULL};
static const char *const FLOAT_ADM[] = {
    "VMAF_feature_adm2_score", "VMAF_feature_aim_score", "VMAF_feature_adm3_score",
    "VMAF_feature_adm_scale0_score", "VMAF_feature_adm_scale1_score", "VMAF_feature_adm_scale2_score",
    "VMAF_feature_adm_scale3_score", "adm", "adm_num", "adm_den", "adm_scale0",
    "adm_num_scale0", "adm_den_scale0", "adm_num_scale1", "adm_den_scale1",
    "adm_num_scale2", "adm_den_scale2", "adm_num_scale3", "adm_den_scale3",
    NULL};
static const char *const FLOAT_VIF[] = {
    "VMAF_feature_vif_scale0_score", "VMAF_feature_vif_scale1_score",
    "VMAF_feature_vif_scale2_score", "VMAF_feature_vif_scale3_score",
    "vif", "vif_num", "vif_den", "vif_num_scale0", "vif_den_scale0",
    "vif_num_scale1", "vif_den_scale1", "vif_num_scale2", "vif_den_scale2",
    "vif_num_scale3", "vif_den_scale3",
    NULL};
static const char *const FLOAT_MOTION[] = {
    "VMAF_feature_motion_score", "VMAF_feature_motion2_score", "VMAF_feature_motion3_score", NULL};
static const char *const SPEED_CHROMA[] = {
    "Speed_chroma_feature_speed_chroma_u_score", "Speed_chroma_feature_speed_chroma_v_score",
    "Speed_chroma_feature_speed_chroma_uv_score", NULL};
static const char *const SPEED_TEMPORAL[] = {"Speed_temporal_feature_speed_temporal_score", NULL};
/* Scores a model writes under its name (predict.c, read_json_model.c). */
static const char *const VMAF[] = {"vmaf", NULL};
static const char *const VMAF_NEG[] = {"vmaf_neg", NULL};
static const char *const CUSTOM[] = {"custom", NULL};
static const char *const BOOTSTRAP[] = {
    "vmaf", "vmaf_bagging", "vmaf_stddev", "vmaf_ci_p95_lo", "vmaf_ci_p95_hi",
    "vmaf_0001", "vmaf_0002", "vmaf_0003", "vmaf_0004", "vmaf_0005", "vmaf_0006", "vmaf_0007", "vmaf_0008",
    "vmaf_0009", "vmaf_0010", "vmaf_0011", "vmaf_0012", "vmaf_0013", "vmaf_0014", "vmaf_0015", "vmaf_0016",
    "vmaf_0017", "vmaf_0018", "vmaf_0019", "vmaf_0020", "vmaf_0021", "vmaf_0022", NULL};
/* Scores imported by the caller (vmaf_import_feature_score). */
static const char *const IMPORTED[] = {"VMAF_integer_feature_adm2_score", "my_score", NULL};

/* upstream's alias.c: the names its report writer prints instead. */
static const char *const ALIASES[][2] = {
    {"VMAF_feature_adm2_score", "adm2"}, {"VMAF_feature_aim_score", "aim"}, {"VMAF_feature_adm3_score", "adm3"},
    {"VMAF_feature_adm_scale0_score", "adm_scale0"}, {"VMAF_feature_adm_scale1_score", "adm_scale1"},
    {"VMAF_feature_adm_scale2_score", "adm_scale2"}, {"VMAF_feature_adm_scale3_score", "adm_scale3"},
    {"VMAF_feature_motion_score", "motion"}, {"VMAF_feature_motion2_score", "motion2"},
    {"VMAF_feature_motion3_score", "motion3"}, {"VMAF_feature_vif_scale0_score", "vif_scale0"},
    {"VMAF_feature_vif_scale1_score", "vif_scale1"}, {"VMAF_feature_vif_scale2_score", "vif_scale2"},
    {"VMAF_feature_vif_scale3_score", "vif_scale3"}, {"VMAF_integer_feature_adm2_score", "integer_adm2"},
    {"VMAF_integer_feature_aim_score", "integer_aim"}, {"VMAF_integer_feature_adm3_score", "integer_adm3"},
    {"VMAF_integer_feature_motion_score", "integer_motion"},
    {"VMAF_integer_feature_motion2_score", "integer_motion2"},
    {"VMAF_integer_feature_motion3_score", "integer_motion3"},
    {"VMAF_integer_feature_vif_scale0_score", "integer_vif_scale0"},
    {"VMAF_integer_feature_vif_scale1_score", "integer_vif_scale1"},
    {"VMAF_integer_feature_vif_scale2_score", "integer_vif_scale2"},
    {"VMAF_integer_feature_vif_scale3_score", "integer_vif_scale3"},
    {"Cambi_feature_cambi_score", "cambi"},
    {"Speed_chroma_feature_speed_chroma_u_score", "speed_chroma_u"},
    {"Speed_chroma_feature_speed_chroma_v_score", "speed_chroma_v"},
    {"Speed_chroma_feature_speed_chroma_uv_score", "speed_chroma_uv"},
    {"Speed_temporal_feature_speed_temporal_score", "speed_temporal"},
};

static const char *alias(const char *name) {
    for (size_t i = 0; i < sizeof ALIASES / sizeof ALIASES[0]; i++)
        if (!strcmp(name, ALIASES[i][0])) return ALIASES[i][1];
    return name;
}

enum AddKind { ADD_NONE, ADD_FEATURE, ADD_MODEL, ADD_COLLECTION, ADD_IMPORT };

typedef struct {
    enum AddKind kind;
    const char *what; /* extractor name, model version, imported name */
    const char *arg;  /* feature: "key=value:key=value"; model: VmafModelConfig.name */
} Add;

typedef struct {
    const char *const *names;
    const char *suffix; /* feature_name.c's option suffix for this extractor instance */
} Group;

typedef struct {
    const char *id;
    Add adds[4];
    Group groups[10];
} Case;

#define F(name, opts) {ADD_FEATURE, name, opts}
#define M(version, cfg_name) {ADD_MODEL, version, cfg_name}

static const Case CASES[] = {
    {"adm", {F("adm", NULL)}, {{ADM, ""}}},
    {"adm_debug", {F("adm", "debug=true")}, {{ADM, ""}}},
    {"adm_egl", {F("adm", "adm_enhn_gain_limit=1.0")}, {{ADM, "_egl_1"}}},
    {"adm_opts", {F("adm", "debug=true:adm_skip_scale0=true:adm_min_val=0.1:adm_noise_weight=0.05")},
     {{ADM, "_min_0.1_nw_0.05_ssz"}}},
    {"vif", {F("vif", NULL)}, {{VIF, ""}}},
    {"vif_debug", {F("vif", "debug=true")}, {{VIF, ""}}},
    {"vif_egl", {F("vif", "vif_enhn_gain_limit=1.0")}, {{VIF, "_egl_1"}}},
    {"vif_skip", {F("vif", "debug=true:vif_skip_scale0=true")}, {{VIF, "_ssclz"}}},
    {"motion", {F("motion", NULL)}, {{MOTION, ""}}},
    {"motion_debug", {F("motion", "debug=true")}, {{MOTION, ""}}},
    {"motion_zero", {F("motion", "motion_force_zero=true")}, {{MOTION, "_force_0"}}},
    {"motion_opts", {F("motion", "motion_five_frame_window=true:motion_moving_average=true:motion_fps_weight=0.5")},
     {{MOTION, "_mffw_mfw_0.5_mma"}}},
    {"psnr", {F("psnr", NULL)}, {{PSNR, ""}}},
    {"psnr_luma", {F("psnr", "enable_chroma=false")}, {{PSNR, ""}}},
    {"psnr_mse_apsnr", {F("psnr", "enable_mse=true:enable_apsnr=true:min_sse=0.5")}, {{PSNR, ""}}},
    {"psnr_hvs", {F("psnr_hvs", NULL)}, {{PSNR_HVS, ""}}},
    {"ciede", {F("ciede", NULL)}, {{CIEDE, ""}}},
    {"float_ssim", {F("float_ssim", NULL)}, {{FLOAT_SSIM, ""}}},
    {"float_ssim_lcs_db", {F("float_ssim", "enable_lcs=true:enable_db=true:clip_db=true")}, {{FLOAT_SSIM, ""}}},
    {"float_ms_ssim", {F("float_ms_ssim", NULL)}, {{FLOAT_MS_SSIM, ""}}},
    {"float_ms_ssim_lcs", {F("float_ms_ssim", "enable_lcs=true")}, {{FLOAT_MS_SSIM, ""}}},
    {"cambi", {F("cambi", NULL)}, {{CAMBI, ""}}},
    {"cambi_full_ref", {F("cambi", "full_ref=true")}, {{CAMBI, ""}}},
    {"cambi_opts", {F("cambi", "full_ref=true:window_size=63:topk=0.5:cambi_eotf=pq")},
     {{CAMBI, "_ceot_pq_topk_0.5_ws_63"}}},
    {"float_psnr", {F("float_psnr", NULL)}, {{FLOAT_PSNR, ""}}},
    {"float_ansnr", {F("float_ansnr", NULL)}, {{FLOAT_ANSNR, ""}}},
    {"float_moment", {F("float_moment", NULL)}, {{FLOAT_MOMENT, ""}}},
    {"float_adm", {F("float_adm", NULL)}, {{FLOAT_ADM, ""}}},
    {"float_adm_debug", {F("float_adm", "debug=true")}, {{FLOAT_ADM, ""}}},
    {"float_adm_egl", {F("float_adm", "debug=true:adm_enhn_gain_limit=1.2")}, {{FLOAT_ADM, "_egl_1.2"}}},
    {"float_vif", {F("float_vif", NULL)}, {{FLOAT_VIF, ""}}},
    {"float_vif_debug", {F("float_vif", "debug=true")}, {{FLOAT_VIF, ""}}},
    {"float_vif_egl", {F("float_vif", "debug=true:vif_enhn_gain_limit=1.0")}, {{FLOAT_VIF, "_egl_1"}}},
    {"float_motion", {F("float_motion", NULL)}, {{FLOAT_MOTION, ""}}},
    {"float_motion_nodebug", {F("float_motion", "debug=false")}, {{FLOAT_MOTION, ""}}},
    {"float_motion_zero", {F("float_motion", "motion_force_zero=true")}, {{FLOAT_MOTION, "_force_0"}}},
    {"speed_chroma", {F("speed_chroma", NULL)}, {{SPEED_CHROMA, ""}}},
    {"speed_chroma_opts", {F("speed_chroma", "speed_max_val=45.0:speed_weight_var_mode=5")},
     {{SPEED_CHROMA, "_mxv_45_wvm_5"}}},
    {"speed_temporal", {F("speed_temporal", NULL)}, {{SPEED_TEMPORAL, ""}}},
    {"speed_temporal_opts", {F("speed_temporal", "speed_use_ref_diff=true")}, {{SPEED_TEMPORAL, "_urd"}}},
    {"vmaf_v0.6.1", {M("vmaf_v0.6.1", NULL)}, {{ADM, ""}, {VIF, ""}, {MOTION, ""}, {VMAF, ""}}},
    {"vmaf_v0.6.1neg", {M("vmaf_v0.6.1neg", NULL)}, {{ADM, "_egl_1"}, {VIF, "_egl_1"}, {MOTION, ""}, {VMAF, ""}}},
    {"vmaf_4k_v0.6.1", {M("vmaf_4k_v0.6.1", "custom")}, {{ADM, ""}, {VIF, ""}, {MOTION, ""}, {CUSTOM, ""}}},
    {"vmaf_float_v0.6.1", {M("vmaf_float_v0.6.1", NULL)},
     {{FLOAT_ADM, ""}, {FLOAT_VIF, ""}, {FLOAT_MOTION, ""}, {VMAF, ""}}},
    {"vmaf_float_v0.6.1neg", {M("vmaf_float_v0.6.1neg", NULL)},
     {{FLOAT_ADM, "_egl_1"}, {FLOAT_VIF, "_egl_1"}, {FLOAT_MOTION, ""}, {VMAF, ""}}},
    {"vmaf_v1.0.16_3d0h", {M("vmaf_v1.0.16_3d0h", NULL)},
     {{CAMBI, "_hrs_1080_cmxv_17_vlt_0.06"},
      {SPEED_CHROMA, "_mxv_45_nnf_0.1_snn_0.19_wvm_5"},
      {ADM, "_csf_2_dlmw_0.7_egl_1_min_0.5_nw_0.02"},
      {MOTION, "_mmxv_18"},
      {VMAF, ""}}},
    {"vmaf_v1.0.16_hfr_3d0h", {M("vmaf_v1.0.16_hfr_3d0h", NULL)},
     {{CAMBI, "_hrs_1080_cmxv_17_vlt_0.06"},
      {SPEED_CHROMA, "_mxv_45_nnf_0.1_snn_0.19_wvm_5"},
      {ADM, "_csf_2_dlmw_0.7_egl_1_min_0.5_nw_0.02"},
      {MOTION, "_mffw_mmxv_18_mma"},
      {VMAF, ""}}},
    {"vmaf_b_v0.6.3", {{ADD_COLLECTION, "vmaf_b_v0.6.3", NULL}},
     {{ADM, ""}, {VIF, ""}, {MOTION, ""}, {BOOTSTRAP, ""}}},
    {"two_models_psnr", {M("vmaf_v0.6.1", NULL), M("vmaf_v0.6.1neg", "vmaf_neg"), F("psnr", NULL)},
     {{ADM, ""}, {ADM, "_egl_1"}, {VIF, ""}, {VIF, "_egl_1"}, {MOTION, ""}, {PSNR, ""}, {VMAF, ""},
      {VMAF_NEG, ""}}},
    {"import", {F("psnr", NULL), {ADD_IMPORT, "VMAF_integer_feature_adm2_score", NULL}, {ADD_IMPORT, "my_score", NULL}},
     {{PSNR, ""}, {IMPORTED, ""}}},
};

/* ---------------------------------------------------------------------- */

typedef struct {
    const char *path[2];
    unsigned w, h, frames;
} Input;

typedef struct {
    char *name[MAX_NAMES];
    unsigned n;
    char avail[MAX_NAMES][MAX_PHASES][MAX_FRAMES + 1];
    double first[MAX_NAMES][MAX_FRAMES];
    unsigned char seen[MAX_NAMES][MAX_FRAMES];
} Table;

static void die(const char *what, int err) {
    fprintf(stderr, "capi_names: %s failed (%d)\n", what, err);
    exit(1);
}

static char *concat(const char *a, const char *b) {
    char *s = malloc(strlen(a) + strlen(b) + 1);
    if (!s) die("malloc", -ENOMEM);
    strcpy(s, a);
    strcat(s, b);
    return s;
}

static void add_name(Table *t, char *name) {
    for (unsigned i = 0; i < t->n; i++)
        if (!strcmp(t->name[i], name)) {
            free(name);
            return;
        }
    if (t->n == MAX_NAMES) die("too many candidate names", -ENOMEM);
    t->name[t->n++] = name;
}

static void candidates(Table *t, const Case *c) {
    for (unsigned g = 0; g < sizeof c->groups / sizeof c->groups[0] && c->groups[g].names; g++) {
        const Group *grp = &c->groups[g];
        for (unsigned i = 0; grp->names[i]; i++) {
            const char *n = grp->names[i];
            add_name(t, concat(n, ""));
            add_name(t, concat(alias(n), ""));
            if (*grp->suffix) add_name(t, concat(alias(n), grp->suffix));
        }
    }
}

static void read_plane(FILE *f, VmafPicture *p, unsigned plane, const char *path) {
    for (unsigned y = 0; y < p->h[plane]; y++) {
        unsigned char *row = (unsigned char *)p->data[plane] + (size_t)p->stride[plane] * y;
        if (fread(row, 1, p->w[plane], f) != p->w[plane]) {
            fprintf(stderr, "capi_names: %s: short read\n", path);
            exit(1);
        }
    }
}

static void read_frame(const Input *in, unsigned side, unsigned k, VmafPicture *p) {
    int err = vmaf_picture_alloc(p, VMAF_PIX_FMT_YUV420P, 8, in->w, in->h);
    if (err) die("vmaf_picture_alloc", err);
    FILE *f = fopen(in->path[side], "rb");
    if (!f) {
        fprintf(stderr, "capi_names: cannot open %s\n", in->path[side]);
        exit(1);
    }
    const size_t cw = (in->w + 1) / 2, ch = (in->h + 1) / 2;
    const long frame_size = (long)(in->w * in->h + 2 * cw * ch);
    if (fseek(f, frame_size * (long)k, SEEK_SET)) die("fseek", -EIO);
    for (unsigned pl = 0; pl < 3; pl++) read_plane(f, p, pl, in->path[side]);
    fclose(f);
}

static char code(int err) {
    if (!err) return '1';
    if (err == -EINVAL) return 'I';
    if (err == -EAGAIN) return 'A';
    return '?';
}

static void snapshot(Table *t, VmafContext *vmaf, unsigned phase, unsigned frames) {
    for (unsigned i = 0; i < t->n; i++) {
        for (unsigned k = 0; k < frames; k++) {
            double s = 0;
            const int err = vmaf_feature_score_at_index(vmaf, t->name[i], &s, k);
            t->avail[i][phase][k] = code(err);
            if (!err && !t->seen[i][k]) {
                t->seen[i][k] = 1;
                t->first[i][k] = s;
            }
        }
        t->avail[i][phase][frames] = '\0';
    }
}

/* vmaf_score_at_index of each model, per phase and frame. Collections are
 * not queried so: upstream's vmaf_score_at_index_model_collection appends
 * its scores to the collector and fails for an index it was called for
 * before, so that vmaf_score_pooled_model_collection would fail afterwards
 * (the bootstrap scores are compared by name instead). */
#define MAX_MODELS 8
typedef struct {
    unsigned n;
    const char *label[MAX_MODELS];
    VmafModel *model[MAX_MODELS];
    char avail[MAX_MODELS][MAX_PHASES][MAX_FRAMES + 1];
    double first[MAX_MODELS][MAX_FRAMES];
    unsigned char seen[MAX_MODELS][MAX_FRAMES];
} Models;

static int model_score(VmafContext *vmaf, const Models *m, unsigned r, unsigned k, double *s) {
    return vmaf_score_at_index(vmaf, m->model[r], s, k);
}

static void snapshot_models(Models *m, VmafContext *vmaf, unsigned phase, unsigned frames) {
    for (unsigned r = 0; r < m->n; r++) {
        for (unsigned k = 0; k < frames; k++) {
            double s = 0;
            const int err = model_score(vmaf, m, r, k, &s);
            m->avail[r][phase][k] = code(err);
            if (!err && !m->seen[r][k]) {
                m->seen[r][k] = 1;
                m->first[r][k] = s;
            }
        }
        m->avail[r][phase][frames] = '\0';
    }
}

static void print_models(const Models *m, VmafContext *vmaf, unsigned frames) {
    for (unsigned r = 0; r < m->n; r++) {
        printf("model %s", m->label[r]);
        for (unsigned ph = 0; ph < frames + 2; ph++) printf(" %s", m->avail[r][ph]);
        printf("\nmodel_value %s", m->label[r]);
        for (unsigned k = 0; k < frames; k++) {
            double s;
            if (model_score(vmaf, m, r, k, &s))
                printf(" -");
            else
                printf(" %.17g", s);
        }
        printf("\n");
        for (unsigned k = 0; k < frames; k++) {
            double s;
            if (!model_score(vmaf, m, r, k, &s) && m->seen[r][k] && m->first[r][k] != s)
                printf("changed %s %u %.17g %.17g\n", m->label[r], k, m->first[r][k], s);
        }
    }
}

static VmafFeatureDictionary *dictionary(const char *opts) {
    VmafFeatureDictionary *d = NULL;
    if (!opts) return NULL;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", opts);
    for (char *kv = strtok(buf, ":"); kv; kv = strtok(NULL, ":")) {
        char *eq = strchr(kv, '=');
        if (!eq) die("option without '='", -EINVAL);
        *eq = '\0';
        const int err = vmaf_feature_dictionary_set(&d, kv, eq + 1);
        if (err) die("vmaf_feature_dictionary_set", err);
    }
    return d;
}

/* The value imported for frame k (distinct per name and frame). */
static double imported_value(unsigned a, unsigned k) { return 0.25 * (a + 1) + k / 1024.0; }

static void print_xml_metrics(Table *t, VmafContext *vmaf, const char *xml_path, unsigned frames) {
    int err = vmaf_write_output(vmaf, xml_path, VMAF_OUTPUT_FORMAT_XML);
    if (err) {
        printf("xml_error %d\n", err);
        return;
    }
    FILE *f = fopen(xml_path, "r");
    if (!f) die("reading the XML report", -EIO);
    char line[8192];
    int in_pooled = 0;
    while (fgets(line, sizeof line, f)) {
        if (strstr(line, "<pooled_metrics>")) in_pooled = 1;
        if (strstr(line, "</pooled_metrics>")) in_pooled = 0;
        const char *m = strstr(line, "<metric name=\"");
        if (!in_pooled || !m) continue;
        m += strlen("<metric name=\"");
        const char *end = strchr(m, '"');
        if (!end) continue;
        char name[512];
        snprintf(name, sizeof name, "%.*s", (int)(end - m), m);
        int covered = 0;
        for (unsigned i = 0; i < t->n; i++) {
            if (strcmp(alias(t->name[i]), name)) continue;
            for (unsigned k = 0; k < frames; k++) {
                double s;
                if (!vmaf_feature_score_at_index(vmaf, t->name[i], &s, k)) covered = 1;
            }
        }
        printf("metric %s %s\n", name, covered ? "covered" : "UNCOVERED");
    }
    fclose(f);
    remove(xml_path);
}

static void run_case(const Case *c, const Input *in, const char *xml_path) {
    static Table t;
    for (unsigned i = 0; i < t.n; i++) free(t.name[i]);
    memset(&t, 0, sizeof t);
    candidates(&t, c);

    VmafConfiguration cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.log_level = getenv("CAPI_NAMES_LOG") ? VMAF_LOG_LEVEL_DEBUG : VMAF_LOG_LEVEL_NONE;
    cfg.n_threads = 0;
    VmafContext *vmaf = NULL;
    int err = vmaf_init(&vmaf, cfg);
    if (err) die("vmaf_init", err);

    VmafModel *models[4] = {0};
    VmafModelCollection *collections[4] = {0};
    const char *imports[4] = {0};
    static Models mt;
    memset(&mt, 0, sizeof mt);
    for (unsigned a = 0; a < 4 && c->adds[a].kind != ADD_NONE; a++) {
        const Add *add = &c->adds[a];
        VmafModelConfig mc;
        memset(&mc, 0, sizeof mc);
        mc.name = add->arg;
        switch (add->kind) {
        case ADD_FEATURE:
            err = vmaf_use_feature(vmaf, add->what, dictionary(add->arg));
            if (err) die(add->what, err);
            break;
        case ADD_MODEL:
            err = vmaf_model_load(&models[a], &mc, add->what);
            if (err) die(add->what, err);
            err = vmaf_use_features_from_model(vmaf, models[a]);
            if (err) die(add->what, err);
            mt.label[mt.n] = add->what;
            mt.model[mt.n++] = models[a];
            break;
        case ADD_COLLECTION:
            /* as upstream's vmaf tool: the first model and the collection */
            err = vmaf_model_collection_load(&models[a], &collections[a], &mc, add->what);
            if (err) die(add->what, err);
            err = vmaf_use_features_from_model(vmaf, models[a]);
            if (!err) err = vmaf_use_features_from_model_collection(vmaf, collections[a]);
            if (err) die(add->what, err);
            mt.label[mt.n] = add->what;
            mt.model[mt.n++] = models[a];
            break;
        case ADD_IMPORT:
            imports[a] = add->what;
            break;
        default: break;
        }
    }

    for (unsigned k = 0; k < in->frames; k++) {
        for (unsigned a = 0; a < 4; a++) {
            if (!imports[a]) continue;
            err = vmaf_import_feature_score(vmaf, imports[a], imported_value(a, k), k);
            if (err) die("vmaf_import_feature_score", err);
        }
        VmafPicture ref, dist;
        read_frame(in, 0, k, &ref);
        read_frame(in, 1, k, &dist);
        err = vmaf_read_pictures(vmaf, &ref, &dist, k);
        if (err) die("vmaf_read_pictures", err);
        snapshot(&t, vmaf, k, in->frames);
        snapshot_models(&mt, vmaf, k, in->frames);
    }
    err = vmaf_read_pictures(vmaf, NULL, NULL, 0);
    if (err) die("vmaf_read_pictures (flush)", err);
    snapshot(&t, vmaf, in->frames, in->frames);
    snapshot_models(&mt, vmaf, in->frames, in->frames);

    for (unsigned a = 0; a < 4; a++) {
        double s;
        VmafModelCollectionScore cs;
        if (models[a]) {
            err = vmaf_score_pooled(vmaf, models[a], VMAF_POOL_METHOD_MEAN, &s, 0, in->frames - 1);
            printf("score_pooled %s %d %.17g\n", c->adds[a].what, err, err ? 0.0 : s);
        }
        if (collections[a]) {
            err = vmaf_score_pooled_model_collection(vmaf, collections[a], VMAF_POOL_METHOD_MEAN, &cs, 0,
                                                     in->frames - 1);
            printf("score_pooled_collection %s %d %.17g %.17g %.17g %.17g\n", c->adds[a].what, err,
                   err ? 0.0 : cs.bootstrap.bagging_score, err ? 0.0 : cs.bootstrap.stddev,
                   err ? 0.0 : cs.bootstrap.ci.p95.lo, err ? 0.0 : cs.bootstrap.ci.p95.hi);
        }
    }
    snapshot(&t, vmaf, in->frames + 1, in->frames);
    snapshot_models(&mt, vmaf, in->frames + 1, in->frames);
    print_models(&mt, vmaf, in->frames);

    for (unsigned i = 0; i < t.n; i++) {
        int any = 0;
        for (unsigned ph = 0; ph < in->frames + 2; ph++) any |= strchr(t.avail[i][ph], '1') != NULL;
        if (!any) {
            printf("absent %s %s\n", t.name[i], t.avail[i][in->frames + 1]);
            continue;
        }
        printf("avail %s", t.name[i]);
        for (unsigned ph = 0; ph < in->frames + 2; ph++) printf(" %s", t.avail[i][ph]);
        printf("\n");
        printf("value %s %s", t.name[i], alias(t.name[i]));
        for (unsigned k = 0; k < in->frames; k++) {
            double s;
            err = vmaf_feature_score_at_index(vmaf, t.name[i], &s, k);
            if (err)
                printf(" -");
            else
                printf(" %.17g", s);
        }
        printf("\npooled %s", t.name[i]);
        for (int m = VMAF_POOL_METHOD_MIN; m <= VMAF_POOL_METHOD_HARMONIC_MEAN; m++) {
            double s;
            err = vmaf_feature_score_pooled(vmaf, t.name[i], (enum VmafPoolingMethod)m, &s, 0, in->frames - 1);
            if (err)
                printf(" rc%d", err);
            else
                printf(" %.17g", s);
        }
        printf("\n");
        for (unsigned k = 0; k < in->frames; k++) {
            double s;
            if (!vmaf_feature_score_at_index(vmaf, t.name[i], &s, k) && t.seen[i][k] && t.first[i][k] != s)
                printf("changed %s %u %.17g %.17g\n", t.name[i], k, t.first[i][k], s);
        }
    }
    print_xml_metrics(&t, vmaf, xml_path, in->frames);

    vmaf_close(vmaf);
    for (unsigned a = 0; a < 4; a++) {
        if (collections[a]) vmaf_model_collection_destroy(collections[a]);
        if (models[a]) vmaf_model_destroy(models[a]);
    }
}

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: capi_names REF.yuv DIST.yuv WIDTH HEIGHT FRAMES [CASE_ID...]\n");
        return 2;
    }
    Input in = {{argv[1], argv[2]}, (unsigned)atoi(argv[3]), (unsigned)atoi(argv[4]), (unsigned)atoi(argv[5])};
    if (!in.w || !in.h || !in.frames || in.frames > MAX_FRAMES) {
        fprintf(stderr, "capi_names: bad size or frame count (1..%d frames)\n", MAX_FRAMES);
        return 2;
    }
    const char *tmp = getenv("TMPDIR");
    char xml_path[1024];
    snprintf(xml_path, sizeof xml_path, "%s/capi_names_%ld.xml", tmp ? tmp : "/tmp", (long)getpid());
    printf("# libvmaf %s, %ux%u, %u frames\n", vmaf_version(), in.w, in.h, in.frames);
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        int wanted = argc == 6;
        for (int a = 6; a < argc; a++) wanted |= !strcmp(argv[a], CASES[i].id);
        if (!wanted) continue;
        printf("case %s\n", CASES[i].id);
        run_case(&CASES[i], &in, xml_path);
        fflush(stdout);
    }
    return 0;
}
