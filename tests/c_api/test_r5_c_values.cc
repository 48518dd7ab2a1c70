// R5 (C calling conventions for attribute values) and R7.3's C row: C reads what C wrote.
#include <cstdint>

#include "attr_test_common.h"

namespace {

TEST(R5_Values, R5_1_R5_2_set_passes_value_get_passes_address) {
  MPI_Comm c = fresh_comm();
  int k, x = 3;
  ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &k, nullptr));
  ASSERT_OK(MPI_Comm_set_attr(c, k, &x));
  int* p = nullptr;
  int flag = 0;
  ASSERT_OK(MPI_Comm_get_attr(c, k, &p, &flag));  // the address of a pointer
  ASSERT_EQ(flag, 1);
  EXPECT_EQ(p, &x);
  EXPECT_EQ(*p, 3);
  MPI_Comm_free(&c);
  MPI_Comm_free_keyval(&k);
}

TEST(R5_Values, R7_3_C_row_integer_cast_to_pointer_comes_back_unchanged) {
  MPI_Comm c = fresh_comm();
  MPI_Datatype t = fresh_type();
  int kc, kt;
  ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &kc, nullptr));
  ASSERT_OK(MPI_Type_create_keyval(nullptr, nullptr, &kt, nullptr));
  const MPI_Aint values[] = {17, 0, -1, static_cast<MPI_Aint>(INTPTR_MAX), static_cast<MPI_Aint>(INTPTR_MIN),
                             static_cast<MPI_Aint>(1) << 40};
  for (MPI_Aint val : values) {
    ASSERT_OK(MPI_Comm_set_attr(c, kc, reinterpret_cast<void*>(val)));
    ASSERT_OK(MPI_Type_set_attr(t, kt, reinterpret_cast<void*>(val)));
    void* v = nullptr;
    EXPECT_EQ(comm_get(c, kc, &v), 1);
    EXPECT_EQ(reinterpret_cast<MPI_Aint>(v), val);
    EXPECT_EQ(type_get(t, kt, &v), 1);
    EXPECT_EQ(reinterpret_cast<MPI_Aint>(v), val);
    int flag = 0;
    v = nullptr;
    ASSERT_OK(MPI_Attr_get(c, kc, &v, &flag));
    EXPECT_EQ(flag, 1);
    EXPECT_EQ(reinterpret_cast<MPI_Aint>(v), val);
  }
  MPI_Comm_free(&c);
  MPI_Type_free(&t);
  MPI_Comm_free_keyval(&kc);
  MPI_Type_free_keyval(&kt);
}

TEST(R5_Values, R7_4_example1_struct_and_int_addresses) {
  struct foo { int a; double b; } set_struct{1, 2.0};
  int set_val = 3;
  MPI_Comm c = fresh_comm();
  int k1, k2, k3;
  ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &k1, nullptr));
  ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &k2, nullptr));
  ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &k3, nullptr));
  ASSERT_OK(MPI_Comm_set_attr(c, k1, &set_val));
  ASSERT_OK(MPI_Comm_set_attr(c, k2, &set_struct));
  ASSERT_OK(MPI_Comm_set_attr(c, k3, reinterpret_cast<void*>(static_cast<MPI_Aint>(17))));
  void* v;
  ASSERT_EQ(comm_get(c, k1, &v), 1);
  EXPECT_EQ(*static_cast<int*>(v), 3);
  ASSERT_EQ(comm_get(c, k2, &v), 1);
  EXPECT_EQ(v, &set_struct);
  ASSERT_EQ(comm_get(c, k3, &v), 1);
  EXPECT_EQ(reinterpret_cast<MPI_Aint>(v), 17);
  MPI_Comm_free(&c);
  for (int* k : {&k1, &k2, &k3}) MPI_Comm_free_keyval(k);
}

TEST(R5_Values, R5_4_Attr_put_get_interchangeable_with_Comm_set_get) {
  MPI_Comm c = fresh_comm();
  int k, a = 1, b = 2;
  ASSERT_OK(MPI_Keyval_create(nullptr, nullptr, &k, nullptr));
  ASSERT_OK(MPI_Attr_put(c, k, &a));
  void* v;
  EXPECT_EQ(comm_get(c, k, &v), 1);
  EXPECT_EQ(v, &a);
  ASSERT_OK(MPI_Comm_set_attr(c, k, &b));
  int flag = 0;
  v = nullptr;
  ASSERT_OK(MPI_Attr_get(c, k, &v, &flag));
  EXPECT_EQ(flag, 1);
  EXPECT_EQ(v, &b);
  ASSERT_OK(MPI_Attr_delete(c, k));
  EXPECT_EQ(comm_get(c, k, &v), 0);
  // A keyval from MPI_Comm_create_keyval works with the MPI-1 routines too.
  int k2;
  ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &k2, nullptr));
  ASSERT_OK(MPI_Attr_put(c, k2, &a));
  EXPECT_EQ(comm_get(c, k2, &v), 1);
  EXPECT_EQ(v, &a);
  MPI_Comm_free(&c);
  MPI_Keyval_free(&k);
  MPI_Comm_free_keyval(&k2);
}

struct copy_seen {
  void* in = nullptr;
  void* out_addr = nullptr;
};
copy_seen g_seen;
int g_copy_target;

int r5_copy(MPI_Comm, int, void*, void* in, void* out, int* flag) {
  g_seen.in = in;
  g_seen.out_addr = out;
  *static_cast<void**>(out) = &g_copy_target;  // a different value for the copy
  *flag = 1;
  return MPI_SUCCESS;
}
void* g_deleted_value = nullptr;
int r5_delete(MPI_Comm, int, void* v, void*) {
  g_deleted_value = v;
  return MPI_SUCCESS;
}

TEST(R5_Values, R5_3_copy_callback_gets_value_in_and_address_out) {
  MPI_Comm c = fresh_comm(), d;
  int k, x = 9;
  ASSERT_OK(MPI_Comm_create_keyval(r5_copy, r5_delete, &k, nullptr));
  ASSERT_OK(MPI_Comm_set_attr(c, k, &x));
  ASSERT_OK(MPI_Comm_dup(c, &d));
  EXPECT_EQ(g_seen.in, &x) << "attribute_val_in is the value itself";
  EXPECT_NE(g_seen.out_addr, nullptr);
  EXPECT_NE(g_seen.out_addr, &x);
  void* v;
  ASSERT_EQ(comm_get(d, k, &v), 1);
  EXPECT_EQ(v, &g_copy_target) << "the copy stores what was written through attribute_val_out";
  ASSERT_EQ(comm_get(c, k, &v), 1);
  EXPECT_EQ(v, &x) << "the original is unchanged";
  ASSERT_OK(MPI_Comm_free(&d));
  EXPECT_EQ(g_deleted_value, &g_copy_target) << "the delete callback gets the value, not its address";
  MPI_Comm_free(&c);
  EXPECT_EQ(g_deleted_value, &x);
  MPI_Comm_free_keyval(&k);
}

TEST(R5_Values, R7_5_predefined_DUP_FN_copies_the_value_itself) {
  MPI_Comm c = fresh_comm(), d;
  MPI_Datatype t = fresh_type(), u;
  int kc, kt, x = 1;
  ASSERT_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, nullptr, &kc, nullptr));
  ASSERT_OK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, nullptr, &kt, nullptr));
  ASSERT_OK(MPI_Comm_set_attr(c, kc, &x));
  ASSERT_OK(MPI_Type_set_attr(t, kt, reinterpret_cast<void*>(static_cast<MPI_Aint>(-7))));
  ASSERT_OK(MPI_Comm_dup(c, &d));
  ASSERT_OK(MPI_Type_dup(t, &u));
  void* v;
  ASSERT_EQ(comm_get(d, kc, &v), 1);
  EXPECT_EQ(v, &x);
  ASSERT_EQ(type_get(u, kt, &v), 1);
  EXPECT_EQ(reinterpret_cast<MPI_Aint>(v), -7);
  MPI_Comm_free(&c);
  MPI_Comm_free(&d);
  MPI_Type_free(&t);
  MPI_Type_free(&u);
  MPI_Comm_free_keyval(&kc);
  MPI_Type_free_keyval(&kt);
}

TEST(R5_Values, R6_5_predefined_C_callbacks_callable_directly) {
  int x = 0, flag = -1;
  void* out = nullptr;
  EXPECT_EQ(MPI_COMM_DUP_FN(MPI_COMM_WORLD, 0, nullptr, &x, &out, &flag), MPI_SUCCESS);
  EXPECT_EQ(flag, 1);
  EXPECT_EQ(out, &x);
  flag = -1;
  out = nullptr;
  EXPECT_EQ(MPI_COMM_NULL_COPY_FN(MPI_COMM_WORLD, 0, nullptr, &x, &out, &flag), MPI_SUCCESS);
  EXPECT_EQ(flag, 0);
  flag = -1;
  EXPECT_EQ(MPI_TYPE_DUP_FN(MPI_INT, 0, nullptr, &x, &out, &flag), MPI_SUCCESS);
  EXPECT_EQ(flag, 1);
  flag = -1;
  EXPECT_EQ(MPI_WIN_NULL_COPY_FN(MPI_WIN_NULL, 0, nullptr, &x, &out, &flag), MPI_SUCCESS);
  EXPECT_EQ(flag, 0);
  flag = -1;
  out = nullptr;
  EXPECT_EQ(MPI_DUP_FN(MPI_COMM_WORLD, 0, nullptr, &x, &out, &flag), MPI_SUCCESS);
  EXPECT_EQ(flag, 1);
  EXPECT_EQ(out, &x);
  flag = -1;
  EXPECT_EQ(MPI_NULL_COPY_FN(MPI_COMM_WORLD, 0, nullptr, &x, &out, &flag), MPI_SUCCESS);
  EXPECT_EQ(flag, 0);
  EXPECT_EQ(MPI_NULL_DELETE_FN(MPI_COMM_WORLD, 0, &x, nullptr), MPI_SUCCESS);
  EXPECT_EQ(MPI_COMM_NULL_DELETE_FN(MPI_COMM_WORLD, 0, &x, nullptr), MPI_SUCCESS);
  EXPECT_EQ(MPI_TYPE_NULL_DELETE_FN(MPI_INT, 0, &x, nullptr), MPI_SUCCESS);
  EXPECT_EQ(MPI_WIN_NULL_DELETE_FN(MPI_WIN_NULL, 0, &x, nullptr), MPI_SUCCESS);
}

TEST(R5_Values, R5_win_values_roundtrip) {
  char buf[8];
  MPI_Win w;
  ASSERT_OK(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w));
  int k, x = 5;
  ASSERT_OK(MPI_Win_create_keyval(nullptr, nullptr, &k, nullptr));
  ASSERT_OK(MPI_Win_set_attr(w, k, &x));
  void* v;
  ASSERT_EQ(win_get(w, k, &v), 1);
  EXPECT_EQ(v, &x);
  MPI_Win_free(&w);
  MPI_Win_free_keyval(&k);
}

}  // namespace
