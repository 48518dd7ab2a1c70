// D31: messages to self on one process. A send is buffered, so MPI_Send before its MPI_Recv
// works; a receive, probe or wait that no queued message can satisfy fails with MPI_ERR_OTHER
// (naming D31) instead of waiting forever, and leaves everything as it was.
#include <string>

#include "attr_test_common.h"

namespace {

class D31 : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  }
  void TearDown() override { MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL); }
};

TEST_F(D31, D31_send_is_buffered_so_send_then_recv_works) {
  int a[3] = {4, 5, 6}, b[3] = {};
  ASSERT_OK(MPI_Send(a, 3, MPI_INT, 0, 3, MPI_COMM_WORLD));
  a[0] = 99;  // the message holds the values at the time of the send
  MPI_Status st;
  ASSERT_OK(MPI_Recv(b, 3, MPI_INT, 0, 3, MPI_COMM_WORLD, &st));
  EXPECT_EQ(b[0], 4);
  EXPECT_EQ(b[2], 6);
  int count = -1;
  ASSERT_OK(MPI_Get_count(&st, MPI_INT, &count));
  EXPECT_EQ(count, 3);
  ASSERT_OK(MPI_Get_count(&st, MPI_DOUBLE, &count));
  EXPECT_EQ(count, MPI_UNDEFINED);  // 12 bytes are not whole doubles
}

TEST_F(D31, D31_a_receive_nothing_can_match_fails_instead_of_hanging) {
  int x = 0;
  MPI_Status st;
  int rc = MPI_Recv(&x, 1, MPI_INT, 0, 12345, MPI_COMM_WORLD, &st);
  EXPECT_CLASS(rc, MPI_ERR_OTHER);
  EXPECT_NE(error_string(rc).find("D31"), std::string::npos) << error_string(rc);
  EXPECT_CLASS(MPI_Probe(0, 12345, MPI_COMM_WORLD, &st), MPI_ERR_OTHER);
  MPI_Request r;
  ASSERT_OK(MPI_Irecv(&x, 1, MPI_INT, 0, 12346, MPI_COMM_WORLD, &r));
  EXPECT_CLASS(MPI_Wait(&r, &st), MPI_ERR_OTHER);
  EXPECT_NE(r, MPI_REQUEST_NULL);  // still pending: a later send completes it
  MPI_Request rs[1] = {r};
  EXPECT_CLASS(MPI_Waitall(1, rs, MPI_STATUSES_IGNORE), MPI_ERR_OTHER);
  int y = 8;
  ASSERT_OK(MPI_Send(&y, 1, MPI_INT, 0, 12346, MPI_COMM_WORLD));
  ASSERT_OK(MPI_Wait(&r, &st));
  EXPECT_EQ(x, 8);
}

TEST_F(D31, D31_a_synchronous_send_with_no_receive_posted_fails_instead_of_hanging) {
  int x = 1;
  int rc = MPI_Ssend(&x, 1, MPI_INT, 0, 4242, MPI_COMM_WORLD);
  EXPECT_CLASS(rc, MPI_ERR_OTHER);
  EXPECT_NE(error_string(rc).find("D31"), std::string::npos) << error_string(rc);
  int flag = -1;
  ASSERT_OK(MPI_Iprobe(0, 4242, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
  EXPECT_EQ(flag, 0);  // nothing was queued
  // Its nonblocking form waits for the receive instead: MPI_Wait before it is D31's error too.
  MPI_Request r;
  ASSERT_OK(MPI_Issend(&x, 1, MPI_INT, 0, 4243, MPI_COMM_WORLD, &r));
  EXPECT_CLASS(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_ERR_OTHER);
  int y = 0;
  ASSERT_OK(MPI_Recv(&y, 1, MPI_INT, 0, 4243, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  ASSERT_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
  EXPECT_EQ(y, 1);
}

TEST_F(D31, D31_bad_arguments_get_their_class) {
  int x = 1;
  EXPECT_CLASS(MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
  EXPECT_CLASS(MPI_Send(&x, 1, MPI_INT, 0, -1, MPI_COMM_WORLD), MPI_ERR_TAG);
  EXPECT_CLASS(MPI_Send(&x, -1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
  MPI_Datatype v;
  ASSERT_OK(MPI_Type_vector(2, 1, 2, MPI_INT, &v));
  EXPECT_CLASS(MPI_Send(&x, 1, v, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);  // not committed
  MPI_Type_free(&v);
  int flag = -1;
  MPI_Status st;
  ASSERT_OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
  EXPECT_EQ(flag, 0);  // nothing was queued by the failed sends
}

// MPI-4.1 §4.7.3: freeing an active request lets its communication complete.
TEST_F(D31, D31_a_freed_receive_still_takes_its_message) {
  static int x = 0;  // outlives the request
  int y = 5;
  MPI_Request r;
  ASSERT_OK(MPI_Irecv(&x, 1, MPI_INT, 0, 77, MPI_COMM_WORLD, &r));
  ASSERT_OK(MPI_Request_free(&r));
  EXPECT_EQ(r, MPI_REQUEST_NULL);
  ASSERT_OK(MPI_Send(&y, 1, MPI_INT, 0, 77, MPI_COMM_WORLD));
  EXPECT_EQ(x, 5);
  int flag = -1;
  ASSERT_OK(MPI_Iprobe(0, 77, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
  EXPECT_EQ(flag, 0);  // the message went to the freed receive
}

}  // namespace
