// R8_cxx_predefined_beside_user_attributes.cc: the C++ twin of
// c/R8_predefined_beside_user_attributes.c, through the host's own C++ bindings (MPI::, MPI-2.2
// §16.1), compiled with mpicxx.<host> (and with mpiattr-<host>-cxx: mpiattr's own MPI:: classes).
// The predefined attributes read the same whatever user attributes an object carries, every rank.
//
// MPI-4.1 §10.1.2, §12.10.1, §12.10.3, §10.5.1: MPI::TAG_UB, HOST, IO, WTIME_IS_GLOBAL,
// UNIVERSE_SIZE, APPNUM and LASTUSEDCODE are MPI::COMM_WORLD's from init to finalize, unchanged;
// §13.2.6: MPI::WIN_BASE, WIN_SIZE, WIN_DISP_UNIT, MPI_WIN_CREATE_FLAVOR and MPI_WIN_MODEL (MPI-3.0
// keys, which the C++ bindings do not name: their C values) are a window's for its life.
// §8.7.2-§8.7.3: setting, replacing or deleting a user attribute, or freeing its key, touches that
// attribute alone. So after each such step on MPI::COMM_WORLD, MPI::COMM_SELF, a Dup() of
// MPI::COMM_WORLD and a window, every predefined key must read through Get_attr exactly as it did
// before the object carried any user attribute (found, and the value: C++ gets what C gets, a
// pointer to the int, MPI-2.2 §16.1.5; the window's base address itself, pointers to its size,
// unit, flavor and model). §10.5.1: MPI::LASTUSEDCODE follows MPI::Add_error_class (at least the
// new class) while MPI::COMM_WORLD carries a user attribute.
//
// Each object's steps run with two user keys, one after the other: "cxxkey", made by
// MPI::Comm::Create_keyval / MPI::Win::Create_keyval with a C++ delete callback, and "ckey", made
// by MPI_Comm_create_keyval / MPI_Win_create_keyval with a C one and then used through the C++
// members. In host mode a C++ key is mpiattr's over MPICH (its bindings create it through
// MPI_Comm_create_keyval) but the host's over Open MPI (ompi_attr_create_keyval, docs/host.md
// "C++"), while a C key is mpiattr's over both: so over Open MPI too an object carries an mpiattr
// record while its predefined keys, the host's, are read (Open MPI's MPI_TAG_UB is keyval 0,
// which mpiattr's fast get once took for one of its own, issue 27).
#include "host_check.h"

#include <stdint.h>

namespace {

const int NC = 7;
const char *const comm_names[NC] = {"TAG_UB",        "HOST",   "IO",          "WTIME_IS_GLOBAL",
                                    "UNIVERSE_SIZE", "APPNUM", "LASTUSEDCODE"};
const int NW = 5;
const char *const win_names[NW] = {"BASE", "SIZE", "DISP_UNIT", "CREATE_FLAVOR", "MODEL"};

// The keys, read at run time (the hosts' MPI:: constants are extern objects). The C++ bindings
// (MPI-2.2) have no MPI::WIN_CREATE_FLAVOR and WIN_MODEL (MPI-3.0 keys): their C names, as ints.
void comm_keys(int k[NC])
{
    k[0] = MPI::TAG_UB;
    k[1] = MPI::HOST;
    k[2] = MPI::IO;
    k[3] = MPI::WTIME_IS_GLOBAL;
    k[4] = MPI::UNIVERSE_SIZE;
    k[5] = MPI::APPNUM;
    k[6] = MPI::LASTUSEDCODE;
}

void win_keys(int k[NW])
{
    k[0] = MPI::WIN_BASE;
    k[1] = MPI::WIN_SIZE;
    k[2] = MPI::WIN_DISP_UNIT;
    k[3] = MPI_WIN_CREATE_FLAVOR;
    k[4] = MPI_WIN_MODEL;
}

struct reading {
    bool found;
    long value;
};

int deletes;

int cxx_count_delete(MPI::Comm &, int, void *, void *)
{
    deletes++;
    return MPI::SUCCESS;
}

int c_count_delete(MPI_Comm, int, void *, void *)
{
    deletes++;
    return MPI_SUCCESS;
}

// No routine duplicates a window: never called (Open MPI's bindings have no MPI::Win::NULL_COPY_FN).
int cxx_win_no_copy(const MPI::Win &, int, void *, void *, void *, bool &flag)
{
    flag = false;
    return MPI::SUCCESS;
}

int cxx_win_count_delete(MPI::Win &, int, void *, void *)
{
    deletes++;
    return MPI::SUCCESS;
}

int c_win_count_delete(MPI_Win, int, void *, void *)
{
    deletes++;
    return MPI_SUCCESS;
}

// A key not found reads as -1 (found is compared too); found with a null pointer as -2.
void read_comm(const MPI::Comm &c, reading r[NC])
{
    int keys[NC];
    comm_keys(keys);
    for (int i = 0; i < NC; i++) {
        int *p = 0;
        r[i].found = c.Get_attr(keys[i], &p);
        r[i].value = !r[i].found ? -1 : p ? *p : -2;
    }
}

// CHECK that every key of c reads now as in before.
void same_comm(const char *obj, const char *kind, const char *step, const MPI::Comm &c,
               const reading before[NC])
{
    char name[HC_NAME_LEN];
    reading now[NC];
    read_comm(c, now);
    for (int i = 0; i < NC; i++) {
        snprintf(name, sizeof name, "R8_cxx_%s_%s_%s_%s", obj, kind, comm_names[i], step);
        CHECK(name, now[i].found == before[i].found && now[i].value == before[i].value);
    }
}

// The steps of one communicator with one user key: set, replace, delete, set again, free the key
// (the attribute stays, §8.7.2), delete under the freed key.
void key_steps(const char *obj, const char *kind, MPI::Comm &c, int key, const reading before[NC])
{
    char name[HC_NAME_LEN];
    deletes = 0;
    c.Set_attr(key, (void *)11);
    same_comm(obj, kind, "after_set", c, before);
    c.Set_attr(key, (void *)12);
    same_comm(obj, kind, "after_replace", c, before);
    c.Delete_attr(key);
    same_comm(obj, kind, "after_delete", c, before);
    c.Set_attr(key, (void *)13);
    int kept = key;
    MPI::Comm::Free_keyval(key);
    snprintf(name, sizeof name, "R8_cxx_%s_%s_free_keyval_sets_invalid", obj, kind);
    CHECK(name, key == MPI::KEYVAL_INVALID);
    same_comm(obj, kind, "after_free_keyval", c, before);
    void *v = 0;
    bool f = c.Get_attr(kept, &v);
    snprintf(name, sizeof name, "R8_cxx_%s_%s_user_attribute_kept_after_free_keyval", obj, kind);
    CHECK(name, f && v == (void *)13);
    c.Delete_attr(kept);
    same_comm(obj, kind, "after_last_delete", c, before);
    snprintf(name, sizeof name, "R8_cxx_%s_%s_user_deletes_ran", obj, kind);
    CHECK(name, deletes == 3);
}

void comm_steps(const char *obj, MPI::Comm &c, bool is_self)
{
    reading before[NC];
    char name[HC_NAME_LEN];
    read_comm(c, before);
    for (int i = 0; i < NC; i++) {
        snprintf(name, sizeof name, "cxx_%s_%s_found", obj, comm_names[i]);
        FACT(name, before[i].found);
    }
    snprintf(name, sizeof name, "R8_cxx_%s_TAG_UB_found_at_start", obj);
    CHECK(name, is_self || (before[0].found && before[0].value >= 32767));

    int kcxx = MPI::Comm::Create_keyval(MPI::Comm::NULL_COPY_FN, cxx_count_delete, 0);
    int kc = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, c_count_delete, &kc, NULL);
    snprintf(name, sizeof name, "R8_cxx_%s_create_keyvals_distinct", obj);
    CHECK(name, kcxx != MPI::KEYVAL_INVALID && kc != MPI_KEYVAL_INVALID && kcxx != kc);
    key_steps(obj, "cxxkey", c, kcxx, before);
    key_steps(obj, "ckey", c, kc, before);
}

void read_win(const MPI::Win &w, reading r[NW])
{
    int keys[NW];
    win_keys(keys);
    for (int i = 0; i < NW; i++) {
        void *p = 0;
        r[i].found = w.Get_attr(keys[i], &p);
        if (!r[i].found)
            r[i].value = -1;
        else if (i == 0)
            r[i].value = (long)(intptr_t)p;  // MPI::WIN_BASE: the address itself
        else if (i == 1)
            r[i].value = p ? (long)*(MPI::Aint *)p : -2;
        else
            r[i].value = p ? *(int *)p : -2;
    }
}

void same_win(const char *kind, const char *step, const MPI::Win &w, const reading before[NW])
{
    char name[HC_NAME_LEN];
    reading now[NW];
    read_win(w, now);
    for (int i = 0; i < NW; i++) {
        snprintf(name, sizeof name, "R8_cxx_win_%s_%s_%s", kind, win_names[i], step);
        CHECK(name, now[i].found == before[i].found && now[i].value == before[i].value);
    }
}

void win_key_steps(const char *kind, MPI::Win &w, int key, const reading before[NW])
{
    char name[HC_NAME_LEN];
    deletes = 0;
    w.Set_attr(key, (void *)21);
    same_win(kind, "after_set", w, before);
    w.Set_attr(key, (void *)22);
    same_win(kind, "after_replace", w, before);
    w.Delete_attr(key);
    same_win(kind, "after_delete", w, before);
    w.Set_attr(key, (void *)23);
    int kept = key;
    MPI::Win::Free_keyval(key);
    same_win(kind, "after_free_keyval", w, before);
    void *v = 0;
    bool f = w.Get_attr(kept, &v);
    snprintf(name, sizeof name, "R8_cxx_win_%s_user_attribute_kept_after_free_keyval", kind);
    CHECK(name, f && v == (void *)23);
    w.Delete_attr(kept);
    same_win(kind, "after_last_delete", w, before);
    snprintf(name, sizeof name, "R8_cxx_win_%s_user_deletes_ran", kind);
    CHECK(name, deletes == 3);
}

long winbuf[8];

void win_steps(int rank)
{
    reading before[NW];
    MPI::Win w = MPI::Win::Create(winbuf, (MPI::Aint)((rank + 1) * sizeof(long)), (int)sizeof(long),
                                  MPI::INFO_NULL, MPI::COMM_WORLD);
    CHECK("R8_cxx_win_create_succeeds", (MPI_Win)w != MPI_WIN_NULL);
    w.Set_errhandler(MPI::ERRORS_RETURN);
    read_win(w, before);
    CHECK("R8_cxx_win_predefined_found_at_start",
          before[0].found && before[1].found && before[2].found && before[3].found &&
              before[4].found && before[0].value == (long)(intptr_t)winbuf &&
              before[1].value == (long)((rank + 1) * sizeof(long)) &&
              before[2].value == (long)sizeof(long) && before[3].value == MPI_WIN_FLAVOR_CREATE);
    int kcxx = MPI::Win::Create_keyval(cxx_win_no_copy, cxx_win_count_delete, 0);
    int kc = MPI_KEYVAL_INVALID;
    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, c_win_count_delete, &kc, NULL);
    CHECK("R8_cxx_win_create_keyvals_distinct",
          kcxx != MPI::KEYVAL_INVALID && kc != MPI_KEYVAL_INVALID && kcxx != kc);
    win_key_steps("cxxkey", w, kcxx, before);
    win_key_steps("ckey", w, kc, before);
    w.Free();
    CHECK("R8_cxx_win_free_nulls_the_handle", (MPI_Win)w == MPI_WIN_NULL);
}

}  // namespace

int main(int argc, char **argv)
{
    MPI::Init(argc, argv);
    hc_errors_return();
    const int rank = MPI::COMM_WORLD.Get_rank();

    comm_steps("world", MPI::COMM_WORLD, false);
    comm_steps("self", MPI::COMM_SELF, true);
    MPI::Intracomm dup = MPI::COMM_WORLD.Dup();
    CHECK("R8_cxx_dup_succeeds", (MPI_Comm)dup != MPI_COMM_NULL);
    comm_steps("dup", dup, false);

    // A user attribute copied to a duplicate (of either key): the duplicate's predefined keys
    // as the original's.
    {
        reading before[NC];
        read_comm(dup, before);
        int kcxx = MPI::Comm::Create_keyval(MPI::Comm::DUP_FN, MPI::Comm::NULL_DELETE_FN, 0);
        int kc = MPI_KEYVAL_INVALID;
        MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kc, NULL);
        dup.Set_attr(kcxx, (void *)31);
        dup.Set_attr(kc, (void *)32);
        MPI::Intracomm dup2 = dup.Dup();
        void *v1 = 0, *v2 = 0;
        bool f1 = dup2.Get_attr(kcxx, &v1);
        bool f2 = dup2.Get_attr(kc, &v2);
        CHECK("R8_cxx_dup_of_dup_user_attributes_copied",
              f1 && v1 == (void *)31 && f2 && v2 == (void *)32);
        same_comm("dup_of_dup", "both", "after_copy", dup2, before);
        dup2.Free();
        MPI::Comm::Free_keyval(kcxx);
        MPI::Comm::Free_keyval(kc);
    }
    dup.Free();

    win_steps(rank);

    // MPI::LASTUSEDCODE follows MPI::Add_error_class while MPI::COMM_WORLD carries user
    // attributes of both keys (§10.5.1); they are left on MPI::COMM_WORLD for MPI::Finalize.
    {
        int kcxx = MPI::Comm::Create_keyval(MPI::Comm::NULL_COPY_FN, cxx_count_delete, 0);
        int kc = MPI_KEYVAL_INVALID;
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, c_count_delete, &kc, NULL);
        MPI::COMM_WORLD.Set_attr(kcxx, (void *)41);
        MPI::COMM_WORLD.Set_attr(kc, (void *)42);
        const int cls = MPI::Add_error_class();
        CHECK("R8_cxx_add_error_class_above_ERR_LASTCODE", cls > MPI::ERR_LASTCODE);
        int *p = 0;
        bool f = MPI::COMM_WORLD.Get_attr(MPI::LASTUSEDCODE, &p);
        CHECK("R8_cxx_LASTUSEDCODE_after_add_error_class_at_least_the_class", f && p && *p >= cls);
        FACT("cxx_LASTUSEDCODE_minus_new_class", (f && p) ? *p - cls : -1);
        int *q = 0, g = 0;
        int rc = MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &q, &g);
        CHECK("R8_cxx_LASTUSEDCODE_C_reads_the_same",
              rc == MPI_SUCCESS && g && q && p && *q == *p);
        int *t = 0;
        f = MPI::COMM_WORLD.Get_attr(MPI::TAG_UB, &t);
        CHECK("R8_cxx_TAG_UB_with_user_attributes_left_on_world", f && t && *t >= 32767);
    }

    report();
    MPI::Finalize();
    return 0;
}
