// D20 / R2.2: a freed keyval lives until its last attribute is gone. Below MPI_THREAD_MULTIPLE
// attributes are counted only once their keyval is freed (keyval.h); these tests free keyvals at
// the awkward moments (attributes on several objects, a dup in progress, a delete callback
// running) and check that the keyval's index is not handed to a new keyval while an attribute
// still uses it: if it were, the new keyval would see the old attribute.
#include <cstdint>

#include "attr_test_common.h"

namespace {

int g_deleted = 0;
int g_last_delete_keyval = 0;
int counting_delete(MPI_Comm, int k, void*, void*) {
  ++g_deleted;
  g_last_delete_keyval = k;
  return MPI_SUCCESS;
}

// Creates keyvals until one reuses a freed index (or `tries` were made); checks none of them
// sees an attribute on `c`, and frees them again.
void expect_fresh_keyvals_see_nothing(MPI_Comm c, int tries) {
  std::vector<int> ks(static_cast<std::size_t>(tries));
  for (int& k : ks) {
    ASSERT_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, nullptr));
    void* v = nullptr;
    EXPECT_EQ(comm_get(c, k, &v), 0) << "a new keyval sees an attribute of a freed one";
  }
  for (int& k : ks) ASSERT_OK(MPI_Comm_free_keyval(&k));
}

TEST(D20, R2_2_freed_keyval_with_attributes_on_several_objects_is_not_reused) {
  int k = 0, a = 1;
  ASSERT_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, counting_delete, &k, nullptr));
  const int freed = k;
  MPI_Comm c1 = fresh_comm(), c2 = fresh_comm();
  ASSERT_OK(MPI_Comm_set_attr(c1, k, &a));
  ASSERT_OK(MPI_Comm_set_attr(c2, k, &a));
  MPI_Comm c3;
  ASSERT_OK(MPI_Comm_dup(c2, &c3));
  ASSERT_OK(MPI_Comm_free_keyval(&k));
  g_deleted = 0;
  expect_fresh_keyvals_see_nothing(c1, 8);
  ASSERT_OK(MPI_Comm_free(&c1));
  EXPECT_EQ(g_deleted, 1);
  EXPECT_EQ(g_last_delete_keyval, freed);
  expect_fresh_keyvals_see_nothing(c3, 8);
  ASSERT_OK(MPI_Comm_delete_attr(c2, freed));  // a freed keyval still names its attributes (R2.2)
  EXPECT_EQ(g_deleted, 2);
  expect_fresh_keyvals_see_nothing(c3, 8);
  ASSERT_OK(MPI_Comm_free(&c3));
  EXPECT_EQ(g_deleted, 3);
  EXPECT_EQ(g_last_delete_keyval, freed);
  ASSERT_OK(MPI_Comm_free(&c2));
  EXPECT_EQ(g_deleted, 3);
  // Now nothing uses it: its index may be reused, and the stale handle is still rejected.
  void* v = nullptr;
  int flag = 0;
  MPI_Comm c = fresh_comm();
  EXPECT_CLASS(MPI_Comm_get_attr(c, freed, &v, &flag), MPI_ERR_KEYVAL);
  ASSERT_OK(MPI_Comm_free(&c));
}

// A copy callback frees another keyval while the dup has already copied its attribute to the
// new communicator (which no table holds yet).
int g_victim = 0;
int free_victim_copy(MPI_Comm, int, void*, void* in, void* out, int* flag) {
  if (g_victim != 0) MPI_Comm_free_keyval(&g_victim);
  *static_cast<void**>(out) = in;
  *flag = 1;
  return MPI_SUCCESS;
}
TEST(D20, R2_2_keyval_freed_by_a_copy_callback_during_dup_is_counted_on_the_new_object) {
  int victim = 0, killer = 0, a = 1;
  ASSERT_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, counting_delete, &victim, nullptr));
  const int freed = victim;
  MPI_Comm c = fresh_comm();
  ASSERT_OK(MPI_Comm_set_attr(c, victim, &a));  // older: copied first (D10)
  ASSERT_OK(MPI_Comm_create_keyval(free_victim_copy, MPI_COMM_NULL_DELETE_FN, &killer, nullptr));
  ASSERT_OK(MPI_Comm_set_attr(c, killer, &a));
  g_victim = victim;
  MPI_Comm d;
  ASSERT_OK(MPI_Comm_dup(c, &d));
  EXPECT_EQ(g_victim, 0) << "the copy callback did not free the keyval";
  g_deleted = 0;
  ASSERT_OK(MPI_Comm_free(&c));  // its attribute goes; the copy on d must keep the keyval alive
  EXPECT_EQ(g_deleted, 1);
  expect_fresh_keyvals_see_nothing(d, 8);
  void* v = nullptr;
  ASSERT_OK(MPI_Comm_delete_attr(d, freed));
  EXPECT_EQ(g_deleted, 2);
  EXPECT_EQ(g_last_delete_keyval, freed);
  ASSERT_OK(MPI_Comm_free(&d));
  EXPECT_EQ(comm_get(MPI_COMM_SELF, killer, &v), 0);
  ASSERT_OK(MPI_Comm_free_keyval(&killer));
}

// A delete callback frees its own keyval while its attribute is being deleted.
int free_own_keyval_delete(MPI_Comm, int k, void*, void*) {
  ++g_deleted;
  int copy = k;
  MPI_Comm_free_keyval(&copy);
  return MPI_SUCCESS;
}
TEST(D20, R2_2_keyval_freed_inside_its_own_delete_callback) {
  int k = 0, a = 1;
  ASSERT_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, free_own_keyval_delete, &k, nullptr));
  MPI_Comm c1 = fresh_comm(), c2 = fresh_comm();
  ASSERT_OK(MPI_Comm_set_attr(c1, k, &a));
  ASSERT_OK(MPI_Comm_set_attr(c2, k, &a));
  g_deleted = 0;
  ASSERT_OK(MPI_Comm_free(&c1));  // frees the keyval while c2 still holds an attribute
  EXPECT_EQ(g_deleted, 1);
  expect_fresh_keyvals_see_nothing(c2, 8);
  ASSERT_OK(MPI_Comm_free(&c2));  // the callback's second free fails (already freed): ignored
  EXPECT_EQ(g_deleted, 2);
}

}  // namespace
