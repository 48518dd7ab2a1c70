// collectives_user_ops.cc: MPI-2.2 chapter 5 (collective communication) through the MPI::
// bindings (Annex A.4.3) on 4 ranks: every intracommunicator collective including MPI-2.2's
// Reduce_scatter_block and Exscan, IN_PLACE, MINLOC/MAXLOC on MPI::TWOINT, and user operations
// made with Op::Init (commutative and not), Op::Is_commutative, Op::Reduce_local and Op::Free.
#include "chapter_out.h"

#include <vector>

using chapter::all;
using chapter::ints;
using chapter::one;

// A commutative user operation: elementwise a + b + 1 on ints.
static void plus_one(const void* in, void* inout, int len, const MPI::Datatype& type)
{
    if (type != MPI::INT) return;
    const int* a = static_cast<const int*>(in);
    int* b = static_cast<int*>(inout);
    for (int i = 0; i < len; i++) b[i] = a[i] + b[i] + 1;
}

// A non-commutative one: 2x2 integer matrix product, inout = in * inout (MPI-2.2 §5.9.5: the
// result is in(0) op in(1) op ... in rank order).
static void matmul(const void* in, void* inout, int len, const MPI::Datatype&)
{
    const int* a = static_cast<const int*>(in);
    int* b = static_cast<int*>(inout);
    for (int k = 0; k < len; k += 4) {
        int c0 = a[k] * b[k] + a[k + 1] * b[k + 2], c1 = a[k] * b[k + 1] + a[k + 1] * b[k + 3];
        int c2 = a[k + 2] * b[k] + a[k + 3] * b[k + 2], c3 = a[k + 2] * b[k + 1] + a[k + 3] * b[k + 3];
        b[k] = c0; b[k + 1] = c1; b[k + 2] = c2; b[k + 3] = c3;
    }
}

int main(int argc, char** argv)
{
    MPI::Init(argc, argv);
    const MPI::Intracomm& world = MPI::COMM_WORLD;
    const int rank = world.Get_rank(), size = world.Get_size();
    one("ranks", size);
    world.Barrier();

    {
        int v[2] = {rank == 2 ? 42 : -1, rank == 2 ? 43 : -1};
        world.Bcast(v, 2, MPI::INT, 2);
        all("bcast from 2", v[0] * 100 + v[1]);
    }
    {
        int mine = rank * rank;
        std::vector<int> got(size, -1);
        world.Gather(&mine, 1, MPI::INT, &got[0], 1, MPI::INT, 1);
        if (rank == 1) {
            int back[4];
            for (int i = 0; i < 4; i++) back[i] = got[i];
            world.Send(back, 4, MPI::INT, 0, 1);
        }
        if (rank == 0) {
            int g[4];
            world.Recv(g, 4, MPI::INT, 1, 1);
            one("gather at 1", ints(g, 4));
        }
    }
    {
        // Gatherv: rank r gives r+1 ints, placed at displacement 10*r.
        std::vector<int> mine(rank + 1, rank), got(40, -1);
        int counts[4] = {1, 2, 3, 4}, displs[4] = {0, 10, 20, 30};
        world.Gatherv(&mine[0], rank + 1, MPI::INT, &got[0], counts, displs, MPI::INT, 0);
        if (rank == 0) {
            int pick[6] = {got[0], got[10], got[11], got[23], got[33], got[34]};
            one("gatherv", ints(pick, 6));
        }
    }
    {
        int src[8] = {0, 1, 10, 11, 20, 21, 30, 31}, got[2] = {-1, -1};
        world.Scatter(src, 2, MPI::INT, got, 2, MPI::INT, 3);
        all("scatter from 3", got[0] * 100 + got[1]);
        int counts[4] = {1, 2, 1, 3}, displs[4] = {7, 0, 3, 4}, in[3] = {0, 0, 0};
        world.Scatterv(src, counts, displs, MPI::INT, in, counts[rank], MPI::INT, 0);
        all("scatterv", in[0] * 10000 + in[1] * 100 + in[2]);
    }
    {
        int mine = 3 * rank + 1;
        std::vector<int> got(size);
        world.Allgather(&mine, 1, MPI::INT, &got[0], 1, MPI::INT);
        all("allgather", got[0] * 1000 + got[1] * 100 + got[2] * 10 + got[3]);
        std::vector<int> v(rank + 1, rank), all_v(10, -1);
        int counts[4] = {1, 2, 3, 4}, displs[4] = {0, 1, 3, 6};
        world.Allgatherv(&v[0], rank + 1, MPI::INT, &all_v[0], counts, displs, MPI::INT);
        all("allgatherv", ints(&all_v[0], 10) == "0 1 1 2 2 2 3 3 3 3");
        one("allgatherv at 0", ints(&all_v[0], 10));
    }
    {
        int out[4], in[4];
        for (int i = 0; i < 4; i++) out[i] = 10 * rank + i;
        world.Alltoall(out, 1, MPI::INT, in, 1, MPI::INT);
        all("alltoall", in[0] * 1000000 + in[1] * 10000 + in[2] * 100 + in[3]);
        // Alltoallv: rank r sends r+1 copies of 10r+i to rank i.
        int scounts[4], sdispls[4], rcounts[4], rdispls[4], sbuf[16], rbuf[10];
        for (int i = 0, pos = 0; i < 4; i++) {
            scounts[i] = rank + 1;
            sdispls[i] = pos;
            for (int k = 0; k < scounts[i]; k++) sbuf[pos++] = 10 * rank + i;
        }
        for (int i = 0, pos = 0; i < 4; i++) {
            rcounts[i] = i + 1;
            rdispls[i] = pos;
            pos += rcounts[i];
        }
        world.Alltoallv(sbuf, scounts, sdispls, MPI::INT, rbuf, rcounts, rdispls, MPI::INT);
        int sum = 0;
        for (int i = 0; i < 10; i++) sum += rbuf[i];
        all("alltoallv sum", sum);
        // Alltoallw: to each rank one int and one double, described by per-peer datatypes.
        struct { int i; double d; } ws[4], wr[4];
        for (int p = 0; p < 4; p++) { ws[p].i = 100 * rank + p; ws[p].d = rank + 0.25 * p; wr[p].i = -1; wr[p].d = -1; }
        int blen[2] = {1, 1};
        MPI::Aint base = MPI::Get_address(&ws[0]);
        MPI::Aint disp[2] = {MPI::Get_address(&ws[0].i) - base, MPI::Get_address(&ws[0].d) - base};
        MPI::Datatype types[2] = {MPI::INT, MPI::DOUBLE};
        MPI::Datatype pair = MPI::Datatype::Create_struct(2, blen, disp, types);
        pair.Commit();
        int wc[4] = {1, 1, 1, 1}, wd[4];
        MPI::Datatype st[4] = {pair, pair, pair, pair}, rt[4] = {pair, pair, pair, pair};
        for (int p = 0; p < 4; p++) wd[p] = p * (int)sizeof ws[0];
        world.Alltoallw(ws, wc, wd, st, wr, wc, wd, rt);
        int ok = 1;
        for (int p = 0; p < 4; p++) ok &= wr[p].i == 100 * p + rank && wr[p].d == p + 0.25 * rank;
        all("alltoallw pairs", ok);
        all("alltoallw from 3", wr[3].i);
        pair.Free();
    }
    {
        int v[2] = {rank + 1, 10 - rank}, r[2] = {0, 0};
        world.Reduce(v, r, 2, MPI::INT, MPI::SUM, 3);
        if (rank == 3) world.Send(r, 2, MPI::INT, 0, 3);
        if (rank == 0) {
            world.Recv(r, 2, MPI::INT, 3, 3);
            one("reduce sum at 3", ints(r, 2));
        }
        world.Allreduce(v, r, 2, MPI::INT, MPI::PROD);
        all("allreduce prod", r[0] * 10000 + r[1]);
        int inplace[2] = {rank, -rank};
        world.Allreduce(MPI::IN_PLACE, inplace, 2, MPI::INT, MPI::MAX);
        all("allreduce in place max", inplace[0] * 10 + inplace[1]);
        int pairs[2] = {(rank * 7) % 4, rank}, best[2];  // values 0 3 2 1
        world.Allreduce(pairs, best, 1, MPI::TWOINT, MPI::MAXLOC);
        all("allreduce maxloc twoint", best[0] * 10 + best[1]);
        struct { float v; int i; } fi = {(float)(rank % 2), rank}, lo;
        world.Allreduce(&fi, &lo, 1, MPI::FLOAT_INT, MPI::MINLOC);
        all("allreduce minloc float_int", (int)lo.v * 10 + lo.i);
        bool b = rank == 2, any = false;
        world.Allreduce(&b, &any, 1, MPI::BOOL, MPI::LOR);
        all("allreduce lor bool", any);
    }
    {
        int v[8], r[2] = {-1, -1};
        for (int i = 0; i < 8; i++) v[i] = rank * 100 + i;
        int counts[4] = {2, 2, 2, 2};
        world.Reduce_scatter(v, r, counts, MPI::INT, MPI::SUM);
        all("reduce_scatter", r[0] * 10000 + r[1]);
#if defined(OPEN_MPI) && !defined(MPIATTR_OVER_HOST)
        // Open MPI 4.1's own bindings have no Comm::Reduce_scatter_block (divergences.toml).
        one("reduce_scatter_block", "does not compile");
#else
        int rb[2] = {-1, -1};
        world.Reduce_scatter_block(v, rb, 2, MPI::INT, MPI::SUM);
        all("reduce_scatter_block", rb[0] * 10000 + rb[1]);
#endif
    }
    {
        int v = rank + 1, s = -1, e = -1;
        world.Scan(&v, &s, 1, MPI::INT, MPI::SUM);
        all("scan sum", s);
        world.Exscan(&v, &e, 1, MPI::INT, MPI::SUM);
        all("exscan sum (rank 0 undefined)", rank == 0 ? -1 : e);
    }
    {
        MPI::Op plus;
        plus.Init(plus_one, true);
        MPI::Op mat;
        mat.Init(matmul, false);
        one("is_commutative user ops", chapter::two(plus.Is_commutative(), mat.Is_commutative()));
        one("is_commutative predefined", chapter::two(MPI::SUM.Is_commutative(), MPI::MAXLOC.Is_commutative()));
        int v = rank, r = -1;
        world.Allreduce(&v, &r, 1, MPI::INT, plus);
        all("allreduce commutative user op", r);
        // Rank r's matrix [[1 r+1] [0 1]] times ... in rank order; and [[r 1] [1 0]] (does not commute).
        int m[8] = {1, rank + 1, 0, 1, rank + 1, 1, 1, 0}, p[8];
        world.Allreduce(m, p, 8, MPI::INT, mat);
        all("allreduce non-commutative user op", p[5] * 1000 + p[4] * 100 + p[6] * 10 + p[7]);
        one("allreduce non-commutative matrix", ints(p + 4, 4));
        int s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        world.Scan(m, s, 8, MPI::INT, mat);
        all("scan non-commutative user op", s[4] * 1000 + s[5] * 100 + s[6] * 10 + s[7]);
        int in[3] = {1, 2, 3}, io[3] = {10, 20, 30};
        plus.Reduce_local(in, io, 3, MPI::INT);
        one("reduce_local user op", ints(io, 3));
        int a[4] = {1, 1, 0, 1}, b[4] = {1, 0, 1, 1};
        mat.Reduce_local(a, b, 4, MPI::INT);
        one("reduce_local non-commutative (in*inout)", ints(b, 4));
        int x[2] = {5, 1}, y[2] = {3, 9};
        MPI::MAX.Reduce_local(x, y, 2, MPI::INT);
        one("reduce_local predefined max", ints(y, 2));
        plus.Free();
        mat.Free();
        all("op null after free", plus == MPI::OP_NULL && mat == MPI::OP_NULL);
    }

    world.Barrier();
    MPI::Finalize();
    return 0;
}
