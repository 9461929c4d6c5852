// Bad input through the C API: every case returns a negative errno (and logs
// a line), never crashes or leaks. Run under ASan/UBSan with the debug preset.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <string>

#include "backends/backend.hpp"
#include "libvmaf/libvmaf.h"
#include "libvmaf/libvmaf_cuda.h"

namespace {

VmafContext* make(unsigned threads = 0) {
    VmafConfiguration c{};
    c.log_level = VMAF_LOG_LEVEL_ERROR;
    c.n_threads = threads;
    VmafContext* v = nullptr;
    EXPECT_EQ(vmaf_init(&v, c), 0);
    return v;
}

VmafPicture pic(unsigned w = 64, unsigned h = 48, unsigned bpc = 8, VmafPixelFormat f = VMAF_PIX_FMT_YUV420P) {
    VmafPicture p{};
    EXPECT_EQ(vmaf_picture_alloc(&p, f, bpc, w, h), 0);
    return p;
}

TEST(CApiBadInput, NullPointers) {
    VmafConfiguration c{};
    EXPECT_EQ(vmaf_init(nullptr, c), -EINVAL);
    EXPECT_EQ(vmaf_close(nullptr), -EINVAL);
    EXPECT_EQ(vmaf_use_feature(nullptr, "psnr", nullptr), -EINVAL);
    EXPECT_EQ(vmaf_use_features_from_model(nullptr, nullptr), -EINVAL);
    EXPECT_EQ(vmaf_use_features_from_model_collection(nullptr, nullptr), -EINVAL);
    EXPECT_EQ(vmaf_read_pictures(nullptr, nullptr, nullptr, 0), -EINVAL);
    EXPECT_EQ(vmaf_import_feature_score(nullptr, "x", 1, 0), -EINVAL);
    double s;
    EXPECT_EQ(vmaf_score_at_index(nullptr, nullptr, &s, 0), -EINVAL);
    EXPECT_EQ(vmaf_feature_score_at_index(nullptr, "x", &s, 0), -EINVAL);
    EXPECT_EQ(vmaf_feature_score_pooled(nullptr, "x", VMAF_POOL_METHOD_MEAN, &s, 0, 0), -EINVAL);
    EXPECT_EQ(vmaf_score_pooled(nullptr, nullptr, VMAF_POOL_METHOD_MEAN, &s, 0, 0), -EINVAL);
    EXPECT_EQ(vmaf_score_at_index_model_collection(nullptr, nullptr, nullptr, 0), -EINVAL);
    EXPECT_EQ(vmaf_score_pooled_model_collection(nullptr, nullptr, VMAF_POOL_METHOD_MEAN, nullptr, 0, 0), -EINVAL);
    EXPECT_EQ(vmaf_write_output(nullptr, "x", VMAF_OUTPUT_FORMAT_JSON), -EINVAL);
    EXPECT_EQ(vmaf_picture_alloc(nullptr, VMAF_PIX_FMT_YUV420P, 8, 4, 4), -EINVAL);
    EXPECT_EQ(vmaf_picture_unref(nullptr), -EINVAL);
    EXPECT_EQ(vmaf_feature_dictionary_set(nullptr, "a", "b"), -EINVAL);
    EXPECT_EQ(vmaf_feature_dictionary_free(nullptr), -EINVAL);
    EXPECT_EQ(vmaf_model_load(nullptr, nullptr, "vmaf_v0.6.1"), -EINVAL);
    VmafModel* m = nullptr;
    EXPECT_EQ(vmaf_model_load(&m, nullptr, nullptr), -EINVAL);
    EXPECT_EQ(vmaf_model_load_from_path(&m, nullptr, nullptr), -EINVAL);
    EXPECT_EQ(vmaf_model_feature_overload(nullptr, "adm", nullptr), -EINVAL);
    EXPECT_EQ(vmaf_model_collection_load(nullptr, nullptr, nullptr, "vmaf_b_v0.6.3"), -EINVAL);
    EXPECT_EQ(vmaf_fetch_preallocated_picture(nullptr, nullptr), -EINVAL);
    EXPECT_EQ(vmaf_cuda_state_init(nullptr, VmafCudaConfiguration{}), -EINVAL);
    EXPECT_EQ(vmaf_cuda_import_state(nullptr, nullptr), -EINVAL);
    EXPECT_EQ(vmaf_cuda_state_free(nullptr), -EINVAL);
    vmaf_model_destroy(nullptr);
    vmaf_model_collection_destroy(nullptr);
    VmafContext* v = make();
    EXPECT_EQ(vmaf_use_feature(v, nullptr, nullptr), -EINVAL);
    EXPECT_EQ(vmaf_feature_score_at_index(v, "x", nullptr, 0), -EINVAL);
    VmafPicture p = pic();
    EXPECT_EQ(vmaf_read_pictures(v, &p, nullptr, 0), -EINVAL);  // one of the pair
    vmaf_picture_unref(&p);
    vmaf_close(v);
}

TEST(CApiBadInput, UnknownNames) {
    VmafModel* m = nullptr;
    EXPECT_EQ(vmaf_model_load(&m, nullptr, "vmaf_v9.9"), -EINVAL);
    EXPECT_EQ(m, nullptr);
    EXPECT_EQ(vmaf_model_load_from_path(&m, nullptr, "/nonexistent/model.json"), -EINVAL);
    VmafModelConfig mc{};
    mc.flags = 1u << 7;
    EXPECT_EQ(vmaf_model_load(&m, &mc, "vmaf_v0.6.1"), -EINVAL);  // unknown flag
    VmafModelCollection* c = nullptr;
    EXPECT_EQ(vmaf_model_collection_load(&m, &c, nullptr, "vmaf_v0.6.1"), -EINVAL);  // not a collection
    EXPECT_EQ(vmaf_model_collection_load(&m, &c, nullptr, "nope"), -EINVAL);
    ASSERT_EQ(vmaf_model_load(&m, nullptr, "vmaf_v0.6.1"), 0);
    VmafFeatureDictionary* d = nullptr;
    ASSERT_EQ(vmaf_feature_dictionary_set(&d, "x", "1"), 0);
    EXPECT_EQ(vmaf_model_feature_overload(m, "no_such_feature", d), -EINVAL);  // takes the dictionary
    d = nullptr;

    VmafContext* v = make();
    EXPECT_EQ(vmaf_use_feature(v, "no_such_feature", nullptr), -EINVAL);
    ASSERT_EQ(vmaf_feature_dictionary_set(&d, "no_such_option", "1"), 0);
    EXPECT_EQ(vmaf_use_feature(v, "psnr", d), -EINVAL);  // dictionary freed by the call
    d = nullptr;
    ASSERT_EQ(vmaf_feature_dictionary_set(&d, "enable_chroma", "maybe"), 0);
    EXPECT_EQ(vmaf_use_feature(v, "psnr", d), -EINVAL);  // bad value
    double s;
    EXPECT_EQ(vmaf_score_at_index(v, m, &s, 0), -EINVAL);  // model not in use
    EXPECT_EQ(vmaf_feature_score_pooled(v, "psnr_y", VMAF_POOL_METHOD_UNKNOWN, &s, 0, 0), -EINVAL);
    EXPECT_EQ(vmaf_feature_score_pooled(v, "psnr_y", (VmafPoolingMethod)99, &s, 0, 0), -EINVAL);
    EXPECT_EQ(vmaf_feature_score_pooled(v, "psnr_y", VMAF_POOL_METHOD_MEAN, &s, 3, 2), -EINVAL);
    EXPECT_EQ(vmaf_write_output(v, "/tmp/x", (VmafOutputFormat)42), -EINVAL);
    VmafConfiguration bad{};
    bad.log_level = (VmafLogLevel)17;
    VmafContext* v2 = nullptr;
    EXPECT_EQ(vmaf_init(&v2, bad), -EINVAL);
    vmaf_model_destroy(m);
    vmaf_close(v);
}

TEST(CApiBadInput, WrongPictures) {
    EXPECT_EQ(vmaf_picture_alloc(nullptr, VMAF_PIX_FMT_YUV420P, 8, 4, 4), -EINVAL);
    VmafPicture p{};
    EXPECT_EQ(vmaf_picture_alloc(&p, VMAF_PIX_FMT_UNKNOWN, 8, 4, 4), -EINVAL);
    EXPECT_EQ(vmaf_picture_alloc(&p, (VmafPixelFormat)9, 8, 4, 4), -EINVAL);
    EXPECT_EQ(vmaf_picture_alloc(&p, VMAF_PIX_FMT_YUV420P, 7, 4, 4), -EINVAL);
    EXPECT_EQ(vmaf_picture_alloc(&p, VMAF_PIX_FMT_YUV420P, 17, 4, 4), -EINVAL);
    EXPECT_EQ(vmaf_picture_alloc(&p, VMAF_PIX_FMT_YUV420P, 8, 0, 4), -EINVAL);
    EXPECT_EQ(vmaf_picture_alloc(&p, VMAF_PIX_FMT_YUV420P, 8, 1u << 20, 4), -EINVAL);
    // Limits: at most 32768 per side and 2^28 pixels, checked before allocating
    // (65536 x 65536 x 4:4:4 x 16 bit would be 24 GiB).
    EXPECT_EQ(vmaf_picture_alloc(&p, VMAF_PIX_FMT_YUV444P, 16, 65536, 65536), -EINVAL);
    EXPECT_EQ(vmaf_picture_alloc(&p, VMAF_PIX_FMT_YUV420P, 8, 32769, 4), -EINVAL);
    EXPECT_EQ(vmaf_picture_alloc(&p, VMAF_PIX_FMT_YUV420P, 8, 4, 32769), -EINVAL);
    EXPECT_EQ(vmaf_picture_alloc(&p, VMAF_PIX_FMT_YUV420P, 8, 32768, 32768), -EINVAL);
    EXPECT_EQ(vmaf_picture_alloc(&p, VMAF_PIX_FMT_YUV420P, 8, 0xffffffffu, 0xffffffffu), -EINVAL);
    EXPECT_EQ(vmaf_picture_alloc(&p, VMAF_PIX_FMT_YUV400P, 8, 32768, 2), 0);  // the largest width is fine
    EXPECT_EQ(vmaf_picture_unref(&p), 0);

    VmafContext* v = make();
    ASSERT_EQ(vmaf_use_feature(v, "psnr", nullptr), 0);
    // A picture not from vmaf_picture_alloc.
    VmafPicture foreign{};
    VmafPicture ok = pic();
    EXPECT_EQ(vmaf_read_pictures(v, &foreign, &ok, 0), -EINVAL);
    EXPECT_EQ(ok.ref, nullptr);  // consumed anyway: no leak
    // Mismatched pair: size, bit depth, format.
    VmafPicture a = pic(), b = pic(64, 40);
    EXPECT_EQ(vmaf_read_pictures(v, &a, &b, 0), -EINVAL);
    a = pic(), b = pic(64, 48, 10);
    EXPECT_EQ(vmaf_read_pictures(v, &a, &b, 0), -EINVAL);
    a = pic(), b = pic(64, 48, 8, VMAF_PIX_FMT_YUV444P);
    EXPECT_EQ(vmaf_read_pictures(v, &a, &b, 0), -EINVAL);
    // Fields changed after allocation.
    a = pic(), b = pic();
    b.w[0] = 32;
    EXPECT_EQ(vmaf_read_pictures(v, &a, &b, 0), -EINVAL);
    // A good first pair, then a pair of another size than the first.
    a = pic(), b = pic();
    ASSERT_EQ(vmaf_read_pictures(v, &a, &b, 0), 0);
    a = pic(32, 32), b = pic(32, 32);
    EXPECT_EQ(vmaf_read_pictures(v, &a, &b, 1), -EINVAL);
    vmaf_close(v);
}

TEST(CApiBadInput, CallsOutOfOrder) {
    VmafContext* v = make();
    VmafPicture a = pic(), b = pic();
    EXPECT_EQ(vmaf_read_pictures(v, &a, &b, 0), -EINVAL);  // nothing to compute
    ASSERT_EQ(vmaf_use_feature(v, "psnr", nullptr), 0);
    a = pic(), b = pic();
    EXPECT_EQ(vmaf_read_pictures(v, &a, &b, 5), -EINVAL);  // index skips ahead
    a = pic(), b = pic();
    ASSERT_EQ(vmaf_read_pictures(v, &a, &b, 0), 0);
    EXPECT_EQ(vmaf_use_feature(v, "float_ssim", nullptr), -EINVAL);  // after the first picture
    VmafModel* m = nullptr;
    ASSERT_EQ(vmaf_model_load(&m, nullptr, "vmaf_v0.6.1"), 0);
    EXPECT_EQ(vmaf_use_features_from_model(v, m), -EINVAL);
    a = pic(), b = pic();
    EXPECT_EQ(vmaf_read_pictures(v, &a, &b, 0), -EINVAL);  // index repeats
    ASSERT_EQ(vmaf_read_pictures(v, nullptr, nullptr, 0), 0);
    a = pic(), b = pic();
    EXPECT_EQ(vmaf_read_pictures(v, &a, &b, 1), -EINVAL);  // after the flush
    EXPECT_EQ(a.ref, nullptr);
    EXPECT_EQ(vmaf_read_pictures(v, nullptr, nullptr, 0), -EINVAL);  // second flush
    double s;
    EXPECT_EQ(vmaf_feature_score_at_index(v, "psnr_y", &s, 0), 0);
    EXPECT_EQ(vmaf_feature_score_at_index(v, "no_such_key", &s, 0), -EINVAL);
    VmafPictureConfiguration pc{};
    EXPECT_EQ(vmaf_fetch_preallocated_picture(v, &a), -EINVAL);  // no pool
    EXPECT_EQ(vmaf_preallocate_pictures(v, pc), -EINVAL);       // bad geometry
    vmaf_model_destroy(m);
    vmaf_close(v);
    // Closing without flushing, with pictures still referenced by the caller.
    v = make(2);
    ASSERT_EQ(vmaf_use_feature(v, "psnr", nullptr), 0);
    a = pic(), b = pic();
    ASSERT_EQ(vmaf_read_pictures(v, &a, &b, 0), 0);
    VmafPictureConfiguration ok{};
    ok.pic_params.w = 16;
    ok.pic_params.h = 16;
    ok.pic_params.bpc = 8;
    ok.pic_params.pix_fmt = VMAF_PIX_FMT_YUV420P;
    ok.pic_cnt = 2;
    ASSERT_EQ(vmaf_preallocate_pictures(v, ok), 0);
    EXPECT_EQ(vmaf_preallocate_pictures(v, ok), -EINVAL);  // twice
    VmafPicture held{};
    ASSERT_EQ(vmaf_fetch_preallocated_picture(v, &held), 0);
    vmaf_close(v);
    EXPECT_EQ(vmaf_picture_unref(&held), 0);  // outlives the context
}

/// The errno a CUDA request gets on a machine without a usable device.
int no_device_errno() { return vmaf::find_backend("cuda") ? -ENODEV : -ENOSYS; }

/// One "libvmaf ERROR <fn>: ..." line is what `call` printed.
template <typename F>
int one_error_line(const char* fn, F&& call) {
    testing::internal::CaptureStderr();
    const int r = call();
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(err.rfind(std::string("libvmaf ERROR ") + fn + ": ", 0), 0u) << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    return r;
}

TEST(CApiBadInput, CudaRequestFailsLoudly) {
    VmafContext* v = make();  // log level ERROR
    VmafCudaState* st = nullptr;
    const int err = vmaf_cuda_state_init(&st, VmafCudaConfiguration{});
    if (err == 0) {
        vmaf_cuda_state_free(st);
        vmaf_close(v);
        GTEST_SKIP() << "a CUDA device is present (tests/cuda/capi_gpu_test.cpp runs there)";
    }
    ASSERT_EQ(err, no_device_errno());
    EXPECT_EQ(st, nullptr);
    // A caller's context (FFmpeg's CUcontext) meets the same check before it
    // is used: this one is never dereferenced.
    int not_a_context = 0;
    for (void* ctx : {static_cast<void*>(nullptr), static_cast<void*>(&not_a_context)}) {
        VmafCudaConfiguration cc{};
        cc.cu_ctx = ctx;
        EXPECT_EQ(one_error_line("vmaf_cuda_state_init", [&] { return vmaf_cuda_state_init(&st, cc); }),
                  no_device_errno());
        EXPECT_EQ(st, nullptr);
    }
    // Without an imported state every CUDA picture request is refused (no
    // host pictures handed out instead).
    VmafCudaPictureConfiguration pc{};
    pc.pic_params.w = 64;
    pc.pic_params.h = 48;
    pc.pic_params.bpc = 8;
    pc.pic_params.pix_fmt = VMAF_PIX_FMT_YUV420P;
    for (auto m : {VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE, VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE,
                   VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST, VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED}) {
        pc.pic_prealloc_method = m;
        EXPECT_EQ(one_error_line("vmaf_cuda_preallocate_pictures", [&] { return vmaf_cuda_preallocate_pictures(v, pc); }),
                  -EINVAL);
    }
    EXPECT_EQ(vmaf_cuda_preallocate_pictures(nullptr, pc), -EINVAL);
    VmafPicture p{};
    EXPECT_EQ(one_error_line("vmaf_cuda_fetch_preallocated_picture",
                             [&] { return vmaf_cuda_fetch_preallocated_picture(v, &p); }),
              -EINVAL);
    EXPECT_EQ(vmaf_cuda_fetch_preallocated_picture(nullptr, &p), -EINVAL);
    EXPECT_EQ(vmaf_cuda_fetch_preallocated_picture(v, nullptr), -EINVAL);
    EXPECT_EQ(p.ref, nullptr);
    // Host pictures from vmaf_preallocate_pictures are not CUDA pictures.
    VmafPictureConfiguration hc{};
    hc.pic_params = {64, 48, 8, VMAF_PIX_FMT_YUV420P};
    hc.pic_cnt = 2;
    ASSERT_EQ(vmaf_preallocate_pictures(v, hc), 0);
    EXPECT_EQ(vmaf_cuda_fetch_preallocated_picture(v, &p), -EINVAL);
    EXPECT_EQ(vmaf_cuda_import_state(v, nullptr), -EINVAL);
    // The context still scores on the CPU when asked to.
    ASSERT_EQ(vmaf_use_feature(v, "psnr", nullptr), 0);
    VmafPicture a = pic(), b = pic();
    EXPECT_EQ(vmaf_read_pictures(v, &a, &b, 0), 0);
    EXPECT_EQ(vmaf_read_pictures(v, nullptr, nullptr, 0), 0);
    double s = 0;
    EXPECT_EQ(vmaf_feature_score_at_index(v, "psnr_y", &s, 0), 0);
    vmaf_close(v);
}

}  // namespace
