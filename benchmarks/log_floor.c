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
/* Another logarithm, to see how far a different method goes: a table of the top 7 mantissa bits of every binade
 * (2048 x 128 entries of 16 bytes, 4 MB, made on the first call with the C library's long double logl), indexed by
 * the top bits of x itself, so that no integer vector work splits x = 2^k m: each entry holds c^-1 2^-k and
 * w = ln(c 2^k) for its bucket's centre c (c = 1 for the two buckets beside 1, where r is then exact), and
 * ln x = w + log1p(r), r = x c^-1 2^-k - 1 (|r| <= 2^-7), log1p by the C library's own degree-6 polynomial
 * (glibc's log_data.c coefficients A0..A4).  The table's entries are read by scalar loads (AVX2's gathers are
 * slow on some processors), the rest in 128-bit vectors, two pairs per step.  Zeros and subnormals read the
 * zero entries of exponent 0 and count 0 (0 times a finite number); entries from 2^-1022 to just below 2.  */
#include <stdlib.h>
#include <string.h>

#define TABLE_BITS 7
static double *log_table;

static int make_log_table(void)
{
    const int nb = 1 << TABLE_BITS;
    log_table = aligned_alloc(64, (size_t)16 * (2048 << TABLE_BITS));
    if (log_table == NULL)
        return 0;
    memset(log_table, 0, (size_t)16 * (2048 << TABLE_BITS));
    const long double ln2 = 0.693147180559945309417232121458176568L;
    for (int j = 0; j < nb; j++) {
        long double lo = 1.0L + (long double)j / nb, hi = lo + 1.0L / nb;
        int up = lo >= 1.375L; /* buckets of [1.375, 2) are halved: centred buckets around 1 */
        long double centre = up ? (lo + hi) / 4 : (lo + hi) / 2;
        for (int biased = 1; biased <= 1023; biased++) {
            int e = biased - 1023, k = e + up;
            long double c = ((e == 0 && j == 0) || (e == -1 && j == nb - 1)) ? 1.0L : centre;
            double inverse = (double)(1.0L / c);
            size_t i = ((size_t)biased << TABLE_BITS) | (size_t)j;
            log_table[2 * i] = ldexp(inverse, -k);
            log_table[2 * i + 1] = (double)((long double)k * ln2 - logl((long double)inverse));
        }
    }
    return 1;
}

static inline __m128d ln2_table(const double *at)
{
    uint64_t b0, b1;
    memcpy(&b0, at, 8);
    memcpy(&b1, at + 1, 8);
    const char *t = (const char *)log_table;
    __m128d e0 = _mm_load_pd((const double *)(t + ((b0 >> (48 - TABLE_BITS)) & ~(uint64_t)15)));
    __m128d e1 = _mm_load_pd((const double *)(t + ((b1 >> (48 - TABLE_BITS)) & ~(uint64_t)15)));
    __m128d inverse = _mm_unpacklo_pd(e0, e1), w = _mm_unpackhi_pd(e0, e1);
    __m128d r = _mm_fmadd_pd(_mm_loadu_pd(at), inverse, _mm_set1_pd(-1.0)), r2 = _mm_mul_pd(r, r);
    __m128d poly = _mm_fmadd_pd(r, _mm_fmadd_pd(r2, _mm_fmadd_pd(r, _mm_set1_pd(-0x1.55575e506c89fp-3), _mm_set1_pd(0x1.999b324f10111p-3)),
                                                _mm_fmadd_pd(r, _mm_set1_pd(-0x1.fffffffeb459p-3), _mm_set1_pd(0x1.555555551305bp-2))),
                                _mm_set1_pd(-0x1.0000000000001p-1));
    return _mm_add_pd(w, _mm_fmadd_pd(r2, poly, r));
}

/* The kernel's pass (as xlogx_rows_avx2 with part 2) with the table's logarithm; entries in [0, 2), m a multiple
 * of 4.  The table is made on the first call (time it after one). */
double xlogx_rows_table(const double *restrict q, const double *restrict p, double *restrict py, long n, long m)
{
    if (log_table == NULL && !make_log_table())
        return -1.0;
    double total = 0.0;
    for (long x = 0; x < n; x++) {
        const double *r = q + x * m;
        __m128d px = _mm_set1_pd(p[x]), s0 = _mm_setzero_pd(), s1 = _mm_setzero_pd();
        for (long y = 0; y < m; y += 4) {
            __m128d u0 = _mm_loadu_pd(r + y), u1 = _mm_loadu_pd(r + y + 2);
            s0 = _mm_fmadd_pd(u0, ln2_table(r + y), s0);
            _mm_storeu_pd(py + y, _mm_fmadd_pd(px, u0, _mm_loadu_pd(py + y)));
            s1 = _mm_fmadd_pd(u1, ln2_table(r + y + 2), s1);
            _mm_storeu_pd(py + y + 2, _mm_fmadd_pd(px, u1, _mm_loadu_pd(py + y + 2)));
        }
        double t[2];
        _mm_storeu_pd(t, _mm_add_pd(s0, s1));
        total += p[x] * (t[0] + t[1]);
    }
    return total;
}
#endif
