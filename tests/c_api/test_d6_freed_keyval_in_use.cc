// D6 (R2.2, R2.3): a keyval the program has freed while attributes under it still exist is still
// a key until its last attribute is gone (MPI-4.1 §8.7.2, MPI_COMM_FREE_KEYVAL): get_attr reads
// and delete_attr deletes through a copy of the handle; set_attr and a second free are refused
// (MPI_ERR_KEYVAL); once the last attribute is gone every use is refused. The handle, and its
// index, are not reused while the key lives, so the stale handle never reaches another key's
// attribute.
#include <cstdint>

#include "attr_test_common.h"

namespace {

class D6 : public ::testing::Test {
 protected:
  void SetUp() override { cb_log().clear(); }
};

std::uint32_t index_of(int keyval) { return static_cast<std::uint32_t>(keyval) & 0xFFFFFu; }

TEST_F(D6, D6_freed_keyval_get_while_in_use) {
  MPI_Comm c1 = fresh_comm(), c2 = fresh_comm(), other = fresh_comm();
  int k, a = 1, b = 2;
  ASSERT_OK(MPI_Comm_create_keyval(log_copy, log_delete, &k, nullptr));
  const int stale = k;
  ASSERT_OK(MPI_Comm_set_attr(c1, k, &a));
  ASSERT_OK(MPI_Comm_set_attr(c2, k, &b));
  ASSERT_OK(MPI_Comm_free_keyval(&k));
  EXPECT_EQ(k, MPI_KEYVAL_INVALID);

  void* v = nullptr;
  int flag = 0;
  ASSERT_OK(MPI_Comm_get_attr(c1, stale, &v, &flag));
  EXPECT_EQ(flag, 1);
  EXPECT_EQ(v, &a);
  v = nullptr;
  ASSERT_OK(MPI_Attr_get(c2, stale, &v, &flag));  // the deprecated routine alike (R5.4)
  EXPECT_EQ(flag, 1);
  EXPECT_EQ(v, &b);
  // An object without an attribute under the key: not found, and not an error (R4.2).
  flag = 1;
  ASSERT_OK(MPI_Comm_get_attr(other, stale, &v, &flag));
  EXPECT_EQ(flag, 0);
  // A read changes nothing: no callback ran.
  EXPECT_TRUE(cb_log().empty());

  MPI_Comm_free(&other);
  MPI_Comm_free(&c1);
  MPI_Comm_free(&c2);
  EXPECT_EQ(count_events("delete", stale), 2);
}

TEST_F(D6, D6_freed_keyval_delete_while_in_use_runs_the_delete_callback) {
  MPI_Comm c = fresh_comm();
  int k, a = 1;
  ASSERT_OK(MPI_Comm_create_keyval(log_copy, log_delete, &k, nullptr));
  const int stale = k;
  ASSERT_OK(MPI_Comm_set_attr(c, k, &a));
  ASSERT_OK(MPI_Comm_free_keyval(&k));
  ASSERT_OK(MPI_Comm_delete_attr(c, stale));
  ASSERT_EQ(cb_log().size(), 1u);
  EXPECT_EQ(cb_log()[0].what, "delete");
  EXPECT_EQ(cb_log()[0].keyval, stale);
  EXPECT_EQ(cb_log()[0].value, &a);
  MPI_Comm_free(&c);
  EXPECT_EQ(cb_log().size(), 1u) << "the deleted attribute is not deleted again by the free";
}

TEST_F(D6, D6_freed_keyval_set_rejected_while_in_use) {
  MPI_Comm c1 = fresh_comm(), c2 = fresh_comm();
  int k, a = 1, b = 2;
  ASSERT_OK(MPI_Comm_create_keyval(log_copy, log_delete, &k, nullptr));
  const int stale = k;
  ASSERT_OK(MPI_Comm_set_attr(c1, k, &a));
  ASSERT_OK(MPI_Comm_free_keyval(&k));

  // Neither replacing the value that is there nor adding one where there is none.
  int rc = MPI_Comm_set_attr(c1, stale, &b);
  EXPECT_CLASS(rc, MPI_ERR_KEYVAL);
  EXPECT_NE(error_string(rc).find("freed"), std::string::npos) << error_string(rc);
  EXPECT_NE(error_string(rc).find("D6"), std::string::npos) << error_string(rc);
  EXPECT_CLASS(MPI_Comm_set_attr(c2, stale, &b), MPI_ERR_KEYVAL);
  EXPECT_CLASS(MPI_Attr_put(c2, stale, &b), MPI_ERR_KEYVAL);
  EXPECT_TRUE(cb_log().empty()) << "a refused set runs no delete callback";
  void* v = nullptr;
  ASSERT_EQ(comm_get(c1, stale, &v), 1);
  EXPECT_EQ(v, &a) << "the refused replacement changed the value";
  EXPECT_EQ(comm_get(c2, stale, &v), 0) << "the refused set stored something";

  MPI_Comm_free(&c1);
  MPI_Comm_free(&c2);
  EXPECT_EQ(count_events("delete"), 1);
}

// Item 10 of issue 14: freeing the same keyval twice stays an error, whether or not attributes
// still use it (MPI-4.1 §8.7.2: the first free sets the variable to MPI_KEYVAL_INVALID; the handle
// is no longer a key the program may free; §8.7.5 lists MPI_COMM_FREE_KEYVAL among the routines
// that raise MPI_ERR_KEYVAL).
TEST_F(D6, R2_1_D6_freeing_a_freed_keyval_again_is_an_error) {
  MPI_Comm c = fresh_comm();
  int in_use, unused, a = 1;
  ASSERT_OK(MPI_Comm_create_keyval(log_copy, log_delete, &in_use, nullptr));
  ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &unused, nullptr));
  ASSERT_OK(MPI_Comm_set_attr(c, in_use, &a));
  int stale_in_use = in_use, stale_unused = unused;
  ASSERT_OK(MPI_Comm_free_keyval(&in_use));
  ASSERT_OK(MPI_Comm_free_keyval(&unused));
  EXPECT_CLASS(MPI_Comm_free_keyval(&stale_in_use), MPI_ERR_KEYVAL);
  EXPECT_CLASS(MPI_Keyval_free(&stale_in_use), MPI_ERR_KEYVAL);
  EXPECT_CLASS(MPI_Comm_free_keyval(&stale_unused), MPI_ERR_KEYVAL);
  EXPECT_NE(stale_in_use, MPI_KEYVAL_INVALID) << "a refused free leaves the variable alone";
  // The second free released nothing: the attribute is still there, with its callback.
  void* v = nullptr;
  ASSERT_EQ(comm_get(c, stale_in_use, &v), 1);
  EXPECT_EQ(v, &a);
  EXPECT_TRUE(cb_log().empty());
  ASSERT_OK(MPI_Comm_free(&c));
  EXPECT_EQ(count_events("delete"), 1);
}

TEST_F(D6, D6_freed_keyval_rejected_once_its_last_attribute_is_deleted) {
  MPI_Comm c1 = fresh_comm(), c2 = fresh_comm();
  int k, a = 1, b = 2;
  ASSERT_OK(MPI_Comm_create_keyval(log_copy, log_delete, &k, nullptr));
  const int stale = k;
  ASSERT_OK(MPI_Comm_set_attr(c1, k, &a));
  ASSERT_OK(MPI_Comm_set_attr(c2, k, &b));
  ASSERT_OK(MPI_Comm_free_keyval(&k));
  ASSERT_OK(MPI_Comm_delete_attr(c1, stale));
  // c2's attribute keeps the key alive: c1, which has none now, answers "not found".
  EXPECT_EQ(comm_get(c1, stale, nullptr), 0);
  ASSERT_OK(MPI_Comm_delete_attr(c1, stale));  // nothing there: nothing to do (D7)
  EXPECT_EQ(count_events("delete"), 1);
  ASSERT_OK(MPI_Comm_delete_attr(c2, stale));
  EXPECT_EQ(count_events("delete"), 2);

  // The key is really gone now: every use is refused, on every object.
  void* v = nullptr;
  int flag = 0;
  for (MPI_Comm c : {c1, c2}) {
    int rc = MPI_Comm_get_attr(c, stale, &v, &flag);
    EXPECT_CLASS(rc, MPI_ERR_KEYVAL);
    EXPECT_NE(error_string(rc).find("no attribute uses it"), std::string::npos) << error_string(rc);
    EXPECT_CLASS(MPI_Comm_delete_attr(c, stale), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Comm_set_attr(c, stale, &a), MPI_ERR_KEYVAL);
  }
  int again = stale;
  EXPECT_CLASS(MPI_Comm_free_keyval(&again), MPI_ERR_KEYVAL);
  MPI_Comm_free(&c1);
  MPI_Comm_free(&c2);
  EXPECT_EQ(count_events("delete"), 2);
}

TEST_F(D6, D6_freed_keyval_rejected_once_the_objects_holding_it_are_freed) {
  MPI_Comm c = fresh_comm(), other = fresh_comm();
  int k, a = 1;
  ASSERT_OK(MPI_Comm_create_keyval(log_copy, log_delete, &k, nullptr));
  const int stale = k;
  ASSERT_OK(MPI_Comm_set_attr(c, k, &a));
  ASSERT_OK(MPI_Comm_free_keyval(&k));
  EXPECT_EQ(comm_get(other, stale, nullptr), 0);
  ASSERT_OK(MPI_Comm_free(&c));
  EXPECT_EQ(count_events("delete", stale), 1);
  void* v = nullptr;
  int flag = 0;
  EXPECT_CLASS(MPI_Comm_get_attr(other, stale, &v, &flag), MPI_ERR_KEYVAL);
  EXPECT_CLASS(MPI_Comm_delete_attr(other, stale), MPI_ERR_KEYVAL);
  MPI_Comm_free(&other);
}

// The copies a dup makes are attributes under the key too (R2.2): they keep it alive.
TEST_F(D6, D6_freed_keyval_kept_alive_by_the_copies_a_dup_made) {
  MPI_Comm c = fresh_comm();
  int k, a = 1;
  ASSERT_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, log_delete, &k, nullptr));
  const int stale = k;
  ASSERT_OK(MPI_Comm_set_attr(c, k, &a));
  ASSERT_OK(MPI_Comm_free_keyval(&k));
  MPI_Comm d = MPI_COMM_NULL;
  ASSERT_OK(MPI_Comm_dup(c, &d));
  ASSERT_OK(MPI_Comm_delete_attr(c, stale));
  void* v = nullptr;
  ASSERT_EQ(comm_get(d, stale, &v), 1) << "the duplicate's copy is still readable";
  EXPECT_EQ(v, &a);
  EXPECT_EQ(comm_get(c, stale, &v), 0);
  // A dup of the duplicate copies it again, through the freed key's copy function (R2.2 [I]).
  MPI_Comm e = MPI_COMM_NULL;
  ASSERT_OK(MPI_Comm_dup(d, &e));
  ASSERT_OK(MPI_Comm_free(&d));
  ASSERT_EQ(comm_get(e, stale, &v), 1);
  EXPECT_EQ(v, &a);
  ASSERT_OK(MPI_Comm_free(&e));
  EXPECT_EQ(count_events("delete", stale), 3);
  EXPECT_EQ(comm_get(c, stale, &v), -1) << "the last copy is gone: the key is gone";
  MPI_Comm_free(&c);
}

// The handle and its index are not reused while the key lives (D2, D20): keyvals created and freed
// meanwhile never get them, and the stale handle reads only its own attribute. Once the key is
// gone the index may be reused, under another handle, and the stale handle reaches nothing.
TEST_F(D6, D2_D6_freed_keyval_index_not_reused_while_in_use) {
  MPI_Comm c = fresh_comm(), d = fresh_comm();
  int k, a = 1, b = 2;
  ASSERT_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, log_delete, &k, nullptr));
  const int stale = k;
  ASSERT_OK(MPI_Comm_set_attr(c, k, &a));
  ASSERT_OK(MPI_Comm_free_keyval(&k));
  for (int round = 0; round < 300; ++round) {  // the free-create cycle that reuses the spare index
    int t;
    ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &t, nullptr));
    ASSERT_NE(index_of(t), index_of(stale)) << "round " << round;
    ASSERT_OK(MPI_Comm_set_attr(d, t, &b));
    ASSERT_OK(MPI_Comm_free_keyval(&t));
  }
  std::vector<int> keys(64);
  for (int& kk : keys) {
    ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &kk, nullptr));
    EXPECT_NE(index_of(kk), index_of(stale));
    ASSERT_OK(MPI_Comm_set_attr(c, kk, &b));
    ASSERT_OK(MPI_Comm_set_attr(d, kk, &b));
  }
  void* v = nullptr;
  ASSERT_EQ(comm_get(c, stale, &v), 1);
  EXPECT_EQ(v, &a);
  EXPECT_EQ(comm_get(d, stale, &v), 0);
  for (int& kk : keys) ASSERT_OK(MPI_Comm_free_keyval(&kk));

  // The last attribute goes: now the index is free, and the next keyval takes it (the smallest
  // free index, D20), under a new handle. The stale handle does not reach its attribute.
  ASSERT_OK(MPI_Comm_delete_attr(c, stale));
  int fresh = 0;
  ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &fresh, nullptr));
  EXPECT_EQ(index_of(fresh), index_of(stale)) << "the freed index is the smallest free one";
  EXPECT_NE(fresh, stale);
  ASSERT_OK(MPI_Comm_set_attr(c, fresh, &b));
  int flag = 0;
  EXPECT_CLASS(MPI_Comm_get_attr(c, stale, &v, &flag), MPI_ERR_KEYVAL);
  EXPECT_CLASS(MPI_Comm_delete_attr(c, stale), MPI_ERR_KEYVAL);
  ASSERT_EQ(comm_get(c, fresh, &v), 1) << "the refused delete through the stale handle deleted it";
  EXPECT_EQ(v, &b);
  ASSERT_OK(MPI_Comm_free_keyval(&fresh));
  MPI_Comm_free(&c);
  MPI_Comm_free(&d);
}

TEST_F(D6, D6_freed_type_and_win_keyvals_get_and_delete_while_in_use) {
  MPI_Datatype t = fresh_type();
  char buf[8];
  MPI_Win w;
  ASSERT_OK(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w));
  MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
  int kt, kw, a = 1, b = 2;
  ASSERT_OK(MPI_Type_create_keyval(log_type_copy, log_type_delete, &kt, nullptr));
  ASSERT_OK(MPI_Win_create_keyval(log_win_copy, log_win_delete, &kw, nullptr));
  const int stale_t = kt, stale_w = kw;
  ASSERT_OK(MPI_Type_set_attr(t, kt, &a));
  ASSERT_OK(MPI_Win_set_attr(w, kw, &b));
  ASSERT_OK(MPI_Type_free_keyval(&kt));
  ASSERT_OK(MPI_Win_free_keyval(&kw));

  void* v = nullptr;
  ASSERT_EQ(type_get(t, stale_t, &v), 1);
  EXPECT_EQ(v, &a);
  ASSERT_EQ(win_get(w, stale_w, &v), 1);
  EXPECT_EQ(v, &b);
  EXPECT_CLASS(MPI_Type_set_attr(t, stale_t, &b), MPI_ERR_KEYVAL);
  EXPECT_CLASS(MPI_Win_set_attr(w, stale_w, &a), MPI_ERR_KEYVAL);
  // Still of its own kind only (R1.5).
  int flag = 0;
  int rc = MPI_Win_get_attr(w, stale_t, &v, &flag);
  EXPECT_CLASS(rc, MPI_ERR_KEYVAL);
  EXPECT_NE(error_string(rc).find("created for datatypes"), std::string::npos) << error_string(rc);
  EXPECT_CLASS(MPI_Type_delete_attr(t, stale_w), MPI_ERR_KEYVAL);
  EXPECT_TRUE(cb_log().empty());

  ASSERT_OK(MPI_Type_delete_attr(t, stale_t));
  ASSERT_OK(MPI_Win_delete_attr(w, stale_w));
  EXPECT_EQ(count_events("delete", stale_t), 1);
  EXPECT_EQ(count_events("delete", stale_w), 1);
  EXPECT_EQ(type_get(t, stale_t, nullptr), -1);
  EXPECT_EQ(win_get(w, stale_w, nullptr), -1);
  MPI_Type_free(&t);
  MPI_Win_free(&w);
  EXPECT_EQ(count_events("delete"), 2);
}

// A freed communicator keyval read through a datatype or window routine: the kind is checked as
// for a live keyval (R1.5, D5), with its own message.
TEST_F(D6, D6_R1_5_freed_keyval_of_another_kind_rejected) {
  MPI_Comm c = fresh_comm();
  MPI_Datatype t = fresh_type();
  int k, a = 1;
  ASSERT_OK(MPI_Comm_create_keyval(nullptr, log_delete, &k, nullptr));
  const int stale = k;
  ASSERT_OK(MPI_Comm_set_attr(c, k, &a));
  ASSERT_OK(MPI_Comm_free_keyval(&k));
  void* v = nullptr;
  int flag = 0;
  int rc = MPI_Type_get_attr(t, stale, &v, &flag);
  EXPECT_CLASS(rc, MPI_ERR_KEYVAL);
  EXPECT_NE(error_string(rc).find("created for communicators, not datatypes"), std::string::npos)
      << error_string(rc);
  EXPECT_CLASS(MPI_Type_delete_attr(t, stale), MPI_ERR_KEYVAL);
  EXPECT_TRUE(cb_log().empty());
  MPI_Type_free(&t);
  MPI_Comm_free(&c);
  EXPECT_EQ(count_events("delete"), 1);
}

// A freed key stays readable from its own callbacks while they run (its attribute is in use).
int g_stale_key = 0;
int g_seen_in_delete = -2;
int read_own_key_delete(MPI_Comm c, int k, void*, void*) {
  g_seen_in_delete = comm_get(c, g_stale_key, nullptr);
  cb_log().push_back({"delete", k, nullptr});
  return MPI_SUCCESS;
}
TEST_F(D6, D6_D9_freed_keyval_readable_from_its_delete_callback) {
  MPI_Comm c = fresh_comm();
  int k, a = 1;
  ASSERT_OK(MPI_Comm_create_keyval(nullptr, read_own_key_delete, &k, nullptr));
  g_stale_key = k;
  ASSERT_OK(MPI_Comm_set_attr(c, k, &a));
  ASSERT_OK(MPI_Comm_free_keyval(&k));
  ASSERT_OK(MPI_Comm_delete_attr(c, g_stale_key));
  EXPECT_EQ(g_seen_in_delete, 1) << "the attribute is visible while its delete callback runs (D9)";
  EXPECT_EQ(comm_get(c, g_stale_key, nullptr), -1);
  MPI_Comm_free(&c);
}

}  // namespace
