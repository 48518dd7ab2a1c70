// D1: the predefined datatypes added from the MPI-5.0 ABI (issue 26) have the ABI's handle values,
// the size and extent of the C or Fortran type they describe, and carry attributes as every
// datatype does (MPI-4.1 §8.7.4: predefined datatypes may be given attributes).
#include <complex>
#include <cstddef>

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
