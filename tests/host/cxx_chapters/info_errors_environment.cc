// info_errors_environment.cc: MPI-2.2 chapters 8 and 9 (environment, info) and §12.4 (threads)
// through the MPI:: bindings (Annex A.4.7, A.4.8, A.4.11, A.4.15) on 4 ranks: MPI::Info
// (Create, Set, Get, Get_valuelen, Get_nkeys, Get_nthkey, Delete, Dup, Free); error handling
// (ERRORS_THROW_EXCEPTIONS with MPI::Exception's Get_error_class, Get_error_code and
// Get_error_string, also through a const reference; ERRORS_RETURN; a communicator handler of the
// program's own; Add_error_class, Add_error_code, Add_error_string with Get_error_class and
// Get_error_string); Init_thread, Query_thread, Is_thread_main; Get_processor_name, Get_version,
// Is_initialized, Is_finalized, Wtime and Wtick (checked, not printed), Alloc_mem, Free_mem.
#include "chapter_out.h"

#include <cstring>

using chapter::all;
using chapter::error_class_name;
using chapter::one;

static int handler_calls = 0, handler_code = 0;
static void comm_handler(MPI::Comm& comm, int* code, ...)
{
    handler_calls++;
    handler_code = *code;
    (void)comm;
}

static std::string describe(MPI::Exception& e)
{
    return error_class_name(e.Get_error_class()) + " code is class " +
           std::to_string(e.Get_error_code() == e.Get_error_class()) + " string " +
           std::to_string(std::strlen(e.Get_error_string()) > 0);
}

int main(int argc, char** argv)
{
    const bool initialized_before = MPI::Is_initialized();
    int provided = MPI::Init_thread(argc, argv, MPI::THREAD_FUNNELED);
    const MPI::Intracomm& world = MPI::COMM_WORLD;
    const int rank = world.Get_rank();
    one("ranks", world.Get_size());
    one("is_initialized before init", initialized_before);
    one("is_initialized", MPI::Is_initialized());
    one("is_finalized", MPI::Is_finalized());
    all("init_thread provided at least FUNNELED", provided >= MPI::THREAD_FUNNELED);
    all("query_thread equals provided", MPI::Query_thread() == provided);
    all("is_thread_main", MPI::Is_thread_main());
    one("thread levels ordered", MPI::THREAD_SINGLE < MPI::THREAD_FUNNELED &&
                                     MPI::THREAD_FUNNELED < MPI::THREAD_SERIALIZED &&
                                     MPI::THREAD_SERIALIZED < MPI::THREAD_MULTIPLE);
    {
        char name[MPI::MAX_PROCESSOR_NAME];
        int len = -1;
        MPI::Get_processor_name(name, len);
        all("processor name length matches", len > 0 && (int)std::strlen(name) == len);
        int version = 0, subversion = -1;
        MPI::Get_version(version, subversion);
        one("version at least 2.2", version > 2 || (version == 2 && subversion >= 2));
        double t0 = MPI::Wtime();
        world.Barrier();
        double t1 = MPI::Wtime();
        all("wtime does not go back", t1 >= t0);
        all("wtick positive", MPI::Wtick() > 0 && MPI::Wtick() < 1);
        void* mem = MPI::Alloc_mem(1024, MPI::INFO_NULL);
        std::memset(mem, 1, 1024);
        MPI::Free_mem(mem);
        all("alloc_mem gave memory", mem != 0);
    }

    // Info objects.
    {
        MPI::Info info = MPI::Info::Create();
        info.Set("color", "blue");
        info.Set("size", "12");
        info.Set("color", "red");  // replaces
        all("info nkeys", info.Get_nkeys());
        char value[MPI::MAX_INFO_VAL];
        bool found = info.Get("color", MPI::MAX_INFO_VAL - 1, value);
        one("info get", std::to_string(found) + " " + value);
        int len = -1;
        found = info.Get_valuelen("size", len);
        one("info get_valuelen", std::to_string(found) + " " + std::to_string(len));
        found = info.Get("shape", MPI::MAX_INFO_VAL - 1, value);
        one("info get of a missing key", found);
        found = info.Get_valuelen("shape", len);
        one("info get_valuelen of a missing key", found);
        char key[MPI::MAX_INFO_KEY];
        std::string keys;
        for (int i = 0; i < info.Get_nkeys(); i++) {
            info.Get_nthkey(i, key);
            keys += (i ? "," : "") + std::string(key);
        }
        one("info keys in order", keys);
        MPI::Info dup = info.Dup();
        info.Delete("color");
        one("info nkeys after delete", info.Get_nkeys());
        one("dup keeps the key", dup.Get("color", MPI::MAX_INFO_VAL - 1, value) ? value : "missing");
        dup.Free();
        info.Free();
        one("freed info is INFO_NULL", info == MPI::INFO_NULL && dup == MPI::INFO_NULL);
    }

    // ERRORS_THROW_EXCEPTIONS on COMM_WORLD.
    {
        MPI::Errhandler before = world.Get_errhandler();
        one("default handler is ERRORS_ARE_FATAL", before == MPI::ERRORS_ARE_FATAL);
        MPI::COMM_WORLD.Set_errhandler(MPI::ERRORS_THROW_EXCEPTIONS);
        std::string what = "no exception";
        int v = 0;
        try {
            world.Send(&v, 1, MPI::INT, world.Get_size(), 0);  // no such rank
        } catch (MPI::Exception& e) {
            what = describe(e);
        }
        all("send to a rank out of range", what);
        what = "no exception";
        try {
            world.Bcast(&v, -1, MPI::INT, 0);  // negative count
        } catch (MPI::Exception& e) {
            what = error_class_name(e.Get_error_class());
        }
        all("bcast with a negative count", what);
        what = "no exception";
        try {
            MPI::Info info = MPI::Info::Create();
            info.Delete("never set");  // no communicator: COMM_WORLD's handler (MPI-2.2 §8.3)
            info.Free();
        } catch (MPI::Exception& e) {
            what = error_class_name(e.Get_error_class());
        }
        all("info delete of a missing key", what);
        what = "no exception";
        try {
            world.Call_errhandler(MPI::ERR_OTHER);
        } catch (MPI::Exception& e) {
            what = describe(e);
        }
        all("call_errhandler throws", what);
#if defined(MPICH_VERSION) && !defined(MPIATTR_OVER_HOST)
        // MPICH's Exception getters are not const (divergences.toml).
        one("exception caught by const reference", "does not compile");
#else
        what = "no exception";
        try {
            world.Call_errhandler(MPI::ERR_ARG);
        } catch (const MPI::Exception& e) {  // MPI-2.2 A.4.15: the getters are const
            what = error_class_name(e.Get_error_class()) + " " +
                   std::to_string(e.Get_error_code() == MPI::ERR_ARG) + " " +
                   std::to_string(std::strlen(e.Get_error_string()) > 0);
        }
        all("exception caught by const reference", what);
#endif

        // A class, a code in it and their strings; raised through Call_errhandler.
        int cls = MPI::Add_error_class();
        int code = MPI::Add_error_code(cls);
        MPI::Add_error_string(cls, "chapter class");
        MPI::Add_error_string(code, "chapter code");
        int* last = 0;
        bool has_last = world.Get_attr(MPI::LASTUSEDCODE, &last);
        all("lastusedcode covers the added code", has_last && *last >= code && *last >= cls);
        one("added code's class", MPI::Get_error_class(code) == cls);
        one("added class is its own class", MPI::Get_error_class(cls) == cls);
        char s[MPI::MAX_ERROR_STRING] = "";  // (read even if a call failed)
        int len = -1;
        MPI::Get_error_string(code, s, len);
        one("added code's string", std::string(s) + " (" + std::to_string(len) + ")");
        MPI::Get_error_string(cls, s, len);
        one("added class's string", s);
        what = "no exception";
        try {
            world.Call_errhandler(code);
        } catch (MPI::Exception& e) {
            what = std::string(e.Get_error_code() == code ? "code" : "other code") +
                   (e.Get_error_class() == cls ? " class " : " other class ") + e.Get_error_string();
        }
        all("call_errhandler with the added code", what);

        // ERRORS_RETURN: the C++ call returns, nothing is thrown.
        MPI::COMM_WORLD.Set_errhandler(MPI::ERRORS_RETURN);
        what = "returned";
        try {
            world.Send(&v, 1, MPI::INT, world.Get_size(), 0);
        } catch (MPI::Exception& e) {
            what = "threw " + error_class_name(e.Get_error_class());
        }
        all("send out of range under ERRORS_RETURN", what);

        // A handler of the program's own, on a duplicate of COMM_WORLD.
        MPI::Errhandler mine = MPI::Comm::Create_errhandler(comm_handler);
        MPI::Intracomm dup = world.Dup();
        dup.Set_errhandler(mine);
        dup.Call_errhandler(code);
        all("own handler calls", handler_calls);
        all("own handler code is the added code", handler_code == code);
        dup.Send(&v, 1, MPI::INT, world.Get_size(), 0);
        all("own handler calls after a bad send", handler_calls);
        all("own handler class of the bad send", MPI::Get_error_class(handler_code) == MPI::ERR_RANK);
        MPI::Errhandler got = dup.Get_errhandler();
        all("get_errhandler gives it", got == mine);
        got.Free();
        mine.Free();
        dup.Free();
        before.Free();
    }

    MPI::COMM_WORLD.Set_errhandler(MPI::ERRORS_ARE_FATAL);
    world.Barrier();
    MPI::Finalize();
    if (rank == 0) std::printf("is_finalized after finalize: %d\n", MPI::Is_finalized() ? 1 : 0);
    return 0;
}
