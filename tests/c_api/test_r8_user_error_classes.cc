// User-defined error classes, codes and strings (MPI-4.1 §10.5) and the predefined attribute that
// follows them, MPI_LASTUSEDCODE (R8.2); MPI_Get_library_version.
#include <cstring>
#include <string>

#include "attr_test_common.h"

namespace {

class R8_2 : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN)); }
};

int last_used_code() {
  int* p = nullptr;
  int flag = 0;
  EXPECT_EQ(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &p, &flag), MPI_SUCCESS);
  EXPECT_TRUE(flag);
  return flag ? *p : -1;
}

std::string text_of(int code) {
  char s[MPI_MAX_ERROR_STRING];
  int len = -1;
  EXPECT_EQ(MPI_Error_string(code, s, &len), MPI_SUCCESS);
  return std::string(s, static_cast<std::size_t>(len));
}

TEST_F(R8_2, R8_2_lastusedcode_follows_added_classes_and_codes) {
  EXPECT_GE(last_used_code(), MPI_ERR_LASTCODE);
  int cls = -1;
  ASSERT_OK(MPI_Add_error_class(&cls));
  EXPECT_GT(cls, MPI_ERR_LASTCODE);
  EXPECT_EQ(last_used_code(), cls);
  int code = -1;
  ASSERT_OK(MPI_Add_error_code(cls, &code));
  EXPECT_NE(code, cls);
  EXPECT_EQ(last_used_code(), code);
  int got = -1;
  ASSERT_OK(MPI_Error_class(code, &got));
  EXPECT_EQ(got, cls);
  ASSERT_OK(MPI_Error_class(cls, &got));
  EXPECT_EQ(got, cls);
  // A code of a predefined class.
  int code2 = -1;
  ASSERT_OK(MPI_Add_error_code(MPI_ERR_KEYVAL, &code2));
  ASSERT_OK(MPI_Error_class(code2, &got));
  EXPECT_EQ(got, MPI_ERR_KEYVAL);
  EXPECT_EQ(last_used_code(), code2);
}

TEST_F(R8_2, R8_2_user_strings_and_bad_input) {
  int cls = -1, code = -1;
  ASSERT_OK(MPI_Add_error_class(&cls));
  ASSERT_OK(MPI_Add_error_code(cls, &code));
  EXPECT_EQ(text_of(code), "");  // no string set yet
  ASSERT_OK(MPI_Add_error_string(cls, "my library's class"));
  ASSERT_OK(MPI_Add_error_string(code, "my library's code"));
  EXPECT_EQ(text_of(cls), "my library's class");
  EXPECT_EQ(text_of(code), "my library's code");
  ASSERT_OK(MPI_Add_error_string(code, "replaced"));
  EXPECT_EQ(text_of(code), "replaced");
  // Only user-defined classes and codes take a string; a code must be added to a class.
  EXPECT_CLASS(MPI_Add_error_string(MPI_ERR_KEYVAL, "no"), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Add_error_string(last_used_code() + 1, "no"), MPI_ERR_ARG);
  std::string too_long(MPI_MAX_ERROR_STRING, 'x');
  EXPECT_CLASS(MPI_Add_error_string(code, too_long.c_str()), MPI_ERR_ARG);
  EXPECT_EQ(text_of(code), "replaced");
  int before = last_used_code(), c = -1;
  EXPECT_CLASS(MPI_Add_error_code(code, &c), MPI_ERR_ARG);  // a code, not a class
  EXPECT_CLASS(MPI_Add_error_code(before + 1, &c), MPI_ERR_ARG);
  EXPECT_EQ(last_used_code(), before);
}

TEST_F(R8_2, R8_2_a_user_class_goes_through_error_handlers_and_callbacks) {
  int cls = -1, code = -1;
  ASSERT_OK(MPI_Add_error_class(&cls));
  ASSERT_OK(MPI_Add_error_code(cls, &code));
  MPI_Comm c;
  ASSERT_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
  // MPI_Comm_call_errhandler gives the handler the user code, and returns MPI_SUCCESS (§10.5).
  handler_calls().clear();
  ASSERT_OK(MPI_Comm_set_errhandler(c, counting_comm_errhandler()));
  EXPECT_EQ(MPI_Comm_call_errhandler(c, code), MPI_SUCCESS);
  ASSERT_EQ(handler_calls().size(), 1u);
  EXPECT_EQ(handler_calls()[0].code, code);
  ASSERT_OK(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));
  // A delete callback failing with the user code fails the call with a code of its class (D8).
  int key = MPI_KEYVAL_INVALID;
  static int fail_with;
  fail_with = code;
  ASSERT_OK(MPI_Comm_create_keyval(
      MPI_COMM_NULL_COPY_FN, [](MPI_Comm, int, void*, void*) { return fail_with; }, &key, nullptr));
  ASSERT_OK(MPI_Comm_set_attr(c, key, nullptr));
  int rc = MPI_Comm_delete_attr(c, key);
  int got = -1;
  ASSERT_OK(MPI_Error_class(rc, &got));
  EXPECT_EQ(got, cls);
  fail_with = MPI_SUCCESS;
  ASSERT_OK(MPI_Comm_delete_attr(c, key));
  MPI_Comm_free_keyval(&key);
  MPI_Comm_free(&c);
}

// The tool information interface's return codes are error classes (MPI-4.1 §10.4, §16.3):
// each is its own class and has a string (D123); a code between them and MPI_ERR_LASTCODE that no
// one defined is still not an error code.
TEST_F(R8_2, D123_the_MPI_T_return_codes_are_error_classes) {
  const int tool[] = {MPI_T_ERR_CANNOT_INIT, MPI_T_ERR_NOT_ACCESSIBLE, MPI_T_ERR_NOT_INITIALIZED,
                      MPI_T_ERR_NOT_SUPPORTED, MPI_T_ERR_MEMORY, MPI_T_ERR_INVALID, MPI_T_ERR_INVALID_INDEX,
                      MPI_T_ERR_INVALID_ITEM, MPI_T_ERR_INVALID_SESSION, MPI_T_ERR_INVALID_HANDLE,
                      MPI_T_ERR_INVALID_NAME, MPI_T_ERR_OUT_OF_HANDLES, MPI_T_ERR_OUT_OF_SESSIONS,
                      MPI_T_ERR_CVAR_SET_NOT_NOW, MPI_T_ERR_CVAR_SET_NEVER, MPI_T_ERR_PVAR_NO_WRITE,
                      MPI_T_ERR_PVAR_NO_STARTSTOP, MPI_T_ERR_PVAR_NO_ATOMIC};
  for (int code : tool) {
    int cls = -1;
    ASSERT_OK(MPI_Error_class(code, &cls));
    EXPECT_EQ(cls, code);
    EXPECT_NE(text_of(code).find("MPI_T_ERR_"), std::string::npos) << code;
  }
  EXPECT_NE(text_of(MPI_T_ERR_NOT_SUPPORTED).find("not supported"), std::string::npos);
  // What the standalone runtime's MPI_T routines return (D36) can be printed.
  int provided = -1;
  const int rc = MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
  int cls = -1;
  ASSERT_OK(MPI_Error_class(rc, &cls));
  EXPECT_EQ(cls, MPI_T_ERR_NOT_SUPPORTED);
  // 1000 and 1019 are no one's.
  for (int code : {1000, 1019}) {
    cls = -1;
    EXPECT_CLASS(MPI_Error_class(code, &cls), MPI_ERR_ARG);
    EXPECT_EQ(cls, -1);
  }
}

TEST(GetLibraryVersion, Get_library_version_names_mpiattr) {
  char v[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = -1;
  ASSERT_OK(MPI_Get_library_version(v, &len));
  EXPECT_EQ(static_cast<std::size_t>(len), std::strlen(v));
  EXPECT_NE(std::string(v).find("mpiattr"), std::string::npos);
}

}  // namespace
