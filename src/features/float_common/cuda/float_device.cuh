// Device helpers of the float features' CUDA twins: samples as the CPU's
// float features read them, mirrored indices, and the two reductions whose
// order must be the CPU's because float/double addition is not associative:
// sequential per-row float sums, and one sequential raster-order double sum.
//
// Compiled with --fmad=false -prec-div=true -prec-sqrt=true (the vmaf_cuda
// target's flags): every + - * / and sqrt below is one IEEE operation rounded
// to nearest, as the CPU's (built with -ffp-contract=off).
#pragma once

#include <cstddef>
#include <cstdint>

#include "backends/gpu/portability.hpp"

namespace vmaf::floatfeat::cuda {

/// floatfeat::sample_to_float: 8-bit as is, deeper divided (in float) by
/// `scaler` (4, 16, 256). `row` is a plane row, `x` the column. The CPU's
/// quotient is exact (a power of two, normal results), so it equals the
/// product with the exact reciprocal, which costs no division per sample.
__device__ __forceinline__ float sample(const unsigned char* row, unsigned x, unsigned bpc, float scaler) {
    if (bpc == 8) return static_cast<float>(row[x]);
    return static_cast<float>(reinterpret_cast<const unsigned short*>(row)[x]) * (1.0f / scaler);
}

/// The raw sample value (an integer) at column x.
__device__ __forceinline__ unsigned raw_sample(const unsigned char* row, unsigned x, unsigned bpc) {
    return bpc == 8 ? row[x] : reinterpret_cast<const unsigned short*>(row)[x];
}

/// Mirror without repeating the edge sample: -1 -> 1, n -> n - 2 (one reflection).
__device__ __forceinline__ int mirror_skip(int i, int n) {
    return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i);
}

/// A sequential_sum gate that always opens.
struct Always {
    __device__ bool operator()() const { return true; }
};

/// Mirror with the edge sample repeated: -1 -> 0, n -> n - 1.
__device__ __forceinline__ int mirror_repeat(int i, int n) {
    return i < 0 ? -1 - i : (i >= n ? 2 * n - 1 - i : i);
}

/// Rows of one block in row_sums (a warp sums one row per lane).
constexpr unsigned kRowSumRows = 32;

/// out[k * h + y] = the float sum over x = 0, 1, ..., w - 1 (in this order,
/// from 0.0f) of term(x, y)[k], for K terms: the CPU's per-row loop
/// `float s = 0; for (x...) s += t;`. The terms of a 32 x 32 tile are
/// computed by the whole block; lane y of warp 0 then adds its row's 32 in
/// order. Launch: grid (h + 31) / 32, block (32, 8).
template <int K, typename Term>
__global__ void row_sums(Term term, unsigned w, unsigned h, float* out) {
    __shared__ float tile[K][kRowSumRows][33];
    const unsigned y0 = blockIdx.x * kRowSumRows;
    float acc[K];
#pragma unroll
    for (int k = 0; k < K; ++k) acc[k] = 0.0f;
    for (unsigned x0 = 0; x0 < w; x0 += 32) {
        const unsigned x = x0 + threadIdx.x;
        for (unsigned r = threadIdx.y; r < kRowSumRows; r += blockDim.y) {
            const unsigned y = y0 + r;
            if (x < w && y < h) {
                float t[K];
                term(x, y, t);
#pragma unroll
                for (int k = 0; k < K; ++k) tile[k][r][threadIdx.x] = t[k];
            }
        }
        __syncthreads();
        if (threadIdx.y == 0 && y0 + threadIdx.x < h) {
            const unsigned n = w - x0 < 32 ? w - x0 : 32;
            for (unsigned c = 0; c < n; ++c)
#pragma unroll
                for (int k = 0; k < K; ++k) acc[k] = acc[k] + tile[k][threadIdx.x][c];
        }
        __syncthreads();
    }
    if (threadIdx.y == 0 && y0 + threadIdx.x < h)
#pragma unroll
        for (int k = 0; k < K; ++k) out[k * h + y0 + threadIdx.x] = acc[k];
}

/// Elements one warp stages per step of sequential_sum.
constexpr unsigned kSeqChunk = 256;

/// out[k] = the double sum, from 0.0, of term(i)[k] for i = 0, 1, ..., n - 1
/// in this order (the CPU's raster-order accumulation), for K independent
/// sums. The warp computes and stages kSeqChunk terms at a time; lane 0 adds
/// them one by one. Does nothing (out untouched) unless gate() is true, which
/// lets a launch depend on results of earlier kernels. Launch: one block of 32 threads.
template <int K, typename Term, typename Gate>
__global__ void sequential_sum(Term term, unsigned long long n, Gate gate, double* out) {
    __shared__ double stage[K][kSeqChunk];
    if (!gate()) return;
    double acc[K];
#pragma unroll
    for (int k = 0; k < K; ++k) acc[k] = 0.0;
    for (unsigned long long i0 = 0; i0 < n; i0 += kSeqChunk) {
        for (unsigned j = threadIdx.x; j < kSeqChunk; j += 32) {
            if (i0 + j < n) {
                double t[K];
                term(i0 + j, t);
#pragma unroll
                for (int k = 0; k < K; ++k) stage[k][j] = t[k];
            }
        }
        __syncthreads();  // the block is one warp
        if (threadIdx.x == 0) {
            const unsigned long long m = n - i0 < kSeqChunk ? n - i0 : kSeqChunk;
            for (unsigned j = 0; j < m; ++j)
#pragma unroll
                for (int k = 0; k < K; ++k) acc[k] = acc[k] + stage[k][j];
        }
        __syncthreads();  // the block is one warp
    }
    if (threadIdx.x == 0)
#pragma unroll
        for (int k = 0; k < K; ++k) out[k] = acc[k];
}

}  // namespace vmaf::floatfeat::cuda
