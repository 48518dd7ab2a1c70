// MPI_XXX_c2f / MPI_XXX_f2c for every handle kind (MPI-4.1 §20.3.4): a handle is the same integer
// in C and Fortran (D1), so each conversion round-trips, maps the null handle to the Fortran null
// and back, and agrees with the handle's value.
#include "attr_test_common.h"

namespace {

TEST(HandleConversions, Every_handle_kind_round_trips_through_its_Fortran_integer) {
  MPI_Group g;
  ASSERT_OK(MPI_Comm_group(MPI_COMM_WORLD, &g));
  EXPECT_EQ(MPI_Group_f2c(MPI_Group_c2f(g)), g);
  EXPECT_EQ(MPI_Group_f2c(MPI_Group_c2f(MPI_GROUP_NULL)), MPI_GROUP_NULL);
  MPI_Info info;
  ASSERT_OK(MPI_Info_create(&info));
  EXPECT_EQ(MPI_Info_f2c(MPI_Info_c2f(info)), info);
  EXPECT_EQ(MPI_Info_f2c(MPI_Info_c2f(MPI_INFO_NULL)), MPI_INFO_NULL);
  MPI_Comm dup;
  MPI_Request req;
  ASSERT_OK(MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req));
  EXPECT_EQ(MPI_Request_f2c(MPI_Request_c2f(req)), req);
  EXPECT_EQ(MPI_Request_f2c(MPI_Request_c2f(MPI_REQUEST_NULL)), MPI_REQUEST_NULL);
  MPI_Errhandler eh;
  ASSERT_OK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
  EXPECT_EQ(MPI_Errhandler_f2c(MPI_Errhandler_c2f(eh)), eh);
  EXPECT_EQ(MPI_Errhandler_f2c(MPI_Errhandler_c2f(MPI_ERRORS_RETURN)), MPI_ERRORS_RETURN);
  EXPECT_EQ(MPI_Op_f2c(MPI_Op_c2f(MPI_SUM)), MPI_SUM);
  EXPECT_EQ(MPI_Op_f2c(MPI_Op_c2f(MPI_OP_NULL)), MPI_OP_NULL);
  // A converted handle is usable as the original.
  int size = 0;
  ASSERT_OK(MPI_Group_size(MPI_Group_f2c(MPI_Group_c2f(g)), &size));
  EXPECT_EQ(size, 1);
  MPI_Request r2 = MPI_Request_f2c(MPI_Request_c2f(req));
  ASSERT_OK(MPI_Wait(&r2, MPI_STATUS_IGNORE));
  MPI_Info i2 = MPI_Info_f2c(MPI_Info_c2f(info));
  ASSERT_OK(MPI_Info_free(&i2));
  ASSERT_OK(MPI_Errhandler_free(&eh));
  ASSERT_OK(MPI_Group_free(&g));
  ASSERT_OK(MPI_Comm_free(&dup));
}

}  // namespace
