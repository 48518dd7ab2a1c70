/* host_check.h: a tiny check harness for the multi-process host tests (tests/host/c/).
 *
 * Include it FIRST (it defines _GNU_SOURCE for dladdr). Standard C MPI only: the same program
 * runs on a host MPI alone (MPICH, Open MPI) and on a host with libmpiattr_<host>.so linked or
 * preloaded in front of it; tests/host/hostrun.py builds, runs and judges it.
 *
 *   CHECK(name, cond)     records a named boolean result on this rank. Every rank must record
 *                         the same names in the same order: keep CHECK calls unconditional and
 *                         compute the condition conditionally instead. Names are unique within
 *                         a program and contain no blanks or colons.
 *   CHECK_CLASS(name, rc, cls)
 *                         CHECK that return code rc is an error of class cls (MPI_Error_class;
 *                         raw codes are never compared). On a mismatch the class seen is shown.
 *   FACT(name, long)      a value rank 0 prints as "FACT <name>: <value>". The runner compares
 *                         the facts of a host+mpiattr run with those of the host alone.
 *   INFO(name, long), INFO_S(name, string), INFO_CLASS(name, rc)
 *                         a value rank 0 prints as "INFO <name>: <value>"; recorded, never
 *                         compared (e.g. the error class a host returns where the standard
 *                         names none).
 *   report()              before MPI_Finalize, on every rank (collective over MPI_COMM_WORLD):
 *                         combines each check across ranks with MPI_Allreduce; rank 0 prints
 *                         "CHECK <name>: ok" or "CHECK <name>: FAIL (ranks r1,r2)" per check,
 *                         then the FACT and INFO lines, then "HOSTCHECK DONE ...".
 *   local_report()        after MPI_Finalize, for checks that can only be made then: each rank
 *                         prints its own "CHECK <name>: ok|FAIL (ranks r)" lines (the runner
 *                         merges them; each name must come from every rank), the FACT and INFO
 *                         lines recorded since report() (every rank prints them: a FACT must
 *                         have the same value on all ranks, so INFO names that differ carry
 *                         the rank), then "HOSTCHECK LOCAL rank=<r> checks=<n>".
 *
 * report() also adds the check "harness_caching_routines_provider" when the runner asks for it:
 * with HOSTCHECK_PROVIDER=<text> in the environment, every caching routine (MPI_Comm_set_attr,
 * ...) must resolve (dlsym(RTLD_DEFAULT) + dladdr, i.e. the definition this program's calls bind
 * to) to a shared object whose path contains <text>; with HOSTCHECK_NOT_PROVIDER=<text>, to one
 * whose path does not. This is how a linked or preloaded run proves that the library in front of
 * the host really answers the calls, and an "alone" run that nothing is in front of the host.
 *
 * Programs always exit 0 unless they crash; the runner judges. Failing checks are also shown on
 * stderr with file and line, per rank.
 *
 * The header also compiles as C++ (tests/host/cxx/, built with mpicxx.<host>): there the provider
 * check adds MPII_Keyval_set_proxy on MPICH, the internal name MPICH's C++ Create_keyval calls
 * after MPI_Comm_create_keyval, and on Open MPI the three ompi_cxx_attr_create_keyval_* through
 * which libmpi_cxx creates its keyvals (docs/host.md, "C++"; D136), which the library must answer
 * as well.
 */
#ifndef HOST_CHECK_H
#define HOST_CHECK_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <dlfcn.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HC_MAX_CHECKS 1024
#define HC_MAX_VALUES 256
#define HC_NAME_LEN 96
#define HC_TEXT_LEN 160

struct hc_check { char name[HC_NAME_LEN]; int ok; };
struct hc_value { char name[HC_NAME_LEN]; char text[HC_TEXT_LEN]; int is_fact; };

static struct hc_check hc_checks[HC_MAX_CHECKS];
static int hc_nchecks;
static struct hc_value hc_values[HC_MAX_VALUES];
static int hc_nvalues;
static int hc_bad_names;        /* duplicate, malformed or too many names */
static int hc_rank_cached = -1; /* MPI_COMM_WORLD rank, remembered for local_report() */
static int hc_size_cached = -1;

static inline void hc_fetch_rank(void)
{
    int init = 0, fin = 0;
    if (hc_rank_cached >= 0)
        return;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin) {
        MPI_Comm_rank(MPI_COMM_WORLD, &hc_rank_cached);
        MPI_Comm_size(MPI_COMM_WORLD, &hc_size_cached);
    }
}

static inline int hc_rank(void) { hc_fetch_rank(); return hc_rank_cached; }
static inline int hc_size(void) { hc_fetch_rank(); return hc_size_cached; }

static inline int hc_valid_name(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n >= HC_NAME_LEN)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (name[i] == ' ' || name[i] == ':' || name[i] == '\t' || name[i] == '\n')
            return 0;
    return 1;
}

static inline int hc_check(const char *name, int ok, const char *file, int line)
{
    hc_fetch_rank();
    if (!ok)
        fprintf(stderr, "host_check: rank %d: CHECK %s failed (%s:%d)\n", hc_rank_cached, name,
                file, line);
    if (!hc_valid_name(name) || hc_nchecks >= HC_MAX_CHECKS) {
        fprintf(stderr, "host_check: rank %d: bad or too many check names at %s\n",
                hc_rank_cached, name);
        hc_bad_names = 1;
        return ok;
    }
    for (int i = 0; i < hc_nchecks; i++)
        if (strcmp(hc_checks[i].name, name) == 0) {
            fprintf(stderr, "host_check: rank %d: check name %s recorded twice\n",
                    hc_rank_cached, name);
            hc_bad_names = 1;
            return ok;
        }
    snprintf(hc_checks[hc_nchecks].name, HC_NAME_LEN, "%s", name);
    hc_checks[hc_nchecks].ok = ok ? 1 : 0;
    hc_nchecks++;
    return ok;
}

#define CHECK(name, cond) hc_check((name), (cond) ? 1 : 0, __FILE__, __LINE__)

/* Name of an error class, for messages and INFO lines. */
static inline const char *hc_class_name(int rc)
{
    int cls;
    static char buf[48];
    if (rc == MPI_SUCCESS)
        return "MPI_SUCCESS";
    if (MPI_Error_class(rc, &cls) != MPI_SUCCESS) {
        snprintf(buf, sizeof buf, "not-an-error-code(%d)", rc);
        return buf;
    }
#define HC_CLASS(c) if (cls == c) return #c
    HC_CLASS(MPI_SUCCESS);
    HC_CLASS(MPI_ERR_KEYVAL);
    HC_CLASS(MPI_ERR_COMM);
    HC_CLASS(MPI_ERR_WIN);
    HC_CLASS(MPI_ERR_TYPE);
    HC_CLASS(MPI_ERR_ARG);
    HC_CLASS(MPI_ERR_OTHER);
    HC_CLASS(MPI_ERR_INTERN);
    HC_CLASS(MPI_ERR_UNKNOWN);
    HC_CLASS(MPI_ERR_NO_MEM);
    HC_CLASS(MPI_ERR_GROUP);
    HC_CLASS(MPI_ERR_INFO);
    HC_CLASS(MPI_ERR_REQUEST);
    HC_CLASS(MPI_ERR_RANK);
#undef HC_CLASS
    snprintf(buf, sizeof buf, "class-%d", cls);
    return buf;
}

/* True when rc is an error whose class is cls (a successful call never matches). */
static inline int hc_is_class(int rc, int cls)
{
    int c;
    if (rc == MPI_SUCCESS)
        return cls == MPI_SUCCESS;
    if (MPI_Error_class(rc, &c) != MPI_SUCCESS)
        return 0;
    return c == cls;
}

static inline int hc_check_class(const char *name, int rc, int cls, const char *file, int line)
{
    int ok = hc_is_class(rc, cls);
    if (!ok) {
        char want[48];
        snprintf(want, sizeof want, "%s", hc_class_name(cls));
        fprintf(stderr, "host_check: rank %d: %s: got %s, want %s\n", hc_rank(), name,
                hc_class_name(rc), want);
    }
    return hc_check(name, ok, file, line);
}

#define CHECK_CLASS(name, rc, cls) hc_check_class((name), (rc), (cls), __FILE__, __LINE__)

static inline void hc_value(const char *name, const char *text, int is_fact)
{
    if (!hc_valid_name(name) || hc_nvalues >= HC_MAX_VALUES) {
        fprintf(stderr, "host_check: bad or too many fact names at %s\n", name);
        hc_bad_names = 1;
        return;
    }
    for (int i = 0; i < hc_nvalues; i++)
        if (strcmp(hc_values[i].name, name) == 0) {
            /* the last value wins; a name is printed once */
            snprintf(hc_values[i].text, HC_TEXT_LEN, "%s", text);
            hc_values[i].is_fact = is_fact;
            return;
        }
    snprintf(hc_values[hc_nvalues].name, HC_NAME_LEN, "%s", name);
    snprintf(hc_values[hc_nvalues].text, HC_TEXT_LEN, "%s", text);
    hc_values[hc_nvalues].is_fact = is_fact;
    hc_nvalues++;
}

static inline void FACT(const char *name, long value)
{
    char t[32];
    snprintf(t, sizeof t, "%ld", value);
    hc_value(name, t, 1);
}

static inline void INFO(const char *name, long value)
{
    char t[32];
    snprintf(t, sizeof t, "%ld", value);
    hc_value(name, t, 0);
}

static inline void INFO_S(const char *name, const char *text) { hc_value(name, text, 0); }

static inline void INFO_CLASS(const char *name, int rc) { hc_value(name, hc_class_name(rc), 0); }

/* Set MPI_ERRORS_RETURN on MPI_COMM_WORLD and MPI_COMM_SELF (errors not tied to a communicator
 * go to one of them, depending on the MPI version the host implements: MPI-4.1 §10.3). */
static inline void hc_errors_return(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
}

/* MPI_Init; in a program's _multiple variant (built with HOST_THREAD_MULTIPLE, tests/host/
 * CMakeLists.txt: the same calls where mpiattr takes its MPI_THREAD_MULTIPLE paths),
 * MPI_Init_thread asking for MPI_THREAD_MULTIPLE, which must be provided. */
static inline void hc_init(int *argc, char ***argv)
{
#ifdef HOST_THREAD_MULTIPLE
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
    CHECK("R11_thread_multiple_provided", provided == MPI_THREAD_MULTIPLE);
#else
    MPI_Init(argc, argv);
#endif
}

/* MPI_Init_thread asking for MPI_THREAD_MULTIPLE, errors returned, *rank set; the FACT
 * thread_multiple_provided says whether it was provided (the return value). */
static inline int hc_init_thread_multiple(int *argc, char ***argv, int *rank)
{
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
    hc_errors_return();
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    FACT("thread_multiple_provided", provided == MPI_THREAD_MULTIPLE);
    return provided == MPI_THREAD_MULTIPLE;
}

/* ---- which shared object answers the caching routines (see the header comment) ---- */
static inline void hc_provider_check(void)
{
    static const char *const syms[] = {
        "MPI_Comm_create_keyval", "MPI_Comm_free_keyval", "MPI_Comm_set_attr",
        "MPI_Comm_get_attr",      "MPI_Comm_delete_attr", "MPI_Type_create_keyval",
        "MPI_Type_set_attr",      "MPI_Type_get_attr",    "MPI_Win_create_keyval",
        "MPI_Win_set_attr",       "MPI_Win_get_attr",     "MPI_Keyval_create",
        "MPI_Attr_put",           "MPI_Attr_get",
#if defined(__cplusplus) && defined(MPICH_VERSION)
        "MPII_Keyval_set_proxy",
#endif
#if defined(__cplusplus) && defined(OPEN_MPI)
        "ompi_cxx_attr_create_keyval_comm", "ompi_cxx_attr_create_keyval_type",
        "ompi_cxx_attr_create_keyval_win",
#endif
        NULL};
    const char *want = getenv("HOSTCHECK_PROVIDER");
    const char *avoid = getenv("HOSTCHECK_NOT_PROVIDER");
    int ok = 1;
    if ((!want || !*want) && (!avoid || !*avoid))
        return;
    for (int i = 0; syms[i]; i++) {
        void *p = dlsym(RTLD_DEFAULT, syms[i]);
        Dl_info di;
        const char *file = "(unresolved)";
        if (p && dladdr(p, &di) && di.dli_fname)
            file = di.dli_fname;
        if (want && *want && !strstr(file, want))
            ok = 0;
        if (avoid && *avoid && strstr(file, avoid))
            ok = 0;
        if (!ok)
            fprintf(stderr, "host_check: rank %d: %s comes from %s (want %s%s%s)\n", hc_rank(),
                    syms[i], file, want ? want : "", avoid ? ", not " : "", avoid ? avoid : "");
        if (i == 2) { /* MPI_Comm_set_attr: name the provider for the log */
            const char *base = strrchr(file, '/');
            INFO_S("provider_of_MPI_Comm_set_attr", base ? base + 1 : file);
        }
    }
    CHECK("harness_caching_routines_provider", ok);
}

/* Names are compared across ranks by count and by a hash of the sequence. */
static inline unsigned long hc_names_hash(void)
{
    unsigned long h = 1469598103UL;
    for (int i = 0; i < hc_nchecks; i++)
        for (const char *s = hc_checks[i].name; ; s++) {
            h = (h ^ (unsigned char)*s) * 16777619UL;
            h &= 0xffffffffUL;
            if (!*s)
                break;
        }
    return h;
}

static inline void report(void)
{
    int rank = hc_rank(), size = hc_size();
    hc_provider_check();

    long mine[2] = {hc_nchecks, (long)hc_names_hash()}, lo[2], hi[2];
    MPI_Allreduce(mine, lo, 2, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(mine, hi, 2, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    int same = lo[0] == hi[0] && lo[1] == hi[1];
    int bad_names = 0;
    MPI_Allreduce(&hc_bad_names, &bad_names, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);

    int n = (int)hi[0];
    /* failed[i * size + r] = 1 when check i failed (or is missing) on rank r */
    int *failed = (int *)calloc((size_t)(n > 0 ? n : 1) * (size_t)size, sizeof(int));
    int *all = (int *)calloc((size_t)(n > 0 ? n : 1) * (size_t)size, sizeof(int));
    for (int i = 0; i < n; i++)
        failed[i * size + rank] = (i < hc_nchecks) ? !hc_checks[i].ok : 1;
    MPI_Allreduce(failed, all, n * size, MPI_INT, MPI_MAX, MPI_COMM_WORLD);

    if (rank == 0) {
        size_t cap = 4096 + (size_t)n * (HC_NAME_LEN + 16 + 8 * (size_t)size) +
                     (size_t)hc_nvalues * (HC_NAME_LEN + HC_TEXT_LEN + 16);
        char *out = (char *)malloc(cap);
        size_t len = 0;
        for (int i = 0; i < n; i++) {
            const char *name = i < hc_nchecks ? hc_checks[i].name : "harness_missing_check";
            int any = 0;
            for (int r = 0; r < size; r++)
                any |= all[i * size + r];
            if (!any) {
                len += (size_t)snprintf(out + len, cap - len, "CHECK %s: ok\n", name);
                continue;
            }
            len += (size_t)snprintf(out + len, cap - len, "CHECK %s: FAIL (ranks ", name);
            int first = 1;
            for (int r = 0; r < size; r++)
                if (all[i * size + r]) {
                    len += (size_t)snprintf(out + len, cap - len, "%s%d", first ? "" : ",", r);
                    first = 0;
                }
            len += (size_t)snprintf(out + len, cap - len, ")\n");
        }
        len += (size_t)snprintf(out + len, cap - len, "CHECK harness_same_checks_on_all_ranks: %s\n",
                                same ? "ok" : "FAIL (ranks 0)");
        len += (size_t)snprintf(out + len, cap - len, "CHECK harness_check_names_valid: %s\n",
                                bad_names ? "FAIL (ranks 0)" : "ok");
        for (int i = 0; i < hc_nvalues; i++)
            len += (size_t)snprintf(out + len, cap - len, "%s %s: %s\n",
                                    hc_values[i].is_fact ? "FACT" : "INFO", hc_values[i].name,
                                    hc_values[i].text);
        len += (size_t)snprintf(out + len, cap - len, "HOSTCHECK DONE ranks=%d checks=%d\n", size,
                                n + 2);
        fwrite(out, 1, len, stdout);
        fflush(stdout);
        free(out);
    }
    free(failed);
    free(all);
    /* local_report() starts afresh */
    hc_nchecks = 0;
    hc_nvalues = 0;
}

static inline void local_report(void)
{
    char out[HC_MAX_CHECKS > 64 ? 64 * 1024 : 4096];
    size_t len = 0, cap = sizeof out;
    for (int i = 0; i < hc_nchecks && len + HC_NAME_LEN + 40 < cap; i++) {
        if (hc_checks[i].ok)
            len += (size_t)snprintf(out + len, cap - len, "CHECK %s: ok\n", hc_checks[i].name);
        else
            len += (size_t)snprintf(out + len, cap - len, "CHECK %s: FAIL (ranks %d)\n",
                                    hc_checks[i].name, hc_rank_cached);
    }
    for (int i = 0; i < hc_nvalues && len + HC_NAME_LEN + HC_TEXT_LEN + 16 < cap; i++)
        len += (size_t)snprintf(out + len, cap - len, "%s %s: %s\n",
                                hc_values[i].is_fact ? "FACT" : "INFO", hc_values[i].name,
                                hc_values[i].text);
    len += (size_t)snprintf(out + len, cap - len, "HOSTCHECK LOCAL rank=%d checks=%d\n",
                            hc_rank_cached, hc_nchecks);
    fwrite(out, 1, len, stdout);
    fflush(stdout);
}

#endif /* HOST_CHECK_H */
