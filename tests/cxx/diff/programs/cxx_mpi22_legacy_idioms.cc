// tests/cxx/diff/programs/cxx_mpi22_legacy_idioms.cc: a program written the way MPI-2.2 C++ code
// is written (iostream, MPI:: only), built unchanged against mpiattr, MPICH and Open MPI
// (cxxdiffrun.py): the null handles of every class assigned, used to initialise, compared in
// both orders and passed to functions (MPI-2.2 §16.1.7: "MPI::COMM_NULL must be able to be used
// in comparisons and initializations with all types of communicators"; issue 14 item 6), and the
// MPI-2.2 C++ bindings of the routines the runtime implements: Status, Request, Op and the
// predefined operations, Bcast, Reduce, Allreduce, Range_incl, Create_vector, Disconnect,
// Create_errhandler, Info and Get_address. One fact per line.
#include <mpi.h>

#include <iostream>

using namespace std;

// MPICH's MPI::COMM_NULL (an MPI::Nullcomm) converts to no communicator class, so initialising an
// Intracomm or Intercomm with it, or passing it where one is expected, does not compile there
// (divergences.toml); the lines print what MPICH can say instead.
#if defined(MPICH_VERSION) && !defined(MPIATTR_OVER_HOST)
#define NULL_CONVERTS 0
#else
#define NULL_CONVERTS 1
#endif
// Open MPI's MPI::COMM_NULL (an MPI::Comm_Null, the base of MPI::Comm) is no MPI::Comm, so it
// cannot be passed where a function takes a `const MPI::Comm&` (divergences.toml; D145).
#if defined(OPEN_MPI) && !defined(MPIATTR_OVER_HOST)
#define NULL_IS_A_COMM 0
#else
#define NULL_IS_A_COMM 1
#endif

static int handler_calls = 0;

// Functions of the user's own that take handles by reference and by value.
static bool intra_is_null(const MPI::Intracomm& comm) { return comm == MPI::COMM_NULL; }
static bool inter_is_null(MPI::Intercomm comm) { return MPI::COMM_NULL == comm; }
#if NULL_IS_A_COMM
static bool comm_is_null(const MPI::Comm& comm) { return comm == MPI::COMM_NULL; }
#endif
static bool type_is_null(const MPI::Datatype& t) { return t == MPI::DATATYPE_NULL; }
static bool group_is_null(MPI::Group g) { return g == MPI::GROUP_NULL; }
static bool request_is_null(const MPI::Request& r) { return r == MPI::REQUEST_NULL; }

static void comm_handler(MPI::Comm& comm, int* code, ...) {
  ++handler_calls;
  cout << "comm handler: intracomm " << (dynamic_cast<MPI::Intracomm*>(&comm) != 0)
       << " class " << (MPI::Get_error_class(*code) == MPI::ERR_OTHER) << endl;
}
static void win_handler(MPI::Win& win, int* code, ...) {
  ++handler_calls;
  cout << "win handler: null " << (win == MPI::WIN_NULL) << " class "
       << (MPI::Get_error_class(*code) == MPI::ERR_ARG) << endl;
}

int main(int argc, char* argv[]) {
  MPI::Init(argc, argv);

  // ---- communicators: MPI-2.2's own example, for both derived classes ----
  MPI::Intercomm inter;
  inter = MPI::COMM_NULL;  // assign with COMM_NULL
  cout << "intercomm = COMM_NULL: " << (inter == MPI::COMM_NULL) << " " << (MPI::COMM_NULL == inter) << endl;
  MPI::Intracomm intra;
  intra = MPI::COMM_NULL;
  cout << "intracomm = COMM_NULL: " << (intra == MPI::COMM_NULL) << " " << (MPI::COMM_NULL == intra) << endl;
#if NULL_CONVERTS
  MPI::Intracomm init = MPI::COMM_NULL;
  MPI::Intercomm init2(MPI::COMM_NULL);
  cout << "initialised with COMM_NULL: " << (init == MPI::COMM_NULL) << " " << (init2 == MPI::COMM_NULL) << endl;
  cout << "COMM_NULL passed: " << intra_is_null(MPI::COMM_NULL) << " " << inter_is_null(MPI::COMM_NULL) << endl;
#else
  cout << "initialised with COMM_NULL: does not compile" << endl;
  cout << "COMM_NULL passed: does not compile" << endl;
#endif
  // MPI-2.2 §16.1.7: COMM_NULL "must also be able to be passed to a function that expects a
  // communicator argument", and a `const MPI::Comm&` is one (Create_intercomm's peer_comm).
#if NULL_IS_A_COMM
  const MPI::Comm& as_comm = MPI::COMM_NULL;
  cout << "COMM_NULL as a Comm: " << (as_comm == MPI::COMM_NULL) << " " << comm_is_null(MPI::COMM_NULL)
       << " " << (dynamic_cast<const MPI::Intracomm*>(&as_comm) == 0) << endl;
#else
  cout << "COMM_NULL as a Comm: does not compile" << endl;
#endif
  intra = MPI::COMM_WORLD.Dup();
  cout << "dup not null: " << (intra != MPI::COMM_NULL) << " " << (MPI::COMM_NULL != intra) << " "
       << intra_is_null(intra) << endl;
  MPI::Intracomm copy = intra;
  copy = MPI::COMM_NULL;  // the copy only
  cout << "copy nulled, original kept: " << (copy == MPI::COMM_NULL) << " " << (intra != MPI::COMM_NULL) << endl;
  intra.Free();
  cout << "freed is null: " << (intra == MPI::COMM_NULL) << endl;
  MPI::Intracomm other = MPI::COMM_WORLD.Dup();
  other.Disconnect();
  cout << "disconnected is null: " << (other == MPI::COMM_NULL) << endl;

  // ---- datatypes ----
  MPI::Datatype t = MPI::DATATYPE_NULL;
  cout << "type null: " << (t == MPI::DATATYPE_NULL) << " " << (MPI::DATATYPE_NULL == t) << " "
       << type_is_null(MPI::DATATYPE_NULL) << endl;
  t = MPI::INT.Create_vector(3, 1, 2);
  t.Commit();
  cout << "vector: " << (t != MPI::DATATYPE_NULL) << " size " << t.Get_size() / static_cast<int>(sizeof(int)) << endl;
  t.Free();
  cout << "type freed: " << (t == MPI::DATATYPE_NULL) << endl;
  t = MPI::DATATYPE_NULL;

  // ---- groups ----
  MPI::Group g = MPI::GROUP_NULL;
  cout << "group null: " << (g == MPI::GROUP_NULL) << " " << group_is_null(MPI::GROUP_NULL) << endl;
  g = MPI::COMM_WORLD.Get_group();
  int ranges[1][3] = {{0, 0, 1}};
  MPI::Group r = g.Range_incl(1, ranges);
  cout << "range_incl size: " << r.Get_size() << " " << (MPI::GROUP_NULL != r) << endl;
  r.Free();
  g.Free();
  cout << "groups freed: " << (g == MPI::GROUP_NULL) << " " << (MPI::GROUP_NULL == r) << endl;

  // ---- info, windows, error handlers ----
  MPI::Info info = MPI::INFO_NULL;
  cout << "info null: " << (info == MPI::INFO_NULL) << " " << (MPI::INFO_NULL == info) << endl;
  int buffer[4];
  MPI::Win w = MPI::WIN_NULL;
  cout << "win null: " << (w == MPI::WIN_NULL) << endl;
  w = MPI::Win::Create(buffer, sizeof buffer, sizeof(int), MPI::INFO_NULL, MPI::COMM_WORLD);
  cout << "win created: " << (w != MPI::WIN_NULL) << " " << (MPI::WIN_NULL != w) << endl;
  MPI::Errhandler eh = MPI::ERRHANDLER_NULL;
  cout << "errhandler null: " << (eh == MPI::ERRHANDLER_NULL) << " " << (MPI::ERRHANDLER_NULL == eh) << endl;
  eh = MPI::Win::Create_errhandler(win_handler);
  cout << "win errhandler created: " << (eh != MPI::ERRHANDLER_NULL) << endl;
  w.Set_errhandler(eh);
  w.Call_errhandler(MPI::ERR_ARG);
  // A handle from Get_errhandler of a predefined handler is freed as programs do, and so is the
  // user's handler while the window still uses it (MPI-2.2 §8.3.4: it goes when unused).
  eh.Free();
  cout << "user errhandler freed: " << (eh == MPI::ERRHANDLER_NULL) << endl;
  MPI::Errhandler got = MPI::COMM_SELF.Get_errhandler();
  got.Free();
  cout << "errhandler freed: " << (got == MPI::ERRHANDLER_NULL) << endl;
  w.Free();
  cout << "win freed: " << (w == MPI::WIN_NULL) << endl;

  MPI::Intracomm comm = MPI::COMM_WORLD.Dup();
  MPI::Errhandler ceh = MPI::Comm::Create_errhandler(comm_handler);
  comm.Set_errhandler(ceh);
  comm.Call_errhandler(MPI::ERR_OTHER);
  cout << "handlers called: " << handler_calls << endl;

  // ---- requests and statuses ----
  MPI::Request req = MPI::REQUEST_NULL;
  cout << "request null: " << (req == MPI::REQUEST_NULL) << " " << (MPI::REQUEST_NULL == req) << " "
       << request_is_null(MPI::REQUEST_NULL) << endl;
  MPI::Status status;
  req.Wait(status);  // a null request completes at once with an empty status
  cout << "empty status: " << (status.Get_source() == MPI::ANY_SOURCE) << " "
       << (status.Get_tag() == MPI::ANY_TAG) << endl;
  req.Wait();
  cout << "test null request: " << req.Test() << " " << req.Test(status) << endl;
  status.Set_tag(7);
  status.Set_source(0);
  cout << "status set: " << status.Get_tag() << " " << status.Get_source() << endl;

  // ---- operations and collectives ----
  MPI::Op op = MPI::OP_NULL;
  cout << "op null: " << (op == MPI::OP_NULL) << " " << (MPI::OP_NULL == op) << endl;
  op = MPI::SUM;
  cout << "op sum: " << (op == MPI::SUM) << " " << (op != MPI::MAX) << endl;
  int in[2] = {3, 4}, out[2] = {0, 0};
  comm.Allreduce(in, out, 2, MPI::INT, op);
  cout << "allreduce sum: " << out[0] << " " << out[1] << endl;
  out[0] = 5;
  comm.Allreduce(MPI::IN_PLACE, out, 1, MPI::INT, MPI::MAX);
  cout << "allreduce in place: " << out[0] << endl;
  double d = 2.5, dsum = 0;
  comm.Reduce(&d, &dsum, 1, MPI::DOUBLE, MPI::PROD, 0);
  cout << "reduce prod: " << dsum << endl;
  int value = comm.Get_rank() == 0 ? 42 : 0;
  comm.Bcast(&value, 1, MPI::INT, 0);
  cout << "bcast: " << value << endl;
  comm.Free();

  // ---- info objects and addresses (MPI-2.2 §16.2: MPI::Info, MPI::Get_address) ----
  MPI::Info hints = MPI::Info::Create();
  cout << "info not null: " << (hints != MPI::INFO_NULL) << endl;
  hints.Set("b_key", "one");
  hints.Set("a_key", "two");
  hints.Set("b_key", "three");
  char key[MPI::MAX_INFO_KEY + 1], val[MPI::MAX_INFO_VAL + 1];
  hints.Get_nthkey(0, key);
  cout << "info keys: " << hints.Get_nkeys() << " first " << key << endl;
  bool found = hints.Get("b_key", MPI::MAX_INFO_VAL, val);
  cout << "info get: " << found << " " << val << endl;
  int vlen = 0;
  cout << "info valuelen: " << hints.Get_valuelen("b_key", vlen) << " " << vlen << endl;
  MPI::Info hints_copy = hints.Dup();
  hints.Delete("b_key");
  cout << "info after delete: " << hints.Get_nkeys() << " dup keeps " << hints_copy.Get_nkeys() << endl;
  cout << "info get missing: " << hints.Get("b_key", MPI::MAX_INFO_VAL, val) << endl;
  hints_copy.Free();
  hints.Free();
  cout << "info freed: " << (hints == MPI::INFO_NULL) << endl;
  struct { int a; double b; } s = {0, 0.0};
  MPI::Aint pa = MPI::Get_address(&s.a), pb = MPI::Get_address(&s.b);
  cout << "get_address offset: " << (pb - pa) << " " << (pa == reinterpret_cast<MPI::Aint>(&s.a)) << endl;

  MPI::Finalize();
  cout << "finalized: " << MPI::Is_finalized() << endl;
  return 0;
}
