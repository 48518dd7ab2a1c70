/* tests/reallib/hdf5_io.c: parallel HDF5 (the MPI-IO driver) on a host MPI, with or without mpiattr.
 *
 *   hdf5_io OUTDIR FILE write   create FILE collectively, write dataset "a" (each rank its slab,
 *                               H5FD_MPIO_COLLECTIVE), close it; reopen it, read "a" back whole on
 *                               every rank and check it, close it: nothing is left open. Then reopen
 *                               it read-write, write dataset "b" collectively, and leave the file,
 *                               the dataset, a dataspace and the access list open: HDF5's cleanup
 *                               hook, the delete callback of the attribute it set on MPI_COMM_SELF,
 *                               closes them inside MPI_Finalize (flushing "b" through MPI-IO while
 *                               MPI is usable).
 *   hdf5_io OUTDIR FILE check   reopen FILE read-only, check "a" and "b" (what the hook closed), and
 *                               close everything before MPI_Finalize.
 *
 * HDF5 1.10 sets that hook itself when the library starts (H5_init_library: MPI_Comm_create_keyval
 * through the C name, MPI_Comm_set_attr on MPI_COMM_SELF, MPI_Comm_free_keyval), and duplicates the
 * file's communicator (MPI_Comm_dup, MPI_Comm_free). With mpiattr in front of the host that keyval
 * is mpiattr's, so the hook is run by mpiattr's MPI_Finalize. The program caches too: an attribute
 * on MPI_COMM_SELF set after HDF5 started, so deleted before HDF5's hook (newest first, MPI-4.1
 * §12.2.4), whose callback writes how many files HDF5 still has open; and one on MPI_COMM_WORLD,
 * copied to the communicator of the file access list (HDF5's MPI_Comm_dup) and read back there.
 *
 * Each rank writes its lines to OUTDIR/out.<rank> (compared by tests/reallib/run.sh between the
 * host alone and mpiattr); the exit status is 0 only if every check passed.
 */
#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reallib_out.h"

#define N 6 /* elements per rank */

static int rank, size;

/* The program's own hook on MPI_COMM_SELF: runs inside MPI_Finalize before HDF5's. */
static int self_delete(MPI_Comm comm, int key, void *val, void *extra) {
  (void)comm, (void)key, (void)extra;
  ssize_t files = H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_FILE);
  say("finalize: program hook %s runs before HDF5's: %zd file(s) open", (char *)val, files);
  return MPI_SUCCESS;
}

static int world_delete(MPI_Comm comm, int key, void *val, void *extra) {
  (void)comm, (void)key, (void)extra;
  free(val);
  return MPI_SUCCESS;
}

static int world_copy(MPI_Comm comm, int key, void *extra, void *in, void *outp, int *flag) {
  (void)comm, (void)key, (void)extra;
  int *copy = malloc(sizeof *copy);
  *copy = *(int *)in + 1; /* one more per duplication */
  *(int **)outp = copy;
  *flag = 1;
  return MPI_SUCCESS;
}

static int expected(int i) { return 1000 * (i / N) + i % N; }
static int expected_b(int i) { return -7 * i; }

/* Writes dataset NAME (size*N ints) collectively: each rank its own slab. */
static hid_t write_slab(hid_t file, const char *name, int (*value)(int), hid_t *space_out) {
  hsize_t dims[1] = {(hsize_t)size * N}, start[1] = {(hsize_t)rank * N}, count[1] = {N};
  hid_t space = H5Screate_simple(1, dims, NULL);
  hid_t dset = H5Dcreate2(file, name, H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  hid_t mem = H5Screate_simple(1, count, NULL);
  H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, count, NULL);
  hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
  H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE);
  int buf[N];
  for (int i = 0; i < N; i++) buf[i] = value(rank * N + i);
  herr_t rc = H5Dwrite(dset, H5T_NATIVE_INT, mem, space, dxpl, buf);
  CHECK(dset >= 0 && rc >= 0, name[0] == 'a' ? "write a collectively" : "write b collectively");
  H5Pclose(dxpl);
  H5Sclose(mem);
  *space_out = space;
  return dset;
}

/* Reads dataset NAME whole, collectively, and checks every element. */
static void read_check(hid_t file, const char *name, int (*value)(int)) {
  hid_t dset = H5Dopen2(file, name, H5P_DEFAULT);
  hid_t space = H5Dget_space(dset);
  hssize_t n = H5Sget_simple_extent_npoints(space);
  hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
  H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE);
  int *buf = calloc((size_t)(n > 0 ? n : 1), sizeof *buf);
  herr_t rc = H5Dread(dset, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, dxpl, buf);
  int good = dset >= 0 && rc >= 0 && n == (hssize_t)size * N;
  for (hssize_t i = 0; good && i < n; i++) good = buf[i] == value((int)i);
  char what[64];
  snprintf(what, sizeof what, "read %s back whole: %lld values", name, (long long)n);
  CHECK(good, what);
  free(buf);
  H5Pclose(dxpl);
  H5Sclose(space);
  H5Dclose(dset);
}

/* A file access list for the MPI-IO driver on MPI_COMM_WORLD (HDF5 duplicates the communicator). */
static hid_t mpio_fapl(int key) {
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Info info = MPI_INFO_NULL;
  H5Pget_fapl_mpio(fapl, &comm, &info); /* another duplicate, ours to free */
  int *val = NULL, flag = 0;
  MPI_Comm_get_attr(comm, key, &val, &flag);
  /* Two duplications from MPI_COMM_WORLD's value 1: H5Pset_fapl_mpio's and H5Pget_fapl_mpio's. */
  CHECK(flag && *val >= 2, "attribute copied to HDF5's duplicate of MPI_COMM_WORLD");
  MPI_Comm_free(&comm);
  if (info != MPI_INFO_NULL) MPI_Info_free(&info);
  return fapl;
}

int main(int argc, char **argv) {
  if (argc != 4 || (strcmp(argv[3], "write") != 0 && strcmp(argv[3], "check") != 0)) {
    fprintf(stderr, "usage: %s OUTDIR FILE write|check\n", argv[0]);
    return 2;
  }
  const char *mode = argv[3];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (open_out(argv[1], rank) != 0) MPI_Abort(MPI_COMM_WORLD, 2);
  say("rank %d of %d: hdf5_io %s", rank, size, mode);

  /* HDF5 starts: H5_init_library sets its hook on MPI_COMM_SELF. */
  unsigned maj, min, rel;
  CHECK(H5open() >= 0 && H5get_libversion(&maj, &min, &rel) >= 0 && maj == 1 && min == 10,
        "HDF5 1.10 started");

  int self_key, world_key;
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, &self_key, NULL);
  MPI_Comm_set_attr(MPI_COMM_SELF, self_key, (void *)mode);
  MPI_Comm_free_keyval(&self_key);
  MPI_Comm_create_keyval(world_copy, world_delete, &world_key, NULL);
  int *one = malloc(sizeof *one);
  *one = 1;
  MPI_Comm_set_attr(MPI_COMM_WORLD, world_key, one);

  hid_t fapl = mpio_fapl(world_key);
  if (strcmp(mode, "write") == 0) {
    hid_t file = H5Fcreate(argv[2], H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    CHECK(file >= 0, "H5Fcreate with the MPI-IO driver");
    hid_t space;
    hid_t dset = write_slab(file, "a", expected, &space);
    H5Sclose(space);
    H5Dclose(dset);
    CHECK(H5Fclose(file) >= 0, "H5Fclose");
    file = H5Fopen(argv[2], H5F_ACC_RDONLY, fapl);
    CHECK(file >= 0, "H5Fopen again");
    read_check(file, "a", expected);
    CHECK(H5Fclose(file) >= 0, "H5Fclose again");
    CHECK(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL) == 0, "nothing left open");
    file = H5Fopen(argv[2], H5F_ACC_RDWR, fapl);
    CHECK(file >= 0, "H5Fopen read-write");
    dset = write_slab(file, "b", expected_b, &space);
    (void)dset; /* left open, with space, fapl and the file: HDF5's hook closes them */
    CHECK(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_FILE) == 1, "the file left open for MPI_Finalize");
  } else {
    hid_t file = H5Fopen(argv[2], H5F_ACC_RDONLY, fapl);
    CHECK(file >= 0, "H5Fopen read-only");
    read_check(file, "a", expected);
    read_check(file, "b", expected_b);
    CHECK(H5Fclose(file) >= 0, "H5Fclose");
    H5Pclose(fapl);
    CHECK(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL) == 0, "nothing left open before MPI_Finalize");
  }

  MPI_Comm_free_keyval(&world_key); /* MPI_COMM_WORLD keeps the attribute until MPI_Finalize */
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  int finalized = 0;
  MPI_Finalized(&finalized);
  say("after MPI_Finalize: finalized %d, failures on all ranks %d", finalized, all);
  fclose(out);
  return all == 0 && failures == 0 ? 0 : 1;
}
