// R7.5, R8, D11, D12: predefined attributes on MPI_COMM_WORLD and on windows.
#include "attr_test_common.h"

namespace {

const int kWorldKeys[] = {MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_UNIVERSE_SIZE, MPI_APPNUM, MPI_LASTUSEDCODE};
const int kWinKeys[] = {MPI_WIN_BASE, MPI_WIN_SIZE, MPI_WIN_DISP_UNIT, MPI_WIN_CREATE_FLAVOR, MPI_WIN_MODEL};

int world_int(int key) {
  int* p = nullptr;
  int flag = 0;
  EXPECT_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, key, &p, &flag));
  EXPECT_EQ(flag, 1) << "key " << key;
  return flag && p ? *p : -999999;
}

TEST(R8_Predefined, R8_1_key_values_are_the_ABI_constants) {
  EXPECT_EQ(MPI_KEYVAL_INVALID, 0);
  EXPECT_EQ(MPI_TAG_UB, 501);
  EXPECT_EQ(MPI_IO, 502);
  EXPECT_EQ(MPI_HOST, 503);
  EXPECT_EQ(MPI_WTIME_IS_GLOBAL, 504);
  EXPECT_EQ(MPI_WIN_BASE, 601);
  EXPECT_EQ(MPI_WIN_DISP_UNIT, 602);
  EXPECT_EQ(MPI_WIN_SIZE, 603);
  EXPECT_EQ(MPI_WIN_CREATE_FLAVOR, 604);
  EXPECT_EQ(MPI_WIN_MODEL, 605);
  EXPECT_EQ(MPI_ERR_KEYVAL, 36);
}

TEST(R8_Predefined, R8_2_D11_world_attributes_are_int_pointers_with_D11_values) {
  EXPECT_GE(world_int(MPI_TAG_UB), 32767);
  EXPECT_EQ(world_int(MPI_TAG_UB), 2147483647);
  EXPECT_EQ(world_int(MPI_HOST), MPI_PROC_NULL);
  EXPECT_EQ(world_int(MPI_IO), MPI_ANY_SOURCE);
  EXPECT_EQ(world_int(MPI_WTIME_IS_GLOBAL), 1);
  EXPECT_EQ(world_int(MPI_UNIVERSE_SIZE), 1);
  EXPECT_EQ(world_int(MPI_APPNUM), 0);
  EXPECT_GE(world_int(MPI_LASTUSEDCODE), static_cast<int>(MPI_ERR_LASTCODE));
}

TEST(R8_Predefined, R5_4_Attr_get_reads_predefined_attributes_too) {
  int* p = nullptr;
  int flag = 0;
  ASSERT_OK(MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &p, &flag));
  ASSERT_EQ(flag, 1);
  EXPECT_EQ(*p, 2147483647);
}

TEST(R8_Predefined, R8_1_cannot_set_delete_or_free_world_keys_and_nothing_changes) {
  int x = 5;
  for (int key : kWorldKeys) {
    SCOPED_TRACE(key);
    int before = world_int(key);
    EXPECT_CLASS(MPI_Comm_set_attr(MPI_COMM_WORLD, key, &x), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Attr_put(MPI_COMM_WORLD, key, &x), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Comm_delete_attr(MPI_COMM_WORLD, key), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Attr_delete(MPI_COMM_WORLD, key), MPI_ERR_KEYVAL);
    int k = key;
    EXPECT_CLASS(MPI_Comm_free_keyval(&k), MPI_ERR_KEYVAL);
    EXPECT_EQ(k, key);
    EXPECT_CLASS(MPI_Keyval_free(&k), MPI_ERR_KEYVAL);
    EXPECT_EQ(k, key);
    EXPECT_EQ(world_int(key), before);
  }
}

struct win_case {
  const char* name;
  int flavor;
};

void check_window(MPI_Win w, void* base, MPI_Aint size, int disp, int flavor) {
  void* v = nullptr;
  ASSERT_EQ(win_get(w, MPI_WIN_BASE, &v), 1);
  EXPECT_EQ(v, base) << "MPI_WIN_BASE is the address itself";
  ASSERT_EQ(win_get(w, MPI_WIN_SIZE, &v), 1);
  EXPECT_EQ(*static_cast<MPI_Aint*>(v), size) << "MPI_WIN_SIZE is an MPI_Aint*";
  ASSERT_EQ(win_get(w, MPI_WIN_DISP_UNIT, &v), 1);
  EXPECT_EQ(*static_cast<int*>(v), disp);
  ASSERT_EQ(win_get(w, MPI_WIN_CREATE_FLAVOR, &v), 1);
  EXPECT_EQ(*static_cast<int*>(v), flavor);
  ASSERT_EQ(win_get(w, MPI_WIN_MODEL, &v), 1);
  EXPECT_EQ(*static_cast<int*>(v), MPI_WIN_UNIFIED);
}

TEST(R8_Predefined, R8_3_Win_create_attributes) {
  static double buf[100];
  MPI_Win w;
  ASSERT_OK(MPI_Win_create(buf, sizeof buf, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &w));
  check_window(w, buf, sizeof buf, sizeof(double), MPI_WIN_FLAVOR_CREATE);
  // Values far beyond 32 bits come back whole through the MPI_Aint*.
  MPI_Win big;
  const MPI_Aint huge = static_cast<MPI_Aint>(1) << 40;
  ASSERT_OK(MPI_Win_create(buf, huge, 3, MPI_INFO_NULL, MPI_COMM_WORLD, &big));
  check_window(big, buf, huge, 3, MPI_WIN_FLAVOR_CREATE);
  MPI_Win_free(&big);
  MPI_Win_free(&w);
}

TEST(R8_Predefined, R8_3_Win_allocate_attributes) {
  MPI_Win w;
  int* base = nullptr;
  ASSERT_OK(MPI_Win_allocate(40, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w));
  ASSERT_NE(base, nullptr);
  check_window(w, base, 40, 4, MPI_WIN_FLAVOR_ALLOCATE);
  base[9] = 1;  // the memory is usable
  MPI_Win_free(&w);
}

TEST(R8_Predefined, R8_3_Win_create_dynamic_attributes) {
  MPI_Win w;
  ASSERT_OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w));
  check_window(w, MPI_BOTTOM, 0, 1, MPI_WIN_FLAVOR_DYNAMIC);
  MPI_Win_free(&w);
}

TEST(R8_Predefined, R8_3_cannot_set_delete_or_free_window_keys_and_nothing_changes) {
  char buf[24];
  MPI_Win w;
  ASSERT_OK(MPI_Win_create(buf, sizeof buf, 2, MPI_INFO_NULL, MPI_COMM_WORLD, &w));
  MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
  int x = 0;
  for (int key : kWinKeys) {
    SCOPED_TRACE(key);
    EXPECT_CLASS(MPI_Win_set_attr(w, key, &x), MPI_ERR_KEYVAL);
    EXPECT_CLASS(MPI_Win_delete_attr(w, key), MPI_ERR_KEYVAL);
    int k = key;
    EXPECT_CLASS(MPI_Win_free_keyval(&k), MPI_ERR_KEYVAL);
    EXPECT_EQ(k, key);
    // Window keys are not communicator keys (R1.5).
    void* v;
    int flag;
    EXPECT_CLASS(MPI_Comm_get_attr(MPI_COMM_WORLD, key, &v, &flag), MPI_ERR_KEYVAL);
  }
  for (int key : kWorldKeys) {
    void* v;
    int flag;
    EXPECT_CLASS(MPI_Win_get_attr(w, key, &v, &flag), MPI_ERR_KEYVAL);
  }
  check_window(w, buf, sizeof buf, 2, MPI_WIN_FLAVOR_CREATE);
  MPI_Win_free(&w);
}

TEST(R8_Predefined, D12_user_attributes_on_window_live_beside_predefined_ones) {
  char buf[8];
  MPI_Win w;
  ASSERT_OK(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w));
  int k, x = 1;
  ASSERT_OK(MPI_Win_create_keyval(nullptr, nullptr, &k, nullptr));
  ASSERT_OK(MPI_Win_set_attr(w, k, &x));
  check_window(w, buf, sizeof buf, 1, MPI_WIN_FLAVOR_CREATE);
  MPI_Win_free(&w);
  MPI_Win_free_keyval(&k);
}

// Freeing an object that carries predefined attributes must not release the predefined keys
// themselves: they stay valid keys for the whole run (R8.1, R8.3) and new keyvals must not alias them.
TEST(R8_Predefined, R8_3_predefined_window_keys_survive_Win_free) {
  char buf[8];
  MPI_Win w1;
  ASSERT_OK(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w1));
  ASSERT_OK(MPI_Win_free(&w1));
  std::vector<int> keys(8);
  for (int& k : keys) ASSERT_OK(MPI_Win_create_keyval(nullptr, nullptr, &k, nullptr));
  MPI_Win w2;
  ASSERT_OK(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w2));
  MPI_Win_set_errhandler(w2, MPI_ERRORS_RETURN);
  check_window(w2, buf, sizeof buf, 1, MPI_WIN_FLAVOR_CREATE);
  for (int k : keys) EXPECT_EQ(win_get(w2, k, nullptr), 0) << "a new keyval already has a value on a new window";
  MPI_Win_free(&w2);
  for (int& k : keys) MPI_Win_free_keyval(&k);
}

TEST(R8_Predefined, R8_2_TAG_UB_survives_freeing_split_and_created_communicators) {
  MPI_Comm s, cr;
  ASSERT_OK(MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &s));
  ASSERT_OK(MPI_Comm_free(&s));
  MPI_Group g;
  ASSERT_OK(MPI_Comm_group(MPI_COMM_WORLD, &g));
  ASSERT_OK(MPI_Comm_create(MPI_COMM_WORLD, g, &cr));
  MPI_Group_free(&g);
  ASSERT_OK(MPI_Comm_free(&cr));
  std::vector<int> keys(8);
  for (int& k : keys) ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &k, nullptr));
  EXPECT_EQ(world_int(MPI_TAG_UB), 2147483647);
  for (int k : keys) EXPECT_EQ(comm_get(MPI_COMM_WORLD, k, nullptr), 0) << "a new keyval already has a value";
  MPI_Comm d = fresh_comm();
  void* v;
  EXPECT_EQ(comm_get(d, MPI_TAG_UB, &v), 1);
  MPI_Comm_free(&d);
  for (int& k : keys) MPI_Comm_free_keyval(&k);
}

TEST(R8_Predefined, R8_2_predefined_attributes_survive_freeing_dups) {
  for (int i = 0; i < 3; ++i) {
    MPI_Comm d = fresh_comm();
    ASSERT_OK(MPI_Comm_free(&d));
  }
  int k;
  ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &k, nullptr));
  for (int key : kWorldKeys) EXPECT_EQ(comm_get(MPI_COMM_WORLD, key, nullptr), 1) << key;
  MPI_Comm_free_keyval(&k);
}

}  // namespace
