// rma_fence_pscw_lock.cc: MPI-2.2 chapter 11 (one-sided communication) through the MPI::
// bindings (Annex A.4.10) on 4 ranks: Win::Create, the window's group, name and predefined
// attributes, then Put, Get and Accumulate in the three synchronisations: Fence;
// Start/Complete with Post/Wait (and Win::Test); Lock/Unlock, exclusive and shared; a window
// error handler of the program's own and ERRORS_THROW_EXCEPTIONS with Win::Call_errhandler.
#include "chapter_out.h"

#include <cstring>

using chapter::all;
using chapter::one;

static int handler_calls = 0, handler_code = 0;
static void win_handler(MPI::Win& win, int* code, ...)
{
    handler_calls++;
    handler_code = *code;
    (void)win;
}

int main(int argc, char** argv)
{
    MPI::Init(argc, argv);
    const MPI::Intracomm& world = MPI::COMM_WORLD;
    const int rank = world.Get_rank(), size = world.Get_size();
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    one("ranks", size);

    int buf[8];
    for (int i = 0; i < 8; i++) buf[i] = 100 * rank + i;
    MPI::Win win = MPI::Win::Create(buf, sizeof buf, sizeof(int), MPI::INFO_NULL, world);
    all("win not null", win != MPI::WIN_NULL);

    {
        MPI::Group g = win.Get_group(), wg = world.Get_group();
        all("win group is world's", MPI::Group::Compare(g, wg) == MPI::IDENT);
        all("win group size", g.Get_size());
        g.Free();
        wg.Free();
        win.Set_name("chapter window");
        char name[MPI::MAX_OBJECT_NAME];
        int len = -1;
        win.Get_name(name, len);
        all("win get_name", std::string(name));
        all("win get_name length", len);
        MPI::Aint* wsize = 0;
        int* unit = 0;
        bool has_size = win.Get_attr(MPI::WIN_SIZE, &wsize);
        bool has_unit = win.Get_attr(MPI::WIN_DISP_UNIT, &unit);
        all("win size attribute", has_size ? (int)*wsize : -1);
        all("win disp_unit attribute", has_unit ? *unit : -1);
    }

    {
        // Fence: Put to the right neighbour's buf[0], Get the left one's buf[1], Accumulate 1 into
        // rank 0's buf[2].
        win.Fence(MPI::MODE_NOPRECEDE);
        int put = 10 * rank + 1, got = -1, one_ = 1;
        win.Put(&put, 1, MPI::INT, right, 0, 1, MPI::INT);
        win.Get(&got, 1, MPI::INT, left, 1, 1, MPI::INT);
        win.Accumulate(&one_, 1, MPI::INT, 0, 2, 1, MPI::INT, MPI::SUM);
        win.Fence(MPI::MODE_NOSUCCEED);
        all("fence put", buf[0]);
        all("fence get", got);
        all("fence accumulate", buf[2]);
    }

    {
        // Post/Start: each odd rank writes into the even rank before it (buf[3]); the even
        // ranks wait for it with Wait, then a second round with Test.
        MPI::Group wg = world.Get_group();
        int peer = rank % 2 == 0 ? rank + 1 : rank - 1;
        MPI::Group pg = wg.Incl(1, &peer);
        for (int round = 0; round < 2; round++) {
            if (rank % 2 == 0) {
                win.Post(pg, 0);
                if (round == 0) {
                    win.Wait();
                } else {
                    while (!win.Test()) {
                    }
                }
            } else {
                int v = 1000 * (round + 1) + rank;
                win.Start(pg, 0);
                win.Put(&v, 1, MPI::INT, peer, 3 + round, 1, MPI::INT);
                win.Complete();
            }
        }
        all("post start put (wait)", buf[3]);
        all("post start put (test)", buf[4]);
        pg.Free();
        wg.Free();
    }

    {
        // Lock: every rank adds rank+1 into rank 0's buf[5] under an exclusive lock; after a
        // barrier every rank reads it under a shared lock, and the right neighbour's buf[6].
        int add = rank + 1;
        win.Lock(MPI::LOCK_EXCLUSIVE, 0, 0);
        win.Accumulate(&add, 1, MPI::INT, 0, 5, 1, MPI::INT, MPI::SUM);
        win.Unlock(0);
        world.Barrier();
        int total = -1, neighbour = -1;
        win.Lock(MPI::LOCK_SHARED, 0, 0);
        win.Get(&total, 1, MPI::INT, 0, 5, 1, MPI::INT);
        win.Unlock(0);
        win.Lock(MPI::LOCK_SHARED, right, MPI::MODE_NOCHECK);
        win.Get(&neighbour, 1, MPI::INT, right, 6, 1, MPI::INT);
        win.Unlock(right);
        all("lock exclusive accumulate", total);
        all("lock shared get", neighbour);
    }

    {
        MPI::Errhandler mine = MPI::Win::Create_errhandler(win_handler);
        win.Set_errhandler(mine);
        win.Call_errhandler(MPI::ERR_WIN);
        all("win own handler calls", handler_calls);
        all("win own handler code is ERR_WIN", handler_code == MPI::ERR_WIN);
        MPI::Errhandler got = win.Get_errhandler();
        all("win get_errhandler is own", got == mine);
        got.Free();
        mine.Free();

        win.Set_errhandler(MPI::ERRORS_THROW_EXCEPTIONS);
        std::string what = "no exception";
        try {
            win.Call_errhandler(MPI::ERR_RMA_SYNC);
        } catch (MPI::Exception& e) {
            what = chapter::error_class_name(e.Get_error_class()) + " code " +
                   chapter::error_class_name(e.Get_error_code());
        }
        all("win call_errhandler throws", what);
    }

    win.Free();
    all("win null after free", win == MPI::WIN_NULL);
    world.Barrier();
    MPI::Finalize();
    return 0;
}
