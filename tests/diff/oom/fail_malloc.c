/* fail_malloc.c: an LD_PRELOAD interposer that makes every allocation of one thread fail, between
 * two calls of the program (docs/decisions.md D66). It puts out of memory in front of MPICH, Open
 * MPI and mpiattr alike, which none of them can be asked to do by itself:
 *
 *   void d66_fail_allocations(int on);  on != 0: from now on, every malloc, calloc, realloc,
 *                                       reallocarray, posix_memalign, aligned_alloc, memalign,
 *                                       valloc and pvalloc of the calling thread fails (NULL,
 *                                       ENOMEM), until it is called with 0
 *   long d66_failed_allocations(void);  how many allocations failed since the last call
 *
 * The program finds both with dlsym(RTLD_DEFAULT, ...), so it builds unchanged against any MPI.
 * Only the thread that turned failure on fails: the helper threads of an MPI library (Open MPI's
 * PMIx and event threads) go on allocating, so what a call does under failure does not depend on
 * what those threads happen to do meanwhile. free is the real one, except for the few blocks
 * handed out from a static buffer while dlsym(RTLD_NEXT) itself allocates (it is resolving these
 * very functions then). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void *(*real_reallocarray)(void *, size_t, size_t);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);
static void *(*real_memalign)(size_t, size_t);
static void *(*real_valloc)(size_t);
static void *(*real_pvalloc)(size_t);
static void (*real_free)(void *);

/* While the real functions are being looked up (dlsym may allocate: its error state), blocks come
 * from here; they are never freed. */
static _Alignas(64) unsigned char boot[16384];
static size_t boot_used;
static int resolving;

static int failing;             /* 1: the thread `failing_thread` fails every allocation */
static pthread_t failing_thread;
static long failed_count;

static void *boot_alloc(size_t n) {
  size_t at = (boot_used + 63) & ~(size_t)63;
  if (n > sizeof boot - at) return NULL;
  boot_used = at + n;
  return boot + at;
}

static int from_boot(const void *p) {
  return (const unsigned char *)p >= boot && (const unsigned char *)p < boot + sizeof boot;
}

static void resolve(void) {
  if (real_malloc != NULL || resolving) return;
  resolving = 1;
  real_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
  real_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
  real_reallocarray = (void *(*)(void *, size_t, size_t))dlsym(RTLD_NEXT, "reallocarray");
  real_posix_memalign = (int (*)(void **, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
  real_aligned_alloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "aligned_alloc");
  real_memalign = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "memalign");
  real_valloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "valloc");
  real_pvalloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "pvalloc");
  real_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
  real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");  /* last: it ends the boot phase */
  resolving = 0;
}

/* Whether this allocation must fail (and count it). */
static int must_fail(void) {
  if (!__atomic_load_n(&failing, __ATOMIC_ACQUIRE) || !pthread_equal(pthread_self(), failing_thread))
    return 0;
  __atomic_add_fetch(&failed_count, 1, __ATOMIC_RELAXED);
  errno = ENOMEM;
  return 1;
}

EXPORT void d66_fail_allocations(int on) {
  resolve();
  if (on) failing_thread = pthread_self();
  __atomic_store_n(&failing, on != 0, __ATOMIC_RELEASE);
}

EXPORT long d66_failed_allocations(void) {
  return __atomic_exchange_n(&failed_count, 0, __ATOMIC_RELAXED);
}

EXPORT void *malloc(size_t n) {
  resolve();
  if (real_malloc == NULL) return boot_alloc(n);
  if (must_fail()) return NULL;
  return real_malloc(n);
}

EXPORT void *calloc(size_t n, size_t size) {
  resolve();
  if (real_calloc == NULL) {  /* boot: the static buffer is zeroed and never reused */
    if (size != 0 && n > SIZE_MAX / size) return NULL;
    return boot_alloc(n * size);
  }
  if (must_fail()) return NULL;
  return real_calloc(n, size);
}

EXPORT void *realloc(void *p, size_t n) {
  resolve();
  if (from_boot(p) || real_realloc == NULL) {  /* (boot blocks are small: copy what fits) */
    void *q = malloc(n);
    if (q != NULL && p != NULL) {
      size_t avail = (size_t)(boot + sizeof boot - (unsigned char *)p);
      memcpy(q, p, n < avail ? n : avail);
    }
    return q;
  }
  if (must_fail()) return NULL;
  return real_realloc(p, n);
}

EXPORT void *reallocarray(void *p, size_t n, size_t size) {
  resolve();
  if (from_boot(p) || real_reallocarray == NULL) {
    if (size != 0 && n > SIZE_MAX / size) {
      errno = ENOMEM;
      return NULL;
    }
    return realloc(p, n * size);
  }
  if (must_fail()) return NULL;
  return real_reallocarray(p, n, size);
}

EXPORT int posix_memalign(void **out, size_t align, size_t n) {
  resolve();
  if (real_posix_memalign == NULL) return ENOMEM;
  if (must_fail()) return ENOMEM;
  return real_posix_memalign(out, align, n);
}

EXPORT void *aligned_alloc(size_t align, size_t n) {
  resolve();
  if (real_aligned_alloc == NULL || must_fail()) return NULL;
  return real_aligned_alloc(align, n);
}

EXPORT void *memalign(size_t align, size_t n) {
  resolve();
  if (real_memalign == NULL || must_fail()) return NULL;
  return real_memalign(align, n);
}

EXPORT void *valloc(size_t n) {
  resolve();
  if (real_valloc == NULL || must_fail()) return NULL;
  return real_valloc(n);
}

EXPORT void *pvalloc(size_t n) {
  resolve();
  if (real_pvalloc == NULL || must_fail()) return NULL;
  return real_pvalloc(n);
}

EXPORT void free(void *p) {
  if (p == NULL || from_boot(p)) return;
  resolve();
  if (real_free != NULL) real_free(p);
}
