// launch_ordered_sums: the chunked walk of source_ordered_sum.cuh (which says
// how and why it equals the sequential sum) over stored terms, one term per
// index, one group per sequence.
#include "features/float_common/cuda/ordered_sum.hpp"
#include "features/float_common/cuda/source_ordered_sum.cuh"

namespace vmaf::floatfeat::cuda {

namespace {

/// OrderedSeqs as a source: group k is sequence k.
template <typename T>
struct Stored {
    static constexpr int kTerms = 1;
    OrderedSeqs<T> seqs;
    __host__ __device__ unsigned long long n(unsigned g) const { return seqs.n[g]; }
    __device__ void terms(unsigned g, unsigned long long i, T* out) const { out[0] = seqs.term[g][i]; }
};

static_assert(kMaxOrderedSums <= source_sum::kMaxGroups);

unsigned groups(int count) {
    return count > 0 ? static_cast<unsigned>(count) : 0u;
}

}  // namespace

template <typename T>
std::size_t ordered_sum_scratch_bytes(const OrderedSeqs<T>& seqs) {
    const Stored<T> src{seqs};
    return source_sum::scratch_bytes<1>(source_sum::offsets(src, groups(seqs.count)));
}

template <typename T>
void launch_ordered_sums(const OrderedSeqs<T>& seqs, const int* gate, void* scratch, T* sums, cudaStream_t s) {
    if (seqs.count <= 0) return;
    const Stored<T> src{seqs};
    source_sum::launch_ordered<T>(src, source_sum::offsets(src, groups(seqs.count)), gate, scratch, sums, s);
}

template std::size_t ordered_sum_scratch_bytes<float>(const OrderedSeqs<float>&);
template std::size_t ordered_sum_scratch_bytes<double>(const OrderedSeqs<double>&);
template void launch_ordered_sums<float>(const OrderedSeqs<float>&, const int*, void*, float*, cudaStream_t);
template void launch_ordered_sums<double>(const OrderedSeqs<double>&, const int*, void*, double*, cudaStream_t);

}  // namespace vmaf::floatfeat::cuda
