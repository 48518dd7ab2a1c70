/* D138: MPI_Dims_create sets the free dimensions "as close to each other as possible" (MPI-4.1
 * section 9.5.2), in non-increasing order: the factorisation of the smallest spread (largest minus
 * smallest), then the largest smallest dimension. The standalone runtime gave each prime factor,
 * largest first, to the smallest dimension so far: 72 in 2 was 12 x 6 (MPICH 4.0.2: 9 x 8). The
 * values below are MPICH 4.0.2's (its test suite's topo/dims1-5 among them); 2 and 3 dimensions
 * are also compared with an exhaustive search up to 2000 processes. */
#include <mpi.h>

#include "c_errors.h"

/* MPI_Dims_create(n, k, dims) from `given` (0: free) is `want`. */
static void expect(int n, int k, const int *given, const int *want) {
  int d[8], i, same = 1;
  for (i = 0; i < k; i++) d[i] = given ? given[i] : 0;
  OK(MPI_Dims_create(n, k, d));
  for (i = 0; i < k; i++) same = same && d[i] == want[i];
  CHECK(same, "%d in %d dimensions: %d %d %d %d, expected %d %d %d %d", n, k, d[0], k > 1 ? d[1] : 0,
        k > 2 ? d[2] : 0, k > 3 ? d[3] : 0, want[0], k > 1 ? want[1] : 0, k > 2 ? want[2] : 0,
        k > 3 ? want[3] : 0);
}

#define EXPECT(n, k, ...)                      \
  do {                                         \
    static const int want[] = {__VA_ARGS__};   \
    expect(n, k, NULL, want);                  \
  } while (0)

/* The best of a >= b (>= c) with product n: smallest a - c, then largest c, then smallest a, b. */
static void best3(int n, int k, int *w) {
  int a, b, c, found = 0;
  for (a = 1; a <= n; a++) {
    if (n % a) continue;
    for (b = 1; b <= a; b++) {
      if ((n / a) % b) continue;
      c = n / a / b;
      if (k == 2 && c != 1) continue;
      if (c > b) continue;
      int last = k == 2 ? b : c;
      int better = !found || a - last < w[0] - w[k - 1] ||
                   (a - last == w[0] - w[k - 1] && (last > w[k - 1] || (last == w[k - 1] && (a < w[0] || (a == w[0] && b < w[1])))));
      if (better) {
        w[0] = a, w[1] = b, w[2] = c;
        found = 1;
      }
    }
  }
}

int main(int argc, char **argv) {
  OK(MPI_Init(&argc, &argv));
  OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN)); /* (no communicator: MPI_COMM_SELF's) */

  EXPECT(72, 2, 9, 8);
  EXPECT(180, 2, 15, 12);
  EXPECT(180, 3, 6, 6, 5);
  EXPECT(64, 3, 4, 4, 4);
  EXPECT(64, 4, 4, 4, 2, 2);
  EXPECT(360, 3, 10, 6, 6); /* spread 4, as 9 x 8 x 5: the larger smallest dimension */
  EXPECT(5040, 3, 21, 16, 15);
  EXPECT(2 * 2 * 3 * 3 * 5 * 7 * 11, 2, 126, 110);
  EXPECT(5 * 7 * 11, 4, 11, 7, 5, 1);
  EXPECT(1000 * 1000 * 1000, 3, 1000, 1000, 1000);
  EXPECT(4096, 3, 16, 16, 16);
  EXPECT(2048, 4, 8, 8, 8, 4);
  /* Primes and one process. */
  EXPECT(11, 2, 11, 1);
  EXPECT(7, 3, 7, 1, 1);
  EXPECT(2147483647, 2, 2147483647, 1);
  EXPECT(1, 4, 1, 1, 1, 1);
  OK(MPI_Dims_create(1, 0, NULL));
  /* Fixed dimensions stay; the free ones share what they leave. */
  {
    static const int g1[] = {0, 3, 0}, w1[] = {4, 3, 2};
    expect(24, 3, g1, w1);
    static const int g2[] = {0, 0, 5, 0}, w2[] = {6, 4, 5, 3};
    expect(360, 4, g2, w2);
    static const int g3[] = {0, 16, 0, 2}, w3[] = {1, 16, 1, 2};
    expect(32, 4, g3, w3);
    static const int g4[] = {0, 8}, w4[] = {1, 8};
    expect(8, 2, g4, w4);
    static const int g5[] = {2, 0, 0, 0}, w5[] = {2, 3, 2, 2};
    expect(24, 4, g5, w5);
    static const int g6[] = {3, 4}, w6[] = {3, 4};
    expect(12, 2, g6, w6);
  }
  /* Against an exhaustive search. */
  for (int n = 1; n <= 2000; n++)
    for (int k = 2; k <= 3; k++) {
      int w[3] = {0, 0, 0}, d[3] = {0, 0, 0};
      best3(n, k, w);
      OK(MPI_Dims_create(n, k, d));
      CHECK(d[0] == w[0] && d[1] == w[1] && (k == 2 || d[2] == w[2]), "%d in %d: %d %d %d, expected %d %d %d", n,
            k, d[0], d[1], k == 3 ? d[2] : 0, w[0], w[1], k == 3 ? w[2] : 0);
    }
  /* The errors are as before: nothing written. */
  int bad[2] = {5, 0};
  check_error(MPI_Dims_create(12, 2, bad), MPI_ERR_DIMS, "do not divide");
  CHECK(bad[0] == 5 && bad[1] == 0, "dims was written: %d %d", bad[0], bad[1]);
  int neg[2] = {-1, 0};
  check_error(MPI_Dims_create(12, 2, neg), MPI_ERR_DIMS, "negative");
  int all[2] = {3, 5};
  check_error(MPI_Dims_create(12, 2, all), MPI_ERR_DIMS, "do not divide");
  int z[2] = {0, 0};
  check_error(MPI_Dims_create(0, 2, z), MPI_ERR_ARG, "not positive");

  OK(MPI_Finalize());
  return failures != 0;
}
