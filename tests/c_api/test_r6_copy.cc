// R6: copy callbacks on duplication (all four communicator dups and MPI_Type_dup), flag 0/1,
// predefined callbacks, no copying by split/create (but D11's MPI_TAG_UB), copy order (D10),
// deprecated MPI_Keyval_create callbacks on all four dups (R6.7), freed keyvals (R2.2).
#include "attr_test_common.h"

namespace {

enum class Dup { dup, dup_with_info, idup, idup_with_info };
const char* dup_name(Dup d) {
  switch (d) {
    case Dup::dup: return "dup";
    case Dup::dup_with_info: return "dup_with_info";
    case Dup::idup: return "idup";
    case Dup::idup_with_info: return "idup_with_info";
  }
  return "?";
}

void PrintTo(Dup d, std::ostream* os) { *os << dup_name(d); }

// Duplicates with the given routine and completes the request. Returns the routine's code.
int do_dup(Dup how, MPI_Comm c, MPI_Comm* out) {
  MPI_Request req = MPI_REQUEST_NULL;
  int rc = MPI_SUCCESS;
  switch (how) {
    case Dup::dup: return MPI_Comm_dup(c, out);
    case Dup::dup_with_info: return MPI_Comm_dup_with_info(c, MPI_INFO_NULL, out);
    case Dup::idup: rc = MPI_Comm_idup(c, out, &req); break;
    case Dup::idup_with_info: rc = MPI_Comm_idup_with_info(c, MPI_INFO_NULL, out, &req); break;
  }
  if (rc == MPI_SUCCESS) rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
  return rc;
}

int g_copy_out_marker;
MPI_Comm g_copy_oldcomm;
int flag0_copy(MPI_Comm old, int k, void*, void* in, void* out, int* flag) {
  g_copy_oldcomm = old;
  cb_log().push_back({"copy", k, in});
  *static_cast<void**>(out) = &g_copy_out_marker;  // must be ignored with flag 0
  *flag = 0;
  return MPI_SUCCESS;
}
int new_value_copy(MPI_Comm old, int k, void*, void* in, void* out, int* flag) {
  g_copy_oldcomm = old;
  cb_log().push_back({"copy", k, in});
  *static_cast<void**>(out) = &g_copy_out_marker;
  *flag = 1;
  return MPI_SUCCESS;
}

class R6 : public ::testing::TestWithParam<Dup> {
 protected:
  void SetUp() override { cb_log().clear(); }
};

TEST_P(R6, R6_2_flag1_copies_value_from_attribute_val_out_flag0_copies_nothing) {
  MPI_Comm c = fresh_comm(), d = MPI_COMM_NULL;
  int k1, k0, x = 1, y = 2;
  ASSERT_OK(MPI_Comm_create_keyval(new_value_copy, log_delete, &k1, nullptr));
  ASSERT_OK(MPI_Comm_create_keyval(flag0_copy, log_delete, &k0, nullptr));
  ASSERT_OK(MPI_Comm_set_attr(c, k1, &x));
  ASSERT_OK(MPI_Comm_set_attr(c, k0, &y));
  ASSERT_OK(do_dup(GetParam(), c, &d)) ;
  ASSERT_NE(d, MPI_COMM_NULL);
  EXPECT_EQ(count_events("copy", k1), 1);
  EXPECT_EQ(count_events("copy", k0), 1);
  EXPECT_EQ(g_copy_oldcomm, c) << "the copy callback gets the old communicator";
  void* v;
  ASSERT_EQ(comm_get(d, k1, &v), 1);
  EXPECT_EQ(v, &g_copy_out_marker);
  EXPECT_EQ(comm_get(d, k0, &v), 0) << "flag = 0: the new communicator does not get the attribute";
  EXPECT_EQ(comm_get(c, k1, &v), 1);
  EXPECT_EQ(v, &x);
  ASSERT_OK(MPI_Comm_free(&d));
  EXPECT_EQ(count_events("delete"), 1) << "only the copied attribute is deleted with the duplicate";
  MPI_Comm_free(&c);
  MPI_Comm_free_keyval(&k1);
  MPI_Comm_free_keyval(&k0);
}

TEST_P(R6, R6_5_predefined_and_NULL_copy_functions) {
  MPI_Comm c = fresh_comm(), d = MPI_COMM_NULL;
  int kdup, knull, knullptr, kdepdup, kdepnull, x = 1;
  ASSERT_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kdup, nullptr));
  ASSERT_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &knull, nullptr));
  ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &knullptr, nullptr));  // D15
  ASSERT_OK(MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &kdepdup, nullptr));
  ASSERT_OK(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &kdepnull, nullptr));
  for (int k : {kdup, knull, knullptr, kdepdup, kdepnull}) ASSERT_OK(MPI_Comm_set_attr(c, k, &x));
  ASSERT_OK(do_dup(GetParam(), c, &d));
  void* v;
  EXPECT_EQ(comm_get(d, kdup, &v), 1);
  EXPECT_EQ(v, &x);
  EXPECT_EQ(comm_get(d, kdepdup, &v), 1);
  EXPECT_EQ(v, &x);
  EXPECT_EQ(comm_get(d, knull, &v), 0);
  EXPECT_EQ(comm_get(d, knullptr, &v), 0);
  EXPECT_EQ(comm_get(d, kdepnull, &v), 0);
  MPI_Comm_free(&d);
  MPI_Comm_free(&c);
  for (int* k : {&kdup, &knull, &knullptr}) MPI_Comm_free_keyval(k);
  MPI_Keyval_free(&kdepdup);
  MPI_Keyval_free(&kdepnull);
}

TEST_P(R6, R6_7_deprecated_Keyval_create_callbacks_run) {
  MPI_Comm c = fresh_comm(), d = MPI_COMM_NULL;
  int k, x = 1;
  ASSERT_OK(MPI_Keyval_create(log_copy, log_delete, &k, nullptr));
  ASSERT_OK(MPI_Attr_put(c, k, &x));
  ASSERT_OK(do_dup(GetParam(), c, &d));
  EXPECT_EQ(count_events("copy", k), 1);
  void* v;
  int flag = 0;
  ASSERT_OK(MPI_Attr_get(d, k, &v, &flag));
  EXPECT_EQ(flag, 1);
  EXPECT_EQ(v, &x);
  ASSERT_OK(MPI_Comm_free(&d));
  EXPECT_EQ(count_events("delete", k), 1);
  MPI_Comm_free(&c);
  MPI_Keyval_free(&k);
}

TEST_P(R6, R2_2_copy_callback_of_freed_keyval_still_fires) {
  MPI_Comm c = fresh_comm(), d = MPI_COMM_NULL;
  int k, x = 1;
  ASSERT_OK(MPI_Comm_create_keyval(log_copy, log_delete, &k, nullptr));
  ASSERT_OK(MPI_Comm_set_attr(c, k, &x));
  ASSERT_OK(MPI_Comm_free_keyval(&k));
  ASSERT_OK(do_dup(GetParam(), c, &d));
  EXPECT_EQ(count_events("copy"), 1);
  ASSERT_OK(MPI_Comm_free(&d));
  ASSERT_OK(MPI_Comm_free(&c));
  EXPECT_EQ(count_events("delete"), 2);
}

TEST_P(R6, D10_copies_made_oldest_first_and_keep_their_order) {
  MPI_Comm c = fresh_comm(), d = MPI_COMM_NULL;
  int k[4], vals[5];
  for (int i = 0; i < 4; ++i) ASSERT_OK(MPI_Comm_create_keyval(log_copy, log_delete, &k[i], nullptr));
  // Set in the order 2, 0, 3, 1; then replace 2, which makes it the newest.
  for (int i : {2, 0, 3, 1}) ASSERT_OK(MPI_Comm_set_attr(c, k[i], &vals[i]));
  ASSERT_OK(MPI_Comm_set_attr(c, k[2], &vals[4]));
  cb_log().clear();
  ASSERT_OK(do_dup(GetParam(), c, &d));
  ASSERT_EQ(cb_log().size(), 4u);
  int expect_copy[4] = {k[0], k[3], k[1], k[2]};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(cb_log()[i].keyval, expect_copy[i]) << "copy " << i;
  cb_log().clear();
  ASSERT_OK(MPI_Comm_free(&d));
  ASSERT_EQ(cb_log().size(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(cb_log()[i].keyval, expect_copy[3 - i]) << "delete " << i;
  MPI_Comm_free(&c);
  for (int& kk : k) MPI_Comm_free_keyval(&kk);
}

TEST_P(R6, D11_environment_attributes_follow_every_dup) {
  MPI_Comm d = MPI_COMM_NULL;
  ASSERT_OK(do_dup(GetParam(), MPI_COMM_WORLD, &d));
  for (int key : {MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_UNIVERSE_SIZE, MPI_APPNUM, MPI_LASTUSEDCODE}) {
    void *vw = nullptr, *vd = nullptr;
    ASSERT_EQ(comm_get(MPI_COMM_WORLD, key, &vw), 1) << key;
    ASSERT_EQ(comm_get(d, key, &vd), 1) << key;
    EXPECT_EQ(*static_cast<int*>(vd), *static_cast<int*>(vw)) << key;
  }
  MPI_Comm_free(&d);
}

INSTANTIATE_TEST_SUITE_P(AllDups, R6, ::testing::Values(Dup::dup, Dup::dup_with_info, Dup::idup, Dup::idup_with_info),
                         [](const ::testing::TestParamInfo<Dup>& i) { return std::string(dup_name(i.param)); });

class R6Other : public ::testing::Test {
 protected:
  void SetUp() override { cb_log().clear(); }
};

TEST_F(R6Other, R6_3_idup_copies_at_the_call_not_at_completion) {
  MPI_Comm c = fresh_comm(), d = MPI_COMM_NULL;
  int k1, k2, x = 1, y = 2;
  ASSERT_OK(MPI_Comm_create_keyval(log_copy, log_delete, &k1, nullptr));
  ASSERT_OK(MPI_Comm_create_keyval(log_copy, log_delete, &k2, nullptr));
  ASSERT_OK(MPI_Comm_set_attr(c, k1, &x));
  MPI_Request req = MPI_REQUEST_NULL;
  ASSERT_OK(MPI_Comm_idup(c, &d, &req));
  EXPECT_EQ(count_events("copy"), 1) << "copy callbacks run in the initiating call";
  ASSERT_OK(MPI_Comm_set_attr(c, k2, &y));      // after the call: not copied
  ASSERT_OK(MPI_Comm_set_attr(c, k1, &y));      // changed after the call: the copy keeps x
  ASSERT_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
  EXPECT_EQ(req, MPI_REQUEST_NULL);
  void* v;
  EXPECT_EQ(comm_get(d, k2, &v), 0);
  ASSERT_EQ(comm_get(d, k1, &v), 1);
  EXPECT_EQ(v, &x);
  EXPECT_EQ(count_events("copy"), 1);
  MPI_Comm_free(&d);
  MPI_Comm_free(&c);
  MPI_Comm_free_keyval(&k1);
  MPI_Comm_free_keyval(&k2);
}

TEST_F(R6Other, R6_1_split_and_create_copy_no_user_attributes_but_carry_TAG_UB) {
  MPI_Comm c = fresh_comm();
  int k, x = 1;
  ASSERT_OK(MPI_Comm_create_keyval(log_copy, log_delete, &k, nullptr));
  ASSERT_OK(MPI_Comm_set_attr(c, k, &x));
  MPI_Comm s = MPI_COMM_NULL, cr = MPI_COMM_NULL;
  ASSERT_OK(MPI_Comm_split(c, 0, 0, &s));
  MPI_Group g;
  ASSERT_OK(MPI_Comm_group(c, &g));
  ASSERT_OK(MPI_Comm_create(c, g, &cr));
  MPI_Group_free(&g);
  ASSERT_NE(s, MPI_COMM_NULL);
  ASSERT_NE(cr, MPI_COMM_NULL);
  EXPECT_EQ(count_events("copy"), 0);
  void* v = nullptr;
  EXPECT_EQ(comm_get(s, k, &v), 0);
  EXPECT_EQ(comm_get(cr, k, &v), 0);
  for (MPI_Comm n : {s, cr}) {
    ASSERT_EQ(comm_get(n, MPI_TAG_UB, &v), 1) << "D11: MPI_TAG_UB on split/create communicators";
    EXPECT_EQ(*static_cast<int*>(v), 2147483647);
  }
  ASSERT_OK(MPI_Comm_free(&s));
  ASSERT_OK(MPI_Comm_free(&cr));
  EXPECT_EQ(count_events("delete"), 0);
  MPI_Comm_free(&c);
  MPI_Comm_free_keyval(&k);
}

TEST_F(R6Other, R6_1_Type_dup_runs_copy_callbacks_flag1_and_flag0) {
  MPI_Datatype t = fresh_type(), u = MPI_DATATYPE_NULL;
  int k1, k0, kd, x = 1, y = 2;
  auto type_flag0 = [](MPI_Datatype, int k, void*, void* in, void*, int* flag) -> int {
    cb_log().push_back({"copy", k, in});
    *flag = 0;
    return MPI_SUCCESS;
  };
  ASSERT_OK(MPI_Type_create_keyval(log_type_copy, log_type_delete, &k1, nullptr));
  ASSERT_OK(MPI_Type_create_keyval(type_flag0, log_type_delete, &k0, nullptr));
  ASSERT_OK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &kd, nullptr));
  ASSERT_OK(MPI_Type_set_attr(t, k1, &x));
  ASSERT_OK(MPI_Type_set_attr(t, k0, &y));
  ASSERT_OK(MPI_Type_set_attr(t, kd, &y));
  ASSERT_OK(MPI_Type_dup(t, &u));
  EXPECT_EQ(count_events("copy"), 2);
  void* v;
  ASSERT_EQ(type_get(u, k1, &v), 1);
  EXPECT_EQ(v, &x);
  EXPECT_EQ(type_get(u, k0, &v), 0);
  ASSERT_EQ(type_get(u, kd, &v), 1);
  EXPECT_EQ(v, &y);
  ASSERT_OK(MPI_Type_free(&u));
  EXPECT_EQ(count_events("delete"), 1);
  ASSERT_OK(MPI_Type_free(&t));
  EXPECT_EQ(count_events("delete"), 3);
  MPI_Type_free_keyval(&k1);
  MPI_Type_free_keyval(&k0);
  MPI_Type_free_keyval(&kd);
}

TEST_F(R6Other, R6_1_Type_dup_of_predefined_datatype_copies_its_attributes) {
  int k, x = 1;
  ASSERT_OK(MPI_Type_create_keyval(log_type_copy, log_type_delete, &k, nullptr));
  ASSERT_OK(MPI_Type_set_attr(MPI_INT, k, &x));
  MPI_Datatype u;
  ASSERT_OK(MPI_Type_dup(MPI_INT, &u));
  void* v;
  ASSERT_EQ(type_get(u, k, &v), 1);
  EXPECT_EQ(v, &x);
  ASSERT_OK(MPI_Type_free(&u));
  ASSERT_OK(MPI_Type_delete_attr(MPI_INT, k));
  EXPECT_EQ(count_events("copy"), 1);
  EXPECT_EQ(count_events("delete"), 2);
  MPI_Type_free_keyval(&k);
}

TEST_F(R6Other, R2_2_Type_copy_callback_of_freed_keyval_still_fires) {
  MPI_Datatype t = fresh_type(), u;
  int k, x = 1;
  ASSERT_OK(MPI_Type_create_keyval(log_type_copy, log_type_delete, &k, nullptr));
  ASSERT_OK(MPI_Type_set_attr(t, k, &x));
  ASSERT_OK(MPI_Type_free_keyval(&k));
  ASSERT_OK(MPI_Type_dup(t, &u));
  EXPECT_EQ(count_events("copy"), 1);
  MPI_Type_free(&u);
  MPI_Type_free(&t);
  EXPECT_EQ(count_events("delete"), 2);
}

TEST_F(R6Other, R6_1_chain_of_dups_copies_along) {
  MPI_Comm c = fresh_comm(), d1, d2;
  int k, x = 1;
  ASSERT_OK(MPI_Comm_create_keyval(log_copy, log_delete, &k, nullptr));
  ASSERT_OK(MPI_Comm_set_attr(c, k, &x));
  ASSERT_OK(MPI_Comm_dup(c, &d1));
  ASSERT_OK(MPI_Comm_free(&c));
  ASSERT_OK(MPI_Comm_dup(d1, &d2));
  void* v;
  ASSERT_EQ(comm_get(d2, k, &v), 1);
  EXPECT_EQ(v, &x);
  EXPECT_EQ(count_events("copy"), 2);
  MPI_Comm_free(&d1);
  MPI_Comm_free(&d2);
  EXPECT_EQ(count_events("delete"), 3);
  MPI_Comm_free_keyval(&k);
}

TEST_F(R6Other, D12_window_copy_callbacks_are_stored_never_called) {
  char buf[8];
  MPI_Win w;
  ASSERT_OK(MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w));
  int k, x = 1;
  ASSERT_OK(MPI_Win_create_keyval(log_win_copy, log_win_delete, &k, nullptr));
  ASSERT_OK(MPI_Win_set_attr(w, k, &x));
  ASSERT_OK(MPI_Win_free(&w));
  EXPECT_EQ(count_events("copy"), 0);
  EXPECT_EQ(count_events("delete"), 1);
  MPI_Win_free_keyval(&k);
}

// D72: the standalone runtime keeps freed datatype objects for the next datatypes. What comes back
// is a new datatype: no name, no attribute, not committed, its own envelope, size and extent,
// whatever the object held before (a name, attributes copied and deleted, a commit, an envelope).
TEST_F(R6Other, D72_a_datatype_made_after_frees_is_a_new_one) {
  int k, x = 1;
  ASSERT_OK(MPI_Type_create_keyval(log_type_copy, log_type_delete, &k, nullptr));
  MPI_Comm c = fresh_comm();
  for (int round = 0; round < 3; ++round) {
    MPI_Datatype a, b;
    ASSERT_OK(MPI_Type_vector(2, 1, 3, MPI_DOUBLE, &a));
    ASSERT_OK(MPI_Type_commit(&a));
    ASSERT_OK(MPI_Type_set_name(a, "old vector"));
    ASSERT_OK(MPI_Type_set_attr(a, k, &x));
    ASSERT_OK(MPI_Type_dup(a, &b));  // b: committed, with the copy of the attribute
    ASSERT_OK(MPI_Type_set_name(b, "old dup"));
    ASSERT_OK(MPI_Type_free(&a));
    ASSERT_OK(MPI_Type_free(&b));
    MPI_Datatype fresh[2];
    ASSERT_OK(MPI_Type_contiguous(3, MPI_SHORT, &fresh[0]));
    ASSERT_OK(MPI_Type_dup(MPI_INT, &fresh[1]));
    for (MPI_Datatype t : fresh) {
      char name[MPI_MAX_OBJECT_NAME] = "unwritten";
      int len = -1, flag = -1;
      void* v = nullptr;
      ASSERT_OK(MPI_Type_get_name(t, name, &len));
      EXPECT_EQ(len, 0);
      EXPECT_STREQ(name, "");
      ASSERT_OK(MPI_Type_get_attr(t, k, &v, &flag));
      EXPECT_EQ(flag, 0);
    }
    int ni, na, nd, comb, size, pos = 0;
    MPI_Aint lb, extent;
    ASSERT_OK(MPI_Type_get_envelope(fresh[0], &ni, &na, &nd, &comb));
    EXPECT_EQ(comb, MPI_COMBINER_CONTIGUOUS);
    EXPECT_EQ(ni * 100 + na * 10 + nd, 101);
    ASSERT_OK(MPI_Type_size(fresh[0], &size));
    ASSERT_OK(MPI_Type_get_extent(fresh[0], &lb, &extent));
    EXPECT_EQ(size, 6);
    EXPECT_EQ(lb, 0);
    EXPECT_EQ(extent, 6);
    short in[3] = {1, 2, 3};
    char out[16];
    int cls = MPI_SUCCESS;
    MPI_Error_class(MPI_Pack(in, 1, fresh[0], out, sizeof out, &pos, c), &cls);
    EXPECT_EQ(cls, MPI_ERR_TYPE);  // not committed
    ASSERT_OK(MPI_Type_commit(&fresh[0]));
    ASSERT_OK(MPI_Pack(in, 1, fresh[0], out, sizeof out, &pos, c));
    EXPECT_EQ(pos, 6);
    ASSERT_OK(MPI_Type_get_envelope(fresh[1], &ni, &na, &nd, &comb));
    EXPECT_EQ(comb, MPI_COMBINER_DUP);
    ASSERT_OK(MPI_Type_get_extent(fresh[1], &lb, &extent));
    EXPECT_EQ(extent, static_cast<MPI_Aint>(sizeof(int)));
    ASSERT_OK(MPI_Type_free(&fresh[0]));
    ASSERT_OK(MPI_Type_free(&fresh[1]));
  }
  EXPECT_EQ(count_events("copy"), 3);
  EXPECT_EQ(count_events("delete"), 6);
  MPI_Comm_free(&c);
  MPI_Type_free_keyval(&k);
}

}  // namespace
