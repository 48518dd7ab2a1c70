// R1 (keyval creation and identity), R2 (keyval lifetime), D2. Freed keyvals still in use: D6
// (test_d6_freed_keyval_in_use.cc).
#include <set>

#include "attr_test_common.h"

namespace {

class R1R2 : public ::testing::Test {
 protected:
  void SetUp() override { cb_log().clear(); }
};

TEST_F(R1R2, R1_2_create_never_returns_KEYVAL_INVALID_and_keys_are_unique) {
  EXPECT_EQ(MPI_KEYVAL_INVALID, 0);  // D2 / MPI-5.0 ABI
  std::set<int> seen;
  std::vector<int> comm_keys, win_keys, type_keys, old_keys;
  for (int i = 0; i < 50; ++i) {
    int a = MPI_KEYVAL_INVALID, b = MPI_KEYVAL_INVALID, c = MPI_KEYVAL_INVALID, d = MPI_KEYVAL_INVALID;
    ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &a, nullptr));
    ASSERT_OK(MPI_Win_create_keyval(nullptr, nullptr, &b, nullptr));
    ASSERT_OK(MPI_Type_create_keyval(nullptr, nullptr, &c, nullptr));
    ASSERT_OK(MPI_Keyval_create(nullptr, nullptr, &d, nullptr));
    for (int k : {a, b, c, d}) {
      EXPECT_NE(k, MPI_KEYVAL_INVALID);
      for (int p : {MPI_TAG_UB, MPI_IO, MPI_HOST, MPI_WTIME_IS_GLOBAL, MPI_UNIVERSE_SIZE, MPI_APPNUM,
                    MPI_LASTUSEDCODE, MPI_WIN_BASE, MPI_WIN_SIZE, MPI_WIN_DISP_UNIT,
                    MPI_WIN_CREATE_FLAVOR, MPI_WIN_MODEL})
        EXPECT_NE(k, p) << "a created keyval equals a predefined key";
      EXPECT_TRUE(seen.insert(k).second) << "duplicate keyval " << k;
    }
    comm_keys.push_back(a);
    win_keys.push_back(b);
    type_keys.push_back(c);
    old_keys.push_back(d);
  }
  for (int& k : comm_keys) ASSERT_OK(MPI_Comm_free_keyval(&k));
  for (int& k : win_keys) ASSERT_OK(MPI_Win_free_keyval(&k));
  for (int& k : type_keys) ASSERT_OK(MPI_Type_free_keyval(&k));
  for (int& k : old_keys) ASSERT_OK(MPI_Keyval_free(&k));
}

TEST_F(R1R2, R2_1_free_sets_the_variable_to_KEYVAL_INVALID) {
  int a, b, c, d;
  ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &a, nullptr));
  ASSERT_OK(MPI_Win_create_keyval(nullptr, nullptr, &b, nullptr));
  ASSERT_OK(MPI_Type_create_keyval(nullptr, nullptr, &c, nullptr));
  ASSERT_OK(MPI_Keyval_create(nullptr, nullptr, &d, nullptr));
  ASSERT_OK(MPI_Comm_free_keyval(&a));
  ASSERT_OK(MPI_Win_free_keyval(&b));
  ASSERT_OK(MPI_Type_free_keyval(&c));
  ASSERT_OK(MPI_Keyval_free(&d));
  EXPECT_EQ(a, MPI_KEYVAL_INVALID);
  EXPECT_EQ(b, MPI_KEYVAL_INVALID);
  EXPECT_EQ(c, MPI_KEYVAL_INVALID);
  EXPECT_EQ(d, MPI_KEYVAL_INVALID);
}

TEST_F(R1R2, R1_3_keyval_from_Keyval_create_freed_with_Comm_free_keyval_and_back) {
  int a, b;
  ASSERT_OK(MPI_Keyval_create(nullptr, nullptr, &a, nullptr));
  ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &b, nullptr));
  ASSERT_OK(MPI_Comm_free_keyval(&a));
  ASSERT_OK(MPI_Keyval_free(&b));
  EXPECT_EQ(a, MPI_KEYVAL_INVALID);
  EXPECT_EQ(b, MPI_KEYVAL_INVALID);
}

TEST_F(R1R2, R2_2_keyval_freed_in_use_keeps_attribute_and_delete_callback) {
  MPI_Comm c = fresh_comm();
  int k, a = 1;
  ASSERT_OK(MPI_Comm_create_keyval(log_copy, log_delete, &k, nullptr));
  const int handle = k;
  ASSERT_OK(MPI_Comm_set_attr(c, k, &a));
  ASSERT_OK(MPI_Comm_free_keyval(&k));
  EXPECT_EQ(k, MPI_KEYVAL_INVALID);
  EXPECT_EQ(count_events("delete"), 0) << "freeing a keyval must not delete its attributes";
  ASSERT_OK(MPI_Comm_free(&c));
  ASSERT_EQ(count_events("delete"), 1);
  EXPECT_EQ(cb_log()[0].value, &a);
  EXPECT_EQ(cb_log()[0].keyval, handle) << "the callback sees the keyval it was created with";
}

TEST_F(R1R2, R2_2_copy_callback_of_freed_keyval_still_fires_on_dup) {
  MPI_Comm c = fresh_comm();
  int k, a = 1;
  ASSERT_OK(MPI_Comm_create_keyval(log_copy, log_delete, &k, nullptr));
  ASSERT_OK(MPI_Comm_set_attr(c, k, &a));
  ASSERT_OK(MPI_Comm_free_keyval(&k));
  MPI_Comm d = MPI_COMM_NULL;
  ASSERT_OK(MPI_Comm_dup(c, &d));
  EXPECT_EQ(count_events("copy"), 1);
  ASSERT_OK(MPI_Comm_free(&c));
  ASSERT_OK(MPI_Comm_free(&d));
  EXPECT_EQ(count_events("delete"), 2) << "the copy on the duplicate is deleted with it too";
}

TEST_F(R1R2, R2_2_record_reclaimed_after_objects_freed_and_stale_handle_stays_invalid) {
  MPI_Comm c = fresh_comm();
  int k, a = 1;
  ASSERT_OK(MPI_Comm_create_keyval(log_copy, log_delete, &k, nullptr));
  const int handle = k;
  ASSERT_OK(MPI_Comm_set_attr(c, k, &a));
  ASSERT_OK(MPI_Comm_free_keyval(&k));
  ASSERT_OK(MPI_Comm_free(&c));
  // Creating many keyvals (reusing freed indices, D2) never hands back the stale handle, and the
  // stale handle never reaches a new keyval's attribute.
  std::vector<int> keys(64);
  MPI_Comm d = fresh_comm();
  for (int& kk : keys) {
    ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &kk, nullptr));
    EXPECT_NE(kk, handle);
    ASSERT_OK(MPI_Comm_set_attr(d, kk, &a));
  }
  void* v;
  int flag;
  EXPECT_CLASS(MPI_Comm_get_attr(d, handle, &v, &flag), MPI_ERR_KEYVAL);
  EXPECT_CLASS(MPI_Comm_delete_attr(d, handle), MPI_ERR_KEYVAL);
  MPI_Comm_free(&d);
  for (int& kk : keys) MPI_Comm_free_keyval(&kk);
}

// A keyval that never had an attribute gives its index back at the free itself (at both thread
// levels: keyval_registry::free_fast below MPI_THREAD_MULTIPLE, drop_handle at it), so the next
// create reuses it under a new handle, and the old handle stays invalid.
TEST_F(R1R2, R2_1_never_used_keyval_gives_its_index_back_at_the_free) {
  for (int round = 0; round < 3; ++round) {
    int k;
    ASSERT_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, nullptr));
    const int stale = k;
    ASSERT_OK(MPI_Comm_free_keyval(&k));
    int again;
    ASSERT_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &again, nullptr));
    EXPECT_EQ(again & 0xFFFFF, stale & 0xFFFFF) << "the freed keyval's index was not reused";
    EXPECT_NE(again, stale);
    int a = 5, flag = 1;
    void* v = nullptr;
    EXPECT_CLASS(MPI_Comm_set_attr(MPI_COMM_SELF, stale, &a), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Comm_get_attr(MPI_COMM_SELF, stale, &v, &flag), MPI_ERR_KEYVAL);
    ASSERT_OK(MPI_Comm_get_attr(MPI_COMM_SELF, again, &v, &flag));
    EXPECT_EQ(flag, 0);
    ASSERT_OK(MPI_Comm_free_keyval(&again));
  }
}

TEST_F(R1R2, R1_5_D5_wrong_kind_keyval_rejected_for_every_pair) {
  MPI_Comm c = fresh_comm();
  MPI_Datatype t = fresh_type();
  char buf[8];
  MPI_Win w;
  ASSERT_OK(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w));
  MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
  int kc, kw, kt, x = 0;
  ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &kc, nullptr));
  ASSERT_OK(MPI_Win_create_keyval(nullptr, nullptr, &kw, nullptr));
  ASSERT_OK(MPI_Type_create_keyval(nullptr, nullptr, &kt, nullptr));
  void* v;
  int f;
  for (int k : {kw, kt}) {
    EXPECT_CLASS(MPI_Comm_set_attr(c, k, &x), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Comm_get_attr(c, k, &v, &f), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Comm_delete_attr(c, k), MPI_ERR_KEYVAL);
  }
  for (int k : {kc, kt}) {
    EXPECT_CLASS(MPI_Win_set_attr(w, k, &x), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Win_get_attr(w, k, &v, &f), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Win_delete_attr(w, k), MPI_ERR_KEYVAL);
  }
  for (int k : {kc, kw}) {
    EXPECT_CLASS(MPI_Type_set_attr(t, k, &x), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Type_get_attr(t, k, &v, &f), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Type_delete_attr(t, k), MPI_ERR_KEYVAL);
  }
  int copy = kc;
  EXPECT_CLASS(MPI_Type_free_keyval(&copy), MPI_ERR_KEYVAL);
  copy = kt;
  EXPECT_CLASS(MPI_Keyval_free(&copy), MPI_ERR_KEYVAL);
  // Still usable with their own kind.
  EXPECT_OK(MPI_Comm_set_attr(c, kc, &x));
  EXPECT_OK(MPI_Win_set_attr(w, kw, &x));
  EXPECT_OK(MPI_Type_set_attr(t, kt, &x));
  MPI_Win_free(&w);
  MPI_Comm_free(&c);
  MPI_Type_free(&t);
  EXPECT_OK(MPI_Comm_free_keyval(&kc));
  EXPECT_OK(MPI_Win_free_keyval(&kw));
  EXPECT_OK(MPI_Type_free_keyval(&kt));
}

TEST_F(R1R2, R1_4_extra_state_is_passed_to_callbacks_and_is_per_keyval) {
  static void* seen_copy = nullptr;
  static void* seen_delete = nullptr;
  int e1 = 0, e2 = 0, a = 0;
  auto cp = [](MPI_Comm, int, void* ex, void* in, void* out, int* flag) -> int {
    seen_copy = ex;
    *static_cast<void**>(out) = in;
    *flag = 1;
    return MPI_SUCCESS;
  };
  auto del = [](MPI_Comm, int, void*, void* ex) -> int {
    seen_delete = ex;
    return MPI_SUCCESS;
  };
  int k1, k2;
  ASSERT_OK(MPI_Comm_create_keyval(cp, del, &k1, &e1));
  ASSERT_OK(MPI_Comm_create_keyval(cp, del, &k2, &e2));
  MPI_Comm c = fresh_comm(), d;
  ASSERT_OK(MPI_Comm_set_attr(c, k2, &a));
  ASSERT_OK(MPI_Comm_dup(c, &d));
  EXPECT_EQ(seen_copy, &e2);
  ASSERT_OK(MPI_Comm_delete_attr(d, k2));
  EXPECT_EQ(seen_delete, &e2);
  ASSERT_OK(MPI_Comm_set_attr(c, k1, &a));
  ASSERT_OK(MPI_Comm_delete_attr(c, k1));
  EXPECT_EQ(seen_delete, &e1);
  MPI_Comm_free(&c);
  MPI_Comm_free(&d);
  MPI_Comm_free_keyval(&k1);
  MPI_Comm_free_keyval(&k2);
}

TEST_F(R1R2, D2_keyvals_fit_in_a_Fortran_INTEGER_and_are_not_negative) {
  int k;
  ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &k, nullptr));
  EXPECT_GT(k, 0);
  MPI_Comm_free_keyval(&k);
}

}  // namespace

namespace {

// Regression: freeing objects that carry predefined attributes (windows, split/created
// communicators, dups) must not recycle the predefined keys' records, or new keyvals alias them
// (or get an unusable index-0 handle).
TEST(R1R2_Regression, R1_2_new_keyvals_stay_usable_after_freeing_objects_with_predefined_attributes) {
  for (int round = 0; round < 3; ++round) {
    char buf[8];
    MPI_Win w;
    ASSERT_OK(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w));
    ASSERT_OK(MPI_Win_free(&w));
    MPI_Comm s, d;
    ASSERT_OK(MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &s));
    ASSERT_OK(MPI_Comm_free(&s));
    ASSERT_OK(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    ASSERT_OK(MPI_Comm_free(&d));
  }
  MPI_Comm c = fresh_comm();
  std::vector<int> keys(40);
  int x = 0;
  std::set<int> seen;
  for (int& k : keys) {
    ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &k, nullptr));
    EXPECT_TRUE(seen.insert(k).second);
    EXPECT_EQ(comm_get(c, k, nullptr), 0) << "new keyval " << k << " already has a value";
    EXPECT_OK(MPI_Comm_set_attr(c, k, &x));
  }
  void* v = nullptr;
  ASSERT_EQ(comm_get(MPI_COMM_WORLD, MPI_TAG_UB, &v), 1);
  EXPECT_EQ(*static_cast<int*>(v), 2147483647);
  MPI_Comm_free(&c);
  for (int& k : keys) EXPECT_OK(MPI_Comm_free_keyval(&k));
}

}  // namespace
