// The ssimulacra2 twin's pipeline (cuda/ssimulacra2_cuda_pipeline.hpp: the
// bodies its kernels run and its sequence of steps), executed on the host one
// body call per device thread, against the CPU scorer: every norm equal bit
// for bit, for each yuv_matrix, 8/10/16-bit, 4:2:0/4:2:2/4:4:4/4:0:0, odd
// sizes, one to six scales. Needs no GPU (runs in CI); what remains for the
// GPU is that the device compiles the same bodies to the same operations,
// which tests/cuda/cuda_test.py's parity sets check.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "features/ssimulacra2/cuda/ssimulacra2_cuda_constants.hpp"
#include "features/ssimulacra2/cuda/ssimulacra2_cuda_pipeline.hpp"
#include "features/ssimulacra2/ssimulacra2_constants.hpp"
#include "features/ssimulacra2/ssimulacra2_core.hpp"
#include "features/ssimulacra2/ssimulacra2_kernels.hpp"
#include "vmaf/picture.hpp"

namespace {

using namespace vmaf;
using namespace vmaf::ssimulacra2;
using namespace vmaf::ssimulacra2::cuda;

/// run_pipeline's steps as loops over the device's thread indices.
struct HostExec {
    const S2Geometry& g;
    const S2Constants& k;
    void prepare(const Planes3& in, bool from_input, const S2Scale& cur, const S2Scale* next) {
        for (unsigned by = 0; by < (cur.h + 1) / 2; ++by)
            for (unsigned bx = 0; bx < (cur.w + 1) / 2; ++bx) prepare_block(in, from_input, g, k, cur, next, bx, by);
    }
    void blur_h(const BlurJobs& j, unsigned w, unsigned h) {
        for (int q = 0; q < kBlurJobs; ++q)
            for (unsigned y = 0; y < h; ++y) {
                const std::size_t o = std::size_t{y} * w;
                blur_h_row(j.a[q] + o, j.b[q] ? j.b[q] + o : nullptr, j.out[q] + o, static_cast<int>(w), k);
            }
    }
    void blur_v(const BlurJobs& j, unsigned w, unsigned h) {  // in place (a == out), as the device's
        for (int q = 0; q < kBlurJobs; ++q) {
            const std::vector<float> in(j.a[q], j.a[q] + std::size_t{w} * h);
            for (unsigned x = 0; x < w; ++x) blur_v_col(in.data() + x, j.out[q] + x, w, static_cast<int>(h), k);
        }
    }
    void map_sums(const MapJobs& j, double* sums) {
        for (int s = 0; s < j.scales; ++s)
            for (int c = 0; c < 3; ++c) {
                double acc[6] = {};
                for (std::size_t i = 0; i < j.n[s]; ++i) {
                    double t[6];
                    map_terms(j.c[s][c], i, k.c2, t);
                    for (int q = 0; q < 6; ++q) acc[q] += t[q];
                }
                for (int q = 0; q < 6; ++q) sums[(s * 3 + c) * 6 + q] = acc[q];
            }
    }
};

std::uint32_t next(std::uint32_t& s) {
    s = s * 1664525u + 1013904223u;
    return s >> 8;
}

/// A textured picture and a distorted copy (noise, a shifted block, a flat block).
void fill(Picture& ref, Picture& dist, std::uint32_t seed) {
    const unsigned maxv = (1u << ref.bpc()) - 1;
    for (unsigned p = 0; p < ref.planes(); ++p) {
        const Plane& r = ref.plane(p);
        const Plane& d = dist.plane(p);
        for (unsigned y = 0; y < r.height; ++y)
            for (unsigned x = 0; x < r.width; ++x) {
                const unsigned base = ((x * 7 + y * 13 + p * 50) % 200 + next(seed) % 40) * maxv / 255;
                int dv = static_cast<int>(base) + static_cast<int>(next(seed) % 21) - 10;
                if (x > r.width / 2 && y < r.height / 3) dv = static_cast<int>(maxv / 2);   // flattened
                if (y > r.height / 2 && x < r.width / 3) dv += static_cast<int>(maxv / 8);  // brighter
                const unsigned dvc = dv < 0 ? 0u : (dv > static_cast<int>(maxv) ? maxv : static_cast<unsigned>(dv));
                const unsigned rv = base > maxv ? maxv : base;
                if (ref.bpc() == 8) {
                    r.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(rv);
                    d.row<std::uint8_t>(y)[x] = static_cast<std::uint8_t>(dvc);
                } else {
                    r.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(rv);
                    d.row<std::uint16_t>(y)[x] = static_cast<std::uint16_t>(dvc);
                }
            }
    }
}

void expect_same(PixelFormat fmt, unsigned bpc, unsigned w, unsigned h, YuvMatrix m) {
    SCOPED_TRACE(std::string(pixel_format_name(fmt)) + " " + std::to_string(bpc) + "-bit " + std::to_string(w) + "x" +
                 std::to_string(h) + " matrix " + std::to_string(static_cast<int>(m)));
    const VideoGeometry vg{fmt, bpc, w, h};
    Picture ref(fmt, bpc, w, h), dist(fmt, bpc, w, h);
    fill(ref, dist, w * 31 + h * 17 + bpc);
    const std::vector<ScaleNorms> cpu = Scorer(Kernels{}, m, vg).norms(ref, dist);

    const S2Geometry g = s2_geometry(vg);
    const S2Constants k = s2_constants(m, bpc);
    std::vector<std::uint8_t> mem(s2_scratch_bytes(g) + 256);
    void* base = reinterpret_cast<void*>((reinterpret_cast<std::uintptr_t>(mem.data()) + 255) & ~std::uintptr_t{255});
    const S2Scratch sc = s2_scratch_layout(base, g);
    Planes3 in{};
    for (unsigned p = 0; p < ref.planes(); ++p) {
        in.p[0][p] = static_cast<const unsigned char*>(ref.plane(p).data);
        in.p[1][p] = static_cast<const unsigned char*>(dist.plane(p).data);
        in.pitch[p] = static_cast<std::size_t>(ref.plane(p).stride);
        ASSERT_EQ(ref.plane(p).stride, dist.plane(p).stride);
    }
    std::vector<double> sums(kS2Sums, 0.0);
    HostExec e{g, k};
    run_pipeline(e, in, g, sc, sums.data());
    const std::vector<ScaleNorms> twin = s2_norms(sums.data(), g);

    ASSERT_EQ(twin.size(), cpu.size());
    for (std::size_t s = 0; s < cpu.size(); ++s) {
        for (int i = 0; i < 6; ++i)
            EXPECT_EQ(std::memcmp(&twin[s].ssim[i], &cpu[s].ssim[i], 8), 0)
                << "scale " << s << " ssim " << i << ": " << twin[s].ssim[i] << " vs " << cpu[s].ssim[i];
        for (int i = 0; i < 12; ++i)
            EXPECT_EQ(std::memcmp(&twin[s].edgediff[i], &cpu[s].edgediff[i], 8), 0)
                << "scale " << s << " edgediff " << i << ": " << twin[s].edgediff[i] << " vs " << cpu[s].edgediff[i];
    }
    const double a = score_from_norms(twin), b = score_from_norms(cpu);
    EXPECT_EQ(std::memcmp(&a, &b, 8), 0) << a << " vs " << b;
    EXPECT_LT(b, 100.0);  // the pair differs: a real score, not the identical-pictures 100
}

TEST(Ssimulacra2CudaPipeline, EqualsCpuEveryMatrixAndFormat) {
    for (int m = 0; m < 4; ++m) {
        expect_same(PixelFormat::Yuv420, 8, 141, 133, static_cast<YuvMatrix>(m));  // six scales, odd
        expect_same(PixelFormat::Yuv422, 10, 64, 37, static_cast<YuvMatrix>(m));
        expect_same(PixelFormat::Yuv444, 8, 33, 20, static_cast<YuvMatrix>(m));
        expect_same(PixelFormat::Yuv400, 10, 24, 17, static_cast<YuvMatrix>(m));
    }
    expect_same(PixelFormat::Yuv420, 16, 9, 8, YuvMatrix::Bt601Full);       // the minimum, one short blur row
    expect_same(PixelFormat::Yuv444, 12, 17, 16, YuvMatrix::Bt709Limited);  // last scale below 8x8
}

bool same_bits(float a, float b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

TEST(Ssimulacra2CudaPipeline, CubeRootPlusEqualsCpu) {
    const float add = -std::cbrt(kOpsinBias);
    unsigned n = 0;
    for (std::uint32_t bits = 0; bits < 0x7f800000u; bits += 997, ++n) {  // every 997th finite float >= 0
        const float x = bits_float(bits);
        ASSERT_TRUE(same_bits(cuda::cube_root_plus(x, add), ssimulacra2::cube_root_plus(x, add))) << x;
    }
    EXPECT_GT(n, 2000000u);
}

TEST(Ssimulacra2CudaPipeline, BlursEqualCpuAtEveryShortLength) {
    const S2Constants k = s2_constants(YuvMatrix::Bt709Limited, 8);
    std::uint32_t seed = 7;
    for (int len = 1; len <= 80; ++len) {
        std::vector<float> a(len), b(len), prod(len), cpu(len), twin(len);
        for (int i = 0; i < len; ++i) {
            a[i] = static_cast<float>(next(seed) % 100000) / 77777.0f;
            b[i] = static_cast<float>(next(seed) % 100000) / 55555.0f;
            prod[i] = a[i] * b[i];
        }
        for (const int span : {4, 8, 32, 1 << 20}) {  // the row in spans (the device's tiles: 32)
            ssimulacra2::blur_h_row(prod.data(), cpu.data(), len);
            cuda::blur_h_row(a.data(), b.data(), twin.data(), len, k, span);
            for (int i = 0; i < len; ++i)
                ASSERT_TRUE(same_bits(twin[i], cpu[i])) << "blur_h product, length " << len << ", span " << span;
            ssimulacra2::blur_h_row(a.data(), cpu.data(), len);
            cuda::blur_h_row(a.data(), nullptr, twin.data(), len, k, span);
            for (int i = 0; i < len; ++i)
                ASSERT_TRUE(same_bits(twin[i], cpu[i])) << "blur_h, length " << len << ", span " << span;
        }
        for (const int span : {1, 7, 32, 1 << 20}) {
            ssimulacra2::blur_v_column(a.data(), 1, cpu.data(), 1, len);
            cuda::blur_v_col(a.data(), twin.data(), 1, len, k, span);
            for (int i = 0; i < len; ++i)
                ASSERT_TRUE(same_bits(twin[i], cpu[i])) << "blur_v, length " << len << ", span " << span;
        }
    }
}

}  // namespace
