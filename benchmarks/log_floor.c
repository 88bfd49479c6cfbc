/* The C library's logarithm over a float matrix: the floor the float eps_m kernel is compared with
 * (benchmarks/bench_kernels.py compiles this file twice and calls it through ctypes on the same array).
 *
 * sum_i q[i] ln q[i] over the n entries of q (all positive here).  Compiled with -ffast-math, GCC
 * vectorises the loop with glibc's vector logarithm (libmvec, _ZGVdN4v_log on AVX2); without it, it calls
 * the scalar log once per entry. */
#include <math.h>

double xlogx_sum(const double *restrict q, long n)
{
    double s = 0.0;
    for (long i = 0; i < n; i++)
        s += q[i] * log(q[i]);
    return s;
}
