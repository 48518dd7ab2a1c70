// R6_cxx_type_win_caching.cc: datatype and window caching through the host's own C++ bindings
// (MPI::Datatype, MPI::Win; MPI-2.2 §16.1), compiled with mpicxx.<host> and nothing else.
//
// MPI-2.2 §16.1.5 with the C semantics of MPI-4.1 §8.7.3, §8.7.4 and §6.1.10: Datatype::
// Create_keyval takes C++ callbacks that get the MPI::Datatype being duplicated or freed (a
// usable object: Get_size() answers for it; its C handle is that datatype's); Dup() runs the copy
// callbacks (flag true stores attribute_val_out), Delete_attr(), a replacing Set_attr() and Free()
// the delete callbacks. Win::Create_keyval the same for windows (Get_group() answers), where no
// routine duplicates a window, so no copy callback runs, and Free() deletes. A window caches
// MPI::WIN_BASE, WIN_SIZE and WIN_DISP_UNIT at creation (MPI-4.1 §13.2.6, R8.3: C++ gets what C
// gets: the base address itself, pointers to the size and the unit). The predefined C++
// callbacks Datatype::DUP_FN / NULL_COPY_FN / NULL_DELETE_FN exist in MPICH's bindings only.
#include "host_check.h"

#include <stdint.h>

namespace {

struct call {
    intptr_t handle;  // the C handle of the object the callback got, as an integer
    int size;         // Get_size() of the datatype, Get_group().Get_size() of the window
    int key;
    void *extra, *value;
};

const int kMaxLog = 32;
call copy_log[kMaxLog], delete_log[kMaxLog];
int ncopy, ndelete;
int extra_t, extra_w;

template <typename H>
intptr_t as_int(H h) { return (intptr_t)h; }

// MPI-2.2 declares Datatype::Copy_attr_function with `const void* attribute_val_in` (unlike the
// Comm and Win ones); Open MPI follows it, MPICH's mpicxx.h has `void*` (mpiattr's classes over
// MPICH, mpiattr-mpich-cxx, follow MPI-2.2).
#if defined(MPICH_VERSION) && !defined(MPIATTR_OVER_HOST)
typedef void *type_copy_in_t;
#else
typedef const void *type_copy_in_t;
#endif

int type_copy(const MPI::Datatype &oldtype, int key, void *extra, type_copy_in_t in_, void *out,
              bool &flag)
{
    void *in = const_cast<void *>(in_);
    if (ncopy < kMaxLog)
        copy_log[ncopy] = call{as_int((MPI_Datatype)oldtype), oldtype.Get_size(), key, extra, in};
    ncopy++;
    *(void **)out = (void *)((intptr_t)in + 1000);
    flag = true;
    return MPI::SUCCESS;
}

int type_delete(MPI::Datatype &type, int key, void *value, void *extra)
{
    if (ndelete < kMaxLog)
        delete_log[ndelete] = call{as_int((MPI_Datatype)type), type.Get_size(), key, extra, value};
    ndelete++;
    return MPI::SUCCESS;
}

int win_copy(const MPI::Win &oldwin, int key, void *extra, void *in, void *out, bool &flag)
{
    (void)oldwin;
    (void)out;
    if (ncopy < kMaxLog)
        copy_log[ncopy] = call{0, 0, key, extra, in};
    ncopy++;
    flag = false;
    return MPI::SUCCESS;
}

int win_delete(MPI::Win &win, int key, void *value, void *extra)
{
    MPI::Group g = win.Get_group();
    if (ndelete < kMaxLog)
        delete_log[ndelete] = call{as_int((MPI_Win)win), g.Get_size(), key, extra, value};
    g.Free();
    ndelete++;
    return MPI::SUCCESS;
}

}  // namespace

int main(int argc, char **argv)
{
    MPI::Init(argc, argv);
    hc_errors_return();
    const int rank = MPI::COMM_WORLD.Get_rank();
    const int world = MPI::COMM_WORLD.Get_size();
    void *v = 0;

    // ================= datatypes =================
    MPI::Datatype t = MPI::INT.Create_contiguous(3);
    t.Commit();
    int tk = MPI::Datatype::Create_keyval(type_copy, type_delete, &extra_t);
    CHECK("R1_cxx_type_create_keyval", tk != MPI::KEYVAL_INVALID);
    CHECK("R4_cxx_type_get_attr_without_value_false", !t.Get_attr(tk, &v));
    t.Set_attr(tk, (void *)(intptr_t)(7 + rank));
    v = 0;
    bool found = t.Get_attr(tk, &v);
    CHECK("R4_cxx_type_set_get_round_trip", found && (intptr_t)v == 7 + rank);

    ncopy = 0;
    MPI::Datatype t2 = t.Dup();
    CHECK("R6_cxx_type_dup_runs_copy_callback_once", ncopy == 1 && copy_log[0].key == tk);
    CHECK("R6_cxx_type_copy_callback_type_is_the_duplicated_handle",
          ncopy == 1 && copy_log[0].handle == as_int((MPI_Datatype)t));
    CHECK("R6_cxx_type_copy_callback_type_answers_Get_size",
          ncopy == 1 && copy_log[0].size == 3 * (int)sizeof(int));
    CHECK("R6_cxx_type_copy_callback_gets_extra_state_and_value",
          ncopy == 1 && copy_log[0].extra == &extra_t && (intptr_t)copy_log[0].value == 7 + rank);
    v = 0;
    found = t2.Get_attr(tk, &v);
    CHECK("R6_cxx_type_copy_flag_true_stores_value_out", found && (intptr_t)v == 7 + rank + 1000);

    ndelete = 0;
    t.Delete_attr(tk);
    CHECK("R4_cxx_type_delete_attr_runs_delete_callback",
          ndelete == 1 && delete_log[0].key == tk && (intptr_t)delete_log[0].value == 7 + rank &&
              delete_log[0].extra == &extra_t);
    CHECK("R4_cxx_type_delete_callback_type_is_the_handle_and_usable",
          ndelete == 1 && delete_log[0].handle == as_int((MPI_Datatype)t) &&
              delete_log[0].size == 3 * (int)sizeof(int));
    CHECK("R4_cxx_type_delete_attr_removes", !t.Get_attr(tk, &v));
    ndelete = 0;
    t2.Set_attr(tk, (void *)(intptr_t)(70 + rank));
    CHECK("R4_cxx_type_set_attr_replace_runs_delete_callback_on_old_value",
          ndelete == 1 && (intptr_t)delete_log[0].value == 7 + rank + 1000 &&
              delete_log[0].handle == as_int((MPI_Datatype)t2));
    ndelete = 0;
    intptr_t t2_handle = as_int((MPI_Datatype)t2);
    t2.Free();
    CHECK("R4_cxx_type_free_runs_delete_callback_with_the_freed_type",
          ndelete == 1 && (intptr_t)delete_log[0].value == 70 + rank &&
              delete_log[0].handle == t2_handle && delete_log[0].size == 3 * (int)sizeof(int));
    CHECK("R4_cxx_type_free_nulls_the_handle", t2 == MPI::DATATYPE_NULL);

#if defined(MPICH_VERSION)
    // MPICH's bindings have the predefined C++ datatype callbacks
    int tkdup =
        MPI::Datatype::Create_keyval(MPI::Datatype::DUP_FN, MPI::Datatype::NULL_DELETE_FN, 0);
    int tknull =
        MPI::Datatype::Create_keyval(MPI::Datatype::NULL_COPY_FN, MPI::Datatype::NULL_DELETE_FN, 0);
    t.Set_attr(tkdup, (void *)(intptr_t)(8 + rank));
    t.Set_attr(tknull, (void *)(intptr_t)(9 + rank));
    MPI::Datatype t3 = t.Dup();
    v = 0;
    found = t3.Get_attr(tkdup, &v);
    CHECK("R6_cxx_Datatype_DUP_FN_copies_value", found && (intptr_t)v == 8 + rank);
    CHECK("R6_cxx_Datatype_NULL_COPY_FN_copies_nothing", !t3.Get_attr(tknull, &v));
    t3.Free();
    t.Delete_attr(tkdup);
    t.Delete_attr(tknull);
    MPI::Datatype::Free_keyval(tkdup);
    MPI::Datatype::Free_keyval(tknull);
#endif
    t.Free();
    MPI::Datatype::Free_keyval(tk);
    CHECK("R2_cxx_type_free_keyval_sets_invalid", tk == MPI::KEYVAL_INVALID);

    // ================= windows =================
    static int buf[8];
    MPI::Win w = MPI::Win::Create(buf, sizeof buf, sizeof(int), MPI::INFO_NULL, MPI::COMM_WORLD);
    int wk = MPI::Win::Create_keyval(win_copy, win_delete, &extra_w);
    ncopy = 0;
    CHECK("R1_cxx_win_create_keyval", wk != MPI::KEYVAL_INVALID);
    CHECK("R4_cxx_win_get_attr_without_value_false", !w.Get_attr(wk, &v));
    w.Set_attr(wk, (void *)(intptr_t)(11 + rank));
    v = 0;
    found = w.Get_attr(wk, &v);
    CHECK("R4_cxx_win_set_get_round_trip", found && (intptr_t)v == 11 + rank);

    void *base = 0;
    found = w.Get_attr(MPI::WIN_BASE, &base);
    CHECK("R8_cxx_WIN_BASE_is_the_base_address", found && base == (void *)buf);
    MPI::Aint *size = 0;
    found = w.Get_attr(MPI::WIN_SIZE, &size);
    CHECK("R8_cxx_WIN_SIZE_points_to_the_size", found && size && *size == (MPI::Aint)sizeof buf);
    int *unit = 0;
    found = w.Get_attr(MPI::WIN_DISP_UNIT, &unit);
    CHECK("R8_cxx_WIN_DISP_UNIT_points_to_the_unit", found && unit && *unit == (int)sizeof(int));

    ndelete = 0;
    w.Delete_attr(wk);
    CHECK("R4_cxx_win_delete_attr_runs_delete_callback",
          ndelete == 1 && delete_log[0].key == wk && (intptr_t)delete_log[0].value == 11 + rank &&
              delete_log[0].extra == &extra_w);
    CHECK("R4_cxx_win_delete_callback_win_is_the_handle_and_usable",
          ndelete == 1 && delete_log[0].handle == as_int((MPI_Win)w) &&
              delete_log[0].size == world);
    w.Set_attr(wk, (void *)(intptr_t)(12 + rank));
    ndelete = 0;
    w.Set_attr(wk, (void *)(intptr_t)(13 + rank));
    CHECK("R4_cxx_win_set_attr_replace_runs_delete_callback_on_old_value",
          ndelete == 1 && (intptr_t)delete_log[0].value == 12 + rank);
    ndelete = 0;
    intptr_t w_handle = as_int((MPI_Win)w);
    w.Free();
    CHECK("R4_cxx_win_free_runs_delete_callback_with_the_freed_window",
          ndelete == 1 && (intptr_t)delete_log[0].value == 13 + rank &&
              delete_log[0].handle == w_handle && delete_log[0].size == world);
    CHECK("R6_cxx_win_copy_callback_never_runs", ncopy == 0);
    MPI::Win::Free_keyval(wk);
    CHECK("R2_cxx_win_free_keyval_sets_invalid", wk == MPI::KEYVAL_INVALID);

    report();
    MPI::Finalize();
    return 0;
}
