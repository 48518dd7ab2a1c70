// D3, D4: errors of the caching routines go to the right error handler, and the code's string
// names the routine and the reason.
#include <cstring>

#include "attr_test_common.h"

namespace {

class D4 : public ::testing::Test {
 protected:
  void SetUp() override { handler_calls().clear(); }
  void TearDown() override { MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN); }
};

TEST_F(D4, D4_user_handler_on_dup_sees_its_set_attr_error_and_no_other) {
  MPI_Comm a = fresh_comm(), b = fresh_comm();
  ASSERT_OK(MPI_Comm_set_errhandler(a, counting_comm_errhandler()));
  int rc = MPI_Comm_set_attr(a, 777, nullptr);
  EXPECT_CLASS(rc, MPI_ERR_KEYVAL);
  ASSERT_EQ(handler_calls().size(), 1u);
  EXPECT_EQ(handler_calls()[0].object, static_cast<void*>(a));
  EXPECT_EQ(handler_calls()[0].code, rc);
  // b has MPI_ERRORS_RETURN: its error reaches no user handler.
  EXPECT_CLASS(MPI_Comm_set_attr(b, 777, nullptr), MPI_ERR_KEYVAL);
  EXPECT_EQ(handler_calls().size(), 1u);
  MPI_Comm_free(&a);
  MPI_Comm_free(&b);
}

TEST_F(D4, D4_new_communicators_inherit_the_handler) {
  MPI_Comm a = fresh_comm(), d, s;
  ASSERT_OK(MPI_Comm_set_errhandler(a, counting_comm_errhandler()));
  ASSERT_OK(MPI_Comm_dup(a, &d));
  ASSERT_OK(MPI_Comm_split(a, 0, 0, &s));
  MPI_Errhandler eh;
  ASSERT_OK(MPI_Comm_get_errhandler(d, &eh));
  EXPECT_EQ(eh, counting_comm_errhandler());
  int rc = MPI_Comm_delete_attr(d, 999);
  ASSERT_EQ(handler_calls().size(), 1u);
  EXPECT_EQ(handler_calls()[0].object, static_cast<void*>(d));
  EXPECT_EQ(handler_calls()[0].code, rc);
  rc = MPI_Comm_get_attr(s, 999, nullptr, nullptr);
  ASSERT_EQ(handler_calls().size(), 2u);
  EXPECT_EQ(handler_calls()[1].object, static_cast<void*>(s));
  MPI_Comm_set_errhandler(d, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(s, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(a, MPI_ERRORS_RETURN);
  MPI_Comm_free(&d);
  MPI_Comm_free(&s);
  MPI_Comm_free(&a);
}

TEST_F(D4, D4_datatype_and_keyval_errors_go_to_COMM_SELF) {
  ASSERT_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, counting_comm_errhandler()));
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, counting_comm_errhandler());
  MPI_Datatype t = fresh_type();
  int rc1 = MPI_Type_set_attr(t, 999, nullptr);
  int bad = 999;
  int rc2 = MPI_Comm_free_keyval(&bad);
  int rc3 = MPI_Win_free_keyval(&bad);
  int rc4 = MPI_Comm_create_keyval(nullptr, nullptr, nullptr, nullptr);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  ASSERT_EQ(handler_calls().size(), 4u);
  int codes[] = {rc1, rc2, rc3, rc4};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(handler_calls()[i].object, static_cast<void*>(MPI_COMM_SELF));
    EXPECT_EQ(handler_calls()[i].code, codes[i]);
  }
  MPI_Type_free(&t);
}

TEST_F(D4, D4_window_errors_go_to_the_window_handler) {
  char buf[8];
  MPI_Win w1, w2;
  ASSERT_OK(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w1));
  ASSERT_OK(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w2));
  ASSERT_OK(MPI_Win_set_errhandler(w1, counting_win_errhandler()));
  ASSERT_OK(MPI_Win_set_errhandler(w2, MPI_ERRORS_RETURN));
  ASSERT_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, counting_comm_errhandler()));
  int rc = MPI_Win_set_attr(w1, MPI_WIN_BASE, nullptr);
  EXPECT_CLASS(MPI_Win_delete_attr(w2, 999), MPI_ERR_KEYVAL);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  ASSERT_EQ(handler_calls().size(), 1u);
  EXPECT_TRUE(handler_calls()[0].is_win);
  EXPECT_EQ(handler_calls()[0].object, static_cast<void*>(w1));
  EXPECT_EQ(handler_calls()[0].code, rc);
  MPI_Win_free(&w1);
  MPI_Win_free(&w2);
}

TEST_F(D4, D4_comm_handler_cannot_be_set_on_a_window) {
  char buf[8];
  MPI_Win w;
  ASSERT_OK(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w));
  MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
  EXPECT_NE(MPI_Win_set_errhandler(w, counting_comm_errhandler()), MPI_SUCCESS);
  MPI_Win_free(&w);
}

TEST_F(D4, D4_window_default_handler_is_fatal) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  char buf[8];
  MPI_Win w;
  ASSERT_OK(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w));
  // The exit status is the error's class, as on MPICH and Open MPI (D150).
  EXPECT_EXIT(MPI_Win_set_attr(w, 999, nullptr), ::testing::ExitedWithCode(MPI_ERR_KEYVAL), "MPI_Win_set_attr");
  MPI_Win_free(&w);
}

TEST_F(D4, D4_errors_are_fatal_on_a_communicator_exits_with_message) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  MPI_Comm c = fresh_comm();
  MPI_Comm_set_errhandler(c, MPI_ERRORS_ARE_FATAL);
  EXPECT_EXIT(MPI_Comm_get_attr(c, MPI_KEYVAL_INVALID, nullptr, nullptr),
              ::testing::ExitedWithCode(MPI_ERR_ARG), "attribute_val is a NULL pointer");  // (D150)
  MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
  MPI_Comm_free(&c);
}

// D28 (issue 14, item 10): a program that sets MPI_ERRORS_RETURN on MPI_COMM_WORLD only, as some
// written for older MPIs do, still has the fatal handler of MPI_COMM_SELF for datatype and keyval
// errors (MPI-4.1 §10.3), freeing a keyval twice among them (§8.7.2, §8.7.5).
TEST_F(D4, D28_datatype_and_keyval_errors_ignore_COMM_WORLD_handler) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  MPI_Datatype t = fresh_type();
  int k = MPI_KEYVAL_INVALID;
  ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &k, nullptr));
  int stale = k;
  ASSERT_OK(MPI_Comm_free_keyval(&k));
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
  EXPECT_EXIT(MPI_Type_set_attr(t, 999, nullptr), ::testing::ExitedWithCode(MPI_ERR_KEYVAL), "MPI_Type_set_attr");
  EXPECT_EXIT(MPI_Comm_free_keyval(&stale), ::testing::ExitedWithCode(MPI_ERR_KEYVAL), "has been freed already");
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Type_free(&t);
}

TEST_F(D4, D3_error_strings_name_routine_and_reason) {
  MPI_Comm c = fresh_comm();
  int kt, kc, x = 0;
  ASSERT_OK(MPI_Type_create_keyval(nullptr, nullptr, &kt, nullptr));
  ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &kc, nullptr));
  std::string s = error_string(MPI_Comm_set_attr(c, kt, &x));
  EXPECT_NE(s.find("MPI_Comm_set_attr"), std::string::npos) << s;
  EXPECT_NE(s.find("datatype"), std::string::npos) << "says which kind the keyval is for: " << s;
  EXPECT_NE(s.find("MPI_ERR_KEYVAL"), std::string::npos) << s;
  s = error_string(MPI_Comm_set_attr(c, MPI_KEYVAL_INVALID, &x));
  EXPECT_NE(s.find("MPI_KEYVAL_INVALID"), std::string::npos) << s;
  s = error_string(MPI_Comm_delete_attr(c, MPI_TAG_UB));
  EXPECT_NE(s.find("predefined"), std::string::npos) << s;
  s = error_string(MPI_Comm_get_attr(MPI_COMM_NULL, kc, &x, &x));
  EXPECT_NE(s.find("MPI_COMM_NULL"), std::string::npos) << s;
  int copy = kc;
  ASSERT_OK(MPI_Comm_free_keyval(&copy));
  s = error_string(MPI_Comm_set_attr(c, kc, &x));
  EXPECT_NE(s.find("freed"), std::string::npos) << s;
  // Classes as codes give their standard text.
  EXPECT_NE(error_string(MPI_ERR_KEYVAL).find("keyval"), std::string::npos) << error_string(MPI_ERR_KEYVAL);
  MPI_Comm_free(&c);
  MPI_Type_free_keyval(&kt);
}

TEST_F(D4, D3_each_failure_has_its_own_code_and_message) {
  MPI_Comm c = fresh_comm();
  int rc1 = MPI_Comm_set_attr(c, 1111, nullptr);
  int rc2 = MPI_Comm_set_attr(c, MPI_KEYVAL_INVALID, nullptr);
  EXPECT_NE(rc1, rc2);
  EXPECT_NE(error_string(rc1), error_string(rc2));
  EXPECT_NE(error_string(rc1).find("1111"), std::string::npos) << error_string(rc1);
  EXPECT_EQ(error_class(rc1), MPI_ERR_KEYVAL);
  EXPECT_EQ(error_class(rc2), MPI_ERR_KEYVAL);
  MPI_Comm_free(&c);
}

// Every error class of MPI-4.1 §10.4 (and MPI-5.0's MPI_ERR_ABI) exists with its ABI value and is
// a class of its own: MPI_Error_class gives it back and MPI_Error_string names it (D1, D3). The
// I/O, RMA, name-service and session classes were missing until issue 26, so programs that
// mention them (an MPI test suite's support library) did not compile.
TEST_F(D4, D3_every_standard_error_class_is_its_own_class_with_a_string) {
  struct cls { int value, abi; const char* name; };
  const cls classes[] = {
      {MPI_ERR_ACCESS, 20, "MPI_ERR_ACCESS"}, {MPI_ERR_AMODE, 21, "MPI_ERR_AMODE"},
      {MPI_ERR_ASSERT, 22, "MPI_ERR_ASSERT"}, {MPI_ERR_BAD_FILE, 23, "MPI_ERR_BAD_FILE"},
      {MPI_ERR_CONVERSION, 25, "MPI_ERR_CONVERSION"}, {MPI_ERR_DUP_DATAREP, 27, "MPI_ERR_DUP_DATAREP"},
      {MPI_ERR_FILE_EXISTS, 28, "MPI_ERR_FILE_EXISTS"}, {MPI_ERR_FILE_IN_USE, 29, "MPI_ERR_FILE_IN_USE"},
      {MPI_ERR_FILE, 30, "MPI_ERR_FILE"}, {MPI_ERR_IO, 35, "MPI_ERR_IO"},
      {MPI_ERR_KEYVAL, 36, "MPI_ERR_KEYVAL"}, {MPI_ERR_LOCKTYPE, 37, "MPI_ERR_LOCKTYPE"},
      {MPI_ERR_NAME, 38, "MPI_ERR_NAME"}, {MPI_ERR_NOT_SAME, 40, "MPI_ERR_NOT_SAME"},
      {MPI_ERR_NO_SPACE, 41, "MPI_ERR_NO_SPACE"}, {MPI_ERR_NO_SUCH_FILE, 42, "MPI_ERR_NO_SUCH_FILE"},
      {MPI_ERR_PORT, 43, "MPI_ERR_PORT"}, {MPI_ERR_QUOTA, 44, "MPI_ERR_QUOTA"},
      {MPI_ERR_READ_ONLY, 45, "MPI_ERR_READ_ONLY"}, {MPI_ERR_RMA_ATTACH, 46, "MPI_ERR_RMA_ATTACH"},
      {MPI_ERR_RMA_CONFLICT, 47, "MPI_ERR_RMA_CONFLICT"}, {MPI_ERR_RMA_RANGE, 48, "MPI_ERR_RMA_RANGE"},
      {MPI_ERR_RMA_SHARED, 49, "MPI_ERR_RMA_SHARED"}, {MPI_ERR_RMA_SYNC, 50, "MPI_ERR_RMA_SYNC"},
      {MPI_ERR_SERVICE, 51, "MPI_ERR_SERVICE"}, {MPI_ERR_SPAWN, 53, "MPI_ERR_SPAWN"},
      {MPI_ERR_UNSUPPORTED_DATAREP, 54, "MPI_ERR_UNSUPPORTED_DATAREP"},
      {MPI_ERR_UNSUPPORTED_OPERATION, 55, "MPI_ERR_UNSUPPORTED_OPERATION"},
      {MPI_ERR_RMA_FLAVOR, 57, "MPI_ERR_RMA_FLAVOR"}, {MPI_ERR_PROC_ABORTED, 58, "MPI_ERR_PROC_ABORTED"},
      {MPI_ERR_VALUE_TOO_LARGE, 59, "MPI_ERR_VALUE_TOO_LARGE"}, {MPI_ERR_SESSION, 60, "MPI_ERR_SESSION"},
      {MPI_ERR_ERRHANDLER, 61, "MPI_ERR_ERRHANDLER"}, {MPI_ERR_ABI, 62, "MPI_ERR_ABI"},
  };
  for (const cls& c : classes) {
    EXPECT_EQ(c.value, c.abi) << c.name;
    EXPECT_EQ(error_class(c.value), c.value) << c.name;
    const std::string s = error_string(c.value);
    EXPECT_EQ(s.rfind(c.name, 0), 0u) << "the string of " << c.name << " begins with its name: " << s;
    EXPECT_GT(s.size(), std::strlen(c.name) + 4) << "and says what it means: " << s;
  }
}

}  // namespace
