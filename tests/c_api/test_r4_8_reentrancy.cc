// D9 (R4.8): callbacks calling MPI, including caching routines on the object being duplicated or
// freed, and MPI_XXX_FREE_KEYVAL on their own key.
#include "attr_test_common.h"

namespace {

struct probe {
  int get_rc = -1, get_flag = -1;
  void* get_value = nullptr;
  int set_rc = -1, delete_rc = -1, other_set_rc = -1, other_delete_rc = -1, free_kv_rc = -1;
  int calls = 0;
};
probe g_p;
int g_other_key = 0;  // a second key on the same object
int g_new_key = 0;    // a key with no attribute on the object yet
int g_kv_var = 0;     // the variable a callback frees its own keyval through
int g_val;

class D9 : public ::testing::Test {
 protected:
  void SetUp() override {
    g_p = probe{};
    cb_log().clear();
  }
};

int probing_delete(MPI_Comm comm, int k, void* v, void*) {
  ++g_p.calls;
  cb_log().push_back({"delete", k, v});
  g_p.get_rc = MPI_Comm_get_attr(comm, k, &g_p.get_value, &g_p.get_flag);
  g_p.set_rc = MPI_Comm_set_attr(comm, k, &g_val);
  g_p.delete_rc = MPI_Comm_delete_attr(comm, k);
  return MPI_SUCCESS;
}

TEST_F(D9, D9_delete_callback_sees_its_attribute_and_cannot_set_or_delete_it) {
  MPI_Comm c = fresh_comm();
  int k, a = 1;
  ASSERT_OK(MPI_Comm_create_keyval(nullptr, probing_delete, &k, nullptr));
  ASSERT_OK(MPI_Comm_set_attr(c, k, &a));
  ASSERT_OK(MPI_Comm_delete_attr(c, k));
  EXPECT_EQ(g_p.calls, 1);
  EXPECT_EQ(g_p.get_rc, MPI_SUCCESS);
  EXPECT_EQ(g_p.get_flag, 1) << "while its delete callback runs, the attribute is still visible";
  EXPECT_EQ(g_p.get_value, &a);
  EXPECT_EQ(error_class(g_p.set_rc), MPI_ERR_OTHER) << error_string(g_p.set_rc);
  EXPECT_EQ(error_class(g_p.delete_rc), MPI_ERR_OTHER) << error_string(g_p.delete_rc);
  EXPECT_EQ(comm_get(c, k, nullptr), 0) << "the callback succeeded: the attribute is gone";
  ASSERT_OK(MPI_Comm_free(&c));
  EXPECT_EQ(g_p.calls, 1);
  MPI_Comm_free_keyval(&k);
}

TEST_F(D9, D9_same_rules_inside_delete_run_by_replace) {
  MPI_Comm c = fresh_comm();
  int k, a = 1, b = 2;
  ASSERT_OK(MPI_Comm_create_keyval(nullptr, probing_delete, &k, nullptr));
  ASSERT_OK(MPI_Comm_set_attr(c, k, &a));
  ASSERT_OK(MPI_Comm_set_attr(c, k, &b));
  EXPECT_EQ(g_p.calls, 1);
  EXPECT_EQ(g_p.get_flag, 1);
  EXPECT_EQ(g_p.get_value, &a);
  EXPECT_EQ(error_class(g_p.set_rc), MPI_ERR_OTHER);
  EXPECT_EQ(error_class(g_p.delete_rc), MPI_ERR_OTHER);
  void* v;
  ASSERT_EQ(comm_get(c, k, &v), 1);
  EXPECT_EQ(v, &b) << "the replace itself succeeded";
  g_p = probe{};
  ASSERT_OK(MPI_Comm_free(&c));
  EXPECT_EQ(g_p.calls, 1);
  EXPECT_EQ(error_class(g_p.set_rc), MPI_ERR_OTHER);
  MPI_Comm_free_keyval(&k);
}

int set_during_free_delete(MPI_Comm comm, int k, void* v, void*) {
  ++g_p.calls;
  cb_log().push_back({"delete", k, v});
  g_p.other_set_rc = MPI_Comm_set_attr(comm, g_new_key, &g_val);
  g_p.other_delete_rc = MPI_Comm_delete_attr(comm, g_other_key);
  return MPI_SUCCESS;
}

TEST_F(D9, D9_during_free_set_fails_and_deleting_other_attributes_is_fine) {
  MPI_Comm c = fresh_comm();
  int k, a = 1, b = 2;
  ASSERT_OK(MPI_Comm_create_keyval(nullptr, log_delete, &g_other_key, nullptr));
  ASSERT_OK(MPI_Comm_create_keyval(nullptr, log_delete, &g_new_key, nullptr));
  ASSERT_OK(MPI_Comm_create_keyval(nullptr, set_during_free_delete, &k, nullptr));
  ASSERT_OK(MPI_Comm_set_attr(c, g_other_key, &b));  // older: would be deleted after k
  ASSERT_OK(MPI_Comm_set_attr(c, k, &a));
  ASSERT_OK(MPI_Comm_free(&c));
  EXPECT_EQ(c, MPI_COMM_NULL);
  EXPECT_EQ(g_p.calls, 1);
  EXPECT_EQ(error_class(g_p.other_set_rc), MPI_ERR_OTHER) << error_string(g_p.other_set_rc);
  EXPECT_EQ(g_p.other_delete_rc, MPI_SUCCESS) << error_string(g_p.other_delete_rc);
  EXPECT_EQ(count_events("delete", g_other_key), 1) << "deleted once, by the callback, then skipped";
  EXPECT_EQ(count_events("delete", g_new_key), 0);
  MPI_Comm_free_keyval(&k);
  MPI_Comm_free_keyval(&g_other_key);
  MPI_Comm_free_keyval(&g_new_key);
}

TEST_F(D9, D9_set_from_delete_callback_during_Type_free_and_Win_free_fails) {
  static int type_rc, win_rc, new_type_key, new_win_key;
  auto tdel = [](MPI_Datatype t, int, void*, void*) -> int {
    type_rc = MPI_Type_set_attr(t, new_type_key, &g_val);
    return MPI_SUCCESS;
  };
  auto wdel = [](MPI_Win w, int, void*, void*) -> int {
    win_rc = MPI_Win_set_attr(w, new_win_key, &g_val);
    return MPI_SUCCESS;
  };
  int kt, kw, a = 1;
  ASSERT_OK(MPI_Type_create_keyval(nullptr, tdel, &kt, nullptr));
  ASSERT_OK(MPI_Win_create_keyval(nullptr, wdel, &kw, nullptr));
  ASSERT_OK(MPI_Type_create_keyval(nullptr, nullptr, &new_type_key, nullptr));
  ASSERT_OK(MPI_Win_create_keyval(nullptr, nullptr, &new_win_key, nullptr));
  MPI_Datatype t = fresh_type();
  char buf[8];
  MPI_Win w;
  ASSERT_OK(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w));
  MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
  ASSERT_OK(MPI_Type_set_attr(t, kt, &a));
  ASSERT_OK(MPI_Win_set_attr(w, kw, &a));
  ASSERT_OK(MPI_Type_free(&t));
  ASSERT_OK(MPI_Win_free(&w));
  EXPECT_EQ(error_class(type_rc), MPI_ERR_OTHER) << error_string(type_rc);
  EXPECT_EQ(error_class(win_rc), MPI_ERR_OTHER) << error_string(win_rc);
  EXPECT_EQ(t, MPI_DATATYPE_NULL);
  EXPECT_EQ(w, MPI_WIN_NULL);
  MPI_Type_free_keyval(&kt);
  MPI_Win_free_keyval(&kw);
  MPI_Type_free_keyval(&new_type_key);
  MPI_Win_free_keyval(&new_win_key);
}

int self_freeing_delete(MPI_Comm, int k, void* v, void*) {
  cb_log().push_back({"delete", k, v});
  if (g_kv_var != MPI_KEYVAL_INVALID) g_p.free_kv_rc = MPI_Comm_free_keyval(&g_kv_var);
  return MPI_SUCCESS;
}

TEST_F(D9, D9_keyval_freed_inside_its_delete_callback_lives_until_last_attribute_gone) {
  MPI_Comm c1 = fresh_comm(), c2 = fresh_comm();
  int a = 1, b = 2;
  ASSERT_OK(MPI_Comm_create_keyval(nullptr, self_freeing_delete, &g_kv_var, nullptr));
  const int handle = g_kv_var;
  ASSERT_OK(MPI_Comm_set_attr(c1, handle, &a));
  ASSERT_OK(MPI_Comm_set_attr(c2, handle, &b));
  ASSERT_OK(MPI_Comm_delete_attr(c1, handle));
  EXPECT_EQ(g_p.free_kv_rc, MPI_SUCCESS) << error_string(g_p.free_kv_rc);
  EXPECT_EQ(g_kv_var, MPI_KEYVAL_INVALID);
  ASSERT_OK(MPI_Comm_free(&c2));  // the remaining attribute still has its delete callback
  ASSERT_EQ(count_events("delete"), 2);
  EXPECT_EQ(cb_log()[1].value, &b);
  EXPECT_EQ(cb_log()[1].keyval, handle);
  EXPECT_CLASS(MPI_Comm_delete_attr(c1, handle), MPI_ERR_KEYVAL);
  MPI_Comm_free(&c1);
}

int self_freeing_copy(MPI_Comm, int k, void*, void* in, void* out, int* flag) {
  cb_log().push_back({"copy", k, in});
  if (g_kv_var != MPI_KEYVAL_INVALID) g_p.free_kv_rc = MPI_Comm_free_keyval(&g_kv_var);
  *static_cast<void**>(out) = in;
  *flag = 1;
  return MPI_SUCCESS;
}

TEST_F(D9, D9_keyval_freed_inside_its_copy_callback) {
  MPI_Comm c = fresh_comm(), d;
  int a = 1;
  ASSERT_OK(MPI_Comm_create_keyval(self_freeing_copy, log_delete, &g_kv_var, nullptr));
  const int handle = g_kv_var;
  ASSERT_OK(MPI_Comm_set_attr(c, handle, &a));
  ASSERT_OK(MPI_Comm_dup(c, &d));
  EXPECT_EQ(g_p.free_kv_rc, MPI_SUCCESS);
  EXPECT_EQ(g_kv_var, MPI_KEYVAL_INVALID);
  ASSERT_OK(MPI_Comm_free(&d));
  ASSERT_OK(MPI_Comm_free(&c));
  EXPECT_EQ(count_events("delete", handle), 2) << "the copy and the original are both deleted";
}

// A copy callback that changes the old communicator: the dup copies the attributes of the snapshot
// taken at its start that are still there at their turn (D9): one the callback deleted is not
// copied (its delete callback may have released the value), one it set is not copied either.
int g_k[3];
int mutating_copy(MPI_Comm old, int k, void*, void* in, void* out, int* flag) {
  cb_log().push_back({"copy", k, in});
  if (k == g_k[0]) {
    g_p.other_delete_rc = MPI_Comm_delete_attr(old, g_k[1]);
    g_p.other_set_rc = MPI_Comm_set_attr(old, g_k[2], &g_val);
    g_p.get_rc = MPI_Comm_get_attr(old, g_k[2], &g_p.get_value, &g_p.get_flag);
  }
  *static_cast<void**>(out) = in;
  *flag = 1;
  return MPI_SUCCESS;
}

TEST_F(D9, D9_copy_callback_may_change_old_object_deleted_and_new_attributes_are_not_copied) {
  MPI_Comm c = fresh_comm(), d;
  int vals[3];
  for (int i = 0; i < 3; ++i) ASSERT_OK(MPI_Comm_create_keyval(mutating_copy, log_delete, &g_k[i], nullptr));
  ASSERT_OK(MPI_Comm_set_attr(c, g_k[0], &vals[0]));
  ASSERT_OK(MPI_Comm_set_attr(c, g_k[1], &vals[1]));
  ASSERT_OK(MPI_Comm_dup(c, &d));
  EXPECT_EQ(g_p.other_delete_rc, MPI_SUCCESS) << error_string(g_p.other_delete_rc);
  EXPECT_EQ(g_p.other_set_rc, MPI_SUCCESS) << error_string(g_p.other_set_rc);
  EXPECT_EQ(g_p.get_flag, 1);
  void* v;
  ASSERT_EQ(comm_get(d, g_k[0], &v), 1);
  EXPECT_EQ(v, &vals[0]);
  EXPECT_EQ(comm_get(d, g_k[1], &v), 0) << "in the snapshot, but deleted before its turn";
  EXPECT_EQ(count_events("copy", g_k[1]), 0) << "its copy callback is not called";
  EXPECT_EQ(comm_get(d, g_k[2], &v), 0) << "set after the snapshot";
  EXPECT_EQ(comm_get(c, g_k[1], &v), 0);
  ASSERT_EQ(comm_get(c, g_k[2], &v), 1);
  MPI_Comm_free(&d);
  MPI_Comm_free(&c);
  for (int& k : g_k) MPI_Comm_free_keyval(&k);
}

// The common library pattern: the attribute holds a private duplicate communicator; copy dups it,
// delete frees it (MPI calls on other objects from inside the callbacks).
int lib_copy(MPI_Comm, int, void*, void* in, void* out, int* flag) {
  MPI_Comm inner = static_cast<MPI_Comm>(in);
  MPI_Comm copy = MPI_COMM_NULL;
  int rc = MPI_Comm_dup(inner, &copy);
  if (rc != MPI_SUCCESS) return rc;
  *static_cast<void**>(out) = copy;
  *flag = 1;
  return MPI_SUCCESS;
}
int lib_delete(MPI_Comm, int, void* v, void*) {
  MPI_Comm inner = static_cast<MPI_Comm>(v);
  ++g_p.calls;
  return MPI_Comm_free(&inner);
}

TEST_F(D9, D9_callbacks_may_dup_and_free_other_communicators) {
  int k;
  ASSERT_OK(MPI_Comm_create_keyval(lib_copy, lib_delete, &k, nullptr));
  MPI_Comm c = fresh_comm(), inner, d;
  ASSERT_OK(MPI_Comm_dup(c, &inner));
  // The inner communicator carries the same key: dup-ing it from inside the copy callback nests.
  MPI_Comm innermost;
  ASSERT_OK(MPI_Comm_dup(MPI_COMM_SELF, &innermost));
  ASSERT_OK(MPI_Comm_set_attr(inner, k, innermost));
  ASSERT_OK(MPI_Comm_set_attr(c, k, inner));
  ASSERT_OK(MPI_Comm_dup(c, &d));
  void* v;
  ASSERT_EQ(comm_get(d, k, &v), 1);
  MPI_Comm dinner = static_cast<MPI_Comm>(v);
  EXPECT_NE(dinner, inner);
  ASSERT_EQ(comm_get(dinner, k, &v), 1) << "the nested dup ran the copy callback too";
  EXPECT_NE(static_cast<MPI_Comm>(v), innermost);
  ASSERT_OK(MPI_Comm_free(&d));
  ASSERT_OK(MPI_Comm_free(&c));
  EXPECT_EQ(g_p.calls, 4) << "d, its inner, c, its inner";
  int flag = 0;
  EXPECT_CLASS(MPI_Comm_get_attr(inner, k, &v, &flag), MPI_ERR_COMM) << "inner was freed by the callback";
  MPI_Comm_free_keyval(&k);
}

}  // namespace
