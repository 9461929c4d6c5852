// The CUDA C API on a GPU, used as FFmpeg's libvmaf_cuda filter uses it: a
// CUDA context of the caller's own (cuCtxCreate, not the primary context)
// imported with vmaf_cuda_state_init, DEVICE pictures filled with cuMemcpy2D
// from "decoded" device frames; also HOST_PINNED pictures, the primary
// context (cu_ctx NULL) and vmaf_picture_alloc pictures mixed in. Every
// per-frame and pooled score must equal the CPU C API's bit for bit.
//
// The driver API is opened with dlopen (as FFmpeg does): the binary needs no
// libcuda to start, and every case skips when there is no driver or device.
// Run: ctest -L gpu, or this binary directly; it reads the first frames of
// three corpus pairs from the build's clips/ or from VMAF_TEST_CLIP_CACHE
// (tests/cuda/capi_gpu_clips.sh copies just those frames).
#include <cuda.h>
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "libvmaf/libvmaf.h"
#include "libvmaf/libvmaf_cuda.h"
#include "support/testdata.hpp"

namespace {

/// The driver functions the test uses, by their ABI-stable exported names.
struct Driver {
    CUresult (*init)(unsigned) = nullptr;
    CUresult (*device_get)(CUdevice*, int) = nullptr;
    CUresult (*ctx_create)(CUcontext*, unsigned, CUdevice) = nullptr;
    CUresult (*ctx_destroy)(CUcontext) = nullptr;
    CUresult (*ctx_push)(CUcontext) = nullptr;
    CUresult (*ctx_pop)(CUcontext*) = nullptr;
    CUresult (*ctx_current)(CUcontext*) = nullptr;
    CUresult (*mem_alloc_pitch)(CUdeviceptr*, std::size_t*, std::size_t, std::size_t, unsigned) = nullptr;
    CUresult (*mem_free)(CUdeviceptr) = nullptr;
    CUresult (*memcpy_2d)(const CUDA_MEMCPY2D*) = nullptr;
    CUresult (*pointer_attribute)(void*, CUpointer_attribute, CUdeviceptr) = nullptr;
    CUresult (*primary_retain)(CUcontext*, CUdevice) = nullptr;
    CUresult (*primary_release)(CUdevice) = nullptr;
    CUresult (*primary_state)(CUdevice, unsigned*, int*) = nullptr;
    CUdevice device = 0;
    std::string missing;  ///< why the driver cannot be used (empty: it can)
};

template <typename F>
void load(void* lib, const char* name, F*& out, std::string& missing) {
    out = reinterpret_cast<F*>(::dlsym(lib, name));
    if (!out && missing.empty()) missing = std::string("libcuda.so.1 has no ") + name;
}

const Driver& driver() {
    static const Driver d = [] {
        Driver r;
        void* lib = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            r.missing = "no NVIDIA driver (libcuda.so.1)";
            return r;
        }
        load(lib, "cuInit", r.init, r.missing);
        load(lib, "cuDeviceGet", r.device_get, r.missing);
        load(lib, "cuCtxCreate_v2", r.ctx_create, r.missing);
        load(lib, "cuCtxDestroy_v2", r.ctx_destroy, r.missing);
        load(lib, "cuCtxPushCurrent_v2", r.ctx_push, r.missing);
        load(lib, "cuCtxPopCurrent_v2", r.ctx_pop, r.missing);
        load(lib, "cuCtxGetCurrent", r.ctx_current, r.missing);
        load(lib, "cuMemAllocPitch_v2", r.mem_alloc_pitch, r.missing);
        load(lib, "cuMemFree_v2", r.mem_free, r.missing);
        load(lib, "cuMemcpy2D_v2", r.memcpy_2d, r.missing);
        load(lib, "cuPointerGetAttribute", r.pointer_attribute, r.missing);
        load(lib, "cuDevicePrimaryCtxRetain", r.primary_retain, r.missing);
        load(lib, "cuDevicePrimaryCtxRelease_v2", r.primary_release, r.missing);
        load(lib, "cuDevicePrimaryCtxGetState", r.primary_state, r.missing);
        if (!r.missing.empty()) return r;
        if (CUresult e = r.init(0); e != CUDA_SUCCESS)
            r.missing = "cuInit failed (" + std::to_string(e) + ")";
        else if (CUresult e2 = r.device_get(&r.device, 0); e2 != CUDA_SUCCESS)
            r.missing = "no CUDA device (" + std::to_string(e2) + ")";
        return r;
    }();
    return d;
}

#define REQUIRE_GPU()                                                    \
    do {                                                                 \
        if (!driver().missing.empty()) GTEST_SKIP() << driver().missing; \
    } while (0)

#define CU(call) EXPECT_EQ((call), CUDA_SUCCESS) << #call

VmafPixelFormat c_format(vmaf::PixelFormat f) {
    switch (f) {
        case vmaf::PixelFormat::Yuv420:
            return VMAF_PIX_FMT_YUV420P;
        case vmaf::PixelFormat::Yuv422:
            return VMAF_PIX_FMT_YUV422P;
        case vmaf::PixelFormat::Yuv444:
            return VMAF_PIX_FMT_YUV444P;
        case vmaf::PixelFormat::Yuv400:
            return VMAF_PIX_FMT_YUV400P;
    }
    return VMAF_PIX_FMT_UNKNOWN;
}

/// Where each side's pictures come from in a run: vmaf_picture_alloc, or
/// vmaf_cuda_fetch_preallocated_picture after DEVICE, HOST_PINNED or HOST.
enum class Source { Alloc, Device, Pinned, Host };

struct GpuRun {
    CUcontext ctx = nullptr;  ///< imported context (null: cu_ctx NULL)
    Source ref = Source::Device, dist = Source::Device;
    unsigned threads = 0;
};

/// Scores of one run: per-frame values by key, then pooled values.
struct Scores {
    std::map<std::string, std::vector<double>> frames;
    std::vector<double> pooled;
};

const char* const kKeys[] = {"vmaf",
                             "psnr_y",
                             "psnr_cb",
                             "psnr_cr",
                             "integer_adm2",
                             "integer_adm_scale0",
                             "integer_adm_scale3",
                             "integer_motion2",
                             "integer_vif_scale0",
                             "integer_vif_scale1",
                             "integer_vif_scale2",
                             "integer_vif_scale3"};

/// The frames of a corpus pair, loaded once per test.
struct Clip {
    vmaf::test::PairInfo pair;
    std::vector<vmaf::Picture> ref, dist;
};

Clip load_clip(const std::string& id, unsigned frames) {
    Clip c;
    c.pair = vmaf::test::pair_info(id);
    c.pair.frames = std::min(c.pair.frames, frames);
    const std::string rp = vmaf::test::clip_path(c.pair.ref), dp = vmaf::test::clip_path(c.pair.dist);
    for (unsigned i = 0; i < c.pair.frames; ++i) {
        c.ref.push_back(vmaf::test::load_raw_frame(rp, c.pair.geom, i));
        c.dist.push_back(vmaf::test::load_raw_frame(dp, c.pair.geom, i));
    }
    return c;
}

VmafModel* load_model() {
    VmafModelConfig mc{};
    mc.name = "vmaf";
    VmafModel* m = nullptr;
    EXPECT_EQ(vmaf_model_load(&m, &mc, "vmaf_v0.6.1"), 0);
    return m;
}

/// Adds vmaf_v0.6.1 and psnr to `v`.
void configure(VmafContext* v, VmafModel* m) {
    ASSERT_EQ(vmaf_use_features_from_model(v, m), 0);
    ASSERT_EQ(vmaf_use_feature(v, "psnr", nullptr), 0);
}

Scores collect(VmafContext* v, VmafModel* m, unsigned frames) {
    Scores s;
    for (const char* k : kKeys)
        for (unsigned i = 0; i < frames; ++i) {
            double x = 0;
            EXPECT_EQ(vmaf_feature_score_at_index(v, k, &x, i), 0) << k << " frame " << i;
            s.frames[k].push_back(x);
        }
    for (VmafPoolingMethod p :
         {VMAF_POOL_METHOD_MEAN, VMAF_POOL_METHOD_MIN, VMAF_POOL_METHOD_MAX, VMAF_POOL_METHOD_HARMONIC_MEAN}) {
        double x = 0;
        EXPECT_EQ(vmaf_score_pooled(v, m, p, &x, 0, frames - 1), 0);
        s.pooled.push_back(x);
        EXPECT_EQ(vmaf_feature_score_pooled(v, "psnr_y", p, &x, 0, frames - 1), 0);
        s.pooled.push_back(x);
    }
    return s;
}

/// Copies `src` row by row into a host picture (pageable or page-locked).
void fill_host(VmafPicture& dst, const vmaf::Picture& src) {
    for (unsigned p = 0; p < src.planes(); ++p) {
        const vmaf::Plane& sp = src.plane(p);
        ASSERT_EQ(dst.w[p], sp.width);
        ASSERT_EQ(dst.h[p], sp.height);
        for (unsigned y = 0; y < sp.height; ++y)
            std::memcpy(static_cast<char*>(dst.data[p]) + dst.stride[p] * y, sp.row<char>(y),
                        std::size_t{sp.width} * src.bytes_per_sample());
    }
}

/// The CPU C API's scores of the clip (no CUDA state).
Scores score_cpu(const Clip& c) {
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_ERROR;
    VmafContext* v = nullptr;
    EXPECT_EQ(vmaf_init(&v, cfg), 0);
    VmafModel* m = load_model();
    configure(v, m);
    const vmaf::VideoGeometry& g = c.pair.geom;
    for (unsigned i = 0; i < c.pair.frames; ++i) {
        VmafPicture r{}, d{};
        EXPECT_EQ(vmaf_picture_alloc(&r, c_format(g.format), g.bpc, g.width, g.height), 0);
        EXPECT_EQ(vmaf_picture_alloc(&d, c_format(g.format), g.bpc, g.width, g.height), 0);
        fill_host(r, c.ref[i]);
        fill_host(d, c.dist[i]);
        EXPECT_EQ(vmaf_read_pictures(v, &r, &d, i), 0);
    }
    EXPECT_EQ(vmaf_read_pictures(v, nullptr, nullptr, 0), 0);
    Scores s = collect(v, m, c.pair.frames);
    EXPECT_EQ(vmaf_close(v), 0);
    vmaf_model_destroy(m);
    return s;
}

/// A "decoded" frame in device memory of context `ctx`, as FFmpeg's CUDA
/// frames are (pitched planes). upload() and copy_to() run in the current
/// context: the caller pushes `ctx` around them, as FFmpeg does.
class DeviceFrame {
public:
    DeviceFrame(CUcontext ctx, const vmaf::Picture& like)
        : ctx_(ctx), planes_(like.planes()), bps_(like.bytes_per_sample()) {
        CU(driver().ctx_push(ctx_));
        for (unsigned p = 0; p < planes_; ++p) {
            w_[p] = like.plane(p).width;
            h_[p] = like.plane(p).height;
            CU(driver().mem_alloc_pitch(&data_[p], &pitch_[p], std::size_t{w_[p]} * bps_, h_[p], 16));
        }
        CUcontext popped = nullptr;
        CU(driver().ctx_pop(&popped));
    }
    ~DeviceFrame() {
        driver().ctx_push(ctx_);
        for (unsigned p = 0; p < planes_; ++p)
            if (data_[p]) driver().mem_free(data_[p]);
        CUcontext popped = nullptr;
        driver().ctx_pop(&popped);
    }
    DeviceFrame(const DeviceFrame&) = delete;
    DeviceFrame& operator=(const DeviceFrame&) = delete;

    void upload(const vmaf::Picture& src) {
        for (unsigned p = 0; p < planes_; ++p) {
            CUDA_MEMCPY2D m{};
            m.srcMemoryType = CU_MEMORYTYPE_HOST;
            m.srcHost = src.plane(p).data;
            m.srcPitch = static_cast<std::size_t>(src.plane(p).stride);
            m.dstMemoryType = CU_MEMORYTYPE_DEVICE;
            m.dstDevice = data_[p];
            m.dstPitch = pitch_[p];
            m.WidthInBytes = std::size_t{w_[p]} * bps_;
            m.Height = h_[p];
            CU(driver().memcpy_2d(&m));
        }
    }
    /// FFmpeg's copy_picture_data_cuda, every plane: device to device.
    void copy_to(VmafPicture& dst) const {
        for (unsigned p = 0; p < planes_; ++p) {
            ASSERT_EQ(dst.w[p], w_[p]);
            ASSERT_EQ(dst.h[p], h_[p]);
            CUDA_MEMCPY2D m{};
            m.srcMemoryType = CU_MEMORYTYPE_DEVICE;
            m.srcDevice = data_[p];
            m.srcPitch = pitch_[p];
            m.dstMemoryType = CU_MEMORYTYPE_DEVICE;
            m.dstDevice = reinterpret_cast<CUdeviceptr>(dst.data[p]);
            m.dstPitch = static_cast<std::size_t>(dst.stride[p]);
            m.WidthInBytes = std::size_t{w_[p]} * bps_;
            m.Height = h_[p];
            CU(driver().memcpy_2d(&m));
        }
    }

private:
    CUcontext ctx_;
    unsigned planes_, bps_;
    unsigned w_[3] = {}, h_[3] = {};
    CUdeviceptr data_[3] = {};
    std::size_t pitch_[3] = {};
};

/// The context device pointer `p` was allocated in.
CUcontext owner_of(const void* p) {
    CUcontext c = nullptr;
    EXPECT_EQ(driver().pointer_attribute(&c, CU_POINTER_ATTRIBUTE_CONTEXT, reinterpret_cast<CUdeviceptr>(p)),
              CUDA_SUCCESS);
    return c;
}

/// The calling thread's current context.
CUcontext current() {
    CUcontext c = nullptr;
    EXPECT_EQ(driver().ctx_current(&c), CUDA_SUCCESS);
    return c;
}

/// Runs the clip through the CUDA C API as `run` says; `work` is the context
/// the caller's own copies run in (the imported one, or the primary one).
Scores score_gpu(const Clip& c, const GpuRun& run, CUcontext work) {
    Scores s;
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_ERROR;
    cfg.n_threads = run.threads;
    VmafContext* v = nullptr;
    EXPECT_EQ(vmaf_init(&v, cfg), 0);
    VmafCudaState* st = nullptr;
    VmafCudaConfiguration cc{};
    cc.cu_ctx = run.ctx;
    // Like FFmpeg, the test keeps no context current between its own calls,
    // and the library leaves the thread so.
    EXPECT_EQ(current(), nullptr);
    EXPECT_EQ(vmaf_cuda_state_init(&st, cc), 0);
    EXPECT_EQ(vmaf_cuda_import_state(v, st), 0);
    EXPECT_EQ(current(), nullptr);
    const vmaf::VideoGeometry& g = c.pair.geom;
    const bool device = run.ref == Source::Device || run.dist == Source::Device;
    const bool pinned = run.ref == Source::Pinned || run.dist == Source::Pinned;
    const bool host = run.ref == Source::Host || run.dist == Source::Host;
    EXPECT_LE(device + pinned + host, 1) << "one preallocation per context";
    VmafCudaPictureConfiguration pc{};
    pc.pic_params.w = g.width;
    pc.pic_params.h = g.height;
    pc.pic_params.bpc = g.bpc;
    pc.pic_params.pix_fmt = c_format(g.format);
    pc.pic_prealloc_method = device   ? VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE
                             : pinned ? VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED
                             : host   ? VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST
                                      : VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE;
    EXPECT_EQ(vmaf_cuda_preallocate_pictures(v, pc), 0);
    VmafModel* m = load_model();
    configure(v, m);
    DeviceFrame decoded_ref(work, c.ref[0]), decoded_dist(work, c.dist[0]);
    CUcontext popped = nullptr;
    auto take = [&](Source src, const vmaf::Picture& frame, DeviceFrame& decoded, VmafPicture& out) {
        out = VmafPicture{};
        if (src == Source::Alloc) {
            ASSERT_EQ(vmaf_picture_alloc(&out, c_format(g.format), g.bpc, g.width, g.height), 0);
            fill_host(out, frame);
            return;
        }
        ASSERT_EQ(vmaf_cuda_fetch_preallocated_picture(v, &out), 0);
        if (src != Source::Device) {
            fill_host(out, frame);
            return;
        }
        // The pool's pictures live in the imported context, pitched.
        EXPECT_EQ(owner_of(out.data[0]), work);
        EXPECT_GE(out.stride[0], static_cast<std::ptrdiff_t>(g.width * (g.bpc > 8 ? 2 : 1)));
        EXPECT_EQ(out.stride[0] % 32, 0) << "device pitch " << out.stride[0];
        CU(driver().ctx_push(work));
        decoded.upload(frame);
        decoded.copy_to(out);
        CU(driver().ctx_pop(&popped));
    };
    for (unsigned i = 0; i < c.pair.frames; ++i) {
        VmafPicture r{}, d{};
        take(run.ref, c.ref[i], decoded_ref, r);
        take(run.dist, c.dist[i], decoded_dist, d);
        EXPECT_EQ(vmaf_read_pictures(v, &r, &d, i), 0) << "frame " << i;
        EXPECT_EQ(current(), nullptr) << "frame " << i;
    }
    EXPECT_EQ(vmaf_read_pictures(v, nullptr, nullptr, 0), 0);
    s = collect(v, m, c.pair.frames);
    EXPECT_EQ(vmaf_close(v), 0);
    EXPECT_EQ(current(), nullptr);
    EXPECT_EQ(vmaf_cuda_state_free(st), 0);
    vmaf_model_destroy(m);
    return s;
}

/// Every value the same double (bit pattern), reported at %.17g.
void expect_identical(const Scores& cpu, const Scores& gpu, const std::string& what) {
    for (const auto& [key, values] : cpu.frames) {
        const auto it = gpu.frames.find(key);
        ASSERT_NE(it, gpu.frames.end()) << what << ": " << key;
        ASSERT_EQ(it->second.size(), values.size());
        for (std::size_t i = 0; i < values.size(); ++i)
            EXPECT_EQ(std::memcmp(&values[i], &it->second[i], sizeof(double)), 0)
                << what << ": " << key << " frame " << i << ": cpu " << testing::PrintToString(values[i]) << " gpu "
                << testing::PrintToString(it->second[i]);
    }
    ASSERT_EQ(cpu.pooled.size(), gpu.pooled.size());
    for (std::size_t i = 0; i < cpu.pooled.size(); ++i)
        EXPECT_EQ(std::memcmp(&cpu.pooled[i], &gpu.pooled[i], sizeof(double)), 0)
            << what << ": pooled value " << i << ": cpu " << testing::PrintToString(cpu.pooled[i]) << " gpu "
            << testing::PrintToString(gpu.pooled[i]);
}

/// A corpus pair and how many of its first frames are scored (as many as
/// tests/cuda/capi_gpu_clips.sh copies for a GPU machine).
struct ClipCase {
    const char* id;
    unsigned frames;
};

void PrintTo(const ClipCase& c, std::ostream* os) {
    *os << c.id << ", " << c.frames << " frames";
}

class CudaCApi : public testing::TestWithParam<ClipCase> {};

/// (a) FFmpeg's way: the caller's own context (not the primary one), DEVICE
/// pictures filled device to device; one and several engine threads.
TEST_P(CudaCApi, CallerContextDevicePictures) {
    REQUIRE_GPU();
    const Driver& cu = driver();
    const Clip clip = load_clip(GetParam().id, GetParam().frames);
    const Scores cpu = score_cpu(clip);
    unsigned flags = 0;
    int primary_before = 0;
    CU(cu.primary_state(cu.device, &flags, &primary_before));
    CUcontext ctx = nullptr;
    CU(cu.ctx_create(&ctx, CU_CTX_SCHED_BLOCKING_SYNC, cu.device));
    CUcontext popped = nullptr;
    CU(cu.ctx_pop(&popped));  // FFmpeg leaves no context current
    for (unsigned threads : {0u, 3u}) {
        GpuRun run;
        run.ctx = ctx;
        run.threads = threads;
        expect_identical(cpu, score_gpu(clip, run, ctx), "caller context, threads " + std::to_string(threads));
        // Host pictures from vmaf_picture_alloc alongside the device ones.
        run.ref = Source::Alloc;
        expect_identical(cpu, score_gpu(clip, run, ctx),
                         "caller context, host ref, threads " + std::to_string(threads));
    }
    // Batched dispatch (the default above 720p only): the frames' results are
    // read back and finished on the ordered stage, motion's SADs in batches.
    ::setenv("VMAF_CUDA_DISPATCH", "batched", 1);
    GpuRun batched;
    batched.ctx = ctx;
    batched.threads = 3;
    expect_identical(cpu, score_gpu(clip, batched, ctx), "caller context, batched dispatch");
    ::unsetenv("VMAF_CUDA_DISPATCH");
    int primary_after = 0;
    CU(cu.primary_state(cu.device, &flags, &primary_after));
    if (!primary_before) {
        EXPECT_EQ(primary_after, 0) << "work ran in the device's primary context instead of the caller's";
    }
    CU(cu.ctx_destroy(ctx));
}

/// (b) cu_ctx NULL (the primary context of device 0) with DEVICE,
/// HOST_PINNED and HOST pictures, and the caller's context with HOST_PINNED ones.
TEST_P(CudaCApi, PrimaryContextAndPinnedPictures) {
    REQUIRE_GPU();
    const Driver& cu = driver();
    const Clip clip = load_clip(GetParam().id, GetParam().frames);
    const Scores cpu = score_cpu(clip);
    CUcontext primary = nullptr;
    CU(cu.primary_retain(&primary, cu.device));
    GpuRun run;
    expect_identical(cpu, score_gpu(clip, run, primary), "primary context, device pictures");
    run.ref = run.dist = Source::Pinned;
    expect_identical(cpu, score_gpu(clip, run, primary), "primary context, pinned pictures");
    run.dist = Source::Alloc;
    run.threads = 2;
    expect_identical(cpu, score_gpu(clip, run, primary), "primary context, pinned ref, host dist");
    run.ref = run.dist = Source::Host;
    expect_identical(cpu, score_gpu(clip, run, primary), "primary context, HOST pictures");
    CUcontext ctx = nullptr, popped = nullptr;
    CU(cu.ctx_create(&ctx, 0, cu.device));
    CU(cu.ctx_pop(&popped));
    run.ctx = ctx;
    run.ref = run.dist = Source::Pinned;
    expect_identical(cpu, score_gpu(clip, run, ctx), "caller context, pinned pictures");
    CU(cu.ctx_destroy(ctx));
    CU(cu.primary_release(cu.device));
}

// 8-bit 4:2:0; odd width and height (chroma rounded up); 10-bit.
INSTANTIATE_TEST_SUITE_P(Corpus, CudaCApi,
                         testing::Values(ClipCase{"p01_crf35", 12}, ClipCase{"p05_crf30", 8}, ClipCase{"p03_crf28", 3}),
                         [](const testing::TestParamInfo<ClipCase>& i) { return std::string(i.param.id); });

VmafContext* imported(VmafCudaState* st, VmafCudaPictureConfiguration* pc = nullptr) {
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_ERROR;
    VmafContext* v = nullptr;
    EXPECT_EQ(vmaf_init(&v, cfg), 0);
    EXPECT_EQ(vmaf_cuda_import_state(v, st), 0);
    if (pc) {
        EXPECT_EQ(vmaf_cuda_preallocate_pictures(v, *pc), 0);
    }
    return v;
}

/// Misuse with a working device: each call fails with -EINVAL, nothing runs on the CPU.
TEST(CudaCApiMisuse, CallsOutOfOrderAndBadArguments) {
    REQUIRE_GPU();
    VmafCudaState* st = nullptr;
    ASSERT_EQ(vmaf_cuda_state_init(&st, VmafCudaConfiguration{}), 0);
    VmafCudaPictureConfiguration pc{};
    pc.pic_params.w = 64;
    pc.pic_params.h = 48;
    pc.pic_params.bpc = 8;
    pc.pic_params.pix_fmt = VMAF_PIX_FMT_YUV420P;
    pc.pic_prealloc_method = VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE;

    VmafContext* v = imported(st);
    VmafPicture p{};
    EXPECT_EQ(vmaf_cuda_fetch_preallocated_picture(v, &p), -EINVAL);  // nothing preallocated
    EXPECT_EQ(vmaf_cuda_import_state(v, st), -EINVAL);                // twice
    VmafCudaPictureConfiguration bad = pc;
    bad.pic_params.bpc = 7;
    EXPECT_EQ(vmaf_cuda_preallocate_pictures(v, bad), -EINVAL);
    bad = pc;
    bad.pic_params.pix_fmt = VMAF_PIX_FMT_UNKNOWN;
    EXPECT_EQ(vmaf_cuda_preallocate_pictures(v, bad), -EINVAL);
    bad = pc;
    int seven = 7;
    std::memcpy(&bad.pic_prealloc_method, &seven, sizeof seven);
    EXPECT_EQ(vmaf_cuda_preallocate_pictures(v, bad), -EINVAL);
    bad = pc;
    bad.pic_prealloc_method = VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE;
    EXPECT_EQ(vmaf_cuda_preallocate_pictures(v, bad), 0);
    EXPECT_EQ(vmaf_cuda_fetch_preallocated_picture(v, &p), -EINVAL);  // NONE: nothing to fetch
    EXPECT_EQ(vmaf_cuda_preallocate_pictures(v, pc), 0);
    EXPECT_EQ(vmaf_cuda_preallocate_pictures(v, pc), -EINVAL);  // twice
    EXPECT_EQ(vmaf_cuda_fetch_preallocated_picture(v, nullptr), -EINVAL);
    // A feature without a CUDA twin (ciede: docs/ciede.md) cannot read device pictures: refused, not computed on the CPU.
    ASSERT_EQ(vmaf_use_feature(v, "ciede", nullptr), 0);
    VmafPicture r{}, d{};
    ASSERT_EQ(vmaf_cuda_fetch_preallocated_picture(v, &r), 0);
    ASSERT_EQ(vmaf_cuda_fetch_preallocated_picture(v, &d), 0);
    EXPECT_EQ(vmaf_read_pictures(v, &r, &d, 0), -EINVAL);
    EXPECT_EQ(r.ref, nullptr);  // consumed whatever the outcome
    // Pictures handed out outlive the context and the state.
    VmafPicture held{};
    ASSERT_EQ(vmaf_cuda_fetch_preallocated_picture(v, &held), 0);
    EXPECT_EQ(vmaf_close(v), 0);

    // Import only right after vmaf_init: after a feature, a model or an
    // imported score it would lose them.
    VmafConfiguration cfg{};
    cfg.log_level = VMAF_LOG_LEVEL_ERROR;
    for (int what = 0; what < 3; ++what) {
        ASSERT_EQ(vmaf_init(&v, cfg), 0);
        VmafModel* m = nullptr;
        if (what == 0) {
            ASSERT_EQ(vmaf_use_feature(v, "psnr", nullptr), 0);
        } else if (what == 1) {
            m = load_model();
            ASSERT_EQ(vmaf_use_features_from_model(v, m), 0);
        } else {
            ASSERT_EQ(vmaf_import_feature_score(v, "external", 1.0, 0), 0);
        }
        EXPECT_EQ(vmaf_cuda_import_state(v, st), -EINVAL) << what;
        EXPECT_EQ(vmaf_cuda_preallocate_pictures(v, pc), -EINVAL);  // not imported
        EXPECT_EQ(vmaf_close(v), 0);
        vmaf_model_destroy(m);
    }
    EXPECT_EQ(vmaf_cuda_state_free(st), 0);
    EXPECT_EQ(vmaf_picture_unref(&held), 0);
}

}  // namespace
