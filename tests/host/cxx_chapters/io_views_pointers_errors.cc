// io_views_pointers_errors.cc: MPI-2.2 chapter 13 (I/O) through the MPI:: bindings (Annex
// A.4.13) on 4 ranks, in the working directory: File::Open and the file's amode, group and info;
// explicit offsets (Write_at/Read_at, their collective and nonblocking forms), an interleaved
// view (Set_view, Get_view, Get_byte_offset, Get_type_extent), individual pointers (Seek with
// MPI::SEEK_SET and SEEK_CUR, Get_position), the shared pointer (Write_ordered, Read_ordered,
// Write_shared, Seek_shared), atomicity, Preallocate, Set_size and Get_size, Close, File::Delete;
// file error handlers (the default ERRORS_RETURN on FILE_NULL, one of the program's own, and
// ERRORS_THROW_EXCEPTIONS: MPI::Exception with the error class).
#include "chapter_out.h"

#include <algorithm>

using chapter::all;
using chapter::one;

static const char* const kFile = "cxx_chapter_io.dat";

static int handler_calls = 0, handler_class = -1;
static void file_handler(MPI::File& file, int* code, ...)
{
    handler_calls++;
    handler_class = MPI::Get_error_class(*code);
    (void)file;
}

static std::string caught(MPI::Exception& e)
{
    return chapter::error_class_name(e.Get_error_class());
}

int main(int argc, char** argv)
{
    MPI::Init(argc, argv);
    const MPI::Intracomm& world = MPI::COMM_WORLD;
    const int rank = world.Get_rank(), size = world.Get_size();
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    one("ranks", size);

    {
        MPI::Errhandler h = MPI::FILE_NULL.Get_errhandler();
        one("default file error handler is ERRORS_RETURN", h == MPI::ERRORS_RETURN);
        if (h != MPI::ERRORS_RETURN) h.Free();
    }
    if (rank == 0) {  // a file left by an earlier run (ERRORS_RETURN: no error if there is none)
        MPI::File::Delete(kFile, MPI::INFO_NULL);
    }
    world.Barrier();
    MPI::FILE_NULL.Set_errhandler(MPI::ERRORS_THROW_EXCEPTIONS);

    MPI::File fh = MPI::File::Open(world, kFile, MPI::MODE_CREATE | MPI::MODE_RDWR, MPI::INFO_NULL);
    all("open not null", fh != MPI::FILE_NULL);
    all("amode", fh.Get_amode() == (MPI::MODE_CREATE | MPI::MODE_RDWR));
    {
        MPI::Group g = fh.Get_group(), wg = world.Get_group();
        all("file group is world's", MPI::Group::Compare(g, wg) == MPI::IDENT);
        g.Free();
        wg.Free();
        MPI::Errhandler h = fh.Get_errhandler();
        all("file inherits FILE_NULL's handler", h == MPI::ERRORS_THROW_EXCEPTIONS);
    }
    all("atomicity default", fh.Get_atomicity());
    fh.Set_atomicity(true);
    all("atomicity after set", fh.Get_atomicity());
    fh.Set_atomicity(false);

    // Explicit offsets (bytes: the default view): rank r's four ints at 16r.
    {
        int out[4], in[4] = {-1, -1, -1, -1};
        for (int i = 0; i < 4; i++) out[i] = 10 * rank + i;
        MPI::Status st;
        fh.Write_at(16 * rank, out, 4, MPI::INT, st);
        all("write_at count", st.Get_count(MPI::INT));
        // Collective forms at 64 + 8r, nonblocking ones at 96 + 4r.
        int two[2] = {rank + 50, rank + 60}, back[2] = {-1, -1};
        fh.Write_at_all(64 + 8 * rank, two, 2, MPI::INT);
        int v = 7 * rank, w = -1;
        MPI::Request r = fh.Iwrite_at(96 + 4 * rank, &v, 1, MPI::INT);
        r.Wait();
        fh.Sync();  // what the others wrote is visible after sync, barrier, sync (§13.6.1)
        world.Barrier();
        fh.Sync();
        fh.Read_at(16 * right, in, 4, MPI::INT, st);
        all("read_at right's", in[0] * 1000 + in[3]);
        all("read_at count", st.Get_count(MPI::INT));
        all("size after the writes", (int)fh.Get_size());
        fh.Read_at_all(64 + 8 * left, back, 2, MPI::INT, st);
        all("read_at_all left's", back[0] * 100 + back[1]);
        all("read_at_all count", st.Get_count(MPI::INT));
        r = fh.Iread_at(96 + 4 * right, &w, 1, MPI::INT);
        r.Wait(st);
        all("iread_at right's", w);
        all("iread_at count", st.Get_count(MPI::INT));
    }

    // An interleaved view from byte 128: rank r sees ints r, r+4, r+8, ...
    {
        MPI::Datatype every4 = MPI::INT.Create_resized(0, 4 * sizeof(int));
        every4.Commit();
        fh.Set_view(128 + rank * sizeof(int), MPI::INT, every4, "native", MPI::INFO_NULL);
        MPI::Offset disp = -1;
        MPI::Datatype etype, ftype;
        char rep[MPI::MAX_DATAREP_STRING + 1] = "";
        fh.Get_view(disp, etype, ftype, rep);
        std::string view = "disp " + std::to_string((long)disp);
        view += etype == MPI::INT ? " etype INT" : " etype other";
        if (ftype == MPI::DATATYPE_NULL) {
            view += " filetype null";
        } else {  // a new datatype, like every4 (MPI-2.2 §13.3): the program frees it
            int ni, na, nd, combiner;
            ftype.Get_envelope(ni, na, nd, combiner);
            view += " filetype " + chapter::combiner_name(combiner);
            ftype.Free();
        }
        all("get_view", view + " " + rep);
        int out[3] = {rank, rank + 10, rank + 20};
        fh.Write_all(out, 3, MPI::INT);
        all("position after write_all", (int)fh.Get_position());
        all("byte offset of position 3", (int)fh.Get_byte_offset(3));
        all("type extent of INT", (int)fh.Get_type_extent(MPI::INT));
        fh.Sync();
        world.Barrier();
        fh.Sync();
        // Setting the view again puts the individual pointer back to 0 (MPI-2.2 §13.3).
        fh.Set_view(128 + rank * sizeof(int), MPI::INT, every4, "native", MPI::INFO_NULL);
        int in[3] = {-1, -1, -1};
        fh.Read_all(in, 3, MPI::INT);
        all("read_all own view", in[0] * 10000 + in[1] * 100 + in[2]);
        // Seek (position 3 now): to 1 from the start, read one; back 2 from there.
        fh.Seek(1, MPI::SEEK_SET);
        int second = -1;
        fh.Read(&second, 1, MPI::INT);
        std::string seek = "set 1 read " + std::to_string(second);
        fh.Seek(-2, MPI::SEEK_CUR);
        seek += " cur -2 position " + std::to_string((long)fh.Get_position());
        all("seek", seek);
        every4.Free();
        // The whole region through a plain byte view, on rank 0.
        fh.Set_view(0, MPI::INT, MPI::INT, "native", MPI::INFO_NULL);
        int region[12];
        fh.Read_at(32, region, 12, MPI::INT);
        one("interleaved region", chapter::ints(region, 12));
    }

    // The shared pointer, in a view of ints from byte 512 (a new view puts it at 0).
    {
        fh.Set_view(512, MPI::INT, MPI::INT, "native", MPI::INFO_NULL);
        int out[2] = {rank, 10 + rank}, in[2] = {-1, -1};
        fh.Write_ordered(out, 2, MPI::INT);
        all("shared position after write_ordered", (int)fh.Get_position_shared());
        fh.Sync();
        world.Barrier();
        fh.Sync();
        fh.Set_view(512, MPI::INT, MPI::INT, "native", MPI::INFO_NULL);
        fh.Read_ordered(in, 2, MPI::INT);
        all("read_ordered", in[0] * 100 + in[1]);
        int mine = 100 + rank;
        fh.Write_shared(&mine, 1, MPI::INT);  // ints 8..11, in any order
        fh.Sync();
        world.Barrier();
        fh.Sync();
        int four[4] = {-1, -1, -1, -1};
        fh.Read_at(8, four, 4, MPI::INT);
        std::sort(four, four + 4);
        all("write_shared values (sorted)", four[0] == 100 && four[1] == 101 && four[2] == 102 && four[3] == 103);
        fh.Seek_shared(2, MPI::SEEK_SET);
        all("seek_shared set 2 gives position 2", fh.Get_position_shared() == 2);
    }

    // (Set_size after Preallocate makes Open MPI 4.1's MPI_File_close hang: this order.)
    fh.Set_size(400);
    all("size after set_size", (int)fh.Get_size());
    fh.Preallocate(1000);
    all("size at least preallocated", fh.Get_size() >= 1000);
    {
        MPI::Info info = fh.Get_info();
        all("get_info not null", info != MPI::INFO_NULL);
        info.Free();
    }

    // A handler of the program's own on the file, then ERRORS_THROW_EXCEPTIONS on it.
    {
        MPI::Errhandler mine = MPI::File::Create_errhandler(file_handler);
        fh.Set_errhandler(mine);
        fh.Call_errhandler(MPI::ERR_IO);
        all("file own handler calls", handler_calls);
        all("file own handler class is ERR_IO", handler_class == MPI::ERR_IO);
        mine.Free();
        fh.Set_errhandler(MPI::ERRORS_THROW_EXCEPTIONS);
        std::string what = "no exception";
        try {
            fh.Call_errhandler(MPI::ERR_FILE);
        } catch (MPI::Exception& e) {
            what = caught(e);
        }
        all("file call_errhandler throws", what);
    }

    fh.Close();
    all("closed file is null", fh == MPI::FILE_NULL);
    world.Barrier();
    if (rank == 0) MPI::File::Delete(kFile, MPI::INFO_NULL);
    world.Barrier();

    // The file is gone: opening it without MODE_CREATE raises ERR_NO_SUCH_FILE on FILE_NULL's
    // handler, ERRORS_THROW_EXCEPTIONS.
    {
        std::string what = "no exception";
        try {
            MPI::File again = MPI::File::Open(world, kFile, MPI::MODE_RDONLY, MPI::INFO_NULL);
            what = "opened";
            again.Close();
        } catch (MPI::Exception& e) {
            what = caught(e);
        }
        all("open of the deleted file throws", what);
        what = "no exception";
        try {
            if (rank == 0) MPI::File::Delete(kFile, MPI::INFO_NULL);
        } catch (MPI::Exception& e) {
            what = caught(e);
        }
        one("delete of the deleted file throws", what);
    }

    MPI::FILE_NULL.Set_errhandler(MPI::ERRORS_RETURN);
    world.Barrier();
    MPI::Finalize();
    return 0;
}
