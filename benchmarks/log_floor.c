/* The C library's logarithm over a float matrix: the floor the float eps_m kernel is compared with
 * (benchmarks/bench_kernels.py compiles this file twice and calls it through ctypes on the same array).
 *
 * sum_i q[i] ln q[i] over the n entries of q (all positive here).  Compiled with -ffast-math, GCC
 * vectorises the loop with glibc's vector logarithm (libmvec, _ZGVdN4v_log on AVX2); without it, it calls
 * the scalar log once per entry.  Where the processor has AVX2 and FMA, it also holds the float eps_m kernel's
 * whole pass written in intrinsics (below), the floor of that kernel's arithmetic. */
#include <math.h>

double xlogx_sum(const double *restrict q, long n)
{
    double s = 0.0;
    for (long i = 0; i < n; i++)
        s += q[i] * log(q[i]);
    return s;
}

#if defined(__AVX2__) && defined(__FMA__)
/* The float eps_m kernel's whole pass, hand-vectorised with AVX2 intrinsics: the floor of its arithmetic on this
 * processor, which tells whether the compiled kernel (numba) leaves time on the table.  For each row x:
 * py[y] += p[x] q[x][y], and sum_y u ln u with u = q[x][y] (1 below the least normal float), the logarithm as in
 * relations/numbers/_compiled.py (x = 2^k m, s = (m - 1)/(m + 1), ln m = s (2 + Lg1 s^2 + ... + Lg7 s^14), fdlibm's
 * coefficients), its polynomial in Estrin's form (a shorter dependency chain than Horner's) and k as a float by
 * adding 2^52 to its bits (one OR, one subtraction).  m must be a multiple of 8.
 *
 * `part` chooses how much of the logarithm is computed, for the rows that bound it from below:
 *   2: all of it (the kernel's result, to rounding);
 *   1: the range reduction only (k ln 2 + (m - 1): no division, no polynomial), a lower bound for any
 *      logarithm of this kind;
 *   0: none (sum u): the pass's reads, the update of py and the select alone. */
#include <immintrin.h>
#include <stdint.h>

#define LN2 0.6931471805599453
#define TINY 2.2250738585072014e-308
#define SQRT_HALF_BITS 0x3FE6A09E667F3BCDLL
#define OFFSET (0x3FF0000000000000LL - SQRT_HALF_BITS)

static inline __m256d ln4(__m256d u, int part)
{
    __m256i b = _mm256_add_epi64(_mm256_castpd_si256(u), _mm256_set1_epi64x(OFFSET));
    __m256d k = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(_mm256_srli_epi64(b, 52),
                                                                  _mm256_set1_epi64x(0x4330000000000000LL))),
                              _mm256_set1_pd(4503599627370496.0 + 1023.0));
    __m256d f = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_add_epi64(_mm256_and_si256(b, _mm256_set1_epi64x(0xFFFFFFFFFFFFFLL)),
                                                                   _mm256_set1_epi64x(SQRT_HALF_BITS))),
                              _mm256_set1_pd(1.0));
    if (part == 1)
        return _mm256_fmadd_pd(k, _mm256_set1_pd(LN2), f);
    __m256d s = _mm256_div_pd(f, _mm256_add_pd(f, _mm256_set1_pd(2.0)));
    __m256d z = _mm256_mul_pd(s, s), z2 = _mm256_mul_pd(z, z), z4 = _mm256_mul_pd(z2, z2);
    __m256d a = _mm256_fmadd_pd(z, _mm256_set1_pd(3.999999999940941908e-01), _mm256_set1_pd(6.666666666666735130e-01));
    __m256d c = _mm256_fmadd_pd(z, _mm256_set1_pd(2.222219843214978396e-01), _mm256_set1_pd(2.857142874366239149e-01));
    __m256d e = _mm256_fmadd_pd(z, _mm256_set1_pd(1.531383769920937332e-01), _mm256_set1_pd(1.818357216161805012e-01));
    e = _mm256_fmadd_pd(z2, _mm256_set1_pd(1.479819860511658591e-01), e);
    __m256d poly = _mm256_fmadd_pd(z4, e, _mm256_fmadd_pd(z2, c, a));
    __m256d high = _mm256_fmadd_pd(k, _mm256_set1_pd(LN2), _mm256_add_pd(s, s));
    return _mm256_fmadd_pd(_mm256_mul_pd(s, z), poly, high);
}

double xlogx_rows_avx2(const double *restrict q, const double *restrict p, double *restrict py, long n, long m, int part)
{
    double total = 0.0;
    for (long x = 0; x < n; x++) {
        const double *r = q + x * m;
        __m256d px = _mm256_set1_pd(p[x]), s0 = _mm256_setzero_pd(), s1 = _mm256_setzero_pd();
        for (long y = 0; y < m; y += 8) {
            __m256d v0 = _mm256_loadu_pd(r + y), v1 = _mm256_loadu_pd(r + y + 4);
            _mm256_storeu_pd(py + y, _mm256_fmadd_pd(px, v0, _mm256_loadu_pd(py + y)));
            _mm256_storeu_pd(py + y + 4, _mm256_fmadd_pd(px, v1, _mm256_loadu_pd(py + y + 4)));
            __m256d u0 = _mm256_blendv_pd(_mm256_set1_pd(1.0), v0, _mm256_cmp_pd(v0, _mm256_set1_pd(TINY), _CMP_GE_OQ));
            __m256d u1 = _mm256_blendv_pd(_mm256_set1_pd(1.0), v1, _mm256_cmp_pd(v1, _mm256_set1_pd(TINY), _CMP_GE_OQ));
            if (part == 0) {
                s0 = _mm256_add_pd(s0, u0);
                s1 = _mm256_add_pd(s1, u1);
            } else {
                s0 = _mm256_fmadd_pd(u0, ln4(u0, part), s0);
                s1 = _mm256_fmadd_pd(u1, ln4(u1, part), s1);
            }
        }
        double t[4];
        _mm256_storeu_pd(t, _mm256_add_pd(s0, s1));
        total += p[x] * ((t[0] + t[1]) + (t[2] + t[3]));
    }
    return total;
}
#endif
