/* D118: MPI_Register_datarep (MPI-4.1 section 15.5.3) on the standalone runtime. A data
 * representation of the program's is registered once, by a name of 1 to MPI_MAX_DATAREP_STRING - 1
 * characters and with an extent function; then MPI_File_set_view takes its name, and every access
 * through the view goes through its conversion functions:
 *   - registering: a name twice, or a predefined representation's name, is MPI_ERR_DUP_DATAREP; an
 *     empty or too long name and a NULL extent function MPI_ERR_ARG; a failed registration
 *     registers nothing;
 *   - writing: the write function converts count data items (basic elements) of the access's
 *     datatype, tiled over the user's buffer from item `position` on, into the file's bytes, which
 *     are what a "native" view reads back; reading: the read function converts them back; the
 *     functions get the access's datatype, the item count, position 0 and the extra_state given
 *     to MPI_Register_datarep (and MPI_Register_datarep_c's an MPI_Count count);
 *   - MPI_CONVERSION_FN_NULL converts nothing: the file holds memory's bytes;
 *   - a conversion function that fails makes the access fail with MPI_ERR_CONVERSION, naming the
 *     representation; nothing is written;
 *   - the layout: an extent function that gives a basic datatype another size than its own makes
 *     MPI_File_set_view fail with MPI_ERR_UNSUPPORTED_DATAREP (D118's limit) and leaves the view;
 *     an MPI_Type_create_f90_integer datatype is asked about by its own handle;
 *     MPI_File_get_type_extent is the memory extent where it succeeds; MPI_File_get_view returns
 *     the representation's name.
 * MPICH 4.0.2 registers and refuses the same names (ROMIO), but its MPI_File_set_view accepts only
 * "native", "internal" and "external32" (MPI_ERR_UNSUPPORTED_DATAREP); Open MPI 4.1.4's ompio
 * refuses MPI_Register_datarep: not compared. */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c_errors.h"

struct calls {
  int reads, writes, extents, fail_read;
  MPI_Datatype last_type;
  MPI_Count last_count;
  MPI_Offset last_position;
};
static struct calls seen;

static uint32_t swapped(uint32_t v) {
  return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}
/* The representation "mpiattr-be": 4-byte integers with their bytes reversed. The access
 * datatypes here are MPI_INT and contiguous ones of it, so the items are consecutive ints. */
static int be_read(void *userbuf, MPI_Datatype type, int count, void *filebuf, MPI_Offset position, void *extra) {
  struct calls *c = extra;
  c->reads++;
  c->last_type = type;
  c->last_count = count;
  c->last_position = position;
  if (c->fail_read) return MPI_ERR_OTHER;
  const uint32_t *from = filebuf;
  uint32_t *to = (uint32_t *)userbuf + position;
  for (int i = 0; i < count; ++i) to[i] = swapped(from[i]);
  return MPI_SUCCESS;
}
static int be_write(void *userbuf, MPI_Datatype type, int count, void *filebuf, MPI_Offset position, void *extra) {
  struct calls *c = extra;
  c->writes++;
  c->last_type = type;
  c->last_count = count;
  c->last_position = position;
  const uint32_t *from = (const uint32_t *)userbuf + position;
  uint32_t *to = filebuf;
  for (int i = 0; i < count; ++i) to[i] = swapped(from[i]);
  return MPI_SUCCESS;
}
/* The large-count form's: the same, with an MPI_Count. */
static int be_write_c(void *userbuf, MPI_Datatype type, MPI_Count count, void *filebuf, MPI_Offset position,
                      void *extra) {
  return be_write(userbuf, type, (int)count, filebuf, position, extra);
}
static int be_read_c(void *userbuf, MPI_Datatype type, MPI_Count count, void *filebuf, MPI_Offset position,
                     void *extra) {
  return be_read(userbuf, type, (int)count, filebuf, position, extra);
}
static int same_extent(MPI_Datatype type, MPI_Aint *extent, void *extra) {
  struct calls *c = extra;
  c->extents++;
  int size = 0;
  MPI_Type_size(type, &size);
  *extent = size;
  return MPI_SUCCESS;
}
static int double_extent(MPI_Datatype type, MPI_Aint *extent, void *extra) {
  (void)extra;
  int size = 0;
  MPI_Type_size(type, &size);
  *extent = 2 * size;
  return MPI_SUCCESS;
}

static char path[64];
static MPI_File fh;

static void view(const char *datarep) {
  OK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, datarep, MPI_INFO_NULL));
}
static void read_ints(int *out, int n) {
  MPI_Status st;
  memset(out, 0, sizeof(int) * (size_t)n);
  OK(MPI_File_read_at(fh, 0, out, n, MPI_INT, &st));
}

int main(int argc, char **argv) {
  OK(MPI_Init(&argc, &argv));
  OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

  /* ---- registering ---- */
  OK(MPI_Register_datarep("mpiattr-be", be_read, be_write, same_extent, &seen));
  check_error(MPI_Register_datarep("mpiattr-be", be_read, be_write, same_extent, &seen), MPI_ERR_DUP_DATAREP,
              "already registered");
  check_error(MPI_Register_datarep("native", be_read, be_write, same_extent, &seen), MPI_ERR_DUP_DATAREP,
              "predefined");
  check_error(MPI_Register_datarep("external32", be_read, be_write, same_extent, &seen), MPI_ERR_DUP_DATAREP,
              "predefined");
  check_error(MPI_Register_datarep("", be_read, be_write, same_extent, &seen), MPI_ERR_ARG, "1 to");
  char longest[MPI_MAX_DATAREP_STRING + 1];
  memset(longest, 'x', sizeof longest);
  longest[MPI_MAX_DATAREP_STRING] = '\0';  /* MPI_MAX_DATAREP_STRING characters: one too many */
  check_error(MPI_Register_datarep(longest, be_read, be_write, same_extent, &seen), MPI_ERR_ARG, "1 to");
  check_error(MPI_Register_datarep("mpiattr-noextent", be_read, be_write, NULL, &seen), MPI_ERR_ARG,
              "dtype_file_extent_fn");
  longest[MPI_MAX_DATAREP_STRING - 1] = '\0';
  OK(MPI_Register_datarep(longest, MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, same_extent, &seen));
  OK(MPI_Register_datarep("mpiattr-none", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, same_extent, &seen));
  OK(MPI_Register_datarep("mpiattr-wide", be_read, be_write, double_extent, NULL));
  OK(MPI_Register_datarep_c("mpiattr-be-c", be_read_c, be_write_c, same_extent, &seen));

  snprintf(path, sizeof path, "/tmp/mpiattr_D118_%ld.dat", (long)getpid());
  OK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL,
                   &fh));
  /* ---- a view in a representation that a failed registration would have named ---- */
  check_error(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "mpiattr-noextent", MPI_INFO_NULL),
              MPI_ERR_UNSUPPORTED_DATAREP, "mpiattr-noextent");

  /* ---- writing and reading through the conversion functions ---- */
  view("mpiattr-be");
  char rep[MPI_MAX_DATAREP_STRING];
  MPI_Offset disp = -1;
  MPI_Datatype et, ft;
  OK(MPI_File_get_view(fh, &disp, &et, &ft, rep));
  CHECK(strcmp(rep, "mpiattr-be") == 0 && disp == 0, "MPI_File_get_view: '%s' at %lld", rep, (long long)disp);
  const int data[4] = {1, 2, 3, 0x01020304};
  MPI_Status st;
  seen.writes = 0;
  OK(MPI_File_write_at(fh, 0, data, 4, MPI_INT, &st));
  CHECK(seen.writes == 1 && seen.last_type == MPI_INT && seen.last_count == 4 && seen.last_position == 0,
        "the write function: %d calls, count %lld, position %lld", seen.writes, (long long)seen.last_count,
        (long long)seen.last_position);
  int got[4];
  view("native");
  read_ints(got, 4);
  for (int i = 0; i < 4; ++i)
    CHECK((uint32_t)got[i] == swapped((uint32_t)data[i]), "the file's int %d: 0x%x", i, (unsigned)got[i]);
  view("mpiattr-be");
  seen.reads = 0;
  read_ints(got, 4);
  CHECK(seen.reads == 1 && seen.last_count == 4, "the read function: %d calls, count %lld", seen.reads,
        (long long)seen.last_count);
  for (int i = 0; i < 4; ++i) CHECK(got[i] == data[i], "int %d read back: %d", i, got[i]);
  int count = -1;
  OK(MPI_Get_count(&st, MPI_INT, &count));
  CHECK(count == 4, "the write's status counts %d", count);

  /* A derived access datatype: the function gets it and the items it holds (2 x 2). */
  MPI_Datatype pair;
  OK(MPI_Type_contiguous(2, MPI_INT, &pair));
  OK(MPI_Type_commit(&pair));
  const int more[4] = {10, 20, 30, 40};
  OK(MPI_File_write_at(fh, 0, more, 2, pair, &st));
  CHECK(seen.last_type == pair && seen.last_count == 4, "the write function with a derived datatype: count %lld",
        (long long)seen.last_count);
  read_ints(got, 4);
  for (int i = 0; i < 4; ++i) CHECK(got[i] == more[i], "int %d through a pair: %d", i, got[i]);
  MPI_Aint fext = -1;
  OK(MPI_File_get_type_extent(fh, pair, &fext));
  CHECK(fext == 8, "MPI_File_get_type_extent of the pair: %ld", (long)fext);

  /* An MPI_Type_create_f90_integer datatype (4 bytes here) in the view and the access: the extent
   * function is asked about it by its own handle, and the data convert. */
  MPI_Datatype f9;
  OK(MPI_Type_create_f90_integer(9, &f9));
  OK(MPI_File_set_view(fh, 0, f9, f9, "mpiattr-be", MPI_INFO_NULL));
  OK(MPI_File_write_at(fh, 0, data, 4, f9, &st));
  CHECK(seen.last_type == f9 && seen.last_count == 4, "the write function with an f90 datatype: count %lld",
        (long long)seen.last_count);
  view("native");
  read_ints(got, 4);
  CHECK((uint32_t)got[3] == swapped((uint32_t)data[3]), "the file's int through an f90 datatype: 0x%x",
        (unsigned)got[3]);
  view("mpiattr-be");

  /* A read function that fails: MPI_ERR_CONVERSION, naming the representation. */
  seen.fail_read = 1;
  check_error(MPI_File_read_at(fh, 0, got, 4, MPI_INT, &st), MPI_ERR_CONVERSION, "mpiattr-be");
  seen.fail_read = 0;

  /* ---- MPI_CONVERSION_FN_NULL: memory's bytes ---- */
  view("mpiattr-none");
  seen.reads = seen.writes = 0;
  OK(MPI_File_write_at(fh, 0, data, 4, MPI_INT, &st));
  view("native");
  read_ints(got, 4);
  for (int i = 0; i < 4; ++i) CHECK(got[i] == data[i], "int %d without conversion: 0x%x", i, (unsigned)got[i]);
  CHECK(seen.reads == 0 && seen.writes == 0, "a conversion function ran");

  /* ---- the large-count form: the same bytes through MPI_Count functions ---- */
  view("mpiattr-be-c");
  OK(MPI_File_write_at(fh, 0, data, 4, MPI_INT, &st));
  view("native");
  read_ints(got, 4);
  CHECK((uint32_t)got[3] == swapped((uint32_t)data[3]), "the large form's file int: 0x%x", (unsigned)got[3]);

  /* ---- a representation whose basic elements change size: refused, the view kept ---- */
  check_error(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "mpiattr-wide", MPI_INFO_NULL),
              MPI_ERR_UNSUPPORTED_DATAREP, "keep their size");
  OK(MPI_File_get_view(fh, &disp, &et, &ft, rep));
  CHECK(strcmp(rep, "native") == 0, "a refused view changed the view to '%s'", rep);

  OK(MPI_Type_free(&pair));
  OK(MPI_File_close(&fh));
  OK(MPI_Finalize());
  return failures != 0;
}
