// D8 (R4.1, R4.3, R4.5): a failing callback fails the call that ran it and nothing is half-done.
// The call returns the callback's own code when it is a valid MPI error code or class, else a code
// of class MPI_ERR_OTHER whose string gives the value the callback returned.
#include <map>

#include "attr_test_common.h"

namespace {

// Per-keyval behaviour of the controllable callbacks: the code each returns.
std::map<int, int>& copy_rc() { static std::map<int, int> m; return m; }
std::map<int, int>& delete_rc() { static std::map<int, int> m; return m; }
int g_copies[8];  // copy callbacks hand out &g_copies[i] as the new value

int ctl_copy(MPI_Comm, int k, void*, void* in, void* out, int* flag) {
  cb_log().push_back({"copy", k, in});
  int rc = copy_rc()[k];
  if (rc != MPI_SUCCESS) return rc;
  *static_cast<void**>(out) = &g_copies[count_events("copy") % 8];
  *flag = 1;
  return MPI_SUCCESS;
}
int ctl_delete(MPI_Comm, int k, void* v, void*) {
  cb_log().push_back({"delete", k, v});
  return delete_rc()[k];
}
int ctl_type_copy(MPI_Datatype, int k, void*, void* in, void* out, int* flag) {
  cb_log().push_back({"copy", k, in});
  int rc = copy_rc()[k];
  if (rc != MPI_SUCCESS) return rc;
  *static_cast<void**>(out) = &g_copies[count_events("copy") % 8];
  *flag = 1;
  return MPI_SUCCESS;
}
int ctl_type_delete(MPI_Datatype, int k, void* v, void*) {
  cb_log().push_back({"delete", k, v});
  return delete_rc()[k];
}
int ctl_win_delete(MPI_Win, int k, void* v, void*) {
  cb_log().push_back({"delete", k, v});
  return delete_rc()[k];
}

class D8 : public ::testing::Test {
 protected:
  void SetUp() override {
    cb_log().clear();
    copy_rc().clear();
    delete_rc().clear();
    handler_calls().clear();
  }
  // A real error code (not just a class) made by the library: the one a bad set_attr returns.
  static int real_error_code() {
    int rc = MPI_Comm_set_attr(MPI_COMM_SELF, 4242, nullptr);
    EXPECT_EQ(error_class(rc), MPI_ERR_KEYVAL);
    return rc;
  }
};

TEST_F(D8, D8_failing_delete_on_replace_keeps_old_value_and_returns_callback_class) {
  MPI_Comm c = fresh_comm();
  MPI_Comm_set_errhandler(c, counting_comm_errhandler());
  int k, a = 1, b = 2;
  ASSERT_OK(MPI_Comm_create_keyval(ctl_copy, ctl_delete, &k, nullptr));
  ASSERT_OK(MPI_Comm_set_attr(c, k, &a));
  delete_rc()[k] = MPI_ERR_ARG;
  int rc = MPI_Comm_set_attr(c, k, &b);
  EXPECT_EQ(rc, MPI_ERR_ARG) << "the callback's own (valid) code is returned: " << error_string(rc);
  ASSERT_EQ(handler_calls().size(), 1u);
  EXPECT_EQ(handler_calls()[0].object, static_cast<void*>(c));
  EXPECT_EQ(handler_calls()[0].code, rc);
  void* v;
  ASSERT_EQ(comm_get(c, k, &v), 1);
  EXPECT_EQ(v, &a) << "the old value stays";
  delete_rc()[k] = MPI_SUCCESS;
  ASSERT_OK(MPI_Comm_set_attr(c, k, &b));
  ASSERT_EQ(comm_get(c, k, &v), 1);
  EXPECT_EQ(v, &b);
  MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
  ASSERT_OK(MPI_Comm_free(&c));
  MPI_Comm_free_keyval(&k);
}

TEST_F(D8, D8_callback_returning_real_error_code_gives_that_code) {
  MPI_Comm c = fresh_comm();
  int k, a = 1;
  ASSERT_OK(MPI_Comm_create_keyval(ctl_copy, ctl_delete, &k, nullptr));
  ASSERT_OK(MPI_Comm_set_attr(c, k, &a));
  int code = real_error_code();
  delete_rc()[k] = code;
  int rc = MPI_Comm_delete_attr(c, k);
  EXPECT_EQ(rc, code);
  EXPECT_EQ(error_class(rc), MPI_ERR_KEYVAL);
  delete_rc()[k] = MPI_SUCCESS;
  MPI_Comm_free(&c);
  MPI_Comm_free_keyval(&k);
}

TEST_F(D8, D8_callback_returning_invalid_code_gives_ERR_OTHER_naming_the_value) {
  MPI_Comm c = fresh_comm();
  int k, a = 1, b = 2;
  ASSERT_OK(MPI_Comm_create_keyval(ctl_copy, ctl_delete, &k, nullptr));
  ASSERT_OK(MPI_Comm_set_attr(c, k, &a));
  for (int bogus : {424242, -7, static_cast<int>(MPI_ERR_LASTCODE)}) {
    delete_rc()[k] = bogus;
    int rc = MPI_Comm_set_attr(c, k, &b);
    EXPECT_EQ(error_class(rc), MPI_ERR_OTHER) << bogus << ": " << error_string(rc);
    EXPECT_NE(error_string(rc).find(std::to_string(bogus)), std::string::npos) << error_string(rc);
    EXPECT_NE(error_string(rc).find("MPI_Comm_set_attr"), std::string::npos) << error_string(rc);
  }
  delete_rc()[k] = MPI_SUCCESS;
  MPI_Comm_free(&c);
  MPI_Comm_free_keyval(&k);
}

TEST_F(D8, D8_failing_delete_attr_keeps_the_attribute) {
  MPI_Comm c = fresh_comm();
  MPI_Datatype t = fresh_type();
  int k, kt, a = 1;
  ASSERT_OK(MPI_Comm_create_keyval(ctl_copy, ctl_delete, &k, nullptr));
  ASSERT_OK(MPI_Type_create_keyval(ctl_type_copy, ctl_type_delete, &kt, nullptr));
  ASSERT_OK(MPI_Comm_set_attr(c, k, &a));
  ASSERT_OK(MPI_Type_set_attr(t, kt, &a));
  delete_rc()[k] = MPI_ERR_OTHER;
  delete_rc()[kt] = MPI_ERR_TYPE;
  EXPECT_CLASS(MPI_Comm_delete_attr(c, k), MPI_ERR_OTHER);
  EXPECT_CLASS(MPI_Attr_delete(c, k), MPI_ERR_OTHER);
  EXPECT_CLASS(MPI_Type_delete_attr(t, kt), MPI_ERR_TYPE);
  void* v;
  ASSERT_EQ(comm_get(c, k, &v), 1);
  EXPECT_EQ(v, &a);
  ASSERT_EQ(type_get(t, kt, &v), 1);
  EXPECT_EQ(v, &a);
  delete_rc()[k] = MPI_SUCCESS;
  delete_rc()[kt] = MPI_SUCCESS;
  ASSERT_OK(MPI_Comm_delete_attr(c, k));
  ASSERT_OK(MPI_Type_delete_attr(t, kt));
  EXPECT_EQ(comm_get(c, k, &v), 0);
  MPI_Comm_free(&c);
  MPI_Type_free(&t);
  MPI_Comm_free_keyval(&k);
  MPI_Type_free_keyval(&kt);
}

TEST_F(D8, D8_failing_copy_fails_dup_nulls_handle_and_deletes_copies_already_made) {
  for (int variant = 0; variant < 4; ++variant) {
    SCOPED_TRACE(variant);
    cb_log().clear();
    copy_rc().clear();
    delete_rc().clear();
    handler_calls().clear();
    MPI_Comm c = fresh_comm();
    MPI_Comm_set_errhandler(c, counting_comm_errhandler());
    int k[4], vals[4];
    for (int i = 0; i < 4; ++i) {
      ASSERT_OK(MPI_Comm_create_keyval(ctl_copy, ctl_delete, &k[i], nullptr));
      ASSERT_OK(MPI_Comm_set_attr(c, k[i], &vals[i]));
    }
    copy_rc()[k[2]] = MPI_ERR_INTERN;  // copies are made oldest first: k0, k1, then k2 fails
    MPI_Comm d = MPI_COMM_WORLD;       // must become MPI_COMM_NULL
    MPI_Request req = MPI_REQUEST_NULL;
    int rc = variant == 0   ? MPI_Comm_dup(c, &d)
             : variant == 1 ? MPI_Comm_dup_with_info(c, MPI_INFO_NULL, &d)
             : variant == 2 ? MPI_Comm_idup(c, &d, &req)
                            : MPI_Comm_idup_with_info(c, MPI_INFO_NULL, &d, &req);
    EXPECT_EQ(rc, MPI_ERR_INTERN) << error_string(rc);
    EXPECT_EQ(d, MPI_COMM_NULL);
    ASSERT_EQ(handler_calls().size(), 1u);
    EXPECT_EQ(handler_calls()[0].object, static_cast<void*>(c));
    EXPECT_EQ(count_events("copy", k[3]), 0) << "no copy after the failing one";
    // The copies of k0 and k1 were deleted again through their delete callbacks, with the
    // values the copy callbacks made, not the originals.
    EXPECT_EQ(count_events("delete"), 2);
    EXPECT_EQ(count_events("delete", k[0]), 1);
    EXPECT_EQ(count_events("delete", k[1]), 1);
    for (const auto& e : cb_log())
      if (e.what == "delete") {
        EXPECT_NE(e.value, &vals[0]);
        EXPECT_NE(e.value, &vals[1]);
      }
    // The original is untouched.
    for (int i = 0; i < 4; ++i) {
      void* v;
      ASSERT_EQ(comm_get(c, k[i], &v), 1);
      EXPECT_EQ(v, &vals[i]);
    }
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    cb_log().clear();
    ASSERT_OK(MPI_Comm_free(&c));
    EXPECT_EQ(count_events("delete"), 4);
    for (int& kk : k) MPI_Comm_free_keyval(&kk);
  }
}

TEST_F(D8, D8_failing_copy_fails_Type_dup_and_deletes_copies) {
  MPI_Datatype t = fresh_type(), u = MPI_INT;
  int k[3], vals[3];
  for (int i = 0; i < 3; ++i) {
    ASSERT_OK(MPI_Type_create_keyval(ctl_type_copy, ctl_type_delete, &k[i], nullptr));
    ASSERT_OK(MPI_Type_set_attr(t, k[i], &vals[i]));
  }
  copy_rc()[k[1]] = 999999;  // not an MPI code
  int rc = MPI_Type_dup(t, &u);
  EXPECT_EQ(error_class(rc), MPI_ERR_OTHER) << error_string(rc);
  EXPECT_NE(error_string(rc).find("999999"), std::string::npos) << error_string(rc);
  EXPECT_EQ(u, MPI_DATATYPE_NULL);
  EXPECT_EQ(count_events("delete"), 1);
  EXPECT_EQ(count_events("delete", k[0]), 1);
  EXPECT_EQ(count_events("copy", k[2]), 0);
  MPI_Type_free(&t);
  for (int& kk : k) MPI_Type_free_keyval(&kk);
}

TEST_F(D8, D8_failing_delete_on_Comm_free_keeps_object_usable) {
  MPI_Comm c = fresh_comm();
  MPI_Comm_set_errhandler(c, counting_comm_errhandler());
  int k[3], vals[3];
  for (int i = 0; i < 3; ++i) {
    ASSERT_OK(MPI_Comm_create_keyval(ctl_copy, ctl_delete, &k[i], nullptr));
    ASSERT_OK(MPI_Comm_set_attr(c, k[i], &vals[i]));
  }
  delete_rc()[k[1]] = MPI_ERR_COMM;  // newest first: k2 succeeds, k1 fails, k0 not reached
  MPI_Comm handle = c;
  int rc = MPI_Comm_free(&c);
  EXPECT_EQ(rc, MPI_ERR_COMM);
  EXPECT_EQ(c, handle) << "the handle is not nulled by a failed free";
  ASSERT_EQ(handler_calls().size(), 1u);
  EXPECT_EQ(handler_calls()[0].object, static_cast<void*>(handle));
  void* v;
  EXPECT_EQ(comm_get(c, k[2], &v), 0) << "deleted before the failure: gone";
  ASSERT_EQ(comm_get(c, k[1], &v), 1) << "the failed attribute stays";
  EXPECT_EQ(v, &vals[1]);
  ASSERT_EQ(comm_get(c, k[0], &v), 1) << "not yet deleted: stays";
  EXPECT_EQ(v, &vals[0]);
  EXPECT_EQ(count_events("delete", k[0]), 0);
  // Still a usable communicator: attributes can be set, it can be duplicated.
  int extra = 0;
  ASSERT_OK(MPI_Comm_set_attr(c, k[2], &extra));
  MPI_Comm d;
  delete_rc()[k[1]] = MPI_SUCCESS;
  ASSERT_OK(MPI_Comm_dup(c, &d));
  ASSERT_OK(MPI_Comm_free(&d));
  cb_log().clear();
  MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
  ASSERT_OK(MPI_Comm_free(&c));
  EXPECT_EQ(c, MPI_COMM_NULL);
  EXPECT_EQ(count_events("delete"), 3);
  for (int& kk : k) MPI_Comm_free_keyval(&kk);
}

TEST_F(D8, D8_failing_delete_on_Type_free_keeps_datatype) {
  MPI_Datatype t = fresh_type();
  int k[2], vals[2];
  for (int i = 0; i < 2; ++i) {
    ASSERT_OK(MPI_Type_create_keyval(ctl_type_copy, ctl_type_delete, &k[i], nullptr));
    ASSERT_OK(MPI_Type_set_attr(t, k[i], &vals[i]));
  }
  delete_rc()[k[1]] = MPI_ERR_TYPE;
  MPI_Datatype handle = t;
  EXPECT_CLASS(MPI_Type_free(&t), MPI_ERR_TYPE);
  EXPECT_EQ(t, handle);
  int size = 0;
  EXPECT_OK(MPI_Type_size(t, &size));
  EXPECT_EQ(size, 2 * static_cast<int>(sizeof(int)));
  void* v;
  EXPECT_EQ(type_get(t, k[1], &v), 1);
  EXPECT_EQ(type_get(t, k[0], &v), 1);
  delete_rc()[k[1]] = MPI_SUCCESS;
  ASSERT_OK(MPI_Type_free(&t));
  for (int& kk : k) MPI_Type_free_keyval(&kk);
}

TEST_F(D8, D8_failing_delete_on_Win_free_keeps_window) {
  char buf[16];
  MPI_Win w;
  ASSERT_OK(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w));
  MPI_Win_set_errhandler(w, counting_win_errhandler());
  int k[2], vals[2];
  for (int i = 0; i < 2; ++i) {
    ASSERT_OK(MPI_Win_create_keyval(nullptr, ctl_win_delete, &k[i], nullptr));
    ASSERT_OK(MPI_Win_set_attr(w, k[i], &vals[i]));
  }
  delete_rc()[k[0]] = MPI_ERR_WIN;  // newest first: k1 deleted, k0 fails
  MPI_Win handle = w;
  int rc = MPI_Win_free(&w);
  EXPECT_EQ(rc, MPI_ERR_WIN);
  EXPECT_EQ(w, handle);
  ASSERT_EQ(handler_calls().size(), 1u);
  EXPECT_TRUE(handler_calls()[0].is_win);
  EXPECT_EQ(handler_calls()[0].object, static_cast<void*>(handle));
  void* v;
  EXPECT_EQ(win_get(w, k[1], &v), 0);
  EXPECT_EQ(win_get(w, k[0], &v), 1);
  ASSERT_EQ(win_get(w, MPI_WIN_BASE, &v), 1) << "predefined attributes survive a failed free";
  EXPECT_EQ(v, static_cast<void*>(buf));
  delete_rc()[k[0]] = MPI_SUCCESS;
  MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
  ASSERT_OK(MPI_Win_free(&w));
  EXPECT_EQ(w, MPI_WIN_NULL);
  for (int& kk : k) MPI_Win_free_keyval(&kk);
}

}  // namespace
