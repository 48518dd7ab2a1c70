/* tests/reallib/reallib_out.h: the C programs' lines and checks (hdf5_io.c, petsc_ksp.c,
 * libsc_nodecomms.c). Each rank writes its lines to the file `out`, OUTDIR/out.<rank> (open_out),
 * which tests/reallib/run.sh compares between the host alone and mpiattr: say() writes one line,
 * CHECK(cond, what) writes "ok <what>" or "FAIL <what> (line N)" and counts the failures. */
#ifndef REALLIB_OUT_H
#define REALLIB_OUT_H
#include <stdarg.h>
#include <stdio.h>

static FILE *out;

/* Opens OUTDIR/out.<rank> as `out`: 0, or -1 after saying why on stderr. */
static int open_out(const char *dir, int rank) {
  char path[4096];
  snprintf(path, sizeof path, "%s/out.%d", dir, rank);
  out = fopen(path, "w");
  if (out == NULL) {
    perror(path);
    return -1;
  }
  return 0;
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfprintf(out, fmt, ap);
  va_end(ap);
  fputc('\n', out);
  fflush(out);
}

static int failures;
#define CHECK(cond, what)                                                                          \
  do {                                                                                             \
    if (cond) {                                                                                    \
      say("ok %s", what);                                                                          \
    } else {                                                                                       \
      say("FAIL %s (line %d)", what, __LINE__);                                                    \
      failures++;                                                                                  \
    }                                                                                              \
  } while (0)

#endif
