// D19: the fast paths of get and set (mpiattr/fast.h) decline every case they do not handle,
// so that the checked path gives the same results. ctest runs these at MPI_THREAD_SINGLE (fast
// paths on) and at MPI_THREAD_MULTIPLE (checked path only); the assertions are the same.
#include <algorithm>
#include <cstdint>

#include "attr_test_common.h"

namespace {

void* as_ptr(std::intptr_t v) { return reinterpret_cast<void*>(v); }

// Keyvals past the 32 slots a store holds inline, with chunks that do and do not exist yet.
TEST(D19, D19_get_and_set_beyond_the_inline_slots) {
  constexpr int kKeys = 200;
  std::vector<int> keys(kKeys);
  for (int& k : keys) ASSERT_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, nullptr));
  MPI_Comm c = fresh_comm();
  for (int i = 0; i < kKeys; i += 3) ASSERT_OK(MPI_Comm_set_attr(c, keys[i], as_ptr(i + 1)));
  for (int i = 0; i < kKeys; ++i) {
    void* v = as_ptr(-1);
    int flag = -1;
    ASSERT_OK(MPI_Comm_get_attr(c, keys[i], &v, &flag));
    if (i % 3 == 0) {
      EXPECT_EQ(flag, 1) << i;
      EXPECT_EQ(v, as_ptr(i + 1)) << i;
    } else {
      EXPECT_EQ(flag, 0) << i;
      EXPECT_EQ(v, as_ptr(-1)) << "attribute_val must be left alone when flag is false, key " << i;
    }
  }
  for (int i = 0; i < kKeys; i += 3) ASSERT_OK(MPI_Comm_set_attr(c, keys[i], as_ptr(-(i + 1))));
  for (int i = 0; i < kKeys; i += 3) {
    void* v = nullptr;
    ASSERT_EQ(comm_get(c, keys[i], &v), 1);
    EXPECT_EQ(v, as_ptr(-(i + 1)));
  }
  ASSERT_OK(MPI_Comm_free(&c));
  for (int& k : keys) ASSERT_OK(MPI_Comm_free_keyval(&k));
}

// D88: the gets' own reads of the chunks beyond the inline slots (attr_store.h:
// far_slot_unsynchronised) on each kind: a chunk that exists, one the directory lists as absent,
// and an index past the directory (the store's own, four chunks, and a grown one); a C get of a
// value in a far chunk returns the word, and an absent one leaves attribute_val alone.
TEST(D19, D88_far_chunks_read_by_the_gets) {
  constexpr int kKeys = 300;  // indices 16..315: chunks 0..9
  std::vector<int> keys(kKeys);
  for (int& k : keys) ASSERT_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, nullptr));
  MPI_Comm small = fresh_comm(), grown = fresh_comm();
  ASSERT_OK(MPI_Comm_set_attr(small, keys[40], as_ptr(41)));      // chunk 1, in the store's directory
  ASSERT_OK(MPI_Comm_set_attr(grown, keys[kKeys - 1], as_ptr(7)));  // chunk 9: a grown directory
  ASSERT_OK(MPI_Comm_set_attr(grown, keys[33], as_ptr(34)));       // chunk 1; chunks 2..8 absent
  auto get = [](MPI_Comm c, int key, void** v) {
    int flag = -1;
    EXPECT_EQ(MPI_Comm_get_attr(c, key, v, &flag), MPI_SUCCESS);
    return flag;
  };
  for (int i = 32; i < kKeys; ++i) {
    void* v = as_ptr(-1);
    const int want_small = i == 40, want_grown = i == 33 || i == kKeys - 1;
    EXPECT_EQ(get(small, keys[i], &v), want_small) << "small, key " << i;
    EXPECT_EQ(v, want_small ? as_ptr(41) : as_ptr(-1)) << "small, key " << i;
    v = as_ptr(-1);
    EXPECT_EQ(get(grown, keys[i], &v), want_grown) << "grown, key " << i;
    EXPECT_EQ(v, i == 33 ? as_ptr(34) : i == kKeys - 1 ? as_ptr(7) : as_ptr(-1)) << "grown, key " << i;
  }
  ASSERT_OK(MPI_Comm_delete_attr(grown, keys[kKeys - 1]));  // the chunk stays, its slot empty
  void* v = as_ptr(-1);
  EXPECT_EQ(get(grown, keys[kKeys - 1], &v), 0);
  EXPECT_EQ(v, as_ptr(-1));
  ASSERT_OK(MPI_Comm_free(&small));
  ASSERT_OK(MPI_Comm_free(&grown));
  for (int& k : keys) ASSERT_OK(MPI_Comm_free_keyval(&k));
  // The datatype and window gets read through the same store.
  std::vector<int> tkeys(70), wkeys(70);
  for (int& k : tkeys) ASSERT_OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &k, nullptr));
  for (int& k : wkeys) ASSERT_OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &k, nullptr));
  MPI_Datatype t;
  ASSERT_OK(MPI_Type_contiguous(2, MPI_INT, &t));
  MPI_Win w;
  ASSERT_OK(MPI_Win_create(nullptr, 0, 1, MPI_INFO_NULL, MPI_COMM_SELF, &w));
  ASSERT_OK(MPI_Type_set_attr(t, tkeys[69], as_ptr(69)));
  ASSERT_OK(MPI_Win_set_attr(w, wkeys[69], as_ptr(70)));
  for (int i : {35, 68, 69}) {
    void* tv = as_ptr(-1);
    void* wv = as_ptr(-1);
    int tf = -1, wf = -1;
    ASSERT_OK(MPI_Type_get_attr(t, tkeys[i], &tv, &tf));
    ASSERT_OK(MPI_Win_get_attr(w, wkeys[i], &wv, &wf));
    EXPECT_EQ(tf, i == 69) << "datatype, key " << i;
    EXPECT_EQ(tv, i == 69 ? as_ptr(69) : as_ptr(-1)) << "datatype, key " << i;
    EXPECT_EQ(wf, i == 69) << "window, key " << i;
    EXPECT_EQ(wv, i == 69 ? as_ptr(70) : as_ptr(-1)) << "window, key " << i;
  }
  ASSERT_OK(MPI_Type_free(&t));
  ASSERT_OK(MPI_Win_free(&w));
  for (int& k : tkeys) ASSERT_OK(MPI_Type_free_keyval(&k));
  for (int& k : wkeys) ASSERT_OK(MPI_Win_free_keyval(&k));
}

// A freed keyval whose index a new keyval took is not the new keyval.
TEST(D19, D19_stale_keyval_with_reused_index_is_rejected) {
  MPI_Comm c = fresh_comm();
  int k1 = 0, k2 = 0, a = 1, b = 2;
  ASSERT_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k1, nullptr));
  const int stale = k1;
  ASSERT_OK(MPI_Comm_free_keyval(&k1));
  ASSERT_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k2, nullptr));
  ASSERT_NE(k2, stale);
  ASSERT_OK(MPI_Comm_set_attr(c, k2, &a));
  void* v = nullptr;
  int flag = 0;
  EXPECT_CLASS(MPI_Comm_get_attr(c, stale, &v, &flag), MPI_ERR_KEYVAL);
  EXPECT_CLASS(MPI_Comm_set_attr(c, stale, &b), MPI_ERR_KEYVAL);
  ASSERT_EQ(comm_get(c, k2, &v), 1);
  EXPECT_EQ(v, &a) << "a set under the stale keyval changed the new keyval's attribute";
  ASSERT_OK(MPI_Comm_free(&c));
  ASSERT_OK(MPI_Comm_free_keyval(&k2));
}

// A dup of an object whose attributes all sit in its inline slots copies just the occupied ones
// (attr_store: inline_mask_), so the record of which are occupied must follow every set, delete,
// dup and free: the dup of the dup and a dup after deletions carry exactly what is there.
TEST(D19, D19_dup_of_few_attributes_tracks_sets_and_deletes) {
  constexpr int kKeys = 40;  // more than the 32 inline slots
  std::vector<int> keys(kKeys);
  for (int& k : keys) ASSERT_OK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &k, nullptr));
  MPI_Datatype t;
  ASSERT_OK(MPI_Type_contiguous(2, MPI_INT, &t));
  auto expect_exactly = [&](MPI_Datatype x, const std::vector<int>& present, const char* what) {
    for (int i = 0; i < kKeys; ++i) {
      void* v = nullptr;
      int flag = -1;
      ASSERT_OK(MPI_Type_get_attr(x, keys[i], &v, &flag));
      const bool want = std::find(present.begin(), present.end(), i) != present.end();
      EXPECT_EQ(flag, want ? 1 : 0) << what << ", key " << i;
      if (want && flag) {
        EXPECT_EQ(v, as_ptr(100 + i)) << what << ", key " << i;
      }
    }
  };
  auto dup_free_check = [&](const std::vector<int>& present, const char* what) {
    MPI_Datatype d, e;
    ASSERT_OK(MPI_Type_dup(t, &d));
    ASSERT_OK(MPI_Type_dup(d, &e));
    expect_exactly(d, present, what);
    expect_exactly(e, present, what);
    ASSERT_OK(MPI_Type_free(&e));
    ASSERT_OK(MPI_Type_free(&d));
  };
  for (int i : {0, 5, 31}) ASSERT_OK(MPI_Type_set_attr(t, keys[i], as_ptr(100 + i)));
  dup_free_check({0, 5, 31}, "three inline");
  ASSERT_OK(MPI_Type_delete_attr(t, keys[5]));
  dup_free_check({0, 31}, "after a delete");
  ASSERT_OK(MPI_Type_set_attr(t, keys[35], as_ptr(135)));  // beyond the inline slots
  dup_free_check({0, 31, 35}, "one beyond the inline slots");
  ASSERT_OK(MPI_Type_delete_attr(t, keys[35]));
  ASSERT_OK(MPI_Type_set_attr(t, keys[5], as_ptr(105)));
  dup_free_check({0, 5, 31}, "inline again");
  ASSERT_OK(MPI_Type_delete_attr(t, keys[0]));
  ASSERT_OK(MPI_Type_delete_attr(t, keys[5]));
  ASSERT_OK(MPI_Type_delete_attr(t, keys[31]));
  dup_free_check({}, "all deleted");
  ASSERT_OK(MPI_Type_free(&t));
  for (int& k : keys) ASSERT_OK(MPI_Type_free_keyval(&k));
}

// Keyval indices (the low 20 bits of a handle, keyval.h) are reused smallest first whatever
// order keyvals are freed in, so attributes stay in each object's inline slots. The fast create
// reuses only the spare index (index_pool); every other case is the checked path's, so both
// thread levels must give the same indices.
TEST(D19, D19_keyval_indices_are_reused_smallest_first) {
  auto index = [](int k) { return static_cast<unsigned>(k) & 0xFFFFFu; };
  auto create = [] {
    int k = 0;
    EXPECT_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, nullptr));
    return k;
  };
  int k[5];
  for (int& x : k) x = create();
  for (int i = 1; i < 5; ++i) ASSERT_LT(index(k[i - 1]), index(k[i]));
  const unsigned i1 = index(k[1]), i3 = index(k[3]), i0 = index(k[0]);
  ASSERT_OK(MPI_Comm_free_keyval(&k[3]));
  ASSERT_OK(MPI_Comm_free_keyval(&k[1]));
  int x = create();
  EXPECT_EQ(index(x), i1) << "the smaller of two freed indices first";
  int y = create();
  EXPECT_EQ(index(y), i3);
  ASSERT_OK(MPI_Comm_free_keyval(&k[0]));  // smaller than the last index taken
  int z = create();
  EXPECT_EQ(index(z), i0);
  // Free and create again: same index, a new handle, and the old one is stale.
  const int old_z = z;
  ASSERT_OK(MPI_Comm_free_keyval(&z));
  int w = create();
  EXPECT_EQ(index(w), i0);
  EXPECT_NE(w, old_z);
  int stale = old_z;
  EXPECT_CLASS(MPI_Comm_free_keyval(&stale), MPI_ERR_KEYVAL);
  // Several freed while the last taken is still in use, the smallest comes back first.
  ASSERT_OK(MPI_Comm_free_keyval(&y));
  ASSERT_OK(MPI_Comm_free_keyval(&x));
  ASSERT_OK(MPI_Comm_free_keyval(&w));
  EXPECT_EQ(index(w = create()), i0);
  EXPECT_EQ(index(x = create()), i1);
  EXPECT_EQ(index(y = create()), i3);
  for (int* p : {&w, &x, &y, &k[2], &k[4]}) ASSERT_OK(MPI_Comm_free_keyval(p));
}

// D128: a keyval record keeps its callbacks and kind when its index is freed, and the fast create
// rewrites them only when its tag says they are not the ones it creates with. A create with other
// callbacks, or for another kind, on an index whose record holds the old ones must give the new
// keyval its own: the copy callback it was created with, and its kind (a communicator keyval is
// not a datatype's).
int other_copy(MPI_Comm, int k, void*, void* in, void* out, int* flag) {
  cb_log().push_back({"other_copy", k, in});
  *static_cast<void**>(out) = in;
  *flag = 1;
  return MPI_SUCCESS;
}
TEST(D19, R1_4_R1_5_D128_a_reused_keyval_index_takes_the_callbacks_and_kind_of_its_new_keyval) {
  auto index = [](int k) { return static_cast<unsigned>(k) & 0xFFFFFu; };
  cb_log().clear();
  // A free index below a's (left by the tests before, when they share this process) is taken
  // first: the keyvals that took one are kept until the end, and the steps tried again, until
  // the create takes a's index.
  std::vector<int> kept;
  int b = 0, c = 0;
  for (int tries = 0;; ++tries) {
    ASSERT_LT(tries, 4096) << "no create took the freed index";
    int a = 0;
    ASSERT_OK(MPI_Comm_create_keyval(log_copy, MPI_COMM_NULL_DELETE_FN, &a, nullptr));
    ASSERT_OK(MPI_Comm_create_keyval(other_copy, MPI_COMM_NULL_DELETE_FN, &b, nullptr));  // (remembered)
    const unsigned ia = index(a);
    ASSERT_OK(MPI_Comm_free_keyval(&a));  // its record still holds log_copy
    ASSERT_OK(MPI_Comm_create_keyval(other_copy, MPI_COMM_NULL_DELETE_FN, &c, nullptr));
    if (index(c) == ia) break;
    kept.push_back(b);
    kept.push_back(c);
  }
  MPI_Comm comm = fresh_comm(), dup = MPI_COMM_NULL;
  ASSERT_OK(MPI_Comm_set_attr(comm, c, as_ptr(7)));
  ASSERT_OK(MPI_Comm_dup(comm, &dup));
  EXPECT_EQ(count_events("other_copy", c), 1);
  EXPECT_EQ(count_events("copy"), 0) << "the freed keyval's copy callback ran for the new one";
  void* v = nullptr;
  EXPECT_EQ(comm_get(dup, c, &v), 1);
  EXPECT_EQ(v, as_ptr(7));
  ASSERT_OK(MPI_Comm_free(&dup));
  ASSERT_OK(MPI_Comm_delete_attr(comm, c));

  // The same callbacks (NULL for both: NULL_COPY_FN and NULL_DELETE_FN, D15) for a communicator,
  // then for a datatype on the same index.
  int k = 0, t = 0;
  ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &k, nullptr));
  ASSERT_OK(MPI_Comm_set_attr(comm, k, as_ptr(1)));
  ASSERT_OK(MPI_Comm_delete_attr(comm, k));
  const unsigned ik = index(k);
  ASSERT_OK(MPI_Comm_free_keyval(&k));
  ASSERT_OK(MPI_Type_create_keyval(nullptr, nullptr, &t, nullptr));
  ASSERT_EQ(index(t), ik) << "the test needs the create to reuse the freed index";
  EXPECT_CLASS(MPI_Comm_set_attr(comm, t, as_ptr(2)), MPI_ERR_KEYVAL);
  EXPECT_EQ(comm_get(comm, t, &v), -1) << "a datatype keyval read on a communicator";
  MPI_Datatype type = fresh_type();
  ASSERT_OK(MPI_Type_set_attr(type, t, as_ptr(3)));
  EXPECT_EQ(type_get(type, t, &v), 1);
  EXPECT_EQ(v, as_ptr(3));
  ASSERT_OK(MPI_Type_free(&type));
  ASSERT_OK(MPI_Type_free_keyval(&t));
  ASSERT_OK(MPI_Comm_free(&comm));
  for (int* p : {&b, &c}) ASSERT_OK(MPI_Comm_free_keyval(p));
  for (int& x : kept) ASSERT_OK(MPI_Comm_free_keyval(&x));
}

// The same index created and freed over and over, past the 1024 generations a handle holds: each
// handle is a keyval (sets and gets work) and differs from the one freed just before it, which
// is then stale.
TEST(D19, D19_keyval_generations_wrap_and_stay_distinct) {
  MPI_Comm c = fresh_comm();
  int prev = 0, x = 5;
  for (int round = 0; round < 1100; ++round) {
    int k = 0;
    ASSERT_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, nullptr));
    ASSERT_NE(k, prev) << "round " << round;
    if (prev != 0) {
      ASSERT_EQ(static_cast<unsigned>(k) & 0xFFFFFu, static_cast<unsigned>(prev) & 0xFFFFFu)
          << "the freed index is the one reused, round " << round;
      void* v = nullptr;
      int flag = 0;
      EXPECT_CLASS(MPI_Comm_get_attr(c, prev, &v, &flag), MPI_ERR_KEYVAL) << "round " << round;
    }
    if (round % 100 == 0) {
      ASSERT_OK(MPI_Comm_set_attr(c, k, &x));
      void* v = nullptr;
      ASSERT_EQ(comm_get(c, k, &v), 1);
      EXPECT_EQ(v, &x);
      ASSERT_OK(MPI_Comm_delete_attr(c, k));
    }
    prev = k;
    ASSERT_OK(MPI_Comm_free_keyval(&k));
  }
  ASSERT_OK(MPI_Comm_free(&c));
}

// A freed communicator whose table entry a new one took is not the new communicator.
TEST(D19, D19_stale_object_handle_with_reused_entry_is_rejected) {
  int k = 0, a = 1, b = 2;
  ASSERT_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, nullptr));
  MPI_Comm c1 = fresh_comm();
  const MPI_Comm stale = c1;
  ASSERT_OK(MPI_Comm_free(&c1));
  MPI_Comm c2 = fresh_comm();
  ASSERT_NE(c2, stale);
  ASSERT_OK(MPI_Comm_set_attr(c2, k, &a));
  void* v = nullptr;
  int flag = 0;
  EXPECT_CLASS(MPI_Comm_get_attr(stale, k, &v, &flag), MPI_ERR_COMM);
  EXPECT_CLASS(MPI_Comm_set_attr(stale, k, &b), MPI_ERR_COMM);
  ASSERT_EQ(comm_get(c2, k, &v), 1);
  EXPECT_EQ(v, &a);
  ASSERT_OK(MPI_Comm_free(&c2));
  ASSERT_OK(MPI_Comm_free_keyval(&k));
}

// Predefined objects are found through the same table as created ones.
TEST(D19, D19_predefined_objects_take_the_same_paths) {
  int kc = 0, kt = 0, a = 1;
  ASSERT_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kc, nullptr));
  ASSERT_OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &kt, nullptr));
  ASSERT_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, kc, &a));
  ASSERT_OK(MPI_Type_set_attr(MPI_DOUBLE, kt, &a));
  void* v = nullptr;
  EXPECT_EQ(comm_get(MPI_COMM_WORLD, kc, &v), 1);
  EXPECT_EQ(v, &a);
  EXPECT_EQ(comm_get(MPI_COMM_SELF, kc, &v), 0);
  EXPECT_EQ(type_get(MPI_DOUBLE, kt, &v), 1);
  EXPECT_EQ(v, &a);
  EXPECT_EQ(type_get(MPI_INT, kt, &v), 0);
  int flag = 0;
  // A datatype handle is not a communicator, whatever its table entry.
  EXPECT_CLASS(MPI_Comm_get_attr(reinterpret_cast<MPI_Comm>(MPI_DOUBLE), kc, &v, &flag), MPI_ERR_COMM);
  ASSERT_OK(MPI_Comm_delete_attr(MPI_COMM_WORLD, kc));
  ASSERT_OK(MPI_Type_delete_attr(MPI_DOUBLE, kt));
  ASSERT_OK(MPI_Comm_free_keyval(&kc));
  ASSERT_OK(MPI_Type_free_keyval(&kt));
}

// The fast set declines when the old value has a delete callback to run, or is being deleted.
int g_deletes = 0;
int g_inner_rc = MPI_SUCCESS;
int count_delete(MPI_Comm, int, void*, void*) {
  ++g_deletes;
  return MPI_SUCCESS;
}
int set_self_from_delete(MPI_Comm c, int k, void*, void*) {
  g_inner_rc = MPI_Comm_set_attr(c, k, as_ptr(99));
  return MPI_SUCCESS;
}
TEST(D19, D19_set_declines_when_a_delete_callback_must_run) {
  MPI_Comm c = fresh_comm();
  int k = 0, d = 0;
  ASSERT_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &k, nullptr));
  ASSERT_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, set_self_from_delete, &d, nullptr));
  g_deletes = 0;
  ASSERT_OK(MPI_Comm_set_attr(c, k, as_ptr(1)));
  ASSERT_OK(MPI_Comm_set_attr(c, k, as_ptr(2)));
  EXPECT_EQ(g_deletes, 1) << "replacing must run the delete callback on the old value (R4.1)";
  ASSERT_OK(MPI_Comm_set_attr(c, d, as_ptr(1)));
  g_inner_rc = MPI_SUCCESS;
  ASSERT_OK(MPI_Comm_delete_attr(c, d));
  EXPECT_CLASS(g_inner_rc, MPI_ERR_OTHER);  // a set of the attribute being deleted (D9)
  void* v = nullptr;
  EXPECT_EQ(comm_get(c, d, &v), 0);
  ASSERT_OK(MPI_Comm_free(&c));
  EXPECT_EQ(g_deletes, 2);
  ASSERT_OK(MPI_Comm_free_keyval(&k));
  ASSERT_OK(MPI_Comm_free_keyval(&d));
}

// Dups of objects whose attributes are all MPI_XXX_DUP_FN copy the slots wholesale (more than a
// few attributes, chunks with holes); a free drops them at once. The copy must equal the
// original, and the two must be independent afterwards.
TEST(D19, D19_dup_of_many_dup_fn_attributes_copies_every_value_and_no_more) {
  constexpr int kKeys = 150;
  std::vector<int> keys(kKeys);
  for (int& k : keys) ASSERT_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &k, nullptr));
  MPI_Comm c = fresh_comm();
  for (int i = 0; i < kKeys; ++i)
    if (i % 5 != 3 && (i < 40 || i > 100)) ASSERT_OK(MPI_Comm_set_attr(c, keys[i], as_ptr(1000 + i)));
  MPI_Comm d, e;
  ASSERT_OK(MPI_Comm_dup(c, &d));
  ASSERT_OK(MPI_Comm_dup(d, &e));
  ASSERT_OK(MPI_Comm_set_attr(d, keys[0], as_ptr(7)));
  ASSERT_OK(MPI_Comm_free(&e));
  for (int i = 0; i < kKeys; ++i) {
    const bool set = i % 5 != 3 && (i < 40 || i > 100);
    void* v = nullptr;
    ASSERT_EQ(comm_get(d, keys[i], &v), set ? 1 : 0) << i;
    if (set) {
      EXPECT_EQ(v, as_ptr(i == 0 ? 7 : 1000 + i)) << i;
    }
    ASSERT_EQ(comm_get(c, keys[i], &v), set ? 1 : 0) << i;
    if (set) {
      EXPECT_EQ(v, as_ptr(1000 + i)) << "the dup changed the original, key " << i;
    }
  }
  // One attribute with a delete callback: the checked copy and free run, with the same result.
  int logged = 0;
  ASSERT_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, count_delete, &logged, nullptr));
  ASSERT_OK(MPI_Comm_set_attr(c, logged, as_ptr(1)));
  MPI_Comm f;
  ASSERT_OK(MPI_Comm_dup(c, &f));
  void* v = nullptr;
  EXPECT_EQ(comm_get(f, keys[149], &v), 1);
  EXPECT_EQ(v, as_ptr(1149));
  g_deletes = 0;
  ASSERT_OK(MPI_Comm_free(&f));
  EXPECT_EQ(g_deletes, 1);
  ASSERT_OK(MPI_Comm_free(&d));
  ASSERT_OK(MPI_Comm_free(&c));
  EXPECT_EQ(g_deletes, 2);
  for (int& k : keys) ASSERT_OK(MPI_Comm_free_keyval(&k));
  ASSERT_OK(MPI_Comm_free_keyval(&logged));
}

}  // namespace
