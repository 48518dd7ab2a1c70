/* R7_mixed_language_table_helpers.c: the C half of R7_mixed_language_table.f90. The Fortran main
 * program calls these (BIND(C)) to create keyvals, set, read, duplicate and free from C what
 * Fortran created, set or duplicated, so that one executable on every rank sees each cell of
 * the MPI-4.1 §20.3.7 table and keyvals whose callbacks cross the language boundary. Handles cross
 * as MPI_Fint through the host's MPI_Comm_f2c / MPI_Comm_c2f (MPI-4.1 §20.3.4). Standard C MPI
 * only, compiled with the host's mpicc; the expectations are in the Fortran file.
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

/* Whether n bytes at p can be read, without crashing when an MPI hands C a value where the
 * standard says a pointer (write(2) fails with EFAULT instead). */
static int readable(const void *p, size_t n)
{
    int fd[2];
    if (p == NULL || pipe(fd) != 0)
        return 0;
    int ok = write(fd[1], p, n) == (ssize_t)n;
    close(fd[0]);
    close(fd[1]);
    return ok;
}

/* ---- an object of C's whose address C stores as an attribute (the standard's example 1) ---- */
static int mx_object;
MPI_Aint mx_c_object_address(int value)
{
    mx_object = value;
    return (MPI_Aint)&mx_object;
}

/* ---- create, set, read, dup, free from C ---- */
MPI_Fint mx_c_create_dup_fn_keyval(void)
{
    int key = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL);
    return key;
}

int mx_c_free_keyval(MPI_Fint key)
{
    int k = key;
    return MPI_Comm_free_keyval(&k);
}

int mx_c_set(MPI_Fint comm, MPI_Fint key, MPI_Aint value)
{
    return MPI_Comm_set_attr(MPI_Comm_f2c(comm), key, (void *)value);
}

/* The void* C gets, as an integer; *flag as C sees it. */
MPI_Aint mx_c_get(MPI_Fint comm, MPI_Fint key, int *flag)
{
    void *p = NULL;
    *flag = -1;
    if (MPI_Comm_get_attr(MPI_Comm_f2c(comm), key, &p, flag) != MPI_SUCCESS)
        *flag = -2;
    return (MPI_Aint)p;
}

/* Reading through the pointer C gets (§20.3.7: an int* for an MPI_ATTR_PUT value, an MPI_Aint*
 * for an MPI_COMM_SET_ATTR value). *ok = 0 when the get fails, flag is false or the pointer
 * cannot be read. */
int mx_c_get_deref_int(MPI_Fint comm, MPI_Fint key, int *ok)
{
    int *p = NULL, flag = 0;
    int rc = MPI_Comm_get_attr(MPI_Comm_f2c(comm), key, &p, &flag);
    *ok = rc == MPI_SUCCESS && flag && readable(p, sizeof *p);
    return *ok ? *p : -999;
}

MPI_Aint mx_c_get_deref_aint(MPI_Fint comm, MPI_Fint key, int *ok)
{
    MPI_Aint *p = NULL;
    int flag = 0;
    int rc = MPI_Comm_get_attr(MPI_Comm_f2c(comm), key, &p, &flag);
    *ok = rc == MPI_SUCCESS && flag && readable(p, sizeof *p);
    return *ok ? *p : -999;
}

MPI_Fint mx_c_dup(MPI_Fint comm, int *rc)
{
    MPI_Comm dup = MPI_COMM_NULL;
    *rc = MPI_Comm_dup(MPI_Comm_f2c(comm), &dup);
    return MPI_Comm_c2f(dup);
}

int mx_c_free(MPI_Fint comm)
{
    MPI_Comm c = MPI_Comm_f2c(comm);
    return MPI_Comm_free(&c);
}

/* MPI_TAG_UB as C reads it: a pointer to int (R7.5). */
int mx_c_tag_ub(void)
{
    int *p = NULL, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &p, &flag);
    return flag && readable(p, sizeof *p) ? *p : -1;
}

/* ---- a C keyval with C callbacks that record what they get (R1.6, R7.6) ---- */
static int mx_copies, mx_deletes;
static MPI_Comm mx_copy_comm = MPI_COMM_NULL, mx_delete_comm = MPI_COMM_NULL;
static void *mx_delete_val, *mx_copy_extra, *mx_delete_extra;
/* what the callbacks read through the value, as an MPI_Aint* (-999: not a readable pointer); read
 * inside the callback: a pointer into MPI's storage is valid only while the attribute exists */
static MPI_Aint mx_copy_in_deref, mx_delete_val_deref;
static int mx_extra;

static int mx_copy(MPI_Comm old, int key, void *extra, void *in, void *out, int *flag)
{
    (void)key;
    mx_copies++;
    mx_copy_comm = old;
    mx_copy_extra = extra;
    /* a Fortran MPI_COMM_SET_ATTR value arrives as an MPI_Aint* (§20.3.7, R7.6): the copy is
     * that integer + 1, stored as a C value */
    mx_copy_in_deref = readable(in, sizeof(MPI_Aint)) ? *(MPI_Aint *)in : -999;
    *(void **)out = (void *)(mx_copy_in_deref + 1);
    *flag = 1;
    return MPI_SUCCESS;
}

static int mx_delete(MPI_Comm comm, int key, void *val, void *extra)
{
    (void)key;
    mx_deletes++;
    mx_delete_comm = comm;
    mx_delete_val = val;
    mx_delete_val_deref = readable(val, sizeof(MPI_Aint)) ? *(MPI_Aint *)val : -999;
    mx_delete_extra = extra;
    return MPI_SUCCESS;
}

MPI_Fint mx_c_create_logging_keyval(void)
{
    int key = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(mx_copy, mx_delete, &key, &mx_extra);
    return key;
}

int mx_c_copy_calls(void) { return mx_copies; }
int mx_c_delete_calls(void) { return mx_deletes; }
/* Whether the last copy callback got this (Fortran) handle as C has it: MPI_Comm_f2c of it. For
 * the delete callback of a free, the C handle is taken before the free (mx_c_remember): a freed
 * Fortran handle converts to nothing in particular. */
static MPI_Comm mx_remembered = MPI_COMM_NULL;
int mx_c_copy_comm_is(MPI_Fint comm) { return mx_copy_comm == MPI_Comm_f2c(comm); }
void mx_c_remember(MPI_Fint comm) { mx_remembered = MPI_Comm_f2c(comm); }
int mx_c_delete_comm_is_remembered(void)
{
    return mx_remembered != MPI_COMM_NULL && mx_delete_comm == mx_remembered;
}
int mx_c_extra_states_ok(void)
{
    return mx_copy_extra == &mx_extra && mx_delete_extra == &mx_extra;
}
MPI_Aint mx_c_copy_in_deref_aint(void) { return mx_copy_in_deref; }
MPI_Aint mx_c_delete_value(void) { return (MPI_Aint)mx_delete_val; }
MPI_Aint mx_c_delete_value_deref_aint(void) { return mx_delete_val_deref; }
