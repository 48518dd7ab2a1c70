// tests/cxx/cxx_errors_test.cc: MPI::ERRORS_THROW_EXCEPTIONS, MPI::Exception, ERRORS_RETURN in
// C++, and exceptions thrown by user callbacks (they become error codes, never cross C frames).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>

#include <stdexcept>
#include <string>

extern "C" std::size_t mpiattr_cxx_live_keyval_states();

namespace {

void* as_value(std::intptr_t v) { return reinterpret_cast<void*>(v); }

class CxxErrors : public ::testing::Test {
 protected:
  void SetUp() override { live_ = mpiattr_cxx_live_keyval_states(); }
  void TearDown() override { EXPECT_EQ(mpiattr_cxx_live_keyval_states(), live_); }
  std::size_t live_ = 0;
};

TEST_F(CxxErrors, ThrowHandlerIsReportedBack) {
  MPI::Intracomm c = MPI::COMM_WORLD.Dup();  // inherits the handler
  EXPECT_EQ(c.Get_errhandler(), MPI::ERRORS_THROW_EXCEPTIONS);
  c.Set_errhandler(MPI::ERRORS_RETURN);
  MPI::Errhandler e = c.Get_errhandler();
  EXPECT_EQ(e, MPI::ERRORS_RETURN);
  e.Free();
  c.Free();
}

// D36: a member whose C routine the standalone runtime does not carry out compiles, links and
// throws MPI_ERR_UNSUPPORTED_OPERATION under ERRORS_THROW_EXCEPTIONS, naming the routine.
TEST_F(CxxErrors, D36_unsupported_member_throws_naming_its_routine) {
  MPI::Intracomm c = MPI::COMM_WORLD.Dup();
  try {
    MPI::Intercomm inter = c.Accept("no-such-port", MPI::INFO_NULL, 0);
    FAIL() << "no exception";
  } catch (const MPI::Exception& e) {
    EXPECT_EQ(e.Get_error_class(), MPI::ERR_UNSUPPORTED_OPERATION);
    EXPECT_NE(std::string(e.Get_error_string()).find("MPI_Comm_accept"), std::string::npos)
        << e.Get_error_string();
  }
  EXPECT_THROW(c.Connect("no-such-port", MPI::INFO_NULL, 0), MPI::Exception);
  c.Free();
}

// D36, D107: File::Open's errors go to MPI::FILE_NULL's handler, ERRORS_RETURN: a file that cannot
// be opened gives a null file quietly, whatever the communicator's handler.
TEST_F(CxxErrors, D107_file_open_failure_returns_quietly) {
  EXPECT_EQ(MPI::COMM_WORLD.Get_errhandler(), MPI::ERRORS_THROW_EXCEPTIONS);
  MPI::File f = MPI::File::Open(MPI::COMM_WORLD, "/nonexistent-dir-of-mpiattr/never-created",
                                MPI::MODE_RDWR | MPI::MODE_CREATE, MPI::INFO_NULL);
  EXPECT_EQ(f, MPI::FILE_NULL);
  EXPECT_EQ(MPI::SEEK_SET, MPI_SEEK_SET);  // stdio's SEEK_SET macro gave way (D36)
  EXPECT_EQ(SEEK_SET, 0);
}

// Op::Init with a C++ function: a real operation, freed again (MPI_Op_create is carried out).
void add_ints(const void* in, void* inout, int len, const MPI::Datatype&) {
  for (int i = 0; i < len; ++i) static_cast<int*>(inout)[i] += static_cast<const int*>(in)[i];
}
TEST_F(CxxErrors, OpInitMakesAnOperation) {
  MPI::Op op;
  op.Init(add_ints, true);
  EXPECT_NE(op, MPI::OP_NULL);
  int in = 3, out = 0;
  MPI::COMM_WORLD.Allreduce(&in, &out, 1, MPI::INT, op);
  EXPECT_EQ(out, 3);
  op.Free();
  EXPECT_EQ(op, MPI::OP_NULL);
}

TEST_F(CxxErrors, FailingCallThrowsWithCodeClassAndString) {
  MPI::Intracomm c = MPI::COMM_WORLD.Dup();
  void* v = nullptr;
  try {
    c.Get_attr(MPI::KEYVAL_INVALID, &v);
    FAIL() << "no exception";
  } catch (const MPI::Exception& e) {
    EXPECT_NE(e.Get_error_code(), MPI::SUCCESS);
    EXPECT_EQ(e.Get_error_class(), MPI::ERR_KEYVAL);
    EXPECT_NE(std::string(e.Get_error_string()).find("MPI_ERR_KEYVAL"), std::string::npos)
        << e.Get_error_string();
    EXPECT_EQ(MPI::Get_error_class(e.Get_error_code()), MPI::ERR_KEYVAL);
    char text[MPI::MAX_ERROR_STRING];
    int len = 0;
    MPI::Get_error_string(e.Get_error_code(), text, len);
    EXPECT_STREQ(text, e.Get_error_string());
  }
  int key = MPI::KEYVAL_INVALID;
  EXPECT_THROW(c.Set_attr(key, nullptr), MPI::Exception);
  EXPECT_THROW(c.Delete_attr(key), MPI::Exception);
  EXPECT_THROW(MPI::Comm::Free_keyval(key), MPI::Exception);  // keyval errors: COMM_SELF's handler
  c.Free();
  EXPECT_THROW(c.Get_size(), MPI::Exception);  // MPI_COMM_NULL
}

// D145: MPI::COMM_NULL is a communicator argument (MPI-2.2 §16.1.7), so it binds to a
// `const MPI::Comm&`; a routine that does not allow the null communicator then raises
// MPI_ERR_COMM as the C routine does, and Clone, MPI_Comm_dup's member, allocates nothing that
// outlives the exception (ASan's stage).
TEST_F(CxxErrors, D145_comm_null_binds_to_a_comm_and_raises_err_comm) {
  const MPI::Comm& null = MPI::COMM_NULL;
  EXPECT_TRUE(null == MPI::COMM_NULL && MPI::COMM_NULL == null && null == MPI_COMM_NULL);
  EXPECT_EQ(dynamic_cast<const MPI::Intracomm*>(&null), nullptr);
  EXPECT_EQ(dynamic_cast<const MPI::Intercomm*>(&null), nullptr);
  int classes[3] = {-1, -1, -1};
  try { null.Clone(); } catch (const MPI::Exception& e) { classes[0] = e.Get_error_class(); }
  try { MPI::Comm::Compare(MPI::COMM_WORLD, MPI::COMM_NULL); }
  catch (const MPI::Exception& e) { classes[1] = e.Get_error_class(); }
  try { (void)null.Get_size(); } catch (const MPI::Exception& e) { classes[2] = e.Get_error_class(); }
  for (int c : classes) EXPECT_EQ(c, MPI::ERR_COMM);
  EXPECT_EQ(MPI::Comm::Compare(MPI::COMM_WORLD, MPI::COMM_WORLD), MPI::IDENT);  // still a Comm&
  MPI::Intracomm init = MPI::COMM_NULL;  // the Comm_Null conversions are unchanged
  MPI::Cartcomm cart(MPI::COMM_NULL);
  init = MPI::COMM_WORLD;
  init = MPI::COMM_NULL;
  EXPECT_TRUE(init == MPI::COMM_NULL && cart == MPI::COMM_NULL);
}

TEST_F(CxxErrors, WrongKindKeyvalThrowsOnEveryKind) {
  int ckey = MPI::Comm::Create_keyval(MPI::Comm::NULL_COPY_FN, MPI::Comm::NULL_DELETE_FN, nullptr);
  MPI::Datatype t = MPI::INT.Dup();
  void* v = nullptr;
  EXPECT_THROW(t.Set_attr(ckey, nullptr), MPI::Exception);  // datatype errors: COMM_SELF's handler
  EXPECT_THROW(t.Get_attr(ckey, &v), MPI::Exception);
  int buf = 0;
  MPI::Win w = MPI::Win::Create(&buf, sizeof buf, 1, MPI::INFO_NULL, MPI::COMM_WORLD);
  EXPECT_EQ(w.Get_errhandler(), MPI::ERRORS_ARE_FATAL);  // windows start with the default
  w.Set_errhandler(MPI::ERRORS_THROW_EXCEPTIONS);
  EXPECT_EQ(w.Get_errhandler(), MPI::ERRORS_THROW_EXCEPTIONS);
  try {
    w.Set_attr(ckey, nullptr);
    FAIL() << "no exception";
  } catch (const MPI::Exception& e) {
    EXPECT_EQ(e.Get_error_class(), MPI::ERR_KEYVAL);
  }
  EXPECT_THROW(w.Call_errhandler(MPI::ERR_OTHER), MPI::Exception);
  w.Free();
  t.Free();
  MPI::Comm::Free_keyval(ckey);
}

TEST_F(CxxErrors, CallErrhandlerThrows) {
  try {
    MPI::COMM_WORLD.Call_errhandler(MPI::ERR_ARG);
    FAIL() << "no exception";
  } catch (const MPI::Exception& e) {
    EXPECT_EQ(e.Get_error_code(), MPI::ERR_ARG);
  }
}

TEST_F(CxxErrors, ErrorsReturnInCxxReturnsQuietly) {
  MPI::Intracomm c = MPI::COMM_WORLD.Dup();
  c.Set_errhandler(MPI::ERRORS_RETURN);
  void* v = nullptr;
  EXPECT_NO_THROW(EXPECT_FALSE(c.Get_attr(MPI::KEYVAL_INVALID, &v)));
  c.Free();
}

int throwing_copy(const MPI::Comm&, int, void* extra, void*, void*, bool& flag) {
  flag = true;
  if (extra != nullptr) throw MPI::Exception(MPI::ERR_ARG);
  throw std::runtime_error("user copy callback failed");
}
bool refuse_delete = true;
int throwing_delete(MPI::Comm&, int, void* value, void*) {
  if (refuse_delete && value == as_value(1)) throw std::logic_error("no");
  return MPI::SUCCESS;
}

TEST_F(CxxErrors, ExceptionInCallbackBecomesAnErrorCode) {
  static int marker;
  int k1 = MPI::Comm::Create_keyval(throwing_copy, throwing_delete, nullptr);
  int k2 = MPI::Comm::Create_keyval(throwing_copy, throwing_delete, &marker);
  MPI::Intracomm c = MPI::COMM_WORLD.Dup();
  c.Set_attr(k1, as_value(2));
  try {
    c.Dup();
    FAIL() << "no exception";
  } catch (const MPI::Exception& e) {
    EXPECT_EQ(e.Get_error_class(), MPI::ERR_OTHER);  // std::runtime_error -> MPI_ERR_OTHER
  }
  c.Delete_attr(k1);
  c.Set_attr(k2, as_value(2));
  try {
    c.Dup();
    FAIL() << "no exception";
  } catch (const MPI::Exception& e) {
    EXPECT_EQ(e.Get_error_class(), MPI::ERR_ARG);  // MPI::Exception -> its own code
  }
  c.Delete_attr(k2);
  c.Set_attr(k1, as_value(1));
  EXPECT_THROW(c.Delete_attr(k1), MPI::Exception);  // delete callback threw: attribute stays
  void* v = nullptr;
  EXPECT_TRUE(c.Get_attr(k1, &v));
  EXPECT_THROW(c.Free(), MPI::Exception);  // and the free fails, the communicator stays valid
  EXPECT_NE(c, MPI::COMM_NULL);
  EXPECT_THROW(c.Set_attr(k1, as_value(3)), MPI::Exception);  // replacing deletes 1 first (R4.1)
  EXPECT_TRUE(c.Get_attr(k1, &v));
  EXPECT_EQ(v, as_value(1));
  refuse_delete = false;
  c.Free();
  MPI::Comm::Free_keyval(k1);
  MPI::Comm::Free_keyval(k2);
}

}  // namespace
