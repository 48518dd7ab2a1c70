// R4.1-R4.4, D7, D10: set / get / delete semantics on communicators, windows and datatypes.
#include "attr_test_common.h"

namespace {

class R4 : public ::testing::Test {
 protected:
  void SetUp() override { cb_log().clear(); }
};

TEST_F(R4, R4_1_replace_runs_delete_callback_on_old_value) {
  MPI_Comm c = fresh_comm();
  int k = 0, a = 1, b = 2;
  ASSERT_OK(MPI_Comm_create_keyval(log_copy, log_delete, &k, nullptr));
  ASSERT_OK(MPI_Comm_set_attr(c, k, &a));
  EXPECT_EQ(count_events("delete"), 0);
  ASSERT_OK(MPI_Comm_set_attr(c, k, &b));
  ASSERT_EQ(count_events("delete"), 1);
  EXPECT_EQ(cb_log()[0].value, &a);
  EXPECT_EQ(cb_log()[0].keyval, k);
  void* v = nullptr;
  EXPECT_EQ(comm_get(c, k, &v), 1);
  EXPECT_EQ(v, &b);
  ASSERT_OK(MPI_Comm_free(&c));
  ASSERT_EQ(count_events("delete"), 2);
  EXPECT_EQ(cb_log()[1].value, &b);
  MPI_Comm_free_keyval(&k);
}

TEST_F(R4, R4_1_replace_same_value_still_runs_delete) {
  MPI_Datatype t = fresh_type();
  int k = 0, a = 1;
  ASSERT_OK(MPI_Type_create_keyval(log_type_copy, log_type_delete, &k, nullptr));
  ASSERT_OK(MPI_Type_set_attr(t, k, &a));
  ASSERT_OK(MPI_Type_set_attr(t, k, &a));
  EXPECT_EQ(count_events("delete", k), 1);
  ASSERT_OK(MPI_Type_free(&t));
  EXPECT_EQ(count_events("delete", k), 2);
  EXPECT_EQ(t, MPI_DATATYPE_NULL);
  MPI_Type_free_keyval(&k);
}

TEST_F(R4, R4_1_win_replace_runs_delete_callback_on_old_value) {
  char buf[16];
  MPI_Win w;
  ASSERT_OK(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w));
  MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
  int k = 0, a = 1, b = 2;
  ASSERT_OK(MPI_Win_create_keyval(log_win_copy, log_win_delete, &k, nullptr));
  ASSERT_OK(MPI_Win_set_attr(w, k, &a));
  ASSERT_OK(MPI_Win_set_attr(w, k, &b));
  ASSERT_EQ(count_events("delete"), 1);
  EXPECT_EQ(cb_log()[0].value, &a);
  ASSERT_OK(MPI_Win_free(&w));
  EXPECT_EQ(w, MPI_WIN_NULL);
  ASSERT_EQ(count_events("delete"), 2);
  EXPECT_EQ(cb_log()[1].value, &b);
  MPI_Win_free_keyval(&k);
}

TEST_F(R4, R4_2_get_of_unset_key_is_flag_false_not_error) {
  MPI_Comm c = fresh_comm();
  MPI_Datatype t = fresh_type();
  int kc = 0, kt = 0, kw = 0;
  ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &kc, nullptr));
  ASSERT_OK(MPI_Type_create_keyval(nullptr, nullptr, &kt, nullptr));
  ASSERT_OK(MPI_Win_create_keyval(nullptr, nullptr, &kw, nullptr));
  char buf[8];
  MPI_Win w;
  ASSERT_OK(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w));
  int flag = 99;
  void* v = nullptr;
  EXPECT_OK(MPI_Comm_get_attr(c, kc, &v, &flag));
  EXPECT_EQ(flag, 0);
  flag = 99;
  EXPECT_OK(MPI_Type_get_attr(t, kt, &v, &flag));
  EXPECT_EQ(flag, 0);
  flag = 99;
  EXPECT_OK(MPI_Win_get_attr(w, kw, &v, &flag));
  EXPECT_EQ(flag, 0);
  flag = 99;
  EXPECT_OK(MPI_Attr_get(c, kc, &v, &flag));
  EXPECT_EQ(flag, 0);
  MPI_Win_free(&w);
  MPI_Comm_free(&c);
  MPI_Type_free(&t);
  MPI_Comm_free_keyval(&kc);
  MPI_Type_free_keyval(&kt);
  MPI_Win_free_keyval(&kw);
}

TEST_F(R4, R4_3_delete_attr_runs_callback_once_and_removes) {
  MPI_Comm c = fresh_comm();
  int k = 0, a = 1;
  ASSERT_OK(MPI_Comm_create_keyval(log_copy, log_delete, &k, nullptr));
  ASSERT_OK(MPI_Comm_set_attr(c, k, &a));
  ASSERT_OK(MPI_Comm_delete_attr(c, k));
  ASSERT_EQ(count_events("delete"), 1);
  EXPECT_EQ(cb_log()[0].value, &a);
  EXPECT_EQ(comm_get(c, k, nullptr), 0);
  ASSERT_OK(MPI_Comm_free(&c));
  EXPECT_EQ(count_events("delete"), 1) << "a deleted attribute must not be deleted again on free";
  MPI_Comm_free_keyval(&k);
}

TEST_F(R4, D7_delete_of_unset_attribute_succeeds_and_calls_nothing) {
  MPI_Comm c = fresh_comm();
  MPI_Datatype t = fresh_type();
  int k = 0, kt = 0;
  ASSERT_OK(MPI_Comm_create_keyval(log_copy, log_delete, &k, nullptr));
  ASSERT_OK(MPI_Type_create_keyval(log_type_copy, log_type_delete, &kt, nullptr));
  EXPECT_OK(MPI_Comm_delete_attr(c, k));
  EXPECT_OK(MPI_Attr_delete(c, k));
  EXPECT_OK(MPI_Type_delete_attr(t, kt));
  EXPECT_EQ(cb_log().size(), 0u);
  MPI_Comm_free(&c);
  MPI_Type_free(&t);
  MPI_Comm_free_keyval(&k);
  MPI_Type_free_keyval(&kt);
}

TEST_F(R4, R1_1_one_key_on_many_communicators_values_are_independent) {
  MPI_Comm c1 = fresh_comm(), c2 = fresh_comm();
  int k = 0, a = 1, b = 2;
  ASSERT_OK(MPI_Comm_create_keyval(log_copy, log_delete, &k, nullptr));
  ASSERT_OK(MPI_Comm_set_attr(c1, k, &a));
  EXPECT_EQ(comm_get(c2, k, nullptr), 0);
  ASSERT_OK(MPI_Comm_set_attr(c2, k, &b));
  ASSERT_OK(MPI_Comm_set_attr(MPI_COMM_WORLD, k, &b));
  void* v = nullptr;
  EXPECT_EQ(comm_get(c1, k, &v), 1);
  EXPECT_EQ(v, &a);
  ASSERT_OK(MPI_Comm_delete_attr(c2, k));
  EXPECT_EQ(comm_get(c1, k, &v), 1);
  EXPECT_EQ(v, &a);
  EXPECT_EQ(comm_get(MPI_COMM_WORLD, k, &v), 1);
  EXPECT_EQ(v, &b);
  ASSERT_OK(MPI_Comm_delete_attr(MPI_COMM_WORLD, k));
  MPI_Comm_free(&c1);
  MPI_Comm_free(&c2);
  EXPECT_EQ(count_events("delete"), 3);
  MPI_Comm_free_keyval(&k);
}

TEST_F(R4, R4_4_comm_free_runs_every_delete_callback_and_nulls_handle) {
  MPI_Comm c = fresh_comm();
  int k[3], vals[3];
  for (int i = 0; i < 3; ++i) {
    ASSERT_OK(MPI_Comm_create_keyval(log_copy, log_delete, &k[i], nullptr));
    ASSERT_OK(MPI_Comm_set_attr(c, k[i], &vals[i]));
  }
  ASSERT_OK(MPI_Comm_free(&c));
  EXPECT_EQ(c, MPI_COMM_NULL);
  ASSERT_EQ(count_events("delete"), 3);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(count_events("delete", k[i]), 1);
  for (auto& kk : k) MPI_Comm_free_keyval(&kk);
}

TEST_F(R4, D10_free_deletes_newest_first_and_replaced_value_counts_as_newest) {
  MPI_Comm c = fresh_comm();
  int k[4], vals[5];
  for (int i = 0; i < 4; ++i) {
    ASSERT_OK(MPI_Comm_create_keyval(log_copy, log_delete, &k[i], nullptr));
    ASSERT_OK(MPI_Comm_set_attr(c, k[i], &vals[i]));
  }
  ASSERT_OK(MPI_Comm_set_attr(c, k[1], &vals[4]));  // replace: k[1] becomes the newest
  cb_log().clear();
  ASSERT_OK(MPI_Comm_free(&c));
  ASSERT_EQ(cb_log().size(), 4u);
  int expect[4] = {k[1], k[3], k[2], k[0]};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(cb_log()[i].keyval, expect[i]) << "position " << i;
  EXPECT_EQ(cb_log()[0].value, &vals[4]);
  for (auto& kk : k) MPI_Comm_free_keyval(&kk);
}

TEST_F(R4, D10_type_and_win_free_delete_newest_first) {
  MPI_Datatype t = fresh_type();
  char buf[8];
  MPI_Win w;
  ASSERT_OK(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w));
  int kt[3], kw[3], vals[3];
  for (int i = 0; i < 3; ++i) {
    ASSERT_OK(MPI_Type_create_keyval(log_type_copy, log_type_delete, &kt[i], nullptr));
    ASSERT_OK(MPI_Win_create_keyval(log_win_copy, log_win_delete, &kw[i], nullptr));
  }
  for (int i = 0; i < 3; ++i) ASSERT_OK(MPI_Type_set_attr(t, kt[i], &vals[i]));
  for (int i = 2; i >= 0; --i) ASSERT_OK(MPI_Win_set_attr(w, kw[i], &vals[i]));
  ASSERT_OK(MPI_Type_free(&t));
  ASSERT_EQ(cb_log().size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(cb_log()[i].keyval, kt[2 - i]);
  cb_log().clear();
  ASSERT_OK(MPI_Win_free(&w));
  ASSERT_EQ(cb_log().size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(cb_log()[i].keyval, kw[i]);
  for (int i = 0; i < 3; ++i) {
    MPI_Type_free_keyval(&kt[i]);
    MPI_Win_free_keyval(&kw[i]);
  }
}

TEST_F(R4, R4_1_set_after_delete_stores_again_without_extra_callbacks) {
  MPI_Comm c = fresh_comm();
  int k = 0, a = 1, b = 2;
  ASSERT_OK(MPI_Comm_create_keyval(log_copy, log_delete, &k, nullptr));
  ASSERT_OK(MPI_Comm_set_attr(c, k, &a));
  ASSERT_OK(MPI_Comm_delete_attr(c, k));
  ASSERT_OK(MPI_Comm_set_attr(c, k, &b));
  EXPECT_EQ(count_events("delete"), 1);
  void* v = nullptr;
  EXPECT_EQ(comm_get(c, k, &v), 1);
  EXPECT_EQ(v, &b);
  MPI_Comm_free(&c);
  EXPECT_EQ(count_events("delete"), 2);
  MPI_Comm_free_keyval(&k);
}

TEST_F(R4, R4_6_callbacks_receive_the_object_and_keyval) {
  struct seen { MPI_Comm comm; int key; void* extra; };
  static seen s;
  MPI_Comm c = fresh_comm();
  int k = 0, a = 1, extra = 5;
  auto del = [](MPI_Comm comm, int key, void*, void* ex) -> int {
    s = {comm, key, ex};
    return MPI_SUCCESS;
  };
  ASSERT_OK(MPI_Comm_create_keyval(nullptr, del, &k, &extra));
  ASSERT_OK(MPI_Comm_set_attr(c, k, &a));
  ASSERT_OK(MPI_Comm_delete_attr(c, k));
  EXPECT_EQ(s.comm, c);
  EXPECT_EQ(s.key, k);
  EXPECT_EQ(s.extra, &extra);
  MPI_Comm_free(&c);
  MPI_Comm_free_keyval(&k);
}

}  // namespace
