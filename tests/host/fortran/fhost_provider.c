/* fhost_provider.c: the check "harness_caching_routines_provider" for the Fortran programs of
 * tests/host (called by report() in fhost_check.f90), as c/host_check.h's hc_provider_check()
 * does for C.
 *
 * The runner passes HOSTCHECK_PROVIDER=<text> (linked, preload: every name below must resolve to
 * a shared object whose path contains <text>, i.e. libmpiattr_<host>) or
 * HOSTCHECK_NOT_PROVIDER=<text> (alone: to one whose path does not). A name is resolved with
 * dlsym(RTLD_DEFAULT) + dladdr: the definition the program's own calls bind to. The names are the
 * link names gfortran gives the calls of each binding (both hosts export the same ones,
 * docs/host-entry-points.md §3):
 *
 *   bit 1  C names (a mixed C/Fortran program)        MPI_Comm_set_attr, ...
 *   bit 2  mpif.h and `use mpi`                        mpi_comm_set_attr_, ...
 *   bit 4  `use mpi_f08`                               mpi_comm_set_attr_f08_, ...
 *
 * Every name of a selected binding must resolve (an unresolved name fails the check in both
 * directions: the program calls it, so something defines it). MPI_ERROR_CLASS is the host's in
 * every run over a host (docs/decisions.md D87: the codes mpiattr returns are the host's): its
 * names must never come from libmpiattr_mpich or libmpiattr_openmpi (standalone mpiattr, which
 * is the MPI library, defines them in libmpiattr).
 *
 * Callable from Fortran (BIND(C)):
 *   int fhc_provider_check(int bindings, char *info, int info_len)
 * returns -1 when the runner asked for nothing, 1 when every name comes from the right place,
 * 0 otherwise (each wrong name is shown on stderr); `info` receives, blank-padded, the file name
 * (without directory) of the definition of the first name checked, for the INFO line
 * "provider_of_<that name>". fhc_provider_symbol(bindings, buf, len) gives that first name.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const fhc_c_names[] = {
    "MPI_Comm_set_attr",    "MPI_Comm_get_attr",    "MPI_Comm_create_keyval",
    "MPI_Comm_free_keyval", "MPI_Comm_delete_attr", "MPI_Comm_dup",
    "MPI_Comm_free",        "MPI_Type_create_keyval", "MPI_Type_set_attr",
    "MPI_Type_get_attr",    "MPI_Win_create_keyval", "MPI_Win_set_attr",
    "MPI_Win_get_attr",     "MPI_Keyval_create",    "MPI_Attr_put",
    "MPI_Attr_get",         NULL};

/* Fortran routine stems; the deprecated ones (marked 1) have no mpi_f08 binding (§17.1). */
static const struct { const char *stem; int mpi1_only; } fhc_f_names[] = {
    {"mpi_comm_set_attr", 0},    {"mpi_comm_get_attr", 0},      {"mpi_comm_create_keyval", 0},
    {"mpi_comm_free_keyval", 0}, {"mpi_comm_delete_attr", 0},   {"mpi_comm_dup", 0},
    {"mpi_comm_free", 0},        {"mpi_type_create_keyval", 0}, {"mpi_type_set_attr", 0},
    {"mpi_type_get_attr", 0},    {"mpi_type_dup", 0},           {"mpi_type_free", 0},
    {"mpi_win_create_keyval", 0}, {"mpi_win_set_attr", 0},      {"mpi_win_get_attr", 0},
    {"mpi_win_free", 0},         {"mpi_error_string", 0},       {"mpi_keyval_create", 1},
    {"mpi_attr_put", 1},         {"mpi_attr_get", 1},           {NULL, 0}};

static void fhc_pad(char *dst, int len, const char *src)
{
    int n = (int)strlen(src);
    if (len <= 0)
        return;
    if (n > len)
        n = len;
    memcpy(dst, src, (size_t)n);
    memset(dst + n, ' ', (size_t)(len - n));
}

/* Checks one name; returns 1 when it resolves to the right place. */
static int fhc_one(const char *sym, const char *want, const char *avoid, char *first,
                   size_t first_len)
{
    void *p = dlsym(RTLD_DEFAULT, sym);
    Dl_info di;
    const char *file = "(unresolved)";
    int ok = 1;
    if (p && dladdr(p, &di) && di.dli_fname)
        file = di.dli_fname;
    if (!p)
        ok = 0;
    if (want && *want && !strstr(file, want))
        ok = 0;
    if (avoid && *avoid && strstr(file, avoid))
        ok = 0;
    if (!ok)
        fprintf(stderr, "fhost_check: %s comes from %s (want %s%s%s)\n", sym, file,
                want ? want : "", avoid ? ", not " : "", avoid ? avoid : "");
    if (first && !*first) {
        const char *base = strrchr(file, '/');
        snprintf(first, first_len, "%s", base ? base + 1 : file);
    }
    return ok;
}

/* The name checked first for these bindings (the one the INFO line names). */
static void fhc_first_symbol(int bindings, char *buf, size_t len)
{
    if (bindings & 1)
        snprintf(buf, len, "%s", fhc_c_names[0]);
    else if (bindings & 2)
        snprintf(buf, len, "%s_", fhc_f_names[0].stem);
    else
        snprintf(buf, len, "%s_f08_", fhc_f_names[0].stem);
}

void fhc_provider_symbol(const int *bindings, char *buf, const int *len)
{
    char sym[96];
    fhc_first_symbol(*bindings, sym, sizeof sym);
    fhc_pad(buf, *len, sym);
}

int fhc_provider_check(const int *bindings, char *info, const int *info_len)
{
    const char *want = getenv("HOSTCHECK_PROVIDER");
    const char *avoid = getenv("HOSTCHECK_NOT_PROVIDER");
    char first[256] = "";
    char sym[96];
    int ok = 1;
    if ((!want || !*want) && (!avoid || !*avoid))
        return -1;
    if (*bindings & 1)
        for (int i = 0; fhc_c_names[i]; i++)
            ok &= fhc_one(fhc_c_names[i], want, avoid, first, sizeof first);
    for (int i = 0; fhc_f_names[i].stem; i++) {
        if (*bindings & 2) {
            snprintf(sym, sizeof sym, "%s_", fhc_f_names[i].stem);
            ok &= fhc_one(sym, want, avoid, first, sizeof first);
        }
        if ((*bindings & 4) && !fhc_f_names[i].mpi1_only) {
            snprintf(sym, sizeof sym, "%s_f08_", fhc_f_names[i].stem);
            ok &= fhc_one(sym, want, avoid, first, sizeof first);
        }
    }
    for (int i = 0; i < 3; i++) { /* D87: the host's, under mpiattr's host library too */
        static const char *const host_own[] = {"MPI_Error_class", "mpi_error_class_",
                                               "mpi_error_class_f08_"};
        void *p = dlsym(RTLD_DEFAULT, host_own[i]);
        Dl_info di;
        if (p && dladdr(p, &di) && di.dli_fname &&
            (strstr(di.dli_fname, "libmpiattr_mpich") || strstr(di.dli_fname, "libmpiattr_openmpi"))) {
            fprintf(stderr, "fhost_check: %s comes from %s (want the host's)\n", host_own[i],
                    di.dli_fname);
            ok = 0;
        }
    }
    fhc_pad(info, *info_len, first);
    return ok;
}
