// Info objects (MPI-4.1 §11) and MPI_Get_address (§6.1.5) of the standalone runtime: what programs
// written for MPICH and Open MPI pass to MPI_Comm_dup_with_info, MPI_Win_create and friends.
// Bad input gets the right class through MPI_COMM_SELF's handler and changes nothing (D4).
#include <cstring>

#include "attr_test_common.h"

namespace {

class Info : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN)); }
};

std::string get_string(MPI_Info info, const char* key, int* flag) {
  char buf[MPI_MAX_INFO_VAL + 1] = {};
  int len = sizeof buf;
  EXPECT_EQ(MPI_Info_get_string(info, key, &len, buf, flag), MPI_SUCCESS);
  return *flag ? std::string(buf) : std::string();
}

TEST_F(Info, Info_set_get_replace_delete_keep_the_order_keys_were_first_set) {
  MPI_Info info = MPI_INFO_NULL;
  ASSERT_OK(MPI_Info_create(&info));
  ASSERT_NE(info, MPI_INFO_NULL);
  int n = -1;
  ASSERT_OK(MPI_Info_get_nkeys(info, &n));
  EXPECT_EQ(n, 0);
  ASSERT_OK(MPI_Info_set(info, "b_key", "one"));
  ASSERT_OK(MPI_Info_set(info, "a_key", "two"));
  ASSERT_OK(MPI_Info_set(info, "b_key", "three"));  // replaces, keeps its place
  ASSERT_OK(MPI_Info_get_nkeys(info, &n));
  EXPECT_EQ(n, 2);
  char key[MPI_MAX_INFO_KEY + 1];
  ASSERT_OK(MPI_Info_get_nthkey(info, 0, key));
  EXPECT_STREQ(key, "b_key");
  ASSERT_OK(MPI_Info_get_nthkey(info, 1, key));
  EXPECT_STREQ(key, "a_key");
  int flag = 0;
  EXPECT_EQ(get_string(info, "b_key", &flag), "three");
  EXPECT_EQ(flag, 1);
  get_string(info, "missing", &flag);
  EXPECT_EQ(flag, 0);
  ASSERT_OK(MPI_Info_delete(info, "b_key"));
  ASSERT_OK(MPI_Info_get_nkeys(info, &n));
  EXPECT_EQ(n, 1);
  EXPECT_CLASS(MPI_Info_delete(info, "b_key"), MPI_ERR_INFO_NOKEY);
  ASSERT_OK(MPI_Info_free(&info));
  EXPECT_EQ(info, MPI_INFO_NULL);
}

// A buflen of 0 asks for the length only, and value "is not changed" (MPI-4.1,
// MPI_INFO_GET_STRING): a NULL value is then accepted (D121). MPICH 4.0.2 refuses it (an error),
// Open MPI 4.1.4 has no MPI_Info_get_string: mpiattr's choice, as for MPI_Session_get_nth_pset,
// where MPICH accepts it. A NULL value with a buffer to fill is still MPI_ERR_ARG.
TEST_F(Info, Info_get_string_D121_a_null_value_with_buflen_0_asks_for_the_length) {
  MPI_Info info;
  ASSERT_OK(MPI_Info_create(&info));
  ASSERT_OK(MPI_Info_set(info, "k", "abcdef"));
  int len = 0, flag = 0;
  ASSERT_OK(MPI_Info_get_string(info, "k", &len, nullptr, &flag));
  EXPECT_EQ(flag, 1);
  EXPECT_EQ(len, 7);
  len = 0;
  flag = 1;
  ASSERT_OK(MPI_Info_get_string(info, "absent", &len, nullptr, &flag));
  EXPECT_EQ(flag, 0);
  len = 4;
  flag = -1;
  EXPECT_CLASS(MPI_Info_get_string(info, "k", &len, nullptr, &flag), MPI_ERR_ARG);
  EXPECT_EQ(len, 4);
  EXPECT_EQ(flag, -1);
  MPI_Info_free(&info);
}

TEST_F(Info, Info_get_string_truncates_to_buflen_and_returns_the_length_plus_one) {
  MPI_Info info;
  ASSERT_OK(MPI_Info_create(&info));
  ASSERT_OK(MPI_Info_set(info, "k", "abcdef"));
  char buf[4] = {'x', 'x', 'x', 'x'};
  int len = 4, flag = 0;
  ASSERT_OK(MPI_Info_get_string(info, "k", &len, buf, &flag));
  EXPECT_EQ(flag, 1);
  EXPECT_STREQ(buf, "abc");
  EXPECT_EQ(len, 7);
  len = 0;  // the length only: value is left alone
  char untouched[1] = {'u'};
  ASSERT_OK(MPI_Info_get_string(info, "k", &len, untouched, &flag));
  EXPECT_EQ(len, 7);
  EXPECT_EQ(untouched[0], 'u');
  // The deprecated MPI_Info_get and MPI_Info_get_valuelen.
  char val[8];
  ASSERT_OK(MPI_Info_get(info, "k", 3, val, &flag));
  EXPECT_STREQ(val, "abc");
  int vlen = -1;
  ASSERT_OK(MPI_Info_get_valuelen(info, "k", &vlen, &flag));
  EXPECT_EQ(vlen, 6);
  MPI_Info_free(&info);
}

TEST_F(Info, Info_dup_is_an_independent_copy) {
  MPI_Info a, b;
  ASSERT_OK(MPI_Info_create(&a));
  ASSERT_OK(MPI_Info_set(a, "x", "1"));
  ASSERT_OK(MPI_Info_dup(a, &b));
  ASSERT_OK(MPI_Info_set(a, "x", "2"));
  int flag = 0;
  EXPECT_EQ(get_string(b, "x", &flag), "1");
  ASSERT_OK(MPI_Info_free(&a));
  EXPECT_EQ(get_string(b, "x", &flag), "1");
  ASSERT_OK(MPI_Info_free(&b));
}

TEST_F(Info, Info_objects_are_accepted_as_hints_and_unknown_keys_ignored) {
  MPI_Info info;
  ASSERT_OK(MPI_Info_create(&info));
  ASSERT_OK(MPI_Info_set(info, "mpi_assert_no_any_tag", "true"));
  ASSERT_OK(MPI_Info_set(info, "some_unknown_key", "whatever"));
  MPI_Comm dup;
  ASSERT_OK(MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &dup));
  int buf[4];
  MPI_Win win;
  ASSERT_OK(MPI_Win_create(buf, sizeof buf, sizeof buf[0], info, MPI_COMM_SELF, &win));
  ASSERT_OK(MPI_Win_free(&win));
  ASSERT_OK(MPI_Comm_free(&dup));
  MPI_Info saved = info;
  ASSERT_OK(MPI_Info_free(&info));
  // A freed info is no hint.
  EXPECT_CLASS(MPI_Comm_dup_with_info(MPI_COMM_WORLD, saved, &dup), MPI_ERR_INFO);
  EXPECT_EQ(dup, MPI_COMM_NULL);
}

TEST_F(Info, Info_bad_input_gets_its_class_and_changes_nothing) {
  MPI_Info info, stale;
  ASSERT_OK(MPI_Info_create(&info));
  ASSERT_OK(MPI_Info_set(info, "k", "v"));
  std::string long_key(MPI_MAX_INFO_KEY + 1, 'k');
  std::string long_value(MPI_MAX_INFO_VAL + 1, 'v');
  EXPECT_CLASS(MPI_Info_set(info, long_key.c_str(), "v"), MPI_ERR_INFO_KEY);
  EXPECT_CLASS(MPI_Info_set(info, "", "v"), MPI_ERR_INFO_KEY);
  EXPECT_CLASS(MPI_Info_set(info, "k", long_value.c_str()), MPI_ERR_INFO_VALUE);
  EXPECT_CLASS(MPI_Info_set(MPI_INFO_NULL, "k", "v"), MPI_ERR_INFO);
  EXPECT_CLASS(MPI_Info_set(MPI_INFO_ENV, "k", "v"), MPI_ERR_INFO);
  EXPECT_CLASS(MPI_Info_free(&(stale = MPI_INFO_ENV)), MPI_ERR_INFO);
  char key[MPI_MAX_INFO_KEY + 1];
  EXPECT_CLASS(MPI_Info_get_nthkey(info, 1, key), MPI_ERR_ARG);
  EXPECT_CLASS(MPI_Info_get_nthkey(info, -1, key), MPI_ERR_ARG);
  int flag = 0;
  EXPECT_EQ(get_string(info, "k", &flag), "v");
  int n = 0;
  ASSERT_OK(MPI_Info_get_nkeys(info, &n));
  EXPECT_EQ(n, 1);
  stale = info;
  ASSERT_OK(MPI_Info_free(&info));
  EXPECT_CLASS(MPI_Info_get_nkeys(stale, &n), MPI_ERR_INFO);
  EXPECT_CLASS(MPI_Info_free(&stale), MPI_ERR_INFO);
  // MPI_INFO_ENV is an info with no key.
  ASSERT_OK(MPI_Info_get_nkeys(MPI_INFO_ENV, &n));
  EXPECT_EQ(n, 0);
}

TEST_F(Info, Get_address_gives_the_address_and_differences_are_byte_offsets) {
  struct {
    int a;
    double b;
  } s = {};
  MPI_Aint pa = 0, pb = 0;
  ASSERT_OK(MPI_Get_address(&s.a, &pa));
  ASSERT_OK(MPI_Get_address(&s.b, &pb));
  EXPECT_EQ(pa, reinterpret_cast<MPI_Aint>(&s.a));
  EXPECT_EQ(pb - pa, static_cast<MPI_Aint>(reinterpret_cast<char*>(&s.b) - reinterpret_cast<char*>(&s.a)));
}

}  // namespace
