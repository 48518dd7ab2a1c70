// R6_cxx_comm_callbacks.cc: communicator caching through the host's own C++ bindings (MPI::,
// MPI-2.2 §16.1; removed from the standard in MPI-3.0 but still shipped by both hosts), compiled
// with mpicxx.<host> and nothing else.
//
// MPI-2.2 §16.1.5, with the C semantics of MPI-4.1 §8.7.2 (R1, R4, R6): MPI::Comm::Create_keyval
// takes C++ callbacks, Copy_attr_function(const MPI::Comm& oldcomm, int keyval, void* extra_state,
// void* attribute_val_in, void* attribute_val_out, bool& flag) and Delete_attr_function(MPI::Comm&
// comm, int keyval, void* attribute_val, void* extra_state). They are called with the C++ object
// of the communicator being duplicated or freed: a usable object (Get_size(), Get_rank() answer
// for that communicator) of the right class (an MPI::Intracomm for an intracommunicator: the
// bindings' own callbacks downcast it), whose C handle is the duplicated or freed one. Dup()
// runs the copy callbacks (flag true stores attribute_val_out, false nothing), Free(),
// Delete_attr() and a replacing Set_attr() the delete callbacks; MPI::Comm::DUP_FN copies the
// value, NULL_COPY_FN nothing, NULL_DELETE_FN does nothing; Free_keyval sets the key to
// MPI::KEYVAL_INVALID, and a key freed in use keeps its callbacks (R2.2).
//
// Under mpiattr: on MPICH the C++ keyval is mpiattr's (libmpichcxx creates it through
// MPI_Comm_create_keyval and registers its proxies with MPII_Keyval_set_proxy, which the library
// answers); on Open MPI the keyval is the host's and the C names pass it on (docs/host.md, "C++").
#include "host_check.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

namespace {

struct call {
    MPI_Comm handle;    // the C handle of the object the callback got
    int size, rank;     // what the object answered
    bool intracomm;     // dynamic_cast to MPI::Intracomm succeeded
    bool cartcomm, graphcomm;  // dynamic_cast to MPI::Cartcomm, MPI::Graphcomm succeeded
    int key;
    void *extra, *value;
};

const int kMaxLog = 64;
call copy_log[kMaxLog], delete_log[kMaxLog];
int ncopy, ndelete;
int extra_a, extra_b;

call record(const MPI::Comm &comm, int key, void *extra, void *value)
{
    call c;
    c.handle = (MPI_Comm)comm;
    c.size = comm.Get_size();
    c.rank = comm.Get_rank();
    c.intracomm = dynamic_cast<const MPI::Intracomm *>(&comm) != 0;
    c.cartcomm = dynamic_cast<const MPI::Cartcomm *>(&comm) != 0;
    c.graphcomm = dynamic_cast<const MPI::Graphcomm *>(&comm) != 0;
    c.key = key;
    c.extra = extra;
    c.value = value;
    return c;
}

int copy_plus_1000(const MPI::Comm &oldcomm, int key, void *extra, void *in, void *out, bool &flag)
{
    if (ncopy < kMaxLog)
        copy_log[ncopy] = record(oldcomm, key, extra, in);
    ncopy++;
    *(void **)out = (void *)((intptr_t)in + 1000);
    flag = true;
    return MPI::SUCCESS;
}

int copy_flag_false(const MPI::Comm &oldcomm, int key, void *extra, void *in, void *out, bool &flag)
{
    if (ncopy < kMaxLog)
        copy_log[ncopy] = record(oldcomm, key, extra, in);
    ncopy++;
    (void)out;
    flag = false;
    return MPI::SUCCESS;
}

int record_delete(MPI::Comm &comm, int key, void *value, void *extra)
{
    if (ndelete < kMaxLog)
        delete_log[ndelete] = record(comm, key, extra, value);
    ndelete++;
    return MPI::SUCCESS;
}

int find(const call *log, int n, int key)
{
    for (int i = 0; i < n && i < kMaxLog; i++)
        if (log[i].key == key)
            return i;
    return -1;
}

// R10.1 at MPI_Finalize: MPI_COMM_SELF's attributes are deleted in the reverse order of their
// setting, whichever binding made their keyvals (D136: over Open MPI, the keyvals of its own
// MPI:: bindings were the host's, and all of mpiattr's went first).
char self_order[8];
int self_deletes;
int c_self_delete(MPI_Comm, int, void *, void *)
{
    if (self_deletes < 7) self_order[self_deletes++] = 'C';
    return MPI_SUCCESS;
}
int cxx_self_delete(MPI::Comm &, int, void *, void *)
{
    if (self_deletes < 7) self_order[self_deletes++] = 'X';
    return MPI::SUCCESS;
}

}  // namespace

int main(int argc, char **argv)
{
    MPI::Init(argc, argv);
    hc_errors_return();
    const int rank = MPI::COMM_WORLD.Get_rank();
    const int world = MPI::COMM_WORLD.Get_size();

    int kplus = MPI::Comm::Create_keyval(copy_plus_1000, record_delete, &extra_a);
    int kzero = MPI::Comm::Create_keyval(copy_flag_false, record_delete, &extra_b);
    int kdup = MPI::Comm::Create_keyval(MPI::Comm::DUP_FN, MPI::Comm::NULL_DELETE_FN, 0);
    int knull = MPI::Comm::Create_keyval(MPI::Comm::NULL_COPY_FN, MPI::Comm::NULL_DELETE_FN, 0);
    CHECK("R1_cxx_create_keyval_distinct",
          kplus != MPI::KEYVAL_INVALID && kzero != MPI::KEYVAL_INVALID &&
              kdup != MPI::KEYVAL_INVALID && knull != MPI::KEYVAL_INVALID && kplus != kzero &&
              kplus != kdup && kplus != knull && kzero != kdup && kzero != knull && kdup != knull);

    // a communicator of half the ranks, so that Get_size() in a callback tells which one it got
    MPI::Intracomm half = MPI::COMM_WORLD.Split(rank % 2, rank);
    const int half_size = half.Get_size();
    CHECK("R6_cxx_split_half", half_size == (world + 1 - rank % 2) / 2 && half_size < world);

    void *v = 0;
    CHECK("R4_cxx_get_attr_without_value_false", !half.Get_attr(kplus, &v));
    half.Set_attr(kplus, (void *)(intptr_t)(3 + rank));
    half.Set_attr(kzero, (void *)(intptr_t)(4 + rank));
    half.Set_attr(kdup, (void *)(intptr_t)(5 + rank));
    half.Set_attr(knull, (void *)(intptr_t)(6 + rank));
    v = 0;
    bool found = half.Get_attr(kplus, &v);
    CHECK("R4_cxx_set_get_round_trip", found && (intptr_t)v == 3 + rank);

    // ---- Dup runs the C++ copy callbacks with the duplicated communicator ----
    ncopy = 0;
    MPI::Intracomm dup = half.Dup();
    int ip = find(copy_log, ncopy, kplus), iz = find(copy_log, ncopy, kzero);
    CHECK("R6_cxx_dup_runs_each_user_copy_callback_once", ncopy == 2 && ip >= 0 && iz >= 0);
    CHECK("R6_cxx_copy_callback_comm_is_the_duplicated_handle",
          ip >= 0 && iz >= 0 && copy_log[ip].handle == (MPI_Comm)half &&
              copy_log[iz].handle == (MPI_Comm)half);
    CHECK("R6_cxx_copy_callback_comm_answers_Get_size_and_Get_rank",
          ip >= 0 && iz >= 0 && copy_log[ip].size == half_size && copy_log[iz].size == half_size &&
              copy_log[ip].rank == half.Get_rank() && copy_log[iz].rank == half.Get_rank());
    CHECK("R6_cxx_copy_callback_comm_is_an_Intracomm",
          ip >= 0 && iz >= 0 && copy_log[ip].intracomm && copy_log[iz].intracomm);
    CHECK("R6_cxx_copy_callback_gets_key_extra_state_value",
          ip >= 0 && iz >= 0 && copy_log[ip].extra == &extra_a && copy_log[iz].extra == &extra_b &&
              (intptr_t)copy_log[ip].value == 3 + rank && (intptr_t)copy_log[iz].value == 4 + rank);
    v = 0;
    found = dup.Get_attr(kplus, &v);
    CHECK("R6_cxx_copy_flag_true_stores_value_out", found && (intptr_t)v == 3 + rank + 1000);
    CHECK("R6_cxx_copy_flag_false_copies_nothing", !dup.Get_attr(kzero, &v));
    v = 0;
    found = dup.Get_attr(kdup, &v);
    CHECK("R6_cxx_Comm_DUP_FN_copies_value", found && (intptr_t)v == 5 + rank);
    CHECK("R6_cxx_Comm_NULL_COPY_FN_copies_nothing", !dup.Get_attr(knull, &v));
    CHECK("R6_cxx_dup_is_congruent", MPI::Comm::Compare(half, dup) == MPI::CONGRUENT);

    // ---- Delete_attr and a replacing Set_attr run the delete callback ----
    ndelete = 0;
    half.Delete_attr(kzero);
    int id = find(delete_log, ndelete, kzero);
    CHECK("R4_cxx_delete_attr_runs_delete_callback",
          ndelete == 1 && id == 0 && (intptr_t)delete_log[0].value == 4 + rank &&
              delete_log[0].extra == &extra_b);
    CHECK("R4_cxx_delete_callback_comm_is_the_handle_and_usable",
          ndelete == 1 && delete_log[0].handle == (MPI_Comm)half &&
              delete_log[0].size == half_size && delete_log[0].intracomm);
    CHECK("R4_cxx_delete_attr_removes", !half.Get_attr(kzero, &v));
    ndelete = 0;
    half.Set_attr(kplus, (void *)(intptr_t)(30 + rank));
    CHECK("R4_cxx_set_attr_replace_runs_delete_callback_on_old_value",
          ndelete == 1 && delete_log[0].key == kplus && (intptr_t)delete_log[0].value == 3 + rank &&
              delete_log[0].handle == (MPI_Comm)half);

    // ---- Free runs the delete callbacks with the freed communicator ----
    ndelete = 0;
    MPI_Comm dup_handle = (MPI_Comm)dup;
    const int dup_size = dup.Get_size();
    dup.Free();
    CHECK("R4_cxx_free_nulls_the_handle", dup == MPI::COMM_NULL);
    id = find(delete_log, ndelete, kplus);
    CHECK("R4_cxx_free_runs_delete_callback", ndelete == 1 && id == 0 &&
                                                  (intptr_t)delete_log[0].value == 3 + rank + 1000);
    CHECK("R4_cxx_free_delete_callback_comm_is_the_freed_handle",
          ndelete == 1 && delete_log[0].handle == dup_handle);
    CHECK("R4_cxx_free_delete_callback_comm_answers_Get_size_and_is_an_Intracomm",
          ndelete == 1 && delete_log[0].size == dup_size && delete_log[0].intracomm);

    // ---- Free_keyval; a key freed in use keeps its callbacks ----
    int kplus_saved = kplus;
    MPI::Comm::Free_keyval(kplus);
    CHECK("R2_cxx_free_keyval_sets_invalid", kplus == MPI::KEYVAL_INVALID);
    ncopy = 0;
    MPI::Intracomm dup2 = half.Dup();
    CHECK("R2_cxx_freed_keyval_copy_callback_still_runs",
          ncopy == 1 && copy_log[0].key == kplus_saved && (intptr_t)copy_log[0].value == 30 + rank);
    ndelete = 0;
    dup2.Free();
    half.Free();
    int nd = ndelete;
    CHECK("R2_cxx_freed_keyval_delete_callbacks_still_run",
          nd == 2 && delete_log[0].key == kplus_saved && delete_log[1].key == kplus_saved);

    // The object a callback gets is of the communicator's class: an MPI::Cartcomm for a cartesian
    // communicator, an MPI::Graphcomm for a graph one, which the callback may dynamic_cast to
    // (as both hosts' bindings do; D134).
    {
        int ktopo = MPI::Comm::Create_keyval(copy_plus_1000, record_delete, &extra_a);
        int dims[1] = {world};
        bool periods[1] = {false};
        MPI::Cartcomm cart = MPI::COMM_WORLD.Create_cart(1, dims, periods, false);
        int *index = new int[world];
        for (int i = 0; i < world; i++)
            index[i] = 0;
        int no_edges[1] = {0};
        MPI::Graphcomm graph = MPI::COMM_WORLD.Create_graph(world, index, no_edges, false);
        delete[] index;
        cart.Set_attr(ktopo, (void *)(intptr_t)(40 + rank));
        graph.Set_attr(ktopo, (void *)(intptr_t)(50 + rank));
        ncopy = ndelete = 0;
        MPI::Cartcomm cart2 = cart.Dup();
        MPI::Graphcomm graph2 = graph.Dup();
        cart2.Free();
        graph2.Free();
        CHECK("R6_D134_cxx_callbacks_get_a_Cartcomm_for_a_cartesian_communicator",
              ncopy == 2 && ndelete == 2 && copy_log[0].cartcomm && !copy_log[0].graphcomm &&
                  delete_log[0].cartcomm && (intptr_t)copy_log[0].value == 40 + rank);
        CHECK("R6_D134_cxx_callbacks_get_a_Graphcomm_for_a_graph_communicator",
              ncopy == 2 && ndelete == 2 && copy_log[1].graphcomm && !copy_log[1].cartcomm &&
                  delete_log[1].graphcomm && (intptr_t)copy_log[1].value == 50 + rank);
        cart.Free();
        graph.Free();
        MPI::Comm::Free_keyval(ktopo);
    }

    MPI::Comm::Free_keyval(kzero);
    MPI::Comm::Free_keyval(kdup);
    MPI::Comm::Free_keyval(knull);
    CHECK("R2_cxx_free_keyval_all_invalid", kzero == MPI::KEYVAL_INVALID &&
                                                kdup == MPI::KEYVAL_INVALID &&
                                                knull == MPI::KEYVAL_INVALID);
    // MPI_TAG_UB through the C++ bindings (R8.2: a pointer to int, as in C)
    int *tag_ub = 0;
    found = MPI::COMM_WORLD.Get_attr(MPI::TAG_UB, &tag_ub);
    CHECK("R8_cxx_TAG_UB_readable", found && tag_ub && *tag_ub >= 32767);
    FACT("cxx_MPI_TAG_UB_value", found && tag_ub ? *tag_ub : -1);

    // D135: an error raised under MPI::ERRORS_THROW_EXCEPTIONS (a datatype's keyval used on a
    // communicator: MPI_ERR_KEYVAL, mpiattr's error over a host) reaches the program as the
    // host's own errors do (MPICH: thrown by its MPI:: wrapper; Open MPI 4.1 as Debian builds it:
    // exceptions disabled, the code returned), and nothing more: MPICH's
    // MPI_Comm_call_errhandler with a code added by MPI_Add_error_code printed an "INTERNAL
    // ERROR" line under that handler. What the process writes to stderr meanwhile is read back.
    {
        MPI::Intracomm ex = MPI::COMM_WORLD.Dup();
        ex.Set_errhandler(MPI::ERRORS_THROW_EXCEPTIONS);
        int tkey = MPI_KEYVAL_INVALID;  // (the C name: mpiattr's over both hosts)
        MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tkey, 0);
        fflush(stderr);
        FILE *capture = tmpfile();
        const int saved = ::dup(2);
        if (capture) ::dup2(fileno(capture), 2);
        int thrown_class = -1;
        void *v = 0;
        try {
            ex.Get_attr(tkey, &v);
        } catch (MPI::Exception &e) {
            thrown_class = e.Get_error_class();
        }
        fflush(stderr);
        ::dup2(saved, 2);
        ::close(saved);
        char text[4096] = "";
        if (capture) {
            rewind(capture);
            text[fread(text, 1, sizeof text - 1, capture)] = 0;
            fclose(capture);
        }
        CHECK("D135_cxx_throwing_handler_writes_no_internal_error", capture && !strstr(text, "INTERNAL ERROR"));
        INFO("cxx_throwing_handler_exception_class", thrown_class);
#ifdef MPICH_VERSION
        CHECK("D135_cxx_throwing_handler_throws_the_error_class", thrown_class == MPI_ERR_KEYVAL);
#endif
        MPI_Type_free_keyval(&tkey);
        ex.Free();
    }

    // Set on MPI_COMM_SELF for MPI_Finalize: a C keyval's first, then an MPI:: keyval's, then the
    // C one's again after a second C keyval's (a replaced value counts as newest: D10).
    int kself_c = MPI_KEYVAL_INVALID, kself_c2 = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, c_self_delete, &kself_c, 0);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, c_self_delete, &kself_c2, 0);
    const int kself_x = MPI::Comm::Create_keyval(MPI::Comm::NULL_COPY_FN, cxx_self_delete, 0);
    MPI_Comm_set_attr(MPI_COMM_SELF, kself_c2, (void *)1);
    MPI::COMM_SELF.Set_attr(kself_x, (void *)2);
    MPI_Comm_set_attr(MPI_COMM_SELF, kself_c, (void *)3);

    report();
    MPI::Finalize();
    // Newest first: kself_c, then kself_x, then kself_c2.
    CHECK("R10_1_cxx_and_c_keyvals_on_self_deleted_newest_first", strcmp(self_order, "CXC") == 0);
    INFO_S("cxx_and_c_self_delete_order", self_order);
    local_report();
    return 0;
}
