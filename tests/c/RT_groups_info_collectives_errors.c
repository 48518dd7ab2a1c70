/* D45: groups, reductions, MPI_Alltoallw, the neighbourhood collectives and a communicator's hints
 * on the standalone runtime, where the differential test
 * (tests/diff/c/RT_groups_info_collectives_one_process.c) cannot go: errors a peer crashes on or
 * misses (the class, a message that says what was wrong, the communicator's handler, nothing
 * written), what the peers do otherwise (MPI_PROC_NULL translated into the empty group, self
 * edges matched in order) and what one peer lacks (MPI_Info_create_env), and the hints' life:
 * merged by MPI_Comm_set_info, copied by a dup, replaced by the _with_info dups, absent from a
 * split. */
#include <mpi.h>
#include <string.h>
#include <unistd.h>

#include "c_errors.h"

/* The value of key in info, or "" when it has none. */
static const char *value_of(MPI_Info info, const char *key) {
  static char v[MPI_MAX_INFO_VAL + 1];
  int flag = 0;
  v[0] = '\0';
  OK(MPI_Info_get(info, key, MPI_MAX_INFO_VAL, v, &flag));
  if (!flag) v[0] = '\0';
  return v;
}

static int hints(MPI_Comm c, const char *key, char *out) {
  MPI_Info used = MPI_INFO_NULL;
  int n = -1;
  OK(MPI_Comm_get_info(c, &used));
  OK(MPI_Info_get_nkeys(used, &n));
  strcpy(out, value_of(used, key));
  OK(MPI_Info_free(&used));
  return n;
}

static int handled;
static void count_handler(MPI_Comm *c, int *code, ...) {
  (void)c, (void)code;
  handled++;
}

static int copies;
static int count_copy(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag) {
  (void)c, (void)k, (void)extra;
  copies++;
  *(void **)out = in;
  *flag = 1;
  return MPI_SUCCESS;
}

int main(int argc, char **argv) {
  OK(MPI_Init(&argc, &argv));
  MPI_Comm w = MPI_COMM_WORLD;
  MPI_Errhandler eh;
  OK(MPI_Comm_create_errhandler(count_handler, &eh));
  OK(MPI_Comm_set_errhandler(w, eh));
  OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

  /* ---- groups ---- */
  MPI_Group world;
  OK(MPI_Comm_group(w, &world));
  int r1[2] = {MPI_PROC_NULL, 0}, r2[2] = {7, 7};
  OK(MPI_Group_translate_ranks(world, 2, r1, MPI_GROUP_EMPTY, r2));
  CHECK(r2[0] == MPI_PROC_NULL && r2[1] == MPI_UNDEFINED,
        "translated into the empty group: %d %d (MPI_PROC_NULL stays MPI_PROC_NULL, MPI-4.1 8.3.1)", r2[0], r2[1]);
  int bad[2] = {0, 1};
  r2[0] = r2[1] = 7;
  check_error(MPI_Group_translate_ranks(world, 2, bad, world, r2), MPI_ERR_RANK, "ranks1[1] = 1");
  CHECK(r2[0] == 7 && r2[1] == 7, "ranks2 was written");
  check_error(MPI_Group_translate_ranks(world, -1, bad, world, r2), MPI_ERR_ARG, "n = -1");
  MPI_Group g = MPI_GROUP_NULL;
  int ranges[2][3] = {{0, 0, 1}, {0, 0, 1}};
  check_error(MPI_Group_range_excl(world, 2, ranges, &g), MPI_ERR_RANK, "excludes rank 0 again");
  CHECK(g == MPI_GROUP_NULL, "a group was made");
  ranges[0][2] = 0;
  check_error(MPI_Group_range_excl(world, 1, ranges, &g), MPI_ERR_ARG, "stride 0");
  ranges[0][2] = 1;
  ranges[0][1] = 1;
  check_error(MPI_Group_range_excl(world, 1, ranges, &g), MPI_ERR_RANK, "leaves the group");
  check_error(MPI_Group_union(world, MPI_GROUP_NULL, &g), MPI_ERR_GROUP, "group2");
  CHECK(g == MPI_GROUP_NULL, "a group was made");
  OK(MPI_Group_free(&world));

  /* ---- reductions ---- */
  int commute = 7;
  check_error(MPI_Op_commutative(MPI_OP_NULL, &commute), MPI_ERR_OP, "not valid");
  CHECK(commute == 7, "commute was written");
  int in[2] = {1, 2}, io[2] = {5, 6};
  _Bool b_in[1] = {1}, b_io[1] = {0};
  check_error(MPI_Reduce_local(b_in, b_io, 1, MPI_C_BOOL, MPI_SUM), MPI_ERR_OP, "MPI_SUM is not defined on datatype MPI_C_BOOL");
  CHECK(b_io[0] == 0, "inoutbuf was written");
  OK(MPI_Reduce_local(b_in, b_io, 1, MPI_C_BOOL, MPI_LOR));
  CHECK(b_io[0] == 1, "LOR of true and false is %d", (int)b_io[0]);
  check_error(MPI_Reduce_local(in, io, 2, MPI_INT, MPI_REPLACE), MPI_ERR_OP, "MPI_REPLACE is not defined");
  check_error(MPI_Reduce_local(in, io, 1, MPI_2INT, MPI_SUM), MPI_ERR_OP, "MPI_SUM is not defined on datatype MPI_2INT");
  MPI_Datatype pair;
  OK(MPI_Type_contiguous(2, MPI_INT, &pair));
  OK(MPI_Type_commit(&pair));
  check_error(MPI_Reduce_local(in, io, 1, pair, MPI_SUM), MPI_ERR_OP, "predefined datatypes only");
  check_error(MPI_Reduce_local(in, io, -1, MPI_INT, MPI_SUM), MPI_ERR_COUNT, "negative");
  check_error(MPI_Reduce_local(MPI_IN_PLACE, io, 2, MPI_INT, MPI_SUM), MPI_ERR_BUFFER, "MPI_IN_PLACE");
  CHECK(io[0] == 5 && io[1] == 6, "inoutbuf was written: %d %d", io[0], io[1]);
  double f_in[2] = {1.5, 2.5}, f_io[2] = {1.0, 3.0};
  OK(MPI_Reduce_local(f_in, f_io, 2, MPI_DOUBLE, MPI_MIN));
  CHECK(f_io[0] == 1.0 && f_io[1] == 2.5, "MIN of doubles: %g %g", f_io[0], f_io[1]);
  CHECK(handled == 0, "an error on no communicator reached the world's handler");

  /* ---- MPI_Alltoallw ---- */
  int s[3] = {1, 2, 3}, r[3] = {9, 9, 9}, c1[1] = {3}, d0[1] = {0};
  MPI_Datatype ints[1] = {MPI_INT}, none[1] = {MPI_DATATYPE_NULL};
  check_error(MPI_Alltoallw(s, c1, d0, ints, r, c1, d0, none, w), MPI_ERR_TYPE, "recvtypes[0]");
  CHECK(handled == 1, "the communicator's handler ran %d times", handled);
  int c2[1] = {2};
  check_error(MPI_Alltoallw(s, c1, d0, ints, r, c2, d0, ints, w), MPI_ERR_TRUNCATE, "12 bytes sent");
  int neg[1] = {-1};
  check_error(MPI_Alltoallw(s, neg, d0, ints, r, c1, d0, ints, w), MPI_ERR_COUNT, "sendcounts[0] is -1");
  CHECK(r[0] == 9 && r[1] == 9 && r[2] == 9, "recvbuf was written");

  /* ---- neighbourhood collectives ---- */
  handled = 0;
  check_error(MPI_Neighbor_alltoall(s, 1, MPI_INT, r, 1, MPI_INT, w), MPI_ERR_TOPOLOGY, "has no topology");
  CHECK(handled == 1, "the communicator's handler ran %d times", handled);
  int three_self[3] = {0, 0, 0};
  int *volatile unweighted = MPI_UNWEIGHTED;
  MPI_Comm dist;
  OK(MPI_Dist_graph_create_adjacent(w, 3, three_self, unweighted, 3, three_self, unweighted,
                                    MPI_INFO_NULL, 0, &dist));
  OK(MPI_Comm_set_errhandler(dist, MPI_ERRORS_RETURN));
  OK(MPI_Neighbor_alltoall(s, 1, MPI_INT, r, 1, MPI_INT, dist));
  CHECK(r[0] == 1 && r[1] == 2 && r[2] == 3, "self edges matched out of order: %d %d %d", r[0], r[1], r[2]);
  int big[3] = {9, 9, 9};
  check_error(MPI_Neighbor_alltoall(s, 1, MPI_INT, big, 0, MPI_INT, dist), MPI_ERR_TRUNCATE, "bytes sent");
  CHECK(big[0] == 9 && big[1] == 9 && big[2] == 9, "recvbuf was written");
  check_error(MPI_Neighbor_allgather(MPI_IN_PLACE, 1, MPI_INT, big, 1, MPI_INT, dist), MPI_ERR_BUFFER,
              "MPI_IN_PLACE");
  OK(MPI_Comm_free(&dist));
  int one[1] = {0};
  OK(MPI_Dist_graph_create_adjacent(w, 1, one, unweighted, 0, one, unweighted, MPI_INFO_NULL, 0, &dist));
  OK(MPI_Comm_set_errhandler(dist, MPI_ERRORS_RETURN));
  check_error(MPI_Neighbor_allgather(s, 1, MPI_INT, big, 1, MPI_INT, dist), MPI_ERR_TOPOLOGY,
              "1 edges from itself and 0 to itself");
  OK(MPI_Comm_free(&dist));

  /* ---- a communicator's hints ---- */
  char v[MPI_MAX_INFO_VAL + 1];
  CHECK(hints(w, "a", v) == 0, "MPI_COMM_WORLD has hints");
  MPI_Comm c;
  OK(MPI_Comm_dup(w, &c));
  MPI_Info info;
  OK(MPI_Info_create(&info));
  OK(MPI_Info_set(info, "a", "1"));
  OK(MPI_Info_set(info, "b", "2"));
  OK(MPI_Comm_set_info(c, info));
  OK(MPI_Info_delete(info, "b"));
  OK(MPI_Info_set(info, "a", "3"));
  OK(MPI_Info_set(info, "c", "4"));
  OK(MPI_Comm_set_info(c, info)); /* a replaced, b kept, c added */
  CHECK(hints(c, "a", v) == 3 && strcmp(v, "3") == 0, "after two set_info: a = '%s'", v);
  CHECK(hints(c, "b", v) == 3 && strcmp(v, "2") == 0, "after two set_info: b = '%s'", v);
  OK(MPI_Comm_set_info(c, MPI_INFO_NULL));
  CHECK(hints(c, "c", v) == 3 && strcmp(v, "4") == 0, "set_info with MPI_INFO_NULL changed the hints");
  MPI_Info freed, stale;
  OK(MPI_Info_dup(info, &freed));
  stale = freed;
  OK(MPI_Info_free(&freed));
  OK(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));
  check_error(MPI_Comm_set_info(c, stale), MPI_ERR_INFO, "not valid");
  CHECK(hints(c, "a", v) == 3 && strcmp(v, "3") == 0, "a failed set_info changed the hints");

  int key;
  OK(MPI_Comm_create_keyval(count_copy, MPI_COMM_NULL_DELETE_FN, &key, NULL));
  static int payload = 7;
  OK(MPI_Comm_set_attr(c, key, &payload));
  MPI_Comm d, e, s2;
  OK(MPI_Comm_dup(c, &d));
  CHECK(hints(d, "b", v) == 3 && strcmp(v, "2") == 0, "a dup has %s for b", v);
  MPI_Info only;
  OK(MPI_Info_create(&only));
  OK(MPI_Info_set(only, "z", "26"));
  MPI_Request req;
  OK(MPI_Comm_idup_with_info(c, only, &e, &req));
  OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
  CHECK(hints(e, "z", v) == 1 && strcmp(v, "26") == 0, "idup_with_info: %d hints, z = '%s'", hints(e, "z", v), v);
  CHECK(copies == 2, "the copy callback ran %d times for dup and idup_with_info", copies);
  void *got = NULL;
  int flag = 0;
  OK(MPI_Comm_get_attr(e, key, &got, &flag));
  CHECK(flag && got == &payload, "idup_with_info did not copy the attribute");
  OK(MPI_Comm_split(c, 0, 0, &s2));
  CHECK(hints(s2, "a", v) == 0, "a split has hints");
  OK(MPI_Comm_free(&s2));
  OK(MPI_Comm_free(&e));
  OK(MPI_Comm_free(&d));
  OK(MPI_Comm_free(&c));
  OK(MPI_Comm_dup(w, &c)); /* perhaps where a freed one was: no hints left behind */
  CHECK(hints(c, "a", v) == 0, "a new dup of MPI_COMM_WORLD has hints");
  OK(MPI_Comm_free(&c));
  OK(MPI_Info_free(&only));
  OK(MPI_Info_free(&info));
  OK(MPI_Comm_free_keyval(&key));

  /* ---- MPI_Info_create_env (MPI-4.1 section 11.4; Open MPI 4.1 has none) ---- */
  char *args[3] = {"prog", "x", "y z"};
  MPI_Info env;
  OK(MPI_Info_create_env(3, args, &env));
  CHECK(strcmp(value_of(env, "command"), "prog") == 0, "command '%s'", value_of(env, "command"));
  CHECK(strcmp(value_of(env, "argv"), "x y z") == 0, "argv '%s'", value_of(env, "argv"));
  CHECK(strcmp(value_of(env, "maxprocs"), "1") == 0, "maxprocs '%s'", value_of(env, "maxprocs"));
  CHECK(strcmp(value_of(env, "thread_level"), "MPI_THREAD_SINGLE") == 0, "thread_level '%s'",
        value_of(env, "thread_level"));
  char cwd[4096];
  CHECK(getcwd(cwd, sizeof cwd) && strcmp(value_of(env, "wdir"), cwd) == 0, "wdir '%s'", value_of(env, "wdir"));
  CHECK(value_of(env, "soft")[0] == '\0' && value_of(env, "file")[0] == '\0', "soft or file reported");
  OK(MPI_Info_free(&env));
  OK(MPI_Info_create_env(0, NULL, &env));
  CHECK(value_of(env, "command")[0] == '\0', "a command without arguments");
  OK(MPI_Info_free(&env));
  env = MPI_INFO_NULL;
  check_error(MPI_Info_create_env(-1, NULL, &env), MPI_ERR_ARG, "argc = -1");
  CHECK(env == MPI_INFO_NULL, "an info was made");

  OK(MPI_Type_free(&pair));
  OK(MPI_Errhandler_free(&eh));
  OK(MPI_Finalize());
  return failures != 0;
}
