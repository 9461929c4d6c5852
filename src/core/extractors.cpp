#include "core/extractors.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <string>

#include "core/feature_name.hpp"
#include "core/pipeline.hpp"
#include "vmaf/error.hpp"

namespace vmaf::engine_detail {

namespace {

/// Runs `f`; in a traced run, as part "<what>:<name>" of the pair of `ctx`
/// (the stage that handed it over, on whichever thread runs it).
template <typename F>
void as_part(const TraceContext& ctx, const char* what, std::string_view name, F&& f) {
    if (!ctx.trace) return f();
    TraceIn in(ctx);
    const double start = trace_clock();
    f();
    trace_part(std::string(what).append(":").append(name), start);
}

/// Routes an extractor's writes to collector slots. A group's extractor
/// writes set k's output o as output k * outputs + o (ExtractorInfo::create_group).
/// Writes for a member other than the leader are held (Extractors::release)
/// until the ordered loop reaches that member, so that keys are first written
/// in instance order, as separate extractors (and upstream) write them.
class GroupWriter final : public ScoreWriter {
public:
    GroupWriter(FeatureCollector& fc, const std::vector<Instance>& list, std::size_t leader,
                std::vector<HeldWrite>& held)
        : fc_(fc), list_(list), leader_(leader), held_(held) {}
    void write(unsigned frame, unsigned output, double value) override {
        const auto [m, o] = route(output);
        if (m == leader_)
            fc_.write(list_[m].slots.at(o), frame, value);
        else
            held_.push_back({m, o, frame, value, false});
    }
    void write_aggregate(unsigned output, double value) override {
        const auto [m, o] = route(output);
        if (m == leader_)
            fc_.write_aggregate(list_[m].info->outputs[o], value);
        else
            held_.push_back({m, o, 0, value, true});
    }

private:
    /// (instance index, its output index) of a write.
    std::pair<std::size_t, unsigned> route(unsigned output) const {
        const Instance& lead = list_[leader_];
        if (lead.group.empty()) return {leader_, output};
        const auto n = static_cast<unsigned>(lead.info->outputs.size());
        return {lead.group.at(output / n), output % n};
    }

    FeatureCollector& fc_;
    const std::vector<Instance>& list_;
    std::size_t leader_;
    std::vector<HeldWrite>& held_;
};

/// Identity of an instance's options leaving out the kind's group options.
std::string group_identity(const Instance& inst) {
    return std::string(inst.info->name) + "|" + inst.opts.identity(inst.info->group_options);
}

}  // namespace

std::size_t Extractors::use(const ExtractorInfo* info, const OptionDict& dict, const std::string& pinned) {
    OptionValues ov(info->options, dict, info->name);
    std::string id = std::string(info->name) + "|" + ov.identity();
    for (std::size_t i = 0; i < list_.size(); ++i)
        if (list_[i].identity == id) {
            if (!pinned.empty()) list_[i].pinned = pinned;
            return i;
        }
    Instance inst;
    inst.info = info;
    inst.pinned = pinned;
    inst.identity = std::move(id);
    for (unsigned o = 0; o < info->outputs.size(); ++o) {
        const bool verbatim = std::find(info->verbatim_outputs.begin(), info->verbatim_outputs.end(), o) !=
                              info->verbatim_outputs.end();
        inst.slots.push_back(fc_.slot(verbatim ? std::string(info->outputs[o]) : feature_key(info->outputs[o], ov)));
    }
    for (unsigned o : info->flush_outputs) fc_.order_after_frames(inst.slots[o]);
    inst.opts = std::move(ov);
    list_.push_back(std::move(inst));
    return list_.size() - 1;
}

bool Extractors::luma_only() const {
    return std::none_of(list_.begin(), list_.end(), [](const Instance& i) { return i.info->needs_chroma; });
}

PlaneNeeds Extractors::place(BackendSession* session) {
    PlaneNeeds needs{.chroma = false, .reference = false};
    for (Instance& inst : list_) {
        inst.extractor.reset();
        inst.group.clear();
        inst.on_backend = session && session->has_twin(inst.info->name);
        if (!inst.on_backend) continue;
        needs.chroma |= inst.info->needs_chroma;
        needs.reference |= !inst.info->reads_reference || inst.info->reads_reference(inst.opts);
    }
    return needs;
}

bool Extractors::all_on_backend() const {
    return std::all_of(list_.begin(), list_.end(), [](const Instance& i) { return i.on_backend; });
}

void Extractors::create(BackendSession* session, const VideoGeometry& geom, const ExtractorContext& ctx) {
    std::vector<bool> done(list_.size(), false);
    for (std::size_t i = 0; i < list_.size(); ++i) {
        if (done[i]) continue;
        Instance& lead = list_[i];
        done[i] = true;
        std::vector<std::size_t> members{i};
        if (!lead.info->group_options.empty()) {
            const std::string gid = group_identity(lead);
            for (std::size_t j = i + 1; j < list_.size(); ++j)
                if (!done[j] && list_[j].info == lead.info && list_[j].on_backend == lead.on_backend &&
                    group_identity(list_[j]) == gid)
                    members.push_back(j);
        }
        if (members.size() > 1) {
            std::vector<const OptionValues*> sets;
            for (std::size_t m : members) sets.push_back(&list_[m].opts);
            std::unique_ptr<FeatureExtractor> g;
            if (lead.on_backend)
                g = session->create_group_extractor(*lead.info, sets, geom, ctx);
            else if (lead.info->create_group)
                g = lead.info->create_group(sets, geom, ctx);
            if (g) {
                lead.extractor = std::move(g);
                lead.group = members;
                for (std::size_t m : members) done[m] = true;
                continue;
            }
        }
        lead.extractor = lead.on_backend ? session->create_extractor(*lead.info, lead.opts, geom, ctx)
                                         : lead.info->create(lead.opts, geom, ctx);
    }
}

bool Extractors::runs_on(const Instance& inst, unsigned frame, unsigned subsample) const {
    return inst.info->temporal || subsample <= 1 || frame % subsample == 0;
}

void Extractors::compute(Token& t, bool parallel, BackendSession* session, unsigned subsample) const {
    if (t.ref.memory() == MemoryKind::Device || t.dist.memory() == MemoryKind::Device)
        for (const Instance& inst : list_)
            if (!inst.on_backend)
                throw Error(ErrorKind::Usage, "feature '" + std::string(inst.info->name) +
                                                  "' runs on the CPU, which cannot read pictures in device memory");
    if (t.feed)
        for (const Instance& inst : list_)
            if (!inst.on_backend)
                throw Error(ErrorKind::Internal, "feature '" + std::string(inst.info->name) +
                                                     "' runs on the CPU, but the pair was left to the backend to read");
    bool staged = false;
    if (session)
        for (const Instance& inst : list_)
            if (inst.extractor && inst.on_backend && runs_on(inst, t.index, subsample)) staged = true;
    const double staging = trace_clock();
    if (staged && t.feed)
        session->frame_begin_fed(t.index, *t.feed);
    else if (staged)
        session->frame_begin(t.index, t.ref, t.dist);
    if (staged) trace_part("stage", staging);  // fed: the reads too
    struct Release {
        BackendSession* s;
        unsigned i;
        ~Release() {
            if (s) s->frame_end(i);
        }
    } release{staged ? session : nullptr, t.index};
    t.states.resize(list_.size());
    const TraceContext ctx = trace_context();
    auto one = [&](std::size_t k) {
        const Instance& inst = list_[k];
        if (inst.extractor && runs_on(inst, t.index, subsample))
            as_part(ctx, "compute", inst.info->name,
                    [&] { t.states[k] = inst.extractor->compute(t.index, t.ref, t.dist); });
    };
    const double computing = trace_clock();
    if (parallel && list_.size() > 1)
        tbb::parallel_for(std::size_t{0}, list_.size(), one);
    else
        for (std::size_t k = 0; k < list_.size(); ++k) one(k);
    trace_part("compute", computing);
}

void Extractors::release(std::size_t inst) {
    auto keep = held_.begin();
    for (auto it = held_.begin(); it != held_.end(); ++it) {
        if (it->inst != inst) {
            *keep++ = *it;
            continue;
        }
        const Instance& m = list_[inst];
        if (it->aggregate)
            fc_.write_aggregate(m.info->outputs[it->output], it->value);
        else
            fc_.write(m.slots.at(it->output), it->frame, it->value);
    }
    held_.erase(keep, held_.end());
}

void Extractors::finish(Token& t) {
    const TraceContext ctx = trace_context();
    for (std::size_t k = 0; k < list_.size(); ++k) {
        release(k);
        if (!t.states[k]) continue;
        GroupWriter w(fc_, list_, k, held_);
        as_part(ctx, "finish", list_[k].info->name, [&] { list_[k].extractor->finish(t.index, *t.states[k], w); });
    }
    for (std::size_t k = 0; k < list_.size() && !held_.empty(); ++k) release(k);
    t.ref = Picture();
    t.dist = Picture();
}

void Extractors::flush() {
    for (std::size_t k = 0; k < list_.size(); ++k) {
        release(k);
        if (!list_[k].extractor) continue;
        GroupWriter w(fc_, list_, k, held_);
        list_[k].extractor->flush(w);
    }
    for (std::size_t k = 0; k < list_.size() && !held_.empty(); ++k) release(k);
}

}  // namespace vmaf::engine_detail
