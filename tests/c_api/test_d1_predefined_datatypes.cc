// D1: the predefined datatypes added from the MPI-5.0 ABI (issue 26) have the ABI's handle values,
// the size and extent of the C or Fortran type they describe, and carry attributes as every
// datatype does (MPI-4.1 §8.7.4: predefined datatypes may be given attributes).
#include <complex>
#include <cstddef>
#include <cstring>

#include "attr_test_common.h"

namespace {

template <typename A, typename B>
struct pair_of {
  A a;
  B b;
};

struct expected_type {
  MPI_Datatype type;
  int abi;
  const char* name;
  int size;
  MPI_Aint extent;
};

TEST(D1_Datatypes, D1_added_datatypes_have_abi_values_sizes_and_extents) {
  const expected_type types[] = {
      {MPI_FLOAT_INT, 0x228, "MPI_FLOAT_INT", static_cast<int>(sizeof(float) + sizeof(int)),
       static_cast<MPI_Aint>(sizeof(pair_of<float, int>))},
      {MPI_LONG_INT, 0x22a, "MPI_LONG_INT", static_cast<int>(sizeof(long) + sizeof(int)),
       static_cast<MPI_Aint>(sizeof(pair_of<long, int>))},
      {MPI_SHORT_INT, 0x22c, "MPI_SHORT_INT", static_cast<int>(sizeof(short) + sizeof(int)),
       static_cast<MPI_Aint>(sizeof(pair_of<short, int>))},
      {MPI_LONG_DOUBLE_INT, 0x22d, "MPI_LONG_DOUBLE_INT",
       static_cast<int>(sizeof(long double) + sizeof(int)),
       static_cast<MPI_Aint>(sizeof(pair_of<long double, int>))},
      {MPI_2REAL, 0x230, "MPI_2REAL", 8, 8},
      {MPI_2DOUBLE_PRECISION, 0x231, "MPI_2DOUBLE_PRECISION", 16, 16},
      {MPI_C_FLOAT_COMPLEX, 0x212, "MPI_C_FLOAT_COMPLEX", static_cast<int>(sizeof(std::complex<float>)),
       static_cast<MPI_Aint>(sizeof(std::complex<float>))},
      {MPI_C_COMPLEX, 0x212, "MPI_C_COMPLEX", static_cast<int>(sizeof(std::complex<float>)),
       static_cast<MPI_Aint>(sizeof(std::complex<float>))},
      {MPI_C_DOUBLE_COMPLEX, 0x216, "MPI_C_DOUBLE_COMPLEX", static_cast<int>(sizeof(std::complex<double>)),
       static_cast<MPI_Aint>(sizeof(std::complex<double>))},
      {MPI_C_LONG_DOUBLE_COMPLEX, 0x224, "MPI_C_LONG_DOUBLE_COMPLEX",
       static_cast<int>(sizeof(std::complex<long double>)),
       static_cast<MPI_Aint>(sizeof(std::complex<long double>))},
      {MPI_CXX_FLOAT_COMPLEX, 0x213, "MPI_CXX_FLOAT_COMPLEX", static_cast<int>(sizeof(std::complex<float>)),
       static_cast<MPI_Aint>(sizeof(std::complex<float>))},
      {MPI_CXX_DOUBLE_COMPLEX, 0x217, "MPI_CXX_DOUBLE_COMPLEX",
       static_cast<int>(sizeof(std::complex<double>)), static_cast<MPI_Aint>(sizeof(std::complex<double>))},
      {MPI_CXX_LONG_DOUBLE_COMPLEX, 0x225, "MPI_CXX_LONG_DOUBLE_COMPLEX",
       static_cast<int>(sizeof(std::complex<long double>)),
       static_cast<MPI_Aint>(sizeof(std::complex<long double>))},
      {MPI_CXX_BOOL, 0x239, "MPI_CXX_BOOL", static_cast<int>(sizeof(bool)), static_cast<MPI_Aint>(sizeof(bool))},
  };
  for (const expected_type& t : types) {
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(t.type), static_cast<std::uintptr_t>(t.abi)) << t.name;
    int size = -1;
    MPI_Aint lb = -1, extent = -1;
    EXPECT_OK(MPI_Type_size(t.type, &size));
    EXPECT_OK(MPI_Type_get_extent(t.type, &lb, &extent));
    EXPECT_EQ(size, t.size) << t.name;
    EXPECT_EQ(lb, 0) << t.name;
    EXPECT_EQ(extent, t.extent) << t.name;
  }
  int size = -1;
  EXPECT_OK(MPI_Type_size(MPI_2INTEGER, &size));
  EXPECT_EQ(size, 2 * static_cast<int>(sizeof(MPI_Fint)));
}

// MPI_SHORT_INT has a gap between its short and its int: packing moves 6 bytes per pair, and an
// unpack writes the members, never the gap.
TEST(D1_Datatypes, D1_short_int_maps_its_members_not_its_gap) {
  pair_of<short, int> in[2], out[2];
  std::memset(in, 0x11, sizeof in);
  std::memset(out, 0x7f, sizeof out);
  in[0].a = 3; in[0].b = -4; in[1].a = 5; in[1].b = 600000;
  int packed = -1;
  EXPECT_OK(MPI_Pack_size(2, MPI_SHORT_INT, MPI_COMM_WORLD, &packed));
  EXPECT_GE(packed, static_cast<int>(2 * (sizeof(short) + sizeof(int))));
  unsigned char buf[256];
  int pos = 0;
  EXPECT_OK(MPI_Pack(in, 2, MPI_SHORT_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD));
  EXPECT_EQ(pos, static_cast<int>(2 * (sizeof(short) + sizeof(int))));
  int upos = 0;
  EXPECT_OK(MPI_Unpack(buf, pos, &upos, out, 2, MPI_SHORT_INT, MPI_COMM_WORLD));
  EXPECT_EQ(upos, pos);
  EXPECT_EQ(out[0].a, 3);
  EXPECT_EQ(out[0].b, -4);
  EXPECT_EQ(out[1].a, 5);
  EXPECT_EQ(out[1].b, 600000);
  const unsigned char* gap = reinterpret_cast<const unsigned char*>(&out[0]) + sizeof(short);
  typedef pair_of<short, int> short_int;
  for (std::size_t i = 0; i < offsetof(short_int, b) - sizeof(short); ++i)
    EXPECT_EQ(gap[i], 0x7f) << "gap byte " << i << " written";
}

// MPI_LONG_DOUBLE_INT aligns as long double: a struct of a char and one pads as C does.
TEST(D1_Datatypes, D1_long_double_int_aligns_as_long_double) {
  struct holder {
    char c;
    pair_of<long double, int> p;
  };
  int lens[2] = {1, 1};
  MPI_Aint disps[2] = {offsetof(holder, c), offsetof(holder, p)};
  MPI_Datatype types[2] = {MPI_CHAR, MPI_LONG_DOUBLE_INT}, t;
  ASSERT_OK(MPI_Type_create_struct(2, lens, disps, types, &t));
  MPI_Aint lb = -1, extent = -1;
  EXPECT_OK(MPI_Type_get_extent(t, &lb, &extent));
  EXPECT_EQ(extent, static_cast<MPI_Aint>(sizeof(holder)));
  EXPECT_OK(MPI_Type_free(&t));
}

TEST(D1_Datatypes, D1_added_datatypes_carry_attributes_and_keep_them_apart) {
  int key = MPI_KEYVAL_INVALID, flag = 0;
  ASSERT_OK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &key, nullptr));
  static int a = 1, b = 2;
  ASSERT_OK(MPI_Type_set_attr(MPI_FLOAT_INT, key, &a));
  ASSERT_OK(MPI_Type_set_attr(MPI_CXX_BOOL, key, &b));
  int* got = nullptr;
  ASSERT_OK(MPI_Type_get_attr(MPI_FLOAT_INT, key, &got, &flag));
  EXPECT_TRUE(flag);
  EXPECT_EQ(got, &a);
  ASSERT_OK(MPI_Type_get_attr(MPI_C_COMPLEX, key, &got, &flag));  // MPI_C_FLOAT_COMPLEX's alias
  EXPECT_FALSE(flag);
  ASSERT_OK(MPI_Type_get_attr(MPI_CXX_BOOL, key, &got, &flag));
  EXPECT_TRUE(flag);
  EXPECT_EQ(got, &b);
  EXPECT_OK(MPI_Type_delete_attr(MPI_FLOAT_INT, key));
  EXPECT_OK(MPI_Type_delete_attr(MPI_CXX_BOOL, key));
  EXPECT_OK(MPI_Type_free_keyval(&key));
}

}  // namespace
