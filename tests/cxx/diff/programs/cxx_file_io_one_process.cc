// cxx_file_io_one_process.cc: MPI-IO on one process through the MPI-2.2 C++ bindings, MPI::File
// (MPI-2.2 §13 and §16; today's MPI-4.1 §15), built against mpiattr, MPICH and Open MPI
// (cxxdiffrun.py): the C++ side of tests/diff/c/RT_file_io_one_process.c and of
// tests/fortran/test_file_io.f90. Checked, with the values read back, sizes, positions and status
// counts:
// - open and close (the object becomes MPI::FILE_NULL), MPI::File::Delete, Set_size (the file
//   pointers unaffected), Preallocate (never shrinks), Get_size, Sync, Get_amode, Get_group,
//   Get_type_extent, Set_atomicity / Get_atomicity (§15.2, §15.5.1, §15.6.1);
// - a view from byte 4, etype MPI::INT, a vector filetype with holes freed right after Set_view;
//   the pointers reset to 0; Get_view (a derived filetype comes back as a new datatype to free),
//   Get_byte_offset (§15.3, §15.4.3);
// - explicit offsets (they move no pointer), Seek with MPI::SEEK_SET / _CUR / _END, a read that
//   reaches the end of file (§15.4.1: the status counts what was read), Iwrite_at / Iread_at
//   completed by MPI::Request::Wait(status), the shared pointer, a split collective (§15.4);
// - error handlers (§15.7, §10.3.3): the default one of files is MPI::ERRORS_RETURN; a handler of
//   MPI::File::Create_errhandler runs with the file and the code, from a failed call and from
//   Call_errhandler, and with MPI::FILE_NULL for a failed Open when set on MPI::FILE_NULL; under
//   MPI::ERRORS_THROW_EXCEPTIONS (MPI-2.2 §16.1.8) a failed call throws an MPI::Exception whose
//   Get_error_class() is the class §15.8 names: MPI::ERR_ACCESS (a read of a file opened
//   MPI::MODE_WRONLY), MPI::ERR_NO_SUCH_FILE (open and Delete of a missing file),
//   MPI::ERR_FILE_EXISTS (MPI::MODE_EXCL); MPI::FILE_NULL's handler is the one of Open and Delete.
// The seek checks name MPI::SEEK_SET, _CUR and _END; the other seeks the C constants, so that the
// later facts do not hang on them. The files live in a fresh directory made with mkdtemp under
// /tmp, removed at the end. Not printed: the bytes of holes nothing was written to (undefined),
// the class of a Seek with a bad whence (the standard names none), the atomicity a file is opened
// with (Open MPI documents atomic mode on several nodes). The peers' deviations are each on one
// line (divergences.toml): Open MPI 4.1.4's MPI::SEEK_* are stdio's SEEK_* (0, 1, 2), its
// MPI::File::Get_view returns neither displacement nor types, its ERRORS_THROW_EXCEPTIONS throws
// nothing.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "cxx_diff_lines.h"

namespace {

void fill(int* v, int n, int value)
{
    for (int i = 0; i < n; i++) v[i] = value;
}

std::string class_name(int c)
{
#define CLASS(name) if (c == MPI::name) return #name;
    CLASS(SUCCESS) CLASS(ERR_ARG) CLASS(ERR_OTHER) CLASS(ERR_INTERN) CLASS(ERR_TYPE) CLASS(ERR_COUNT)
    CLASS(ERR_FILE) CLASS(ERR_NOT_SAME) CLASS(ERR_AMODE) CLASS(ERR_UNSUPPORTED_DATAREP)
    CLASS(ERR_UNSUPPORTED_OPERATION) CLASS(ERR_NO_SUCH_FILE) CLASS(ERR_FILE_EXISTS)
    CLASS(ERR_BAD_FILE) CLASS(ERR_ACCESS) CLASS(ERR_NO_SPACE) CLASS(ERR_QUOTA) CLASS(ERR_READ_ONLY)
    CLASS(ERR_FILE_IN_USE) CLASS(ERR_DUP_DATAREP) CLASS(ERR_CONVERSION) CLASS(ERR_IO)
#undef CLASS
    return "class " + std::to_string(c);
}

char dir[64];

std::string path(const char* name) { return std::string(dir) + "/" + name; }

bool exists(const std::string& p)
{
    struct stat sb;
    return stat(p.c_str(), &sb) == 0;
}

int handler_calls = 0, handler_code = 0;
MPI::File handler_file;
void on_file(MPI::File& file, int* code, ...)
{
    handler_calls++;
    handler_file = file;
    handler_code = *code;
}

// The individual pointer, explicit offsets, sizes, amode, group, atomicity.
void basics()
{
    MPI::File fh = MPI::File::Open(MPI::COMM_SELF, path("basic").c_str(), MPI::MODE_CREATE | MPI::MODE_RDWR,
                                   MPI::INFO_NULL);
    line("open gives a file", fh != MPI::FILE_NULL);
    line("new file, size", (long)fh.Get_size());
    line("new file, position", (long)fh.Get_position());
    MPI::Status st;
    int a[6] = {1, 2, 3, 4, 5, 6}, b[8];
    double d[3] = {1.5, -2.25, 1e10}, e[3] = {0, 0, 0};
    fh.Write(a, 6, MPI::INT, st);
    line("write 6 ints, count", st.Get_count(MPI::INT));
    line("write 6 ints, position in bytes", (long)fh.Get_position());
    fh.Write(d, 3, MPI::DOUBLE, st);
    line("write 3 doubles, count", st.Get_count(MPI::DOUBLE));
    line("write 3 doubles, position", (long)fh.Get_position());
    line("after the writes, size", (long)fh.Get_size());

    fill(b, 8, -1);
    fh.Read_at(0, b, 6, MPI::INT, st);
    line("read_at 0 6 ints, count", st.Get_count(MPI::INT));
    line("read_at 0 6 ints, values", ints(b, 7));
    fh.Read_at(24, e, 3, MPI::DOUBLE, st);
    line("read_at 24 3 doubles, count", st.Get_count(MPI::DOUBLE));
    line("read_at 24 3 doubles, values", std::memcmp(d, e, sizeof d) == 0);
    fill(b, 8, -1);
    fh.Read_at(4, b, 1, MPI::INT);  // no status: MPI_STATUS_IGNORE
    line("read_at without a status, value", b[0]);
    // §15.4.2: explicit offsets leave the file pointers alone.
    line("explicit offsets, position unchanged", (long)fh.Get_position());

    // §15.4.3 Seek: SET, CUR, END, in bytes in the default view.
    fh.Seek(8, MPI::SEEK_SET);
    line("seek 8 SEEK_SET, position", (long)fh.Get_position());
    fill(b, 8, -1);
    fh.Read(b, 2, MPI::INT, st);
    line("read 2 ints after seek 8, count values position after",
         std::to_string(st.Get_count(MPI::INT)) + ", " + ints(b, 3) + ", " + std::to_string(fh.Get_position()));
    fh.Seek(4, MPI::SEEK_CUR);
    line("seek 4 SEEK_CUR, position", (long)fh.Get_position());
    fh.Seek(-8, MPI::SEEK_END);
    line("seek -8 SEEK_END, position", (long)fh.Get_position());
    line("get_byte_offset 40 in the default view", (long)fh.Get_byte_offset(40));
    // §15.4.1: a read that reaches the end of file reads what is there; the status counts it.
    fill(b, 8, -1);
    fh.Read_at(40, b, 4, MPI::INT, st);
    line("read_at 40 4 ints of which 2 exist, count", st.Get_count(MPI::INT));

    // §15.2.4 Set_size truncates or extends and leaves the file pointers; §15.2.5 Preallocate
    // never makes a file smaller. (From here on seeks name the C constants, so that what follows
    // does not hang on the C++ names checked above.)
    fh.Seek(48, MPI_SEEK_SET);
    fh.Set_size(24);
    line("set_size 24, size", (long)fh.Get_size());
    line("set_size 24, position unchanged", (long)fh.Get_position());
    fill(b, 8, -1);
    fh.Read_at(0, b, 8, MPI::INT, st);
    line("read_at 0 8 ints of 24 bytes, count", st.Get_count(MPI::INT));
    line("read_at 0 8 ints of 24 bytes, values", ints(b, 7));
    fh.Set_size(32);
    line("set_size 32, size", (long)fh.Get_size());
    fh.Preallocate(64);
    line("preallocate 64, size", (long)fh.Get_size());
    fh.Preallocate(16);
    line("preallocate 16, size", (long)fh.Get_size());
    fh.Sync();

    line("get_amode is MODE_CREATE|MODE_RDWR", fh.Get_amode() == (MPI::MODE_CREATE | MPI::MODE_RDWR));
    MPI::Group g = fh.Get_group(), self = MPI::COMM_SELF.Get_group();
    line("get_group, size", g.Get_size());
    line("get_group is IDENT to COMM_SELF's group", MPI::Group::Compare(g, self) == MPI::IDENT);
    g.Free();
    self.Free();
    line("free the group from get_group", g == MPI::GROUP_NULL);
    line("get_type_extent DOUBLE", (long)fh.Get_type_extent(MPI::DOUBLE));
    // §15.6.1 (the mode at open is not printed: Open MPI documents atomic mode on several nodes).
    fh.Set_atomicity(true);
    line("atomicity after set true", fh.Get_atomicity());
    fh.Set_atomicity(false);
    line("atomicity after set false", fh.Get_atomicity());
    fh.Close();
    line("close sets the object to FILE_NULL", fh == MPI::FILE_NULL);
}

// A view (§15.3): from byte 4, etype MPI::INT, ints 0 and 3 of every 5; then nonblocking
// explicit offsets, the shared pointer, a split collective (§15.4).
void views_and_access()
{
    MPI::File fh = MPI::File::Open(MPI::COMM_SELF, path("view").c_str(), MPI::MODE_CREATE | MPI::MODE_RDWR,
                                   MPI::INFO_NULL);
    MPI::Status st;
    int a[4] = {10, 20, 30, 40}, b[8];
    MPI::Datatype vec = MPI::INT.Create_vector(2, 1, 3);
    MPI::Datatype holes = vec.Create_resized(0, 5 * sizeof(int));
    vec.Free();
    holes.Commit();
    fh.Seek(12, MPI_SEEK_SET);
    fh.Set_view(4, MPI::INT, holes, "native", MPI::INFO_NULL);
    line("set_view resets the individual pointer", (long)fh.Get_position());
    holes.Free();
    fh.Write(a, 4, MPI::INT, st);
    line("write 4 ints through the view, count", st.Get_count(MPI::INT));
    line("write 4 ints through the view, position in etypes", (long)fh.Get_position());
    line("write 4 ints through the view, size in bytes", (long)fh.Get_size());
    line("get_byte_offset of etypes 0 1 3", std::to_string(fh.Get_byte_offset(0)) + " " +
                                                std::to_string(fh.Get_byte_offset(1)) + " " +
                                                std::to_string(fh.Get_byte_offset(3)));

    MPI::Offset disp = -1;
    MPI::Datatype et, ft;
    char rep[MPI_MAX_DATAREP_STRING + 1] = "";
    fh.Get_view(disp, et, ft, rep);
    line("get_view, disp", (long)disp);
    line("get_view, etype is INT", et == MPI::INT);
    line("get_view, datarep", rep);
    // The filetype's size, lb, extent, and whether it is derived (a new datatype to free).
    if (ft == MPI::DATATYPE_NULL) {  // (no filetype came back: nothing to ask it)
        line("get_view, filetype size lb extent derived", "DATATYPE_NULL");
    } else {
        MPI::Aint lb = -1, ext = -1;
        ft.Get_extent(lb, ext);
        int ni, na, nd, comb;
        ft.Get_envelope(ni, na, nd, comb);
        line("get_view, filetype size lb extent derived", std::to_string(ft.Get_size()) + " " +
                                                              std::to_string(lb) + " " + std::to_string(ext) +
                                                              " " + std::to_string(comb != MPI::COMBINER_NAMED));
        if (comb != MPI::COMBINER_NAMED) ft.Free();
    }
    fill(b, 8, -1);
    fh.Read_at(1, b, 3, MPI::INT, st);
    line("read_at etype 1 through the view, count", st.Get_count(MPI::INT));
    line("read_at etype 1 through the view, values", ints(b, 4));
    fh.Set_view(0, MPI::BYTE, MPI::BYTE, "native", MPI::INFO_NULL);
    fill(b, 8, -1);
    fh.Read_at(4, &b[0], 1, MPI::INT);
    fh.Read_at(16, &b[1], 1, MPI::INT);
    fh.Read_at(24, &b[2], 1, MPI::INT);
    fh.Read_at(36, &b[3], 1, MPI::INT);
    line("raw ints at bytes 4 16 24 36", ints(b, 4));

    // Nonblocking explicit offsets, completed by MPI::Request::Wait(status).
    int w[2] = {70, 80}, r[4] = {-1, -1, -1, -1};
    MPI::Request req = fh.Iwrite_at(40, w, 2, MPI::INT);
    req.Wait(st);
    line("iwrite_at 40, count", st.Get_count(MPI::INT));
    line("iwrite_at 40, request null after wait", req == MPI::REQUEST_NULL);
    req = fh.Iread_at(36, r, 3, MPI::INT);
    req.Wait(st);
    line("iread_at 36, count", st.Get_count(MPI::INT));
    line("iread_at 36, values", ints(r, 4));
    line("iread_at 36, request null after wait", req == MPI::REQUEST_NULL);
    line("nonblocking explicit offsets, position", (long)fh.Get_position());

    // The shared pointer (§15.4.4), reset by Set_view, apart from the individual one.
    line("shared pointer after set_view", (long)fh.Get_position_shared());
    fh.Seek_shared(48, MPI::SEEK_SET);
    line("seek_shared 48 SEEK_SET, shared position", (long)fh.Get_position_shared());
    int s[2] = {90, 100};
    fh.Seek_shared(48, MPI_SEEK_SET);
    fh.Write_shared(s, 2, MPI::INT, st);
    line("write_shared 2 at 48, count", st.Get_count(MPI::INT));
    line("write_shared 2 at 48, shared position", (long)fh.Get_position_shared());
    line("write_shared 2 at 48, individual position", (long)fh.Get_position());
    fill(b, 8, -1);
    fh.Read_at(48, b, 2, MPI::INT);
    line("write_shared 2 at 48, values", ints(b, 2));

    // A split collective (§15.4.5) through the individual pointer.
    fh.Seek(4, MPI_SEEK_SET);
    fill(r, 4, -1);
    fh.Read_all_begin(r, 1, MPI::INT);
    fh.Read_all_end(r, st);
    line("read_all_end, count", st.Get_count(MPI::INT));
    line("read_all_end, value", r[0]);
    line("read_all, position", (long)fh.Get_position());
    fh.Close();
}

// Error handlers (§15.7, §10.3.3) and the classes of failed calls (§15.8) through exceptions.
void errors()
{
    MPI::Errhandler eh = MPI::FILE_NULL.Get_errhandler();
    line("default file error handler is ERRORS_RETURN", eh == MPI::ERRORS_RETURN);

    MPI::File fh = MPI::File::Open(MPI::COMM_SELF, path("basic").c_str(), MPI::MODE_RDWR, MPI::INFO_NULL);
    line("new file has ERRORS_RETURN", fh.Get_errhandler() == MPI::ERRORS_RETURN);
    MPI::Errhandler mine = MPI::File::Create_errhandler(on_file);
    fh.Set_errhandler(mine);
    line("get_errhandler gives the handler set", fh.Get_errhandler() == mine);
    int before = handler_calls;
    fh.Seek(0, 12345);
    line("seek with a bad whence, handler calls", handler_calls - before);
    line("seek with a bad whence, the handler got the file", handler_file == fh);
    line("seek with a bad whence, the handler got an error", handler_code != MPI::SUCCESS);
    before = handler_calls;
    fh.Get_size();
    line("a call that succeeds runs no handler", handler_calls - before);
    before = handler_calls;
    fh.Call_errhandler(MPI::ERR_IO);
    line("call_errhandler ERR_IO, handler calls", handler_calls - before);
    line("call_errhandler ERR_IO, the handler got the file", handler_file == fh);
    line("call_errhandler ERR_IO, the handler got the code", class_name(handler_code));
    // §15.7: an error with no file (Open's, Delete's) goes to MPI::FILE_NULL's handler, whose
    // first argument is then MPI::FILE_NULL.
    MPI::FILE_NULL.Set_errhandler(mine);
    before = handler_calls;
    handler_file = fh;
    MPI::File missing = MPI::File::Open(MPI::COMM_SELF, path("missing").c_str(), MPI::MODE_RDONLY, MPI::INFO_NULL);
    line("open a missing file, FILE_NULL's handler calls", handler_calls - before);
    line("open a missing file, the handler got FILE_NULL", handler_file == MPI::FILE_NULL);
    line("open a missing file, the handler got the code", class_name(MPI::Get_error_class(handler_code)));
    MPI::FILE_NULL.Set_errhandler(MPI::ERRORS_RETURN);
    fh.Set_errhandler(MPI::ERRORS_RETURN);
    mine.Free();
    line("freed handler is ERRHANDLER_NULL", mine == MPI::ERRHANDLER_NULL);
    fh.Close();

    // A read of a file opened MODE_WRONLY under ERRORS_THROW_EXCEPTIONS.
    fh = MPI::File::Open(MPI::COMM_SELF, path("basic").c_str(), MPI::MODE_WRONLY, MPI::INFO_NULL);
    fh.Set_errhandler(MPI::ERRORS_THROW_EXCEPTIONS);
    line("set ERRORS_THROW_EXCEPTIONS on a file", fh.Get_errhandler() == MPI::ERRORS_THROW_EXCEPTIONS);
    int b[2];
    MPI::Status st;
    std::string what = "no exception";
    try {
        fh.Read(b, 1, MPI::INT, st);
    } catch (MPI::Exception& e) {
        what = class_name(e.Get_error_class()) + ", code's class " +
               std::to_string(MPI::Get_error_class(e.Get_error_code()) == e.Get_error_class());
    }
    line("read a WRONLY file", what);
    what = "no exception";
    try {
        fh.Read_at(0, b, 1, MPI::INT, st);
    } catch (MPI::Exception& e) {
        what = class_name(e.Get_error_class());
    }
    line("read_at a WRONLY file", what);
    fh.Set_errhandler(MPI::ERRORS_RETURN);
    fh.Close();

    // Open and Delete report to MPI::FILE_NULL's handler.
    MPI::FILE_NULL.Set_errhandler(MPI::ERRORS_THROW_EXCEPTIONS);
    what = "no exception";
    try {
        MPI::File f = MPI::File::Open(MPI::COMM_SELF, path("missing").c_str(), MPI::MODE_RDONLY, MPI::INFO_NULL);
        f.Close();
    } catch (MPI::Exception& e) {
        what = class_name(e.Get_error_class());
    }
    line("open a missing file", what);
    what = "no exception";
    try {
        MPI::File f = MPI::File::Open(MPI::COMM_SELF, path("basic").c_str(),
                                      MPI::MODE_CREATE | MPI::MODE_EXCL | MPI::MODE_RDWR, MPI::INFO_NULL);
        f.Close();
    } catch (MPI::Exception& e) {
        what = class_name(e.Get_error_class());
    }
    line("open MODE_EXCL an existing file", what);
    what = "no exception";
    try {
        MPI::File::Delete(path("missing").c_str(), MPI::INFO_NULL);
    } catch (MPI::Exception& e) {
        what = class_name(e.Get_error_class());
    }
    line("delete a missing file", what);
    MPI::FILE_NULL.Set_errhandler(MPI::ERRORS_RETURN);
}

}  // namespace

int main(int argc, char** argv)
{
    MPI::Init(argc, argv);
    std::snprintf(dir, sizeof dir, "/tmp/mpiattr-cxx-fileio-XXXXXX");
    if (!mkdtemp(dir)) {
        line("mkdtemp failed", 1);
        MPI::Finalize();
        return 1;
    }
    line("SEEK_SET, SEEK_CUR, SEEK_END of namespace MPI are MPI_SEEK_SET, _CUR, _END",
         MPI::SEEK_SET == MPI_SEEK_SET && MPI::SEEK_CUR == MPI_SEEK_CUR && MPI::SEEK_END == MPI_SEEK_END);
    basics();
    views_and_access();
    errors();
    MPI::File::Delete(path("basic").c_str(), MPI::INFO_NULL);
    line("deleted file exists", exists(path("basic")));
    MPI::File::Delete(path("view").c_str(), MPI::INFO_NULL);
    line("temporary directory removed", rmdir(dir) == 0);
    MPI::Finalize();
    return 0;
}
