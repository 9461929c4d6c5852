// What a backend is told to stage (Extractors::place): chroma only for
// features that read it, the reference only for features that read it, and
// nothing for the instances left on the CPU.
#include "core/extractors.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/registry.hpp"

namespace vmaf::engine_detail {
namespace {

/// A backend with twins of the kinds named, which are never created here.
class TwinsOf final : public BackendSession {
public:
    explicit TwinsOf(std::set<std::string, std::less<>> kinds) : kinds_(std::move(kinds)) {}
    std::string_view name() const override { return "test"; }
    std::unique_ptr<FeatureExtractor> create_extractor(const ExtractorInfo&, const OptionValues&, const VideoGeometry&,
                                                       const ExtractorContext&) override {
        return nullptr;
    }
    bool has_twin(std::string_view kind) const override { return kinds_.contains(kind); }

private:
    std::set<std::string, std::less<>> kinds_;
};

PlaneNeeds needs(std::initializer_list<std::pair<const char*, OptionDict>> features, BackendSession& session) {
    FeatureCollector fc;
    Extractors x(fc);
    for (const auto& [name, opts] : features) x.use(find_extractor(name), opts);
    return x.place(&session);
}

TEST(ExtractorsPlace, NoReferenceFeatureAloneStagesNoReference) {
    TwinsOf gpu({"cambi", "psnr", "vif"});
    const PlaneNeeds n = needs({{"cambi", {}}}, gpu);
    EXPECT_FALSE(n.reference);
    EXPECT_FALSE(n.chroma);
}

TEST(ExtractorsPlace, CambiFullRefReadsTheReference) {
    TwinsOf gpu({"cambi"});
    EXPECT_TRUE(needs({{"cambi", {{"full_ref", "true"}}}}, gpu).reference);
}

TEST(ExtractorsPlace, AnyFullReferenceTwinStagesBoth) {
    TwinsOf gpu({"cambi", "psnr", "vif"});
    const PlaneNeeds n = needs({{"cambi", {}}, {"vif", {}}}, gpu);
    EXPECT_TRUE(n.reference);
    EXPECT_FALSE(n.chroma);
    EXPECT_TRUE(needs({{"cambi", {}}, {"psnr", {}}}, gpu).chroma);
}

TEST(ExtractorsPlace, InstancesOnTheCpuAskTheBackendForNothing) {
    TwinsOf gpu({"cambi"});
    const PlaneNeeds n = needs({{"cambi", {}}, {"psnr", {}}}, gpu);  // psnr has no twin here: the CPU reads its planes
    EXPECT_FALSE(n.reference);
    EXPECT_FALSE(n.chroma);
}

}  // namespace
}  // namespace vmaf::engine_detail
