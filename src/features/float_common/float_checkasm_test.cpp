// checkasm-style test of the float features' kernels (convolutions, VIF
// statistic, ANSNR 2-D filter, ADM masking and DWT): every
// compiled SIMD variant against the scalar reference, bit for bit (compared
// as bit patterns), for every tap mode and the filter widths the features use,
// on random, extreme and tiny inputs, with guard zones; then whole float_vif
// and float_motion runs across cpumasks.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "features/float_common/float_golden.hpp"
#include "features/float_common/float_kernels.hpp"
#include "features/float_vif/float_vif_math.hpp"
#include "support/checkasm.hpp"

namespace vmaf {
extern const ExtractorInfo kFloatVifInfo;
extern const ExtractorInfo kFloatMotionInfo;
extern const ExtractorInfo kFloatAnsnrInfo;
extern const ExtractorInfo kFloatAdmInfo;
}  // namespace vmaf

namespace {

using namespace vmaf::floatfeat;
using vmaf::test::GuardedPlane;
using vmaf::test::seed_trace;

std::vector<std::pair<std::string, FloatKernels>> variants() {
    auto v = float_registry().variants();
    EXPECT_FALSE(v.empty()) << "no SIMD variant registered";
    return v;
}

/// Filters of the features: VIF's 4 Gaussian widths (17, 9, 5, 3), motion's 5-tap and 3-tap.
std::vector<std::vector<float>> filters() {
    std::vector<std::vector<float>> f;
    for (int s = 0; s < 4; ++s) f.push_back(vif_filter(s, 1.0f));
    f.push_back(vif_filter(0, 3.0f));  // widest accepted kernel (49 taps)
    f.push_back({0.054488685f, 0.244201342f, 0.402619947f, 0.244201342f, 0.054488685f});
    f.push_back({0.166378498f, 0.667243004f, 0.166378498f});
    return f;
}

bool same_bits(float a, float b) {
    return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}

enum class Fill { Random, Extreme, Smooth };

/// Mostly `u`, sometimes zero (either sign) or a tiny value.
float pick_extreme(std::mt19937& rng, std::uniform_real_distribution<float>& u) {
    const int c = static_cast<int>(rng() % 8);
    return c == 0 ? 0.0f : c == 1 ? -0.0f : c == 2 ? 1e-30f : u(rng);
}

void fill(GuardedPlane<float>& p, std::mt19937& rng, Fill how) {
    std::uniform_real_distribution<float> u(-128.0f, 127.75f);
    std::uniform_int_distribution<int> e(0, 3);
    unsigned i = 0;
    p.fill([&] {
        ++i;
        switch (how) {
            case Fill::Random:
                return u(rng);
            case Fill::Extreme: {
                const float v[] = {-128.0f, 127.0f, -0.0f, 1e-20f};
                return v[e(rng)];
            }
            case Fill::Smooth:
                return static_cast<float>(i % 37) * 0.25f - 3.0f;
        }
        return 0.0f;
    });
}

TEST(FloatCheckasm, ConvRowsMatchesReference) {
    SCOPED_TRACE(seed_trace());
    std::mt19937 rng(static_cast<unsigned>(vmaf::test::checkasm_seed()));
    for (const auto& [name, k] : variants())
        for (const auto& f : filters())
            for (int w : {1, 3, 7, 8, 15, 16, 17, 31, 64, 100, 257})
                for (Tap tap : {Tap::Value, Tap::Square, Tap::Product})
                    for (Fill how : {Fill::Random, Fill::Extreme, Fill::Smooth}) {
                        const int fw = static_cast<int>(f.size());
                        GuardedPlane<float> a(w, fw), b(w, fw), ref(w, 1), out(w, 1);
                        fill(a, rng, how);
                        fill(b, rng, how);
                        std::vector<const float*> ra(fw), rb(fw);
                        for (int t = 0; t < fw; ++t) {
                            ra[t] = a.row(t);
                            rb[t] = b.row(t);
                        }
                        conv_rows(f.data(), fw, ra.data(), rb.data(), tap, ref.row(0), w);
                        k.conv_rows(f.data(), fw, ra.data(), rb.data(), tap, out.row(0), w);
                        for (int j = 0; j < w; ++j)
                            ASSERT_TRUE(same_bits(ref.row(0)[j], out.row(0)[j]))
                                << name << " fw " << fw << " w " << w << " tap " << int(tap) << " j " << j;
                        ASSERT_TRUE(out.intact()) << name << " wrote outside its row";
                    }
}

TEST(FloatCheckasm, ConvColsMatchesReference) {
    SCOPED_TRACE(seed_trace());
    std::mt19937 rng(static_cast<unsigned>(vmaf::test::checkasm_seed()));
    for (const auto& [name, k] : variants())
        for (const auto& f : filters())
            for (int w : {9, 15, 16, 17, 25, 31, 33, 64, 100, 257, 641})
                for (Fill how : {Fill::Random, Fill::Extreme, Fill::Smooth}) {
                    const int fw = static_cast<int>(f.size());
                    if (fw / 2 >= w) continue;
                    GuardedPlane<float> in(w, 1), ref(w, 1), out(w, 1);
                    fill(in, rng, how);
                    conv_cols(f.data(), fw, in.row(0), ref.row(0), w);
                    k.conv_cols(f.data(), fw, in.row(0), out.row(0), w);
                    for (int j = 0; j < w; ++j)
                        ASSERT_TRUE(same_bits(ref.row(0)[j], out.row(0)[j]))
                            << name << " fw " << fw << " w " << w << " j " << j;
                    ASSERT_TRUE(out.intact()) << name << " wrote outside its row";
                }
}

TEST(FloatCheckasm, VifStatRowMatchesReference) {
    SCOPED_TRACE(seed_trace());
    std::mt19937 rng(static_cast<unsigned>(vmaf::test::checkasm_seed()));
    std::uniform_real_distribution<float> mu(-128.0f, 127.0f), var(-5.0f, 4000.0f), small(-1e-9f, 3.0f);
    std::uniform_int_distribution<int> pick(0, 9);
    for (const auto& [name, k] : variants())
        for (double nsq : {2.0, 0.1, 0.3, 0.0, 5.0})
            for (double gain : {100.0, 1.0, 1.3})
                for (int w : {1, 5, 8, 16, 17, 33, 100}) {
                    const VifStatParams sp = vif_stat_params(nsq, gain);
                    GuardedPlane<float> m1(w, 1), m2(w, 1), xx(w, 1), yy(w, 1), xy(w, 1);
                    GuardedPlane<float> rn(w, 1), rd(w, 1), on(w, 1), od(w, 1);
                    m1.fill([&] { return mu(rng); });
                    m2.fill([&] { return pick(rng) == 0 ? m1.row(0)[0] : mu(rng); });
                    // Moments around the squared means: positive, negative, tiny and equal variances.
                    for (int j = 0; j < w; ++j) {
                        const float a = m1.row(0)[j], b = m2.row(0)[j];
                        const int c = pick(rng);
                        xx.row(0)[j] = a * a + (c < 2 ? small(rng) : var(rng));
                        yy.row(0)[j] = b * b + (c == 3 ? 0.0f : c < 5 ? small(rng) : var(rng));
                        xy.row(0)[j] = a * b + (c == 6 ? -var(rng) : c == 7 ? 0.0f : var(rng) * 0.5f);
                    }
                    vif_stat_row(m1.row(0), m2.row(0), xx.row(0), yy.row(0), xy.row(0), w, sp, rn.row(0), rd.row(0));
                    k.vif_stat_row(m1.row(0), m2.row(0), xx.row(0), yy.row(0), xy.row(0), w, sp, on.row(0), od.row(0));
                    for (int j = 0; j < w; ++j) {
                        ASSERT_TRUE(same_bits(rn.row(0)[j], on.row(0)[j]) ||
                                    (std::isnan(rn.row(0)[j]) && std::isnan(on.row(0)[j])))
                            << name << " num nsq " << nsq << " w " << w << " j " << j;
                        ASSERT_TRUE(same_bits(rd.row(0)[j], od.row(0)[j])) << name << " den nsq " << nsq << " j " << j;
                    }
                    ASSERT_TRUE(on.intact() && od.intact()) << name;
                }
}

TEST(FloatCheckasm, Filter2dRowMatchesReference) {
    SCOPED_TRACE(seed_trace());
    std::mt19937 rng(static_cast<unsigned>(vmaf::test::checkasm_seed()));
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    for (const auto& [name, k] : variants())
        for (int fw : {3, 5})
            for (int w : {3, 5, 8, 16, 17, 31, 64, 100, 641})
                for (Fill how : {Fill::Random, Fill::Extreme, Fill::Smooth}) {
                    if (fw / 2 >= w) continue;
                    std::vector<float> f(fw * fw);
                    for (float& c : f) c = u(rng);
                    GuardedPlane<float> src(w, fw), ref(w, 1), out(w, 1);
                    fill(src, rng, how);
                    std::vector<const float*> rows(fw);
                    for (int t = 0; t < fw; ++t) rows[t] = src.row(t);
                    filter2d_row(f.data(), fw, rows.data(), ref.row(0), w);
                    k.filter2d_row(f.data(), fw, rows.data(), out.row(0), w);
                    for (int j = 0; j < w; ++j)
                        ASSERT_TRUE(same_bits(ref.row(0)[j], out.row(0)[j]))
                            << name << " fw " << fw << " w " << w << " j " << j;
                    ASSERT_TRUE(out.intact()) << name;
                }
}

TEST(FloatCheckasm, AdmCmRowMatchesReference) {
    SCOPED_TRACE(seed_trace());
    std::mt19937 rng(static_cast<unsigned>(vmaf::test::checkasm_seed()));
    std::uniform_real_distribution<float> u(-40.0f, 40.0f), pos(0.0f, 3.0f);
    for (const auto& [name, k] : variants())
        for (int w : {2, 3, 9, 16, 17, 33, 100, 257})
            for (bool bypass : {false, true})
                for (int edges = 0; edges < 3; ++edges) {
                    const int j0 = edges == 0 ? 0 : std::min(1, w - 1), j1 = edges == 2 ? std::max(w - 1, j0) : w;
                    GuardedPlane<float> flt(w, 9), mask(w, 3), src(w, 3), ref(w, 3), out(w, 3);
                    flt.fill([&] { return pos(rng); });
                    mask.fill([&] { return u(rng); });
                    src.fill([&] { return pick_extreme(rng, u); });
                    const float fac[3] = {1.7f, 1.7f, 2.9f};
                    const float* fp[9];
                    for (int r = 0; r < 9; ++r) fp[r] = flt.row(r);
                    const float* mp[3] = {mask.row(0), mask.row(1), mask.row(2)};
                    const float* sp[3] = {src.row(0), src.row(1), src.row(2)};
                    float* rp[3] = {ref.row(0), ref.row(1), ref.row(2)};
                    float* op[3] = {out.row(0), out.row(1), out.row(2)};
                    for (int r = 0; r < 3; ++r)
                        for (int j = 0; j < w; ++j) rp[r][j] = op[r][j] = 0.0f;
                    adm_cm_row(fp, mp, sp, fac, j0, j1, w, bypass, rp);
                    k.adm_cm_row(fp, mp, sp, fac, j0, j1, w, bypass, op);
                    for (int r = 0; r < 3; ++r)
                        for (int j = 0; j < w; ++j)
                            ASSERT_TRUE(same_bits(rp[r][j], op[r][j]))
                                << name << " w " << w << " band " << r << " j " << j;
                    ASSERT_TRUE(out.intact()) << name;
                }
}

TEST(FloatCheckasm, AdmDwtRowsMatchesReference) {
    SCOPED_TRACE(seed_trace());
    std::mt19937 rng(static_cast<unsigned>(vmaf::test::checkasm_seed()));
    for (const auto& [name, k] : variants())
        for (int w : {1, 7, 16, 17, 100, 321})
            for (Fill how : {Fill::Random, Fill::Extreme, Fill::Smooth}) {
                GuardedPlane<float> src(w, 4), rl(w, 1), rh(w, 1), ol(w, 1), oh(w, 1);
                fill(src, rng, how);
                const float* r[4] = {src.row(0), src.row(1), src.row(2), src.row(3)};
                adm_dwt_rows(r, w, rl.row(0), rh.row(0));
                k.adm_dwt_rows(r, w, ol.row(0), oh.row(0));
                for (int j = 0; j < w; ++j) {
                    ASSERT_TRUE(same_bits(rl.row(0)[j], ol.row(0)[j])) << name << " lo w " << w << " j " << j;
                    ASSERT_TRUE(same_bits(rh.row(0)[j], oh.row(0)[j])) << name << " hi w " << w << " j " << j;
                }
                ASSERT_TRUE(ol.intact() && oh.intact()) << name;
            }
}

/// Whole extractors: the scalar table (cpumask 255 disables every SIMD
/// target) and the best one give the same scores on a real pair.
TEST(FloatCheckasm, ExtractorsAgreeAcrossCpumasks) {
    const auto p = vmaf::floatfeat::test::load_pair("p04b_crf30");
    for (const vmaf::ExtractorInfo* info :
         {&vmaf::kFloatVifInfo, &vmaf::kFloatMotionInfo, &vmaf::kFloatAnsnrInfo, &vmaf::kFloatAdmInfo}) {
        auto run = [&](unsigned cpumask) {
            const vmaf::OptionValues opts(info->options, {}, info->name);
            auto ex = info->create(opts, p.info.geom, {.cpumask = cpumask});
            vmaf::floatfeat::test::KeyWriter w(*info, opts);
            for (unsigned i = 0; i < 4; ++i) {
                auto st = static_cast<const vmaf::FeatureExtractor&>(*ex).compute(i, p.refs[i], p.dists[i]);
                ex->finish(i, *st, w);
            }
            ex->flush(w);
            return w.scores;
        };
        const auto scalar = run(255), best = run(0);
        EXPECT_FALSE(scalar.empty());
        EXPECT_EQ(scalar, best) << info->name;
    }
}

}  // namespace
