// checkasm-style test of the VIF kernel table: every kernel of every compiled
// SIMD variant against the scalar reference, bit for bit, on random and edge
// inputs with guard zones; then whole frames and the extractor across cpumasks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "core/feature_extractor.hpp"
#include "core/options.hpp"
#include "features/vif/vif_kernels.hpp"
#include "support/checkasm.hpp"
#include "support/testdata.hpp"
#include "vmaf/picture.hpp"

namespace vmaf {
extern const ExtractorInfo kVifInfo;
}

namespace {

using vmaf::test::GuardedPlane;
using vmaf::test::seed_trace;
namespace vif = vmaf::vif;

const vif::VifKernels kRef{};

std::vector<std::pair<std::string, vif::VifKernels>> variants() {
    auto v = vif::kernel_variants();
    EXPECT_FALSE(v.empty()) << "no SIMD variant registered";
    return v;
}

/// How sample values are drawn.
enum class Fill { Random, Zero, Max, Smooth };
constexpr Fill kFills[] = {Fill::Random, Fill::Zero, Fill::Max, Fill::Smooth};

std::vector<unsigned> test_widths() {
    std::vector<unsigned> w;
    for (unsigned i = 1; i <= 67; ++i) w.push_back(i);
    for (unsigned i : {127u, 128u, 129u, 255u, 960u, 1921u}) w.push_back(i);
    return w;
}

template <typename T>
void fill_plane(GuardedPlane<T>& p, Fill f, unsigned bits, std::mt19937_64& rng) {
    const std::uint64_t max = (std::uint64_t{1} << bits) - 1;
    std::uniform_int_distribution<std::uint64_t> any(0, max);
    switch (f) {
        case Fill::Random:
            p.fill([&] { return any(rng); });
            break;
        case Fill::Zero:
            p.fill([] { return 0; });
            break;
        case Fill::Max:
            p.fill([&] { return max; });
            break;
        case Fill::Smooth: {
            // A gentle gradient plus small noise: sigma1 around sigma_nsq.
            std::uniform_int_distribution<std::uint64_t> noise(0, 3);
            const std::uint64_t base = any(rng) / 2;
            for (unsigned y = 0; y < p.height(); ++y)
                for (unsigned x = 0; x < p.width(); ++x)
                    p.row(y)[x] = static_cast<T>(std::min<std::uint64_t>(max, base + x / 4 + y / 8 + noise(rng)));
            break;
        }
    }
}

// ---------------------------------------------------------------------------
// sub_vfilter: rows of samples -> one row of 16-bit values.
template <typename T>
void check_sub_vfilter(const std::string& name, const vif::VifKernels& k, std::mt19937_64& rng) {
    const auto fn = k.sub_vfilter(static_cast<const T*>(nullptr));
    const auto ref = kRef.sub_vfilter(static_cast<const T*>(nullptr));
    const std::vector<unsigned> depths =
        sizeof(T) == 1 ? std::vector<unsigned>{8} : std::vector<unsigned>{9, 10, 12, 16};
    for (unsigned scale = 0; scale < 3; ++scale) {
        const vif::Kernel& kern = vif::kKernels[scale + 1];
        for (unsigned bpc : depths)
            for (Fill f : kFills)
                for (unsigned w : test_widths()) {
                    SCOPED_TRACE(name + " sub_vfilter bpc " + std::to_string(bpc) + " scale " + std::to_string(scale) +
                                 " fill " + std::to_string(static_cast<int>(f)) + " w " + std::to_string(w));
                    GuardedPlane<T> src(w, kern.taps + 2, static_cast<unsigned>(rng() % 7));
                    fill_plane(src, f, scale == 0 ? bpc : 16, rng);
                    const T* rows[17];
                    for (unsigned t = 0; t < kern.taps; ++t)
                        rows[t] = src.row(static_cast<unsigned>(rng() % src.height()));
                    const unsigned shift = scale == 0 ? bpc : 16;
                    GuardedPlane<std::uint32_t> a(w, 1, 3), b(w, 1, 3);
                    ref(rows, w, kern.coeff.data(), kern.taps, shift, a.row(0));
                    fn(rows, w, kern.coeff.data(), kern.taps, shift, b.row(0));
                    ASSERT_TRUE(b.intact());
                    ASSERT_TRUE(std::equal(a.row(0), a.row(0) + w, b.row(0)));
                }
    }
}

TEST(VifCheckasm, SubVFilter) {
    SCOPED_TRACE(seed_trace());
    std::mt19937_64 rng(vmaf::test::checkasm_seed());
    for (const auto& [name, k] : variants()) {
        check_sub_vfilter<std::uint8_t>(name, k, rng);
        check_sub_vfilter<std::uint16_t>(name, k, rng);
    }
}

// ---------------------------------------------------------------------------
// sub_hfilter: a row with margins -> every other filtered column.
TEST(VifCheckasm, SubHFilter) {
    SCOPED_TRACE(seed_trace());
    std::mt19937_64 rng(vmaf::test::checkasm_seed());
    for (const auto& [name, k] : variants())
        for (unsigned scale = 1; scale < vif::kScales; ++scale) {
            const vif::Kernel& kern = vif::kKernels[scale];
            // 16-bit inputs as produced by sub_vfilter; also any 32-bit value.
            for (unsigned bits : {16u, 32u})
                for (Fill f : kFills)
                    for (unsigned ow : test_widths()) {
                        SCOPED_TRACE(name + " sub_hfilter taps " + std::to_string(kern.taps) + " bits " +
                                     std::to_string(bits) + " fill " + std::to_string(static_cast<int>(f)) + " out_w " +
                                     std::to_string(ow));
                        // (+1: the entry a kernel may read past those it uses.)
                        GuardedPlane<std::uint32_t> in(2 * ow - 1 + kern.taps, 1);
                        fill_plane(in, f, bits, rng);
                        GuardedPlane<std::uint16_t> a(ow, 1, 5), b(ow, 1, 5);
                        kRef.sub_hfilter(in.row(0), ow, kern.coeff.data(), kern.taps, a.row(0));
                        k.sub_hfilter(in.row(0), ow, kern.coeff.data(), kern.taps, b.row(0));
                        ASSERT_TRUE(b.intact());
                        ASSERT_TRUE(std::equal(a.row(0), a.row(0) + ow, b.row(0)));
                    }
        }
}

// ---------------------------------------------------------------------------
// stat_vfilter: rows of ref/dis samples -> five rows of moments.
struct StatBufs {
    std::vector<GuardedPlane<std::int16_t>> p;
    explicit StatBufs(unsigned w) {
        for (unsigned i = 0; i < vif::StatRow::kPlanes; ++i) p.emplace_back(w, 1, i + 1);
    }
    vif::StatRow row() {
        return {p[0].row(0), p[1].row(0), p[2].row(0), p[3].row(0),
                p[4].row(0), p[5].row(0), p[6].row(0), p[7].row(0)};
    }
    bool intact() const {
        return std::all_of(p.begin(), p.end(), [](const auto& q) { return q.intact(); });
    }
    bool operator==(const StatBufs& o) const {
        for (unsigned i = 0; i < p.size(); ++i)
            if (!std::equal(p[i].row(0), p[i].row(0) + p[i].width(), o.p[i].row(0))) return false;
        return true;
    }
};

template <typename T>
void check_stat_vfilter(const std::string& name, const vif::VifKernels& k, std::mt19937_64& rng) {
    const auto fn = k.stat_vfilter(static_cast<const T*>(nullptr));
    const auto ref = kRef.stat_vfilter(static_cast<const T*>(nullptr));
    const std::vector<unsigned> depths =
        sizeof(T) == 1 ? std::vector<unsigned>{8} : std::vector<unsigned>{9, 10, 12, 14, 16};
    for (unsigned scale = 0; scale < vif::kScales; ++scale) {
        // 8-bit samples only occur at scale 0, but the kernel takes any filter.
        const vif::Kernel& kern = vif::kKernels[scale];
        for (unsigned bpc : depths) {
            const unsigned bits = (scale == 0 || sizeof(T) == 1) ? bpc : 16;
            const vif::VerticalNorm norm = vif::vertical_norm(sizeof(T) == 1 ? 0 : scale, bpc);
            for (Fill f : kFills)
                for (unsigned w : test_widths()) {
                    SCOPED_TRACE(name + " stat_vfilter bpc " + std::to_string(bpc) + " scale " + std::to_string(scale) +
                                 " fill " + std::to_string(static_cast<int>(f)) + " w " + std::to_string(w));
                    GuardedPlane<T> r(w, kern.taps, static_cast<unsigned>(rng() % 9));
                    GuardedPlane<T> d(w, kern.taps, static_cast<unsigned>(rng() % 9));
                    fill_plane(r, f, bits, rng);
                    fill_plane(d, f == Fill::Smooth ? Fill::Random : f, bits, rng);
                    const T* rr[17];
                    const T* dr[17];
                    for (unsigned t = 0; t < kern.taps; ++t) {
                        rr[t] = r.row(t);
                        dr[t] = d.row(kern.taps - 1 - t);
                    }
                    StatBufs a(w), b(w);
                    ref(rr, dr, w, kern.coeff.data(), kern.taps, norm, a.row());
                    fn(rr, dr, w, kern.coeff.data(), kern.taps, norm, b.row());
                    ASSERT_TRUE(b.intact());
                    ASSERT_TRUE(a == b);
                }
        }
    }
}

TEST(VifCheckasm, StatVFilter) {
    SCOPED_TRACE(seed_trace());
    std::mt19937_64 rng(vmaf::test::checkasm_seed());
    for (const auto& [name, k] : variants()) {
        check_stat_vfilter<std::uint8_t>(name, k, rng);
        check_stat_vfilter<std::uint16_t>(name, k, rng);
    }
}

// ---------------------------------------------------------------------------
// stat_hfilter: five rows with margins -> integer sums (added to).
std::string sums_str(const vif::StatSums& s) {
    return std::to_string(s.num_log) + "/" + std::to_string(s.den_log) + "/" + std::to_string(s.num_non_log) + "/" +
           std::to_string(s.den_non_log);
}

TEST(VifCheckasm, StatHFilter) {
    SCOPED_TRACE(seed_trace());
    std::mt19937_64 rng(vmaf::test::checkasm_seed());
    const std::uint16_t* table = vif::log2_table().data();
    for (const auto& [name, k] : variants())
        for (unsigned scale = 0; scale < vif::kScales; ++scale) {
            const vif::Kernel& kern = vif::kKernels[scale];
            for (int mode = 0; mode < 6; ++mode)
                for (unsigned w : test_widths()) {
                    const double egl = mode == 4 ? 1.0 : mode == 5 ? 1.0 + (rng() % 9900) / 100.0 : 100.0;
                    SCOPED_TRACE(name + " stat_hfilter taps " + std::to_string(kern.taps) + " mode " +
                                 std::to_string(mode) + " w " + std::to_string(w));
                    const unsigned len = w + kern.taps - 1;
                    StatBufs in(len);
                    if (mode == 0 || mode == 5) {
                        // Arbitrary values: every branch, extreme gains.
                        for (auto& q : in.p) fill_plane(q, Fill::Random, 16, rng);
                    } else if (mode == 1 || mode == 2) {
                        // All-zero or all-max values (biased storage).
                        for (auto& q : in.p) {
                            fill_plane(q, mode == 1 ? Fill::Zero : Fill::Max, 16, rng);
                            for (unsigned x = 0; x < len; ++x) q.row(0)[x] = vif::bias16(static_cast<std::uint16_t>(q.row(0)[x]));
                        }
                    } else {
                        // Realistic moments: vertical pass of correlated 10-bit planes.
                        GuardedPlane<std::uint16_t> r(len, kern.taps), d(len, kern.taps);
                        fill_plane(r, Fill::Smooth, 10, rng);
                        std::uniform_int_distribution<int> noise(-40, 40);
                        for (unsigned y = 0; y < kern.taps; ++y)
                            for (unsigned x = 0; x < len; ++x)
                                d.row(y)[x] = static_cast<std::uint16_t>(
                                    std::clamp(static_cast<int>(r.row(y)[x]) * (1 + static_cast<int>(x % 3)) / 2 +
                                                   (rng() % 4 == 0 ? noise(rng) : 0),
                                               0, 1023));
                        const std::uint16_t* rr[17];
                        const std::uint16_t* dr[17];
                        for (unsigned t = 0; t < kern.taps; ++t) rr[t] = r.row(t), dr[t] = d.row(t);
                        kRef.stat_vfilter_16(rr, dr, len, kern.coeff.data(), kern.taps, vif::vertical_norm(0, 10),
                                             in.row());
                    }
                    vif::StatSums a{static_cast<std::int64_t>(rng() % 1000), 7, 11, 13};
                    vif::StatSums b = a;
                    kRef.stat_hfilter(in.row(), w, kern.coeff.data(), kern.taps, &egl, 1, table, &a);
                    k.stat_hfilter(in.row(), w, kern.coeff.data(), kern.taps, &egl, 1, table, &b);
                    ASSERT_TRUE(in.intact());
                    ASSERT_EQ(sums_str(a), sums_str(b));

                    // Several limits in one pass (1..9: past the kernels' chunk
                    // of 4), each starting from its own sums: every limit's sums
                    // equal a reference pass with that limit alone.
                    const unsigned n = 1 + static_cast<unsigned>(rng() % 9);
                    std::vector<double> limits{egl};
                    while (limits.size() < n) {
                        const unsigned pick = static_cast<unsigned>(rng() % 4);
                        limits.push_back(pick == 0 ? 1.0 : pick == 1 ? 100.0 : 1.0 + (rng() % 9900) / 100.0);
                    }
                    std::vector<vif::StatSums> alone(n);
                    for (unsigned i = 0; i < n; ++i)
                        alone[i] = {static_cast<std::int64_t>(rng() % 1000), static_cast<std::int64_t>(i), 3, 5};
                    std::vector<vif::StatSums> group_ref = alone, group = alone;
                    for (unsigned i = 0; i < n; ++i)
                        kRef.stat_hfilter(in.row(), w, kern.coeff.data(), kern.taps, &limits[i], 1, table, &alone[i]);
                    kRef.stat_hfilter(in.row(), w, kern.coeff.data(), kern.taps, limits.data(), n, table,
                                      group_ref.data());
                    k.stat_hfilter(in.row(), w, kern.coeff.data(), kern.taps, limits.data(), n, table, group.data());
                    ASSERT_TRUE(in.intact());
                    for (unsigned i = 0; i < n; ++i) {
                        SCOPED_TRACE("limit " + std::to_string(i) + " of " + std::to_string(n) + ": " +
                                     std::to_string(limits[i]));
                        ASSERT_EQ(sums_str(alone[i]), sums_str(group_ref[i]));
                        ASSERT_EQ(sums_str(alone[i]), sums_str(group[i]));
                    }
                }
        }
}

// ---------------------------------------------------------------------------
// Whole frames through every kernel (mirrored borders, decimation), from the
// smallest accepted size up, strides wider than the width.
template <typename T>
void check_frames(const std::string& name, const vif::VifKernels& k, unsigned bpc, std::mt19937_64& rng) {
    const unsigned sizes[][2] = {{16, 16}, {17, 16}, {16, 17}, {19, 23}, {31, 17}, {33, 35}, {67, 41}, {96, 54}};
    for (const auto& sz : sizes)
        for (Fill f : kFills) {
            const unsigned w = sz[0], h = sz[1];
            SCOPED_TRACE(name + " frame " + std::to_string(w) + "x" + std::to_string(h) + " bpc " +
                         std::to_string(bpc) + " fill " + std::to_string(static_cast<int>(f)));
            GuardedPlane<T> r(w, h, static_cast<unsigned>(rng() % 13)), d(w, h, static_cast<unsigned>(rng() % 13));
            fill_plane(r, f, bpc, rng);
            fill_plane(d, f == Fill::Smooth ? Fill::Random : f, bpc, rng);
            if (f == Fill::Random && rng() % 2) {  // correlated distortion
                for (unsigned y = 0; y < h; ++y)
                    for (unsigned x = 0; x < w; ++x)
                        d.row(y)[x] = static_cast<T>((r.row(y)[x] + d.row(y)[x] / 16) >> 1);
            }
            const vif::SampleView<T> rv{r.data(), r.stride_bytes(), w, h}, dv{d.data(), d.stride_bytes(), w, h};
            for (double egl : {100.0, 1.0}) {
                for (unsigned s = 0; s < vif::kScales; ++s) {
                    // Scale statistics on the original planes with every filter.
                    ASSERT_EQ(sums_str(vif::scale_sums(rv, dv, s, bpc, egl, kRef)),
                              sums_str(vif::scale_sums(rv, dv, s, bpc, egl, k)));
                }
                const auto a = vif::compute_vif(rv, dv, bpc, egl, false, kRef);
                const auto b = vif::compute_vif(rv, dv, bpc, egl, false, k);
                for (unsigned s = 0; s < vif::kScales; ++s) {
                    ASSERT_EQ(std::memcmp(&a[s], &b[s], sizeof a[s]), 0) << "scale " << s;
                }
            }
            {
                // A group of limits (VMAF + NEG and more) in one call: each equals its own reference run.
                const double limits[] = {100.0, 1.0, 1.7};
                vif::FrameStats g[3];
                vif::compute_vif(rv, dv, bpc, std::span<const double>(limits), false, std::span<vif::FrameStats>(g), k);
                for (unsigned i = 0; i < 3; ++i) {
                    const auto a = vif::compute_vif(rv, dv, bpc, limits[i], false, kRef);
                    for (unsigned s = 0; s < vif::kScales; ++s)
                        ASSERT_EQ(std::memcmp(&a[s], &g[i][s], sizeof a[s]), 0) << "limit " << limits[i] << " scale " << s;
                }
            }
            for (unsigned s = 0; s < 3; ++s) {
                const auto a = vif::subsample(rv, s, bpc, kRef);
                const auto b = vif::subsample(rv, s, bpc, k);
                ASSERT_EQ(a.samples, b.samples);
            }
            ASSERT_TRUE(r.intact() && d.intact());
        }
}

TEST(VifCheckasm, WholeFrames) {
    SCOPED_TRACE(seed_trace());
    std::mt19937_64 rng(vmaf::test::checkasm_seed());
    for (const auto& [name, k] : variants()) {
        check_frames<std::uint8_t>(name, k, 8, rng);
        for (unsigned bpc : {10u, 12u, 16u}) check_frames<std::uint16_t>(name, k, bpc, rng);
    }
}

TEST(VifCheckasm, SelectHonoursCpumask) {
    // All ISAs disabled: the scalar reference.
    const vif::VifKernels none = vif::select_kernels(~0u);
    EXPECT_EQ(none.stat_hfilter, kRef.stat_hfilter);
    EXPECT_EQ(none.stat_vfilter_8, kRef.stat_vfilter_8);
    EXPECT_EQ(none.sub_hfilter, kRef.sub_hfilter);
    for (const auto& [name, k] : variants()) std::printf("[ variant  ] %s\n", name.c_str());
}

// ---------------------------------------------------------------------------
// The extractor on real clips: identical scores at every cpumask.
class MapWriter : public vmaf::ScoreWriter {
public:
    void write(unsigned frame, unsigned output, double value) override { scores[frame][output] = value; }
    void write_aggregate(unsigned, double) override {}
    std::map<unsigned, std::map<unsigned, double>> scores;
};

std::map<unsigned, std::map<unsigned, double>> run_clip(const std::string& pair, unsigned cpumask, unsigned frames) {
    const auto info = vmaf::test::pair_info(pair);
    const vmaf::OptionValues opts(vmaf::kVifInfo.options, {{"debug", "true"}}, "vif");
    vmaf::ExtractorContext ctx;
    ctx.cpumask = cpumask;
    auto fex = vmaf::kVifInfo.create(opts, info.geom, ctx);
    MapWriter out;
    const auto ref_path = vmaf::test::clip_path(info.ref);
    const auto dist_path = vmaf::test::clip_path(info.dist);
    for (unsigned f = 0; f < std::min(frames, info.frames); ++f) {
        const auto ref = vmaf::test::load_raw_frame(ref_path, info.geom, f);
        const auto dist = vmaf::test::load_raw_frame(dist_path, info.geom, f);
        auto st = fex->compute(f, ref, dist);
        fex->finish(f, *st, out);
    }
    return out.scores;
}

TEST(VifCheckasm, ExtractorIdenticalAcrossCpumasks) {
    std::vector<std::string> pairs;
    for (const auto& id : vmaf::test::stored_pair_ids()) {
        const auto info = vmaf::test::pair_info(id);
        if (info.ref == "p01_576x324_yuv420p_ref.yuv" || info.ref == "p03_1280x720_yuv420p10le_ref.yuv" ||
            info.ref == "p05_641x363_yuv420p_ref.yuv")
            pairs.push_back(id);
    }
    ASSERT_FALSE(pairs.empty());
    for (const auto& pair : pairs) {
        SCOPED_TRACE(pair);
        const auto base = run_clip(pair, 63, 4);
        ASSERT_FALSE(base.empty());
        for (unsigned mask : {0u, 16u, 48u, 56u}) {
            SCOPED_TRACE("cpumask " + std::to_string(mask));
            const auto got = run_clip(pair, mask, 4);
            ASSERT_EQ(got.size(), base.size());
            for (const auto& [f, scores] : base)
                for (const auto& [o, v] : scores) {
                    const double g = got.at(f).at(o);
                    EXPECT_EQ(std::memcmp(&g, &v, sizeof v), 0)
                        << "frame " << f << " output " << o << ": " << g << " vs " << v;
                }
        }
    }
}

}  // namespace
