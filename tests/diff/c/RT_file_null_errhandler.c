/* MPI_FILE_NULL's error handler (MPI-4.1 §15.7): file routines that have no file, MPI_File_open
 * first, raise their errors on it; it is MPI_ERRORS_RETURN until the program sets another, with
 * MPI_File_set_errhandler(MPI_FILE_NULL, ...), and MPI_File_get_errhandler gives a new reference.
 * Legacy programs set it to MPI_ERRORS_ARE_FATAL, or to their own, before opening files. (The
 * files themselves, and their own handlers: RT_file_io_one_process.c.)
 */
#include "diff_util.h"

static int calls, last_code;
static MPI_File last_file;
static void on_file(MPI_File *fh, int *code, ...)
{
    calls++;
    last_file = *fh;
    last_code = *code;
}

int main(int argc, char **argv)
{
    diff_init(&argc, &argv);
    MPI_Errhandler got, eh;
    CHECK(MPI_File_get_errhandler(MPI_FILE_NULL, &got));
    fact("MPI_FILE_NULL's handler is MPI_ERRORS_RETURN at first", got == MPI_ERRORS_RETURN);
    fact_err("free of that handle", MPI_Errhandler_free(&got));

    CHECK(MPI_File_create_errhandler(on_file, &eh));
    fact_err("set a file handler on MPI_FILE_NULL", MPI_File_set_errhandler(MPI_FILE_NULL, eh));
    CHECK(MPI_File_get_errhandler(MPI_FILE_NULL, &got));
    fact("get gives the handler set", got == eh);
    fact_err("free of the handle from get", MPI_Errhandler_free(&got));

    fact_err("MPI_File_call_errhandler on MPI_FILE_NULL", MPI_File_call_errhandler(MPI_FILE_NULL, MPI_ERR_OTHER));
    fact("the handler ran once, given MPI_FILE_NULL and the code",
         calls == 1 && last_file == MPI_FILE_NULL && last_code == MPI_ERR_OTHER);

    /* A file that cannot be opened: the error goes to MPI_FILE_NULL's handler. */
    int before = calls;
    MPI_File fh = MPI_FILE_NULL;
    int rc = MPI_File_open(MPI_COMM_SELF, "/nonexistent-dir-of-mpiattr/none", MPI_MODE_RDONLY,
                           MPI_INFO_NULL, &fh);
    fact("MPI_File_open of a missing file fails", rc != MPI_SUCCESS);
    fact("and runs MPI_FILE_NULL's handler once", calls - before);
    fact("with the code it returns", last_code == rc);
    fact("the file handle stays MPI_FILE_NULL", fh == MPI_FILE_NULL);

    /* Back to MPI_ERRORS_RETURN: a failing open then only returns. */
    fact_err("set MPI_ERRORS_RETURN back", MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN));
    before = calls;
    rc = MPI_File_open(MPI_COMM_SELF, "/nonexistent-dir-of-mpiattr/none", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    fact("a failing open with MPI_ERRORS_RETURN calls no handler", calls - before);
    fact("and fails", rc != MPI_SUCCESS);
    fact_err("free of the file handler", MPI_Errhandler_free(&eh));
    return diff_finish();
}
