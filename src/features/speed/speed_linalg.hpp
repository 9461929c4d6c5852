// Small dense float linear algebra SpEED needs on its block covariance
// matrix (25 x 25): symmetric eigenvalues (Householder tridiagonalization +
// implicit QR) and a linear solve (Householder QR + back substitution).
// Every operation keeps upstream libvmaf's float/double mix and order, so the
// results are bit-identical to it (not to LAPACK).
#pragma once

#include "features/speed/speed_kernels.hpp"

namespace vmaf::speed {

/// Eigenvalues of the symmetric n x n row-major matrix `a` (not modified),
/// unordered, into `eig[0, n)`.
void symmetric_eigenvalues(const float* a, float* eig, int n);

/// Solves A X = B for X (n x cols), A n x n, B n x cols, all row-major.
/// Returns false when a pivot of the triangular factor is below 1e-6 in magnitude.
/// Its products and row updates run on `k` (any kernel table: all are bit-identical).
bool solve(const float* a, int n, const float* b, int cols, float* x, const SpeedKernels& k = {});

/// solve() with its QR's full n x n products at every step (solve() skips the
/// reflectors' identity parts, which add only signed zeros): the reference
/// that solve() must equal bit for bit where it succeeds.
bool solve_full_products(const float* a, int n, const float* b, int cols, float* x, const SpeedKernels& k = {});

}  // namespace vmaf::speed
