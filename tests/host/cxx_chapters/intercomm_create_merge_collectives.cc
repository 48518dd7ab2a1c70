// intercomm_create_merge_collectives.cc: MPI-2.2 chapter 6 intercommunicators through the MPI::
// bindings (Annex A.4.4, A.4.3) on 4 ranks: the even and the odd ranks of COMM_WORLD joined by
// Intracomm::Create_intercomm, then Is_inter, Get_remote_size, Get_remote_group (translated to
// COMM_WORLD's ranks), Comm::Compare with a Dup, Clone, Merge, Intercomm::Split and ::Create, and
// the intercommunicator collectives (Bcast and Reduce with MPI::ROOT / PROC_NULL, Allreduce,
// Allgather, Alltoall, Barrier), which deliver the other group's data.
#include "chapter_out.h"

using chapter::all;
using chapter::one;

int main(int argc, char** argv)
{
    MPI::Init(argc, argv);
    const MPI::Intracomm& world = MPI::COMM_WORLD;
    const int rank = world.Get_rank(), color = rank % 2;
    one("ranks", world.Get_size());

    MPI::Intracomm local = world.Split(color, rank);
    // Local leaders: world 0 (evens) and world 1 (odds).
    MPI::Intercomm inter = local.Create_intercomm(0, world, color == 0 ? 1 : 0, 99);
    all("is_inter", inter.Is_inter());
    all("local is_inter", local.Is_inter());
    all("intercomm rank", inter.Get_rank());
    all("intercomm size", inter.Get_size());
    all("intercomm remote size", inter.Get_remote_size());
    all("topology of an intercomm is undefined", inter.Get_topology() == MPI::UNDEFINED);

    {
        MPI::Group remote = inter.Get_remote_group(), mine = inter.Get_group();
        MPI::Group wgroup = world.Get_group();
        int r[2] = {0, 1}, in_world[2] = {-1, -1}, mine_world[2] = {-1, -1};
        MPI::Group::Translate_ranks(remote, 2, r, wgroup, in_world);
        MPI::Group::Translate_ranks(mine, 2, r, wgroup, mine_world);
        all("remote group in world ranks", in_world[0] * 10 + in_world[1]);
        all("local group in world ranks", mine_world[0] * 10 + mine_world[1]);
        all("local group equals the split's",
            MPI::Group::Compare(mine, local.Get_group()) == MPI::IDENT);
        remote.Free();
        mine.Free();
        wgroup.Free();
    }

    {
        MPI::Intercomm dup = inter.Dup();
        all("compare intercomm with its dup", MPI::Comm::Compare(inter, dup) == MPI::CONGRUENT);
        all("compare intercomm with itself", MPI::Comm::Compare(inter, inter) == MPI::IDENT);
        all("dup is_inter", dup.Is_inter());
        dup.Free();
        MPI::Intercomm& clone = inter.Clone();
        all("clone remote size", clone.Get_remote_size());
        all("clone is congruent", MPI::Comm::Compare(inter, clone) == MPI::CONGRUENT);
        clone.Free();
        delete &clone;
    }

    {
        // Bcast from world 0 (rank 0 of the even group) to the odd group.
        int v = color == 0 && local.Get_rank() == 0 ? 77 : -1;
        int root = color == 1 ? 0 : (local.Get_rank() == 0 ? MPI::ROOT : MPI::PROC_NULL);
        inter.Bcast(&v, 1, MPI::INT, root);
        all("intercomm bcast from world 0", v);
        // Reduce of the even group's values at world 1 (rank 0 of the odd group).
        int x = 10 * (rank + 1), sum = -1;
        root = color == 0 ? 0 : (local.Get_rank() == 0 ? MPI::ROOT : MPI::PROC_NULL);
        inter.Reduce(&x, &sum, 1, MPI::INT, MPI::SUM, root);
        all("intercomm reduce at world 1", rank == 1 ? sum : -1);
        // Allreduce: each group gets the reduction of the other group.
        int y = rank + 1, other = -1;
        inter.Allreduce(&y, &other, 1, MPI::INT, MPI::SUM);
        all("intercomm allreduce", other);
        int got[2] = {-1, -1};
        inter.Allgather(&rank, 1, MPI::INT, got, 1, MPI::INT);
        all("intercomm allgather", got[0] * 10 + got[1]);
        int out[2] = {100 * rank, 100 * rank + 1}, in[2] = {-1, -1};
        inter.Alltoall(out, 1, MPI::INT, in, 1, MPI::INT);
        all("intercomm alltoall", in[0] * 1000 + in[1]);
        inter.Barrier();
    }

    {
        // Merge: the odd group high, so the evens come first.
        MPI::Intracomm merged = inter.Merge(color == 1);
        all("merge rank", merged.Get_rank());
        all("merge size", merged.Get_size());
        all("merge is_inter", merged.Is_inter());
        int r = merged.Get_rank(), sum = 0;
        merged.Allreduce(&r, &sum, 1, MPI::INT, MPI::SUM);
        all("merge allreduce", sum);
        merged.Free();
    }

    {
        // Split of an intercommunicator: one color, ranks reversed by the key.
        MPI::Intercomm split = inter.Split(0, -rank);
        all("intercomm split rank", split.Get_rank());
        all("intercomm split remote size", split.Get_remote_size());
        int lead = -1, me = rank;
        split.Allreduce(&me, &lead, 1, MPI::INT, MPI::MAX);
        all("intercomm split allreduce max", lead);
        split.Free();
        // Only each side's rank 1 stays in the next, giving no communicator to the others.
        MPI::Intercomm none = inter.Split(local.Get_rank() == 1 ? 5 : MPI::UNDEFINED, 0);
        all("intercomm split undefined is null", none == MPI::COMM_NULL);
        if (none != MPI::COMM_NULL) none.Free();
    }

#if defined(MPICH_VERSION) && !defined(MPIATTR_OVER_HOST)
    // MPICH's own bindings have no Intercomm::Create (divergences.toml).
    one("intercomm create of each local rank 0", "does not compile");
#else
    {
        MPI::Group mine = inter.Get_group();
        int zero = 0;
        MPI::Group first = mine.Incl(1, &zero);
        MPI::Intercomm sub = inter.Create(first);
        int shape = sub == MPI::COMM_NULL ? -1 : sub.Get_size() * 10 + sub.Get_remote_size();
        all("intercomm create of each local rank 0", shape);
        if (sub != MPI::COMM_NULL) sub.Free();
        first.Free();
        mine.Free();
    }
#endif

#if defined(OPEN_MPI) && !defined(MPIATTR_OVER_HOST)
    // Open MPI's own COMM_NULL (a Comm_Null) is no Comm (divergences.toml).
    one("peer_comm COMM_NULL away from the leader", "does not compile");
#else
    {
        // peer_comm is significant at the local leader only (MPI-2.2 §6.6.2); the others pass
        // COMM_NULL, which a `const Comm&` parameter takes (§16.1.7; D145).
        MPI::Intercomm again = local.Get_rank() == 0
            ? local.Create_intercomm(0, world, color == 0 ? 1 : 0, 98)
            : local.Create_intercomm(0, MPI::COMM_NULL, color == 0 ? 1 : 0, 98);
        all("peer_comm COMM_NULL away from the leader", again.Get_remote_size());
        again.Free();
    }
#endif

    inter.Free();
    local.Free();
    all("freed intercomm is null", inter == MPI::COMM_NULL);
    world.Barrier();
    MPI::Finalize();
    return 0;
}
