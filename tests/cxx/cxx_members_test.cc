// tests/cxx/cxx_members_test.cc: every MPI:: member of the issue, one test per family: the
// environment, communicators, groups, datatypes, windows, constants and the caching members of all
// three object kinds, with C++ callbacks, the static predefined callbacks and the C ones.
#include <gtest/gtest.h>
#include <mpi.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

extern "C" std::size_t mpiattr_cxx_live_keyval_states();

namespace {

// What the callbacks saw, in order.
std::vector<std::string> events;

int comm_copy(const MPI::Comm& oldcomm, int, void* extra, void* in, void* out, bool& flag) {
  const bool intra = dynamic_cast<const MPI::Intracomm*>(&oldcomm) != nullptr;
  const bool inter = dynamic_cast<const MPI::Intercomm*>(&oldcomm) != nullptr;
  events.push_back(std::string("copy ") + (intra ? "intra" : "") + (inter ? "inter" : "") + " " +
                   static_cast<const char*>(extra));
  *static_cast<void**>(out) = static_cast<char*>(in) + 1;
  flag = true;
  return MPI::SUCCESS;
}

int comm_delete(MPI::Comm& comm, int, void* value, void* extra) {
  // The reference is usable as the derived class, also non-const.
  MPI::Intracomm& intra = dynamic_cast<MPI::Intracomm&>(comm);
  events.push_back("delete size " + std::to_string(intra.Get_size()) + " " +
                   static_cast<const char*>(extra) + " " +
                   std::to_string(reinterpret_cast<std::intptr_t>(value)));
  return MPI::SUCCESS;
}

int win_copy(const MPI::Win&, int, void*, void*, void*, bool& flag) {
  flag = false;
  return MPI::SUCCESS;
}
int win_delete(MPI::Win& win, int, void* value, void*) {
  events.push_back("win delete " + std::to_string(win == MPI::WIN_NULL) + " " +
                   std::to_string(reinterpret_cast<std::intptr_t>(value)));
  return MPI::SUCCESS;
}

int type_copy(const MPI::Datatype& oldtype, int, void*, const void* in, void* out, bool& flag) {
  events.push_back("type copy " + std::to_string(oldtype.Get_size()));
  *static_cast<void**>(out) = const_cast<void*>(in);
  flag = true;
  return MPI::SUCCESS;
}
int type_delete(MPI::Datatype&, int, void* value, void*) {
  events.push_back("type delete " + std::to_string(reinterpret_cast<std::intptr_t>(value)));
  return MPI::SUCCESS;
}

void* as_value(std::intptr_t v) { return reinterpret_cast<void*>(v); }

class CxxMembers : public ::testing::Test {
 protected:
  void SetUp() override {
    events.clear();
    live_ = mpiattr_cxx_live_keyval_states();
  }
  void TearDown() override { EXPECT_EQ(mpiattr_cxx_live_keyval_states(), live_); }
  std::size_t live_ = 0;
};

TEST_F(CxxMembers, Environment) {
  EXPECT_TRUE(MPI::Is_initialized());
  EXPECT_FALSE(MPI::Is_finalized());
  EXPECT_EQ(MPI::Query_thread(), MPI::THREAD_MULTIPLE);
  int version = 0, subversion = -1;
  MPI::Get_version(version, subversion);
  EXPECT_EQ(version, MPI_VERSION);
  EXPECT_EQ(subversion, MPI_SUBVERSION);
  EXPECT_GE(MPI::Wtime(), 0.0);
  EXPECT_GT(MPI::Wtick(), 0.0);
}

TEST_F(CxxMembers, Constants) {
  EXPECT_EQ(MPI::KEYVAL_INVALID, MPI_KEYVAL_INVALID);
  EXPECT_EQ(MPI::TAG_UB, MPI_TAG_UB);
  EXPECT_EQ(MPI::HOST, MPI_HOST);
  EXPECT_EQ(MPI::IO, MPI_IO);
  EXPECT_EQ(MPI::WTIME_IS_GLOBAL, MPI_WTIME_IS_GLOBAL);
  EXPECT_EQ(MPI::UNIVERSE_SIZE, MPI_UNIVERSE_SIZE);
  EXPECT_EQ(MPI::APPNUM, MPI_APPNUM);
  EXPECT_EQ(MPI::LASTUSEDCODE, MPI_LASTUSEDCODE);
  EXPECT_EQ(MPI::WIN_BASE, MPI_WIN_BASE);
  EXPECT_EQ(MPI::WIN_SIZE, MPI_WIN_SIZE);
  EXPECT_EQ(MPI::WIN_DISP_UNIT, MPI_WIN_DISP_UNIT);
  EXPECT_EQ(MPI::ERR_KEYVAL, MPI_ERR_KEYVAL);
  EXPECT_EQ(MPI::ERR_OTHER, MPI_ERR_OTHER);
  EXPECT_EQ(MPI::SUCCESS, MPI_SUCCESS);
  EXPECT_EQ(MPI::IDENT, MPI_IDENT);
  EXPECT_EQ(static_cast<MPI_Comm>(MPI::COMM_WORLD), MPI_COMM_WORLD);
  EXPECT_EQ(static_cast<MPI_Comm>(MPI::COMM_SELF), MPI_COMM_SELF);
  EXPECT_EQ(static_cast<MPI_Comm>(MPI::COMM_NULL), MPI_COMM_NULL);
  EXPECT_EQ(static_cast<MPI_Datatype>(MPI::INT), MPI_INT);
  EXPECT_EQ(static_cast<MPI_Datatype>(MPI::DOUBLE), MPI_DOUBLE);
  EXPECT_EQ(static_cast<MPI_Datatype>(MPI::TWOINT), MPI_2INT);
  EXPECT_EQ(static_cast<MPI_Datatype>(MPI::F_COMPLEX), MPI_COMPLEX);
  EXPECT_EQ(MPI::BOOL.Get_size(), static_cast<int>(sizeof(bool)));
  EXPECT_EQ(MPI::TWOINT.Get_size(), static_cast<int>(2 * sizeof(int)));
  // MPI-2.2's C++ datatypes (A.1.1) are the MPI_CXX_ ones; MPI::COMPLEX is not Fortran's COMPLEX.
  EXPECT_EQ(static_cast<MPI_Datatype>(MPI::BOOL), MPI_CXX_BOOL);
  EXPECT_EQ(static_cast<MPI_Datatype>(MPI::COMPLEX), MPI_CXX_FLOAT_COMPLEX);
  EXPECT_EQ(static_cast<MPI_Datatype>(MPI::DOUBLE_COMPLEX), MPI_CXX_DOUBLE_COMPLEX);
  EXPECT_EQ(static_cast<MPI_Datatype>(MPI::LONG_DOUBLE_COMPLEX), MPI_CXX_LONG_DOUBLE_COMPLEX);
  EXPECT_EQ(MPI::DOUBLE_COMPLEX.Get_size(), static_cast<int>(2 * sizeof(double)));
  EXPECT_EQ(static_cast<MPI_Datatype>(MPI::FLOAT_INT), MPI_FLOAT_INT);
  EXPECT_EQ(static_cast<MPI_Datatype>(MPI::LONG_INT), MPI_LONG_INT);
  EXPECT_EQ(static_cast<MPI_Datatype>(MPI::TWOREAL), MPI_2REAL);
  EXPECT_EQ(static_cast<MPI_Datatype>(MPI::TWODOUBLE_PRECISION), MPI_2DOUBLE_PRECISION);
  EXPECT_EQ(static_cast<MPI_Datatype>(MPI::TWOINTEGER), MPI_2INTEGER);
  EXPECT_EQ(static_cast<MPI_Errhandler>(MPI::ERRORS_RETURN), MPI_ERRORS_RETURN);
  EXPECT_EQ(static_cast<MPI_Errhandler>(MPI::ERRORS_ARE_FATAL), MPI_ERRORS_ARE_FATAL);
  EXPECT_NE(MPI::ERRORS_THROW_EXCEPTIONS, MPI::ERRORS_RETURN);
}

// D58 (revises D41): the MPI-1 names MPI-3.0 removed exist standalone too, as MPI-2.2's Annex A.1.1
// has them: MPI::LB and MPI::UB are the C markers, which set a struct's bounds; the _INTEGER
// combiners are C's and differ from the MPI-2 ones.
TEST_F(CxxMembers, D58RemovedNames) {
  EXPECT_EQ(static_cast<MPI_Datatype>(MPI::LB), MPI_LB);
  EXPECT_EQ(static_cast<MPI_Datatype>(MPI::UB), MPI_UB);
  EXPECT_EQ(MPI::COMBINER_HVECTOR_INTEGER, MPI_COMBINER_HVECTOR_INTEGER);
  EXPECT_EQ(MPI::COMBINER_HINDEXED_INTEGER, MPI_COMBINER_HINDEXED_INTEGER);
  EXPECT_EQ(MPI::COMBINER_STRUCT_INTEGER, MPI_COMBINER_STRUCT_INTEGER);
  EXPECT_NE(MPI::COMBINER_STRUCT_INTEGER, MPI::COMBINER_STRUCT);
  int bl[3] = {1, 1, 1};
  MPI::Aint d[3] = {-8, 0, 24};
  MPI::Datatype ts[3] = {MPI::LB, MPI::INT, MPI::UB};
  MPI::Datatype marked = MPI::Datatype::Create_struct(3, bl, d, ts);
  MPI::Aint lb = 0, extent = 0;
  marked.Get_extent(lb, extent);
  EXPECT_EQ(lb, -8);
  EXPECT_EQ(extent, 32);
  EXPECT_EQ(marked.Get_size(), static_cast<int>(sizeof(int)));
  marked.Free();
  char name[MPI::MAX_OBJECT_NAME];
  int len = 0;
  MPI::LB.Get_name(name, len);
  EXPECT_STREQ(name, "MPI_LB");
}

TEST_F(CxxMembers, PredefinedAttributesOnCommWorld) {
  int* tag_ub = nullptr;
  ASSERT_TRUE(MPI::COMM_WORLD.Get_attr(MPI::TAG_UB, &tag_ub));
  EXPECT_GE(*tag_ub, 32767);
  int* wtime_global = nullptr;
  ASSERT_TRUE(MPI::COMM_WORLD.Get_attr(MPI::WTIME_IS_GLOBAL, &wtime_global));
  EXPECT_EQ(*wtime_global, 1);
}

TEST_F(CxxMembers, Communicators) {
  EXPECT_EQ(MPI::COMM_WORLD.Get_rank(), 0);
  EXPECT_EQ(MPI::COMM_WORLD.Get_size(), 1);
  EXPECT_FALSE(MPI::COMM_WORLD.Is_inter());

  MPI::Intracomm dup = MPI::COMM_WORLD.Dup();
  EXPECT_NE(dup, MPI::COMM_NULL);
  EXPECT_EQ(MPI::Comm::Compare(dup, MPI::COMM_WORLD), MPI::CONGRUENT);
  EXPECT_EQ(MPI::Comm::Compare(dup, dup), MPI::IDENT);

  MPI::Intracomm split = MPI::COMM_WORLD.Split(0, 0);
  EXPECT_EQ(split.Get_size(), 1);
  MPI::Intracomm none = MPI::COMM_WORLD.Split(MPI::UNDEFINED, 0);
  EXPECT_EQ(none, MPI::COMM_NULL);

  MPI::Group group = MPI::COMM_WORLD.Get_group();
  EXPECT_EQ(group.Get_size(), 1);
  EXPECT_EQ(group.Get_rank(), 0);
  const int ranks[1] = {0};
  MPI::Group same = group.Incl(1, ranks);
  EXPECT_EQ(MPI::Group::Compare(group, same), MPI::IDENT);
  MPI::Group empty = group.Excl(1, ranks);
  EXPECT_EQ(empty.Get_size(), 0);
  MPI::Intracomm created = MPI::COMM_WORLD.Create(group);
  EXPECT_EQ(created.Get_size(), 1);

  MPI::Comm& clone = dup.Clone();
  EXPECT_NE(dynamic_cast<MPI::Intracomm*>(&clone), nullptr);
  EXPECT_EQ(MPI::Comm::Compare(clone, dup), MPI::CONGRUENT);

  dup.Set_name("dup");
  char name[MPI::MAX_OBJECT_NAME];
  int len = 0;
  dup.Get_name(name, len);
  EXPECT_STREQ(name, "dup");
  dup.Barrier();

  for (MPI::Comm* c : {static_cast<MPI::Comm*>(&dup), &clone, static_cast<MPI::Comm*>(&split),
                       static_cast<MPI::Comm*>(&created)}) {
    c->Free();
    EXPECT_EQ(*c, MPI::COMM_NULL);
  }
  delete &clone;
  group.Free();
  same.Free();
  empty.Free();
  EXPECT_EQ(group, MPI::GROUP_NULL);
}

TEST_F(CxxMembers, Datatypes) {
  MPI::Datatype contig = MPI::INT.Create_contiguous(3);
  contig.Commit();
  EXPECT_EQ(contig.Get_size(), static_cast<int>(3 * sizeof(int)));
  MPI::Aint lb = -1, extent = 0;
  contig.Get_extent(lb, extent);
  EXPECT_EQ(lb, 0);
  EXPECT_EQ(extent, static_cast<MPI::Aint>(3 * sizeof(int)));
  MPI::Datatype dup = contig.Dup();
  EXPECT_EQ(dup.Get_size(), contig.Get_size());
  dup.Free();
  contig.Free();
  EXPECT_EQ(contig, MPI::DATATYPE_NULL);
}

TEST_F(CxxMembers, WindowsAndTheirAttributes) {
  int buffer[4] = {};  // a window's memory is readable: GCC warns when it is uninitialised
  MPI::Win win = MPI::Win::Create(buffer, sizeof buffer, sizeof(int), MPI::INFO_NULL, MPI::COMM_WORLD);
  void* base = nullptr;
  ASSERT_TRUE(win.Get_attr(MPI::WIN_BASE, &base));
  EXPECT_EQ(base, buffer);
  MPI::Aint* size = nullptr;
  ASSERT_TRUE(win.Get_attr(MPI::WIN_SIZE, &size));
  EXPECT_EQ(*size, static_cast<MPI::Aint>(sizeof buffer));
  int* disp_unit = nullptr;
  ASSERT_TRUE(win.Get_attr(MPI::WIN_DISP_UNIT, &disp_unit));
  EXPECT_EQ(*disp_unit, static_cast<int>(sizeof(int)));

  int key = MPI::Win::Create_keyval(win_copy, win_delete, nullptr);
  EXPECT_NE(key, MPI::KEYVAL_INVALID);
  win.Set_attr(key, as_value(7));
  void* got = nullptr;
  EXPECT_TRUE(win.Get_attr(key, &got));
  EXPECT_EQ(got, as_value(7));
  win.Set_attr(key, as_value(8));  // replacing runs the delete callback on 7 (R4.1)
  win.Delete_attr(key);
  EXPECT_FALSE(win.Get_attr(key, &got));
  win.Set_attr(key, as_value(9));
  MPI::Win::Free_keyval(key);
  EXPECT_EQ(key, MPI::KEYVAL_INVALID);
  win.Free();  // a keyval freed while in use still calls its C++ callback (R2.2)
  EXPECT_EQ(win, MPI::WIN_NULL);
  EXPECT_EQ(events, (std::vector<std::string>{"win delete 0 7", "win delete 0 8", "win delete 0 9"}));
}

TEST_F(CxxMembers, CommCachingWithCxxCallbacksOnDupAndFree) {
  static char extra[] = "x";
  MPI::Intracomm comm = MPI::COMM_WORLD.Dup();
  int key = MPI::Comm::Create_keyval(comm_copy, comm_delete, extra);
  comm.Set_attr(key, as_value(100));
  void* got = nullptr;
  ASSERT_TRUE(comm.Get_attr(key, &got));
  EXPECT_EQ(got, as_value(100));

  MPI::Intracomm copy = comm.Dup();  // copy callback: value + 1
  ASSERT_TRUE(copy.Get_attr(key, &got));
  EXPECT_EQ(got, as_value(101));
  MPI::Comm& clone = copy.Clone();  // Clone runs the copy callbacks too
  ASSERT_TRUE(clone.Get_attr(key, &got));
  EXPECT_EQ(got, as_value(102));

  MPI::Comm::Free_keyval(key);
  EXPECT_EQ(key, MPI::KEYVAL_INVALID);
  comm.Free();
  copy.Free();
  clone.Free();
  delete &clone;
  EXPECT_EQ(events, (std::vector<std::string>{
                        "copy intra x", "copy intra x", "delete size 1 x 100",
                        "delete size 1 x 101", "delete size 1 x 102"}));
}

// D134: a callback gets the communicator as an object of its class, which it may dynamic_cast to:
// an MPI::Cartcomm, MPI::Graphcomm or MPI::Distgraphcomm for a communicator with that topology.
namespace {
std::vector<std::string> topo_seen;
const char* topo_class(const MPI::Comm& c) {
  if (dynamic_cast<const MPI::Cartcomm*>(&c)) return "Cartcomm";
  if (dynamic_cast<const MPI::Graphcomm*>(&c)) return "Graphcomm";
  if (dynamic_cast<const MPI::Distgraphcomm*>(&c)) return "Distgraphcomm";
  if (dynamic_cast<const MPI::Intracomm*>(&c)) return "Intracomm";
  return "Comm";
}
int topo_copy(const MPI::Comm& old, int, void*, void* in, void* out, bool& flag) {
  topo_seen.push_back(std::string("copy ") + topo_class(old));
  *static_cast<void**>(out) = in;
  flag = true;
  return MPI::SUCCESS;
}
int topo_delete(MPI::Comm& c, int, void*, void*) {
  topo_seen.push_back(std::string("delete ") + topo_class(c));
  return MPI::SUCCESS;
}
}  // namespace

TEST_F(CxxMembers, D134_CallbacksGetTheCommunicatorsTopologyClass) {
  topo_seen.clear();
  int key = MPI::Comm::Create_keyval(topo_copy, topo_delete, nullptr);
  int dims[1] = {1};
  bool periods[1] = {false};
  MPI::Cartcomm cart = MPI::COMM_WORLD.Create_cart(1, dims, periods, false);
  int index[1] = {0}, edges[1] = {0};
  MPI::Graphcomm graph = MPI::COMM_WORLD.Create_graph(1, index, edges, false);
  int sources[1] = {0}, degrees[1] = {1}, destinations[1] = {0}, weights[1] = {1};
  MPI::Distgraphcomm dist =
      MPI::COMM_WORLD.Dist_graph_create(1, sources, degrees, destinations, weights, MPI::INFO_NULL, false);
  MPI::Intracomm plain = MPI::COMM_WORLD.Dup();
  for (MPI::Intracomm* c : {static_cast<MPI::Intracomm*>(&cart), static_cast<MPI::Intracomm*>(&graph),
                            static_cast<MPI::Intracomm*>(&dist), &plain}) {
    c->Set_attr(key, as_value(1));
    MPI::Intracomm d = c->Dup();
    d.Free();
    c->Free();
  }
  MPI::Comm::Free_keyval(key);
  EXPECT_EQ(topo_seen, (std::vector<std::string>{
                           "copy Cartcomm", "delete Cartcomm", "delete Cartcomm",
                           "copy Graphcomm", "delete Graphcomm", "delete Graphcomm",
                           "copy Distgraphcomm", "delete Distgraphcomm", "delete Distgraphcomm",
                           "copy Intracomm", "delete Intracomm", "delete Intracomm"}));
}

TEST_F(CxxMembers, TypeCachingWithConstCopyInput) {
  MPI::Datatype t = MPI::DOUBLE.Dup();
  int key = MPI::Datatype::Create_keyval(type_copy, type_delete, nullptr);
  t.Set_attr(key, as_value(5));
  MPI::Datatype d = t.Dup();
  void* got = nullptr;
  ASSERT_TRUE(d.Get_attr(key, &got));
  EXPECT_EQ(got, as_value(5));
  d.Delete_attr(key);
  EXPECT_FALSE(d.Get_attr(key, &got));
  MPI::Datatype::Free_keyval(key);
  d.Free();
  t.Free();
  EXPECT_EQ(events, (std::vector<std::string>{"type copy 8", "type delete 5", "type delete 5"}));
}

TEST_F(CxxMembers, StaticPredefinedCallbacks) {
  // Comm, Win and Datatype each have NULL_COPY_FN, DUP_FN and NULL_DELETE_FN (R6.5).
  int dup_key = MPI::Comm::Create_keyval(MPI::Comm::DUP_FN, MPI::Comm::NULL_DELETE_FN, nullptr);
  int null_key = MPI::Comm::Create_keyval(MPI::Comm::NULL_COPY_FN, MPI::Comm::NULL_DELETE_FN, nullptr);
  int type_key = MPI::Datatype::Create_keyval(MPI::Datatype::DUP_FN, MPI::Datatype::NULL_DELETE_FN, nullptr);
  int type_null = MPI::Datatype::Create_keyval(MPI::Datatype::NULL_COPY_FN, MPI::Datatype::NULL_DELETE_FN, nullptr);
  int win_key = MPI::Win::Create_keyval(MPI::Win::DUP_FN, MPI::Win::NULL_DELETE_FN, nullptr);
  int win_null = MPI::Win::Create_keyval(MPI::Win::NULL_COPY_FN, MPI::Win::NULL_DELETE_FN, nullptr);
  MPI::COMM_SELF.Set_attr(dup_key, as_value(1));
  MPI::COMM_SELF.Set_attr(null_key, as_value(2));
  MPI::Intracomm c = MPI::COMM_SELF.Dup();
  void* got = nullptr;
  EXPECT_TRUE(c.Get_attr(dup_key, &got));
  EXPECT_EQ(got, as_value(1));
  EXPECT_FALSE(c.Get_attr(null_key, &got));
  MPI::Datatype t = MPI::INT.Dup();
  t.Set_attr(type_key, as_value(3));
  t.Set_attr(type_null, as_value(4));
  MPI::Datatype u = t.Dup();
  EXPECT_TRUE(u.Get_attr(type_key, &got));
  EXPECT_EQ(got, as_value(3));
  EXPECT_FALSE(u.Get_attr(type_null, &got));
  // The deprecated MPI-1 names in namespace MPI.
  bool flag = true;
  void* out = nullptr;
  EXPECT_EQ(MPI::NULL_COPY_FN(c, dup_key, nullptr, as_value(1), &out, flag), MPI::SUCCESS);
  EXPECT_FALSE(flag);
  EXPECT_EQ(MPI::DUP_FN(c, dup_key, nullptr, as_value(6), &out, flag), MPI::SUCCESS);
  EXPECT_TRUE(flag);
  EXPECT_EQ(out, as_value(6));
  EXPECT_EQ(MPI::NULL_DELETE_FN(c, dup_key, nullptr, nullptr), MPI::SUCCESS);
  MPI::COMM_SELF.Delete_attr(dup_key);
  MPI::COMM_SELF.Delete_attr(null_key);
  for (int* k : {&dup_key, &null_key}) MPI::Comm::Free_keyval(*k);
  for (int* k : {&type_key, &type_null}) MPI::Datatype::Free_keyval(*k);
  for (int* k : {&win_key, &win_null}) MPI::Win::Free_keyval(*k);
  c.Free();
  t.Free();
  u.Free();
}

int c_copy(MPI_Comm, int, void* extra, void* in, void* out, int* flag) {
  events.push_back(std::string("C copy ") + static_cast<const char*>(extra));
  *static_cast<void**>(out) = in;
  *flag = 1;
  return MPI_SUCCESS;
}
int c_delete(MPI_Comm, int, void* value, void* extra) {
  events.push_back(std::string("C delete ") + static_cast<const char*>(extra) + " " +
                   std::to_string(reinterpret_cast<std::intptr_t>(value)));
  return MPI_SUCCESS;
}

TEST_F(CxxMembers, CreateKeyvalAcceptsCPredefinedAndCFunctions) {
  static char ex[] = "e";
  // All four overloads of MPI-2.2 node151: C++/C++, C/C, C++/C, C/C++.
  int k1 = MPI::Comm::Create_keyval(comm_copy, comm_delete, ex);
  int k2 = MPI::Comm::Create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, ex);
  int k3 = MPI::Comm::Create_keyval(comm_copy, c_delete, ex);
  int k4 = MPI::Comm::Create_keyval(c_copy, comm_delete, ex);
  int k5 = MPI::Comm::Create_keyval(MPI_COMM_NULL_COPY_FN, comm_delete, ex);
  MPI::Intracomm comm = MPI::COMM_WORLD.Dup();
  int i = 10;
  for (int k : {k1, k2, k3, k4, k5}) comm.Set_attr(k, as_value(i++));
  MPI::Intracomm copy = comm.Dup();
  void* got = nullptr;
  EXPECT_TRUE(copy.Get_attr(k1, &got) && got == as_value(11));
  EXPECT_TRUE(copy.Get_attr(k2, &got) && got == as_value(11));
  EXPECT_TRUE(copy.Get_attr(k3, &got) && got == as_value(13));
  EXPECT_TRUE(copy.Get_attr(k4, &got) && got == as_value(13));
  EXPECT_FALSE(copy.Get_attr(k5, &got));
  copy.Free();
  comm.Free();
  for (int* k : {&k1, &k2, &k3, &k4, &k5}) MPI::Comm::Free_keyval(*k);
  EXPECT_EQ(events, (std::vector<std::string>{
                        "copy intra e", "copy intra e", "C copy e",
                        // copy: freed newest first (D10), then the original
                        "delete size 1 e 13", "C delete e 13", "delete size 1 e 11",
                        "delete size 1 e 14", "delete size 1 e 13", "C delete e 12",
                        "delete size 1 e 10"}));
}

TEST_F(CxxMembers, CxxAndCCallbacksOnTheSameObject) {
  static char cx[] = "c";
  static char px[] = "p";
  int ckey = MPI_KEYVAL_INVALID;
  ASSERT_EQ(MPI_Comm_create_keyval(c_copy, c_delete, &ckey, cx), MPI_SUCCESS);
  int pkey = MPI::Comm::Create_keyval(comm_copy, comm_delete, px);
  MPI::Intracomm comm = MPI::COMM_WORLD.Dup();
  comm.Set_attr(ckey, as_value(1));  // a C keyval, set from C++
  comm.Set_attr(pkey, as_value(3));
  void* got = nullptr;
  int flag = 0;
  ASSERT_EQ(MPI_Comm_get_attr(comm, pkey, &got, &flag), MPI_SUCCESS);  // C sees C++'s value
  EXPECT_TRUE(flag && got == as_value(3));
  MPI_Comm ccopy = MPI_COMM_NULL;
  ASSERT_EQ(MPI_Comm_dup(comm, &ccopy), MPI_SUCCESS);  // C++ callbacks run under a C call too
  MPI::Intracomm copy(ccopy);
  EXPECT_TRUE(copy.Get_attr(ckey, &got) && got == as_value(1));
  EXPECT_TRUE(copy.Get_attr(pkey, &got) && got == as_value(4));
  MPI::Comm::Free_keyval(pkey);
  ASSERT_EQ(MPI_Comm_free_keyval(&ckey), MPI_SUCCESS);
  copy.Free();
  MPI_Comm h = comm;  // freed through C: the C++ delete callback runs too
  ASSERT_EQ(MPI_Comm_free(&h), MPI_SUCCESS);
  EXPECT_EQ(events, (std::vector<std::string>{"C copy c", "copy intra p",
                                              "delete size 1 p 4", "C delete c 1",
                                              "delete size 1 p 3", "C delete c 1"}));
}

}  // namespace

namespace {

int handler_calls = 0;
void count_handler(MPI::Comm& comm, int* code, ...) {
  ++handler_calls;
  EXPECT_NE(dynamic_cast<MPI::Intracomm*>(&comm), nullptr);
  EXPECT_EQ(*code, MPI::ERR_OTHER);
}
void other_handler(MPI::Comm&, int*, ...) { handler_calls += 100; }
void throwing_handler(MPI::Comm&, int* code, ...) { throw std::runtime_error(std::to_string(*code)); }

}  // namespace

// Issue 14 item 6: null handles compare with the C handles too, in both orders, on every class
// (legacy code mixes `comm == MPI_COMM_NULL` into MPI:: code).
TEST_F(CxxMembers, NullHandlesCompareWithCHandles) {
  MPI::Intracomm intra = MPI::COMM_NULL;
  MPI::Intercomm inter;
  EXPECT_TRUE(intra == MPI_COMM_NULL && MPI_COMM_NULL == intra && inter == MPI_COMM_NULL);
  EXPECT_TRUE(MPI::COMM_WORLD != MPI_COMM_NULL && MPI_COMM_WORLD == MPI::COMM_WORLD);
  intra = MPI_COMM_WORLD;
  EXPECT_TRUE(intra == MPI::COMM_WORLD && intra != MPI::COMM_NULL);
  EXPECT_TRUE(MPI::DATATYPE_NULL == MPI_DATATYPE_NULL && MPI_INT == MPI::INT);
  EXPECT_TRUE(MPI::WIN_NULL == MPI_WIN_NULL && MPI_GROUP_NULL == MPI::GROUP_NULL);
  EXPECT_TRUE(MPI::INFO_NULL == MPI_INFO_NULL && MPI_REQUEST_NULL == MPI::REQUEST_NULL);
  EXPECT_TRUE(MPI::OP_NULL == MPI_OP_NULL && MPI_SUM == MPI::SUM && MPI::MAX != MPI_SUM);
  MPI::Request r;  // default: the null request
  EXPECT_TRUE(r == MPI::REQUEST_NULL);
}

// Every routine the runtime implements has its MPI-2.2 C++ member (spec `cxx` keys).
TEST_F(CxxMembers, RuntimeRoutinesHaveTheirCxxMembers) {
  MPI::Group world = MPI::COMM_WORLD.Get_group();
  int ranges[][3] = {{0, 0, 1}};
  MPI::Group g = world.Range_incl(1, ranges);
  EXPECT_EQ(MPI::Group::Compare(g, world), MPI::IDENT);
  g.Free();
  world.Free();
  MPI::Datatype v = MPI::DOUBLE.Create_vector(2, 2, 3);
  v.Commit();
  EXPECT_EQ(v.Get_size(), static_cast<int>(4 * sizeof(double)));
  v.Free();
  MPI::Intracomm c = MPI::COMM_WORLD.Dup();
  long in[2] = {5, -7}, out[2] = {0, 0};
  c.Allreduce(in, out, 2, MPI::LONG, MPI::MIN);
  EXPECT_EQ(out[1], -7);
  c.Reduce(in, out, 1, MPI::LONG, MPI::SUM, 0);
  EXPECT_EQ(out[0], 5);
  c.Bcast(out, 2, MPI::LONG, 0);
  MPI::Request r = MPI::REQUEST_NULL;
  MPI::Status s;
  EXPECT_TRUE(r.Test(s));
  EXPECT_EQ(s.Get_tag(), MPI::ANY_TAG);
  c.Disconnect();
  EXPECT_TRUE(c == MPI::COMM_NULL);
}

// C++ error handler functions: each distinct function gets its C function once (a second
// Create_errhandler with it reuses it), and an exception the handler throws reaches the caller
// of the failing call, after the C call has returned (docs/cxx.md C3, C4).
TEST_F(CxxMembers, CxxErrhandlerFunctions) {
  handler_calls = 0;
  MPI::Intracomm c = MPI::COMM_WORLD.Dup();
  MPI::Errhandler e1 = MPI::Comm::Create_errhandler(count_handler);
  MPI::Errhandler e2 = MPI::Comm::Create_errhandler(other_handler);
  MPI::Errhandler e3 = MPI::Comm::Create_errhandler(count_handler);
  c.Set_errhandler(e1);
  c.Call_errhandler(MPI::ERR_OTHER);
  c.Set_errhandler(e3);
  c.Call_errhandler(MPI::ERR_OTHER);
  c.Set_errhandler(e2);
  c.Call_errhandler(MPI::ERR_OTHER);
  EXPECT_EQ(handler_calls, 102);
  MPI::Errhandler t = MPI::Comm::Create_errhandler(throwing_handler);
  c.Set_errhandler(t);
  void* v = nullptr;
  EXPECT_THROW(c.Get_attr(MPI::KEYVAL_INVALID, &v), std::runtime_error);
  EXPECT_THROW(c.Call_errhandler(MPI::ERR_OTHER), std::runtime_error);
  c.Set_errhandler(MPI::ERRORS_RETURN);
  c.Get_attr(MPI::KEYVAL_INVALID, &v);  // nothing pending is thrown later
  e1.Free();
  e2.Free();
  e3.Free();
  t.Free();
  EXPECT_TRUE(e1 == MPI::ERRHANDLER_NULL && t == MPI::ERRHANDLER_NULL);
  c.Free();
}

// D118: MPI::Register_datarep with C++ functions (Datarep_conversion_function, whose datatype is
// an MPI::Datatype, and Datarep_extent_function, which returns the extent in an MPI::Aint&): a file
// written through the representation holds the values its write function made, and reads back
// through its read function; a null conversion function converts nothing; a null extent function
// is MPI_ERR_ARG, returned by MPI::FILE_NULL's handler (MPI-4.1 section 15.7).
int datarep_items = -1;
void negate_read(void* userbuf, MPI::Datatype& type, int count, void* filebuf, MPI::Offset position, void*) {
  EXPECT_EQ(type, MPI::INT);
  datarep_items = count;
  for (int i = 0; i < count; ++i) static_cast<int*>(userbuf)[position + i] = -static_cast<int*>(filebuf)[i];
}
void negate_write(void* userbuf, MPI::Datatype&, int count, void* filebuf, MPI::Offset position, void*) {
  datarep_items = count;
  for (int i = 0; i < count; ++i) static_cast<int*>(filebuf)[i] = -static_cast<int*>(userbuf)[position + i];
}
void size_extent(const MPI::Datatype& type, MPI::Aint& extent, void* extra) {
  EXPECT_EQ(std::strcmp(static_cast<const char*>(extra), "state"), 0);
  extent = type.Get_size();
}

TEST_F(CxxMembers, D118RegisteredDatarep) {
  static char state[] = "state";
  MPI::Register_datarep("cxx-negated", negate_read, negate_write, size_extent, state);
  MPI::Register_datarep("cxx-none", 0, 0, size_extent, state);
  MPI::Register_datarep("cxx-no-extent", negate_read, negate_write, 0, state);  // returns: FILE_NULL's handler
  const std::string path = "/tmp/mpiattr_cxx_D118_" + std::to_string(::getpid()) + ".dat";
  MPI::File f = MPI::File::Open(MPI::COMM_SELF, path.c_str(),
                                MPI::MODE_CREATE | MPI::MODE_RDWR | MPI::MODE_DELETE_ON_CLOSE, MPI::INFO_NULL);
  const int data[3] = {7, 8, 9};
  int got[3] = {0, 0, 0};
  f.Set_view(0, MPI::INT, MPI::INT, "cxx-negated", MPI::INFO_NULL);
  f.Write_at(0, data, 3, MPI::INT);
  EXPECT_EQ(datarep_items, 3);
  f.Set_view(0, MPI::INT, MPI::INT, "native", MPI::INFO_NULL);
  f.Read_at(0, got, 3, MPI::INT);
  EXPECT_EQ(got[0], -7);
  EXPECT_EQ(got[2], -9);
  f.Set_view(0, MPI::INT, MPI::INT, "cxx-negated", MPI::INFO_NULL);
  datarep_items = -1;
  f.Read_at(0, got, 3, MPI::INT);
  EXPECT_EQ(datarep_items, 3);
  EXPECT_EQ(got[0], 7);
  EXPECT_EQ(got[2], 9);
  f.Set_view(0, MPI::INT, MPI::INT, "cxx-none", MPI::INFO_NULL);
  datarep_items = -1;
  f.Write_at(0, data, 3, MPI::INT);
  f.Set_view(0, MPI::INT, MPI::INT, "native", MPI::INFO_NULL);
  f.Read_at(0, got, 3, MPI::INT);
  EXPECT_EQ(got[1], 8);
  EXPECT_EQ(datarep_items, -1);  // no conversion function ran
  // "cxx-no-extent" was refused (MPI_ERR_ARG), so it names no representation.
  const MPI_File cf = f;
  const int rc = MPI_File_set_view(cf, 0, MPI_INT, MPI_INT, "cxx-no-extent", MPI_INFO_NULL);
  EXPECT_EQ(MPI::Get_error_class(rc), MPI::ERR_UNSUPPORTED_DATAREP);
  f.Close();
}
