// p2p_modes_requests_status.cc: MPI-2.2 chapter 3 (point-to-point) through the MPI:: bindings
// (Annex A.4.1), as a legacy C++ code uses them on 4 ranks: the four send modes (Bsend through an
// attached buffer), nonblocking and persistent requests (MPI::Prequest), Sendrecv, Probe and the
// Status queries, the Wait/Test families (Waitsome, Testsome, Waitany, Testany, Testall), a
// cancelled receive, and Status's setters.
#include "chapter_out.h"

#include <algorithm>
#include <vector>

using chapter::all;
using chapter::one;

int main(int argc, char** argv)
{
    MPI::Init(argc, argv);
    const MPI::Intracomm& world = MPI::COMM_WORLD;
    const int rank = world.Get_rank(), size = world.Get_size();
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    one("ranks", size);

    // Standard mode around the ring: even ranks send first, odd ranks receive first.
    {
        int out[3] = {rank, 10 * rank, 100 * rank}, in[3] = {-1, -1, -1};
        MPI::Status st;
        if (rank % 2 == 0) {
            world.Send(out, 3, MPI::INT, right, 7);
            world.Recv(in, 3, MPI::INT, left, 7, st);
        } else {
            world.Recv(in, 3, MPI::INT, left, MPI::ANY_TAG, st);
            world.Send(out, 3, MPI::INT, right, 7);
        }
        all("send recv value", in[1]);
        all("recv status source", st.Get_source());
        all("recv status tag", st.Get_tag());
        all("recv status count", st.Get_count(MPI::INT));
        all("recv status elements", st.Get_elements(MPI::INT));
    }

    // Synchronous mode, same pattern.
    {
        double out = rank + 0.5, in = -1;
        if (rank % 2 == 0) {
            world.Ssend(&out, 1, MPI::DOUBLE, right, 8);
            world.Recv(&in, 1, MPI::DOUBLE, left, 8);
        } else {
            world.Recv(&in, 1, MPI::DOUBLE, left, 8);
            world.Ssend(&out, 1, MPI::DOUBLE, right, 8);
        }
        all("ssend value x2", (int)(2 * in));
    }

    // Ready mode: the receive is posted before the barrier, the Rsend comes after it.
    {
        int out = 1000 + rank, in = -1;
        MPI::Request r = world.Irecv(&in, 1, MPI::INT, left, 9);
        world.Barrier();
        world.Rsend(&out, 1, MPI::INT, right, 9);
        r.Wait();
        all("rsend value", in);
        all("request null after wait", r == MPI::REQUEST_NULL);
    }

    // Buffered mode through an attached buffer, then the buffer detached.
    {
        const int n = 4;
        int bufsize = MPI::INT.Pack_size(n, world) + MPI::BSEND_OVERHEAD;
        bufsize += MPI::INT.Pack_size(1, world) + MPI::BSEND_OVERHEAD;  // the Ibsend below
        char* buffer = new char[bufsize];
        MPI::Attach_buffer(buffer, bufsize);
        int out[n] = {rank, rank, rank, rank}, in[n] = {0, 0, 0, 0};
        world.Bsend(out, n, MPI::INT, right, 10);
        int one_out = -rank, one_in = 1;
        MPI::Request ib = world.Ibsend(&one_out, 1, MPI::INT, right, 11);
        world.Recv(in, n, MPI::INT, left, 10);
        world.Recv(&one_in, 1, MPI::INT, left, 11);
        ib.Wait();
        void* detached = 0;
        int detached_size = MPI::Detach_buffer(detached);
        all("bsend values", in[0] + in[1] + in[2] + in[3]);
        all("ibsend value", one_in);
        all("detach gives the attached buffer", detached == (void*)buffer);
        all("detach gives the attached size", detached_size == bufsize);
        delete[] buffer;
    }

    // Nonblocking: receives from both neighbours, sends to both, Waitall with statuses.
    {
        int from_left = -1, from_right = -1, to_right = rank, to_left = 50 + rank;
        MPI::Request reqs[4];
        MPI::Status sts[4];
        reqs[0] = world.Irecv(&from_left, 1, MPI::INT, left, 20);
        reqs[1] = world.Irecv(&from_right, 1, MPI::INT, right, 21);
        reqs[2] = world.Isend(&to_right, 1, MPI::INT, right, 20);
        reqs[3] = world.Issend(&to_left, 1, MPI::INT, left, 21);
        MPI::Request::Waitall(4, reqs, sts);
        all("isend irecv from left", from_left);
        all("isend irecv from right", from_right);
        all("waitall status sources", sts[0].Get_source() * 10 + sts[1].Get_source());
        all("waitall status tags", sts[0].Get_tag() * 100 + sts[1].Get_tag());
        int nulls = 0;
        for (int i = 0; i < 4; i++) nulls += reqs[i] == MPI::REQUEST_NULL;
        all("waitall leaves null requests", nulls);
        all("testall on null requests", MPI::Request::Testall(4, reqs));
    }

    // Persistent requests: one Send_init/Recv_init pair started three times.
    {
        int out = 0, in = -1, sum = 0;
        MPI::Prequest send = world.Send_init(&out, 1, MPI::INT, right, 30);
        MPI::Prequest recv = world.Recv_init(&in, 1, MPI::INT, left, 30);
        for (int round = 0; round < 3; round++) {
            out = 100 * round + rank;
            if (round == 0) {
                recv.Start();
                send.Start();
            } else {
                MPI::Prequest both[2] = {recv, send};
                MPI::Prequest::Startall(2, both);
                recv = both[0];
                send = both[1];
            }
            MPI::Status st;
            recv.Wait(st);
            send.Wait();
            sum += in;
            if (round == 2) all("persistent status source", st.Get_source());
        }
        all("persistent sum over 3 rounds", sum);
        all("persistent request stays after wait", send != MPI::REQUEST_NULL);
        send.Free();
        recv.Free();
        all("persistent request null after free", send == MPI::REQUEST_NULL);
    }

    // Sendrecv and Sendrecv_replace: a shift to the right.
    {
        int out = 7 * rank, in = -1;
        MPI::Status st;
        world.Sendrecv(&out, 1, MPI::INT, right, 40, &in, 1, MPI::INT, left, 40, st);
        all("sendrecv value", in);
        all("sendrecv status source", st.Get_source());
        int buf[2] = {rank, rank + 1};
        world.Sendrecv_replace(buf, 2, MPI::INT, right, 41, left, 41, st);
        all("sendrecv_replace values", buf[0] * 10 + buf[1]);
        all("sendrecv_replace status count", st.Get_count(MPI::INT));
    }

    // Probe: the size of an incoming message before receiving it.
    {
        std::vector<double> out(rank + 2, rank);
        MPI::Request r = world.Isend(&out[0], rank + 2, MPI::DOUBLE, right, 50 + rank);
        MPI::Status st;
        world.Probe(left, MPI::ANY_TAG, st);  // left sends this before its tag-60 messages
        int count = st.Get_count(MPI::DOUBLE);
        all("probe status source", st.Get_source());
        all("probe status tag", st.Get_tag());
        all("probe status count", count);
        all("probe count in bytes", st.Get_count(MPI::BYTE));
        std::vector<double> in(count);
        bool there = world.Iprobe(st.Get_source(), st.Get_tag());
        all("iprobe after probe", there);
        world.Recv(&in[0], count, MPI::DOUBLE, st.Get_source(), st.Get_tag());
        r.Wait();
        all("iprobe for a tag nobody sends", world.Iprobe(MPI::ANY_SOURCE, 59));
        all("probed message value", (int)in[count - 1]);
    }

    // Waitsome and Testsome: receives from every other rank, completed as they come.
    {
        const int others = size - 1;
        std::vector<int> in(others, -1), idx(others);
        std::vector<MPI::Request> reqs(others);
        std::vector<MPI::Status> sts(others);
        for (int i = 0, src = 0; src < size; src++)
            if (src != rank) { reqs[i] = world.Irecv(&in[i], 1, MPI::INT, src, 60); i++; }
        for (int dst = 0; dst < size; dst++)
            if (dst != rank) {
                int v = 10 * rank + dst;
                world.Send(&v, 1, MPI::INT, dst, 60);
            }
        int done = 0, calls = 0, source_sum = 0;
        while (done < others) {
            int n = MPI::Request::Waitsome(others, &reqs[0], &idx[0], &sts[0]);
            for (int k = 0; k < n; k++) source_sum += sts[k].Get_source();
            done += n;
            calls++;
        }
        std::vector<int> sorted(in);
        std::sort(sorted.begin(), sorted.end());
        all("waitsome completed", done);
        all("waitsome source sum", source_sum);
        all("waitsome received", sorted[0] * 10000 + sorted[1] * 100 + sorted[2]);
        all("waitsome on null requests", MPI::Request::Waitsome(others, &reqs[0], &idx[0]) == MPI::UNDEFINED);

        for (int i = 0, src = 0; src < size; src++)
            if (src != rank) { reqs[i] = world.Irecv(&in[i], 1, MPI::INT, src, 61); i++; }
        for (int dst = 0; dst < size; dst++)
            if (dst != rank) {
                int v = 20 * rank + dst;
                world.Send(&v, 1, MPI::INT, dst, 61);
            }
        done = 0;
        int tag_ok = 1;
        while (done < others) {
            int n = MPI::Request::Testsome(others, &reqs[0], &idx[0], &sts[0]);
            for (int k = 0; k < n; k++) tag_ok &= sts[k].Get_tag() == 61;
            done += n;
        }
        all("testsome completed", done);
        all("testsome status tags", tag_ok);
        all("testsome on null requests", MPI::Request::Testsome(others, &reqs[0], &idx[0]) == MPI::UNDEFINED);
        std::sort(in.begin(), in.end());
        all("testsome received", in[0] * 10000 + in[1] * 100 + in[2]);
    }

    // Waitany and Testany over two receives.
    {
        int a = -1, b = -1;
        MPI::Request reqs[2];
        reqs[0] = world.Irecv(&a, 1, MPI::INT, left, 70);
        reqs[1] = world.Irecv(&b, 1, MPI::INT, right, 71);
        int x = rank, y = 10 + rank;
        world.Send(&x, 1, MPI::INT, right, 70);
        world.Send(&y, 1, MPI::INT, left, 71);
        MPI::Status st;
        int first = MPI::Request::Waitany(2, reqs, st);
        int index = -1;
        while (!MPI::Request::Testany(2, reqs, index)) {
        }
        all("waitany then testany indices", first + index);
        all("waitany status tag matches index", st.Get_tag() == 70 + first);
        all("waitany values", a * 100 + b);
        all("waitany on null requests", MPI::Request::Waitany(2, reqs) == MPI::UNDEFINED);
        bool flag = MPI::Request::Testany(2, reqs, index);
        all("testany on null requests", flag && index == MPI::UNDEFINED);
    }

    // Get_status does not free; Test does.
    {
        int out = rank, in = -1;
        MPI::Request s = world.Isend(&out, 1, MPI::INT, right, 80);
        world.Recv(&in, 1, MPI::INT, left, 80);
        MPI::Status st;
        while (!s.Get_status(st)) {
        }
        all("get_status leaves the request", s != MPI::REQUEST_NULL);
        while (!s.Test()) {
        }
        all("test frees the request", s == MPI::REQUEST_NULL);
    }

    // A cancelled receive.
    {
        int in = -1;
        MPI::Request r = world.Irecv(&in, 1, MPI::INT, left, 999);
        r.Cancel();
        MPI::Status st;
        r.Wait(st);
        all("cancelled receive is_cancelled", st.Is_cancelled());
        all("cancelled receive buffer untouched", in);
    }

    // A receive from PROC_NULL: source PROC_NULL, tag ANY_TAG, count 0.
    {
        int in = 5;
        MPI::Status st;
        world.Recv(&in, 1, MPI::INT, MPI::PROC_NULL, 3, st);
        all("proc_null status", (st.Get_source() == MPI::PROC_NULL) * 100 +
                                    (st.Get_tag() == MPI::ANY_TAG) * 10 + st.Get_count(MPI::INT));
        world.Send(&in, 1, MPI::INT, MPI::PROC_NULL, 3);
        all("proc_null buffer untouched", in);
    }

    // Status's setters.
    {
        MPI::Status st;
        st.Set_source(3);
        st.Set_tag(17);
        st.Set_error(MPI::ERR_TRUNCATE);
        int got[3] = {st.Get_source(), st.Get_tag(), st.Get_error() == MPI::ERR_TRUNCATE};
        one("status setters", chapter::ints(got, 3));
    }

    world.Barrier();
    MPI::Finalize();
    return 0;
}
