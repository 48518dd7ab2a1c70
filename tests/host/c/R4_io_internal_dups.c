/* R4_io_internal_dups.c: a communicator's attributes and MPI-IO, every rank.
 *
 * MPI_File_open (MPI-4.1 §15.2.1) may duplicate the communicator inside the MPI library: ROMIO
 * does, through PMPI_Comm_dup, which runs the copy callbacks (§8.4.2, §16.2.1: the PMPI_ name is
 * the same routine); Open MPI's own MPI-IO uses an internal duplicate that does not reach the
 * caching routines. Whatever the library copied, it deletes by MPI_File_close (§8.7.3: every
 * free runs the delete callbacks), and the program's own attribute is untouched. The datatypes a
 * file view and a write are given are decoded by the library (MPI_Type_get_contents); freeing
 * what it decoded leaves the program's datatypes their attributes (D132).
 */
#include "host_check.h"

#include <stdint.h>
#include <unistd.h>

static int ncopy, ndel;

static int copy_plus_one(MPI_Comm c, int key, void *extra, void *in, void *out, int *flag)
{
    (void)c; (void)key; (void)extra;
    ncopy++;
    *(void **)out = (void *)((intptr_t)in + 1);
    *flag = 1;
    return MPI_SUCCESS;
}
static int count_delete(MPI_Comm c, int key, void *value, void *extra)
{
    (void)c; (void)key; (void)value; (void)extra;
    ndel++;
    return MPI_SUCCESS;
}
static int type_count_delete(MPI_Datatype t, int key, void *value, void *extra)
{
    (void)t; (void)key; (void)value; (void)extra;
    ndel++;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    hc_errors_return();
    int ckey = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(copy_plus_one, count_delete, &ckey, NULL);
    MPI_Comm a = MPI_COMM_NULL;
    void *v = NULL;
    int flag = 0, rc;

    long stamp = (long)getpid();
    MPI_Bcast(&stamp, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    char path[128];
    snprintf(path, sizeof path, "/tmp/mpiattr_io_internal_dups_%ld", stamp);
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_set_attr(a, ckey, (void *)(intptr_t)800);
    ncopy = ndel = 0;
    MPI_File fh = MPI_FILE_NULL;
    rc = MPI_File_open(a, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh);
    int crc = rc == MPI_SUCCESS ? MPI_File_close(&fh) : rc;
    INFO("io_internal_copies_rank0", ncopy);
    CHECK("R4_4_io_internal_copies_are_deleted", rc == MPI_SUCCESS && crc == MPI_SUCCESS && ncopy == ndel);
    v = NULL;
    flag = 0;
    MPI_Comm_get_attr(a, ckey, &v, &flag);
    CHECK("R4_4_io_leaves_program_attribute", flag == 1 && v == (void *)(intptr_t)800);
    MPI_Comm_free(&a);

    /* A file view and a write through datatypes built on one with an attribute: the MPI-IO library
     * decodes them (ROMIO: PMPI_Type_get_contents, then PMPI_Type_free of what it got, which over
     * MPICH is the constituent's own handle with a reference of its own, D132). The program's
     * datatype keeps its attribute, and its own free deletes it once. */
    int tkey = MPI_KEYVAL_INVALID;
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, type_count_delete, &tkey, NULL);
    MPI_Datatype vec, ft;
    MPI_Type_vector(2, 1, 3, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Type_set_attr(vec, tkey, (void *)(intptr_t)810);
    MPI_Type_contiguous(2, vec, &ft);
    MPI_Type_commit(&ft);
    int buf[16] = {0};
    ndel = 0;
    fh = MPI_FILE_NULL;
    rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                       MPI_INFO_NULL, &fh);
    if (rc == MPI_SUCCESS) rc = MPI_File_set_view(fh, 0, MPI_INT, ft, "native", MPI_INFO_NULL);
    if (rc == MPI_SUCCESS) rc = MPI_File_write_all(fh, buf, 4, MPI_INT, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS) rc = MPI_File_write_all(fh, buf, 2, vec, MPI_STATUS_IGNORE);
    crc = fh != MPI_FILE_NULL ? MPI_File_close(&fh) : rc;
    v = NULL;
    flag = 0;
    MPI_Type_get_attr(vec, tkey, &v, &flag);
    CHECK("R4_4_D132_io_decoding_keeps_datatype_attribute",
          rc == MPI_SUCCESS && crc == MPI_SUCCESS && flag == 1 && v == (void *)(intptr_t)810 && ndel == 0);
    MPI_Type_free(&ft);
    MPI_Type_free(&vec);
    CHECK("R4_4_D132_datatype_free_after_io_deletes_once", ndel == 1);
    MPI_Type_free_keyval(&tkey);

    MPI_Comm_free_keyval(&ckey);
    report();
    MPI_Finalize();
    return 0;
}
