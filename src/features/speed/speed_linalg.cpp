#include "features/speed/speed_linalg.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

namespace vmaf::speed {

namespace {

constexpr double kEps = 1e-6;
constexpr int kMaxIterations = 500;

int sign_of(float x) { return x >= 0 ? 1 : -1; }
/// sqrt of a float sum, taken in double and rounded back (as C's sqrt on a float argument).
float root(float v) { return static_cast<float>(std::sqrt(static_cast<double>(v))); }
float hypot_f(float x, float y) { return root(x * x + y * y); }

// ---- symmetric tridiagonal eigenvalues -------------------------------------

/// Householder vector annihilating a[start+1.., col] (stored in place, scaled
/// so its first element is an implicit 1; a[start][col] becomes beta). Returns tau.
float householder(float* a, int col, int start, int n) {
    if (n - start == 1) return 0.0f;
    float sq = 0;
    for (int i = start + 1; i < n; ++i) sq += a[i * n + col] * a[i * n + col];
    const float xnorm = root(sq);
    if (xnorm == 0.0f) return 0.0f;
    const float alpha = a[start * n + col];
    const float beta = -sign_of(alpha) * hypot_f(alpha, xnorm);
    const float tau = (beta - alpha) / beta;
    const float s = alpha - beta;
    if (s != 0.0f) {
        for (int i = start; i < n; ++i) a[i * n + col] /= s;
        a[start * n + col] = beta;
    }
    return tau;
}

/// Reduces symmetric `a` (destroyed) to tridiagonal form: diagonal d, subdiagonal sd.
void tridiagonalize(float* a, int n, float* d, float* sd) {
    std::vector<float> v(n), x(n);
    for (int i = 0; i + 2 < n; ++i) {
        const float tau = householder(a, i, i + 1, n);
        for (int j = i + 1; j < n; ++j) v[j] = a[j * n + i];
        if (tau == 0.0f) continue;
        a[(i + 1) * n + i] = v[i + 1];
        v[i + 1] = 1.0f;
        const int s = i + 1;
        // x = tau A v, each x[r] summed over ascending c; A's trailing block
        // is symmetric (the input is, and the rank-2 updates below keep it
        // exactly so: x[r] v[c] + v[r] x[c] and x[c] v[r] + v[c] x[r] are the
        // same two products), so a[r][c] is read as a[c][r], a row at a time.
        float* __restrict xs = x.data();
        for (int r = s; r < n; ++r) xs[r] = 0.0f;
        for (int c = s; c < n; ++c) {
            const float* __restrict row = a + c * n;
            const float vc = v[c];
            for (int r = s; r < n; ++r) xs[r] += tau * row[r] * vc;
        }
        float xv = 0;
        for (int r = s; r < n; ++r) xv += x[r] * v[r];
        const float alpha = -0.5 * tau * xv;  // evaluated in double, as upstream
        for (int r = s; r < n; ++r) x[r] += alpha * v[r];
        for (int r = s; r < n; ++r)  // A -= x v' + v x'
            for (int c = s; c < n; ++c) a[r * n + c] -= x[r] * v[c] + v[r] * x[c];
    }
    for (int i = 0; i < n; ++i) d[i] = a[i * n + i];
    for (int i = 0; i + 1 < n; ++i) sd[i] = a[(i + 1) * n + i];
}

void chop_small(float* d, float* sd, int n) {
    for (int i = 0; i + 1 < n; ++i)
        if (std::fabs(sd[i]) < kEps * (std::fabs(d[i]) + std::fabs(d[i + 1]))) sd[i] = 0.0f;
}

/// Wilkinson shift from the trailing 2 x 2 block.
float trailing_eigenvalue(const float* d, const float* sd, int n) {
    const float ta = d[n - 2], tb = d[n - 1], tab = sd[n - 2];
    const float dt = (ta - tb) / 2.0;
    if (dt > 0) return tb - tab * (tab / (dt + hypot_f(dt, tab)));
    if (dt == 0) return tb - std::fabs(tab);
    return tb + tab * (tab / (-dt + hypot_f(dt, tab)));
}

void givens(float a, float b, float& c, float& s) {
    if (b == 0) {
        c = 1;
        s = 0;
    } else if (std::fabs(b) > std::fabs(a)) {
        const float t = -a / b;
        const float s1 = 1.0 / std::sqrt(static_cast<double>(1 + t * t));
        s = s1;
        c = s1 * t;
    } else {
        const float t = -b / a;
        const float c1 = 1.0 / std::sqrt(static_cast<double>(1 + t * t));
        c = c1;
        s = c1 * t;
    }
}

/// One implicit symmetric QR step on the unreduced block d[0, n), sd[0, n-1).
void qr_step(float* d, float* sd, int n) {
    float mu = trailing_eigenvalue(d, sd, n);
    if (kEps * std::fabs(mu) > std::fabs(d[0]) + std::fabs(sd[0])) mu = 0;
    float x = d[0] - mu, z = sd[0];
    float bk = 0, zk = 0;
    float ap = d[0], bp = sd[0], aq = d[1];
    if (n == 2) {
        float c, s;
        givens(x, z, c, s);
        const float ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
        const float bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
        const float aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
        d[0] = ap1;
        sd[0] = bp1;
        d[1] = aq1;
        return;
    }
    float bq = sd[1];
    for (int k = 0; k < n - 1; ++k) {
        float c, s;
        givens(x, z, c, s);
        const float bk1 = c * bk - s * zk;
        const float ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
        const float bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
        const float zp1 = -s * bq;
        const float aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
        const float bq1 = c * bq;
        const float ak = ap1;
        bk = bp1;
        zk = zp1;
        ap = aq1;
        bp = bq1;
        if (k < n - 2) aq = d[k + 2];
        if (k < n - 3) bq = sd[k + 2];
        d[k] = ak;
        if (k > 0) sd[k - 1] = bk1;
        if (k < n - 2) sd[k + 1] = bp;
        x = bk;
        z = zk;
    }
    d[n - 1] = ap;
    sd[n - 2] = bk;
}

void tridiagonal_eigenvalues(float* d, float* sd, int n) {
    chop_small(d, sd, n);
    int b = n - 1, iter = 0;
    while (b > 0 && iter < kMaxIterations) {
        if (sd[b - 1] == 0.0f) {
            --b;
            continue;
        }
        int a = b - 1;
        while (a > 0 && sd[a - 1] != 0.0f) --a;
        qr_step(d + a, sd + a, b - a + 1);
        chop_small(d + a, sd + a, b - a + 1);
        ++iter;
    }
}

// ---- QR solve --------------------------------------------------------------

using Mat = std::vector<float>;  // n x n row-major

/// dst = x y, each element summed over k in ascending order from 0.
void mul(Mat& dst, const float* x, const float* y, int rows, int inner, int cols, const SpeedKernels& k) {
    dst.resize(static_cast<std::size_t>(rows) * cols);
    k.mat_mul(dst.data(), x, y, rows, inner, cols);
}

void transpose(Mat& m, int n) {
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < i; ++j) std::swap(m[i * n + j], m[j * n + i]);
}

float norm(const float* v, int n) {
    float sum = 0;
    for (int i = 0; i < n; ++i) sum += v[i] * v[i];
    return root(sum);
}

/// Householder QR of a: on return q holds Q^T-accumulated reflectors transposed (= Q) and r = Q' A.
///
/// Step k's reflector h = I - 2 v v' has v[m] = +0 for m < k (z's first k
/// rows are reset to the identity's), so h's entries outside rows and columns
/// [k, n) are +-0 but for its unit diagonal, and every product that full
/// multiplications would add for an inner index m < k is a +-0. The kernels
/// sum from +0 in ascending m, and +0 plus +-0 is +0, so those terms leave
/// the sum exactly as if it began at m = k: rows [k, n) of h q are h's rows
/// [k, n), columns [k, n) times q's rows [k, n); a row i < k of h q is q's
/// row i (a -0 there becoming +0); and of h z only rows and columns above k
/// are read again (the next step resets the rest). The bits are those of the
/// full products, computed in about a third of the operations. A reflector
/// that is not finite (a zero column) takes the full products from then on,
/// as does every step with `full`.
void qr(const float* a, int n, Mat& q, Mat& r, const SpeedKernels& kern, bool full) {
    Mat z(a, a + n * n), h(n * n), tmp;
    std::vector<float> v(n);
    q.assign(n * n, 0.0f);
    for (int i = 0; i < n; ++i) q[i * n + i] = 1;
    bool skip_identity = !full;
    for (int k = 0; k + 1 < n; ++k) {
        for (int i = 0; i < n; ++i)  // minor: identity in the first k rows/columns
            for (int j = 0; j < n; ++j)
                if (i < k || j < k) z[i * n + j] = i == j ? 1 : 0;
        for (int i = 0; i < n; ++i) v[i] = z[i * n + k];
        const float nv = norm(v.data(), n);
        v[k] += sign_of(a[k * n + k]) * nv;
        const float len = norm(v.data(), n);
        for (int i = 0; i < n; ++i) v[i] = v[i] / len;
        for (int i = 0; i < n && skip_identity; ++i) skip_identity = std::isfinite(v[i]);
        if (!skip_identity) {
            h.resize(static_cast<std::size_t>(n) * n);
            for (int i = 0; i < n; ++i)  // h = I - 2 v v'
                for (int j = 0; j < n; ++j) h[i * n + j] = -2 * v[i] * v[j];
            for (int i = 0; i < n; ++i) h[i * n + i] += 1;
            mul(tmp, h.data(), z.data(), n, n, n, kern);
            z = tmp;
            mul(tmp, h.data(), q.data(), n, n, n, kern);
            q = tmp;
            continue;
        }
        const int m = n - k;  // h's rows and columns [k, n)
        h.resize(static_cast<std::size_t>(m) * m);
        for (int i = 0; i < m; ++i)
            for (int j = 0; j < m; ++j) h[i * m + j] = -2 * v[k + i] * v[k + j];
        for (int i = 0; i < m; ++i) h[i * m + i] += 1;
        const auto row = [n](Mat& x, int i) { return x.data() + static_cast<std::size_t>(i) * n; };
        mul(tmp, h.data() + m, row(z, k), m - 1, m, n, kern);  // rows (k, n) of h z
        std::copy(tmp.begin(), tmp.end(), row(z, k + 1));
        mul(tmp, h.data(), row(q, k), m, m, n, kern);  // rows [k, n) of h q
        std::copy(tmp.begin(), tmp.end(), row(q, k));
        for (int i = 0; i < k * n; ++i) q[i] += 0.0f;
    }
    mul(r, q.data(), a, n, n, n, kern);
    transpose(q, n);
}

}  // namespace

void symmetric_eigenvalues(const float* a, float* eig, int n) {
    if (n == 1) {
        eig[0] = a[0];
        return;
    }
    std::vector<float> m(a, a + n * n), d(n), sd(n);
    tridiagonalize(m.data(), n, d.data(), sd.data());
    tridiagonal_eigenvalues(d.data(), sd.data(), n);
    std::memcpy(eig, d.data(), sizeof(float) * n);
}

namespace {

bool solve_with(const float* a, int n, const float* b, int cols, float* x, const SpeedKernels& k, bool full) {
    Mat q, r, qtb;
    qr(a, n, q, r, k, full);
    transpose(q, n);
    mul(qtb, q.data(), b, n, n, cols, k);
    // Back substitution, a row at a time: every t starts at qtb and subtracts
    // x[k] r[i][k] for ascending k; t - p is computed as t + (-r) x, which
    // rounds identically.
    for (int i = n - 1; i >= 0; --i) {
        const float pivot = r[i * n + i];
        if (std::fabs(pivot) < kEps) return false;
        float* t = qtb.data() + static_cast<std::size_t>(i) * cols;
        for (int c = i + 1; c < n; ++c) k.scale_add(t, x + static_cast<std::size_t>(c) * cols, -r[i * n + c], cols);
        for (int j = 0; j < cols; ++j) x[i * cols + j] = t[j] / pivot;
    }
    return true;
}

}  // namespace

bool solve(const float* a, int n, const float* b, int cols, float* x, const SpeedKernels& k) {
    return solve_with(a, n, b, cols, x, k, false);
}

bool solve_full_products(const float* a, int n, const float* b, int cols, float* x, const SpeedKernels& k) {
    return solve_with(a, n, b, cols, x, k, true);
}

}  // namespace vmaf::speed
