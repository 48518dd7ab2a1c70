// D10 with D8 (R4.5, R6.2): a dup copies attributes oldest first, so when a copy callback fails the
// new object holds exactly the copies of the attributes set before the failing one, whatever their
// copy function (MPI_XXX_DUP_FN or a user's), and only those are deleted again, newest first,
// through their delete callbacks. Nothing set after the failing attribute is copied: no copy
// callback runs for it and no delete callback runs for a copy of it. Communicators (all four dup
// routines) and datatypes; windows are never duplicated (D12).
#include <cstdint>
#include <string>

#include "attr_test_common.h"

namespace {

enum class copy_kind { dup_fn, user, user_fails, null_copy };
struct spec {
  char name;
  copy_kind copy;
  bool user_delete;
};

// The copy callbacks log ("copy", keyval, value in) and fail for the keyval in g_failing; a copy
// gets a value of its own (&g_copies[i]), so a delete callback shows whether it deletes a copy
// made by a copy callback or a value MPI_XXX_DUP_FN copied.
int g_failing = MPI_KEYVAL_INVALID;
int g_copies[64];
int g_ncopies = 0;
// A keyval the next copy callback frees (with g_free_keyval), then forgets.
int* g_free_in_copy = nullptr;
int (*g_free_keyval)(int*) = nullptr;

int copy_common(int k, void* in, void* out, int* flag) {
  cb_log().push_back({"copy", k, in});
  if (g_free_in_copy != nullptr && *g_free_in_copy != MPI_KEYVAL_INVALID) {
    int victim = *g_free_in_copy;
    g_free_in_copy = nullptr;
    if (g_free_keyval(&victim) != MPI_SUCCESS) return MPI_ERR_OTHER;
  }
  if (k == g_failing) return MPI_ERR_INTERN;
  *static_cast<void**>(out) = &g_copies[g_ncopies++ % 64];
  *flag = 1;
  return MPI_SUCCESS;
}
int comm_copy(MPI_Comm, int k, void*, void* in, void* out, int* flag) {
  return copy_common(k, in, out, flag);
}
int type_copy(MPI_Datatype, int k, void*, void* in, void* out, int* flag) {
  return copy_common(k, in, out, flag);
}

struct CommKind {
  using object = MPI_Comm;
  static constexpr int kVariants = 4;  // MPI_Comm_dup, _dup_with_info, _idup, _idup_with_info
  static object make() { return fresh_comm(); }
  static object null() { return MPI_COMM_NULL; }
  static int create(const spec& s, int* k) {
    MPI_Comm_copy_attr_function* copy = s.copy == copy_kind::dup_fn      ? MPI_COMM_DUP_FN
                                        : s.copy == copy_kind::null_copy ? MPI_COMM_NULL_COPY_FN
                                                                         : comm_copy;
    return MPI_Comm_create_keyval(copy, s.user_delete ? log_delete : MPI_COMM_NULL_DELETE_FN, k,
                                  nullptr);
  }
  static int set(object o, int k, void* v) { return MPI_Comm_set_attr(o, k, v); }
  static int get(object o, int k, void** v) { return comm_get(o, k, v); }
  static int del(object o, int k) { return MPI_Comm_delete_attr(o, k); }
  static int dup(int variant, object o, object* out) {
    MPI_Request req = MPI_REQUEST_NULL;
    int rc = MPI_SUCCESS;
    switch (variant) {
      case 0: return MPI_Comm_dup(o, out);
      case 1: return MPI_Comm_dup_with_info(o, MPI_INFO_NULL, out);
      case 2: rc = MPI_Comm_idup(o, out, &req); break;
      default: rc = MPI_Comm_idup_with_info(o, MPI_INFO_NULL, out, &req); break;
    }
    if (rc == MPI_SUCCESS) rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    return rc;
  }
  static int free(object* o) { return MPI_Comm_free(o); }
  static int free_keyval(int* k) { return MPI_Comm_free_keyval(k); }
};

struct TypeKind {
  using object = MPI_Datatype;
  static constexpr int kVariants = 1;
  static object make() { return fresh_type(); }
  static object null() { return MPI_DATATYPE_NULL; }
  static int create(const spec& s, int* k) {
    MPI_Type_copy_attr_function* copy = s.copy == copy_kind::dup_fn      ? MPI_TYPE_DUP_FN
                                        : s.copy == copy_kind::null_copy ? MPI_TYPE_NULL_COPY_FN
                                                                         : type_copy;
    return MPI_Type_create_keyval(copy, s.user_delete ? log_type_delete : MPI_TYPE_NULL_DELETE_FN,
                                  k, nullptr);
  }
  static int set(object o, int k, void* v) { return MPI_Type_set_attr(o, k, v); }
  static int get(object o, int k, void** v) { return type_get(o, k, v); }
  static int del(object o, int k) { return MPI_Type_delete_attr(o, k); }
  static int dup(int, object o, object* out) { return MPI_Type_dup(o, out); }
  static int free(object* o) { return MPI_Type_free(o); }
  static int free_keyval(int* k) { return MPI_Type_free_keyval(k); }
};

// Resets the callbacks' state for one test, and again when it ends.
struct fresh_state {
  fresh_state() { clear(); }
  ~fresh_state() { clear(); }
  static void clear() {
    g_failing = MPI_KEYVAL_INVALID;
    g_free_in_copy = nullptr;
    cb_log().clear();
    g_ncopies = 0;
  }
};

template <typename Kind>
struct harness {
  static void reset() {
    cb_log().clear();
    g_ncopies = 0;
  }
  // A keyval per spec, each with an attribute set in order; value i is &values[i].
  struct scene {
    typename Kind::object obj;
    std::string names;
    std::vector<int> keys;  // the handles, kept after a free so that events() can name them
    std::string freed;      // the names of the keyvals the test freed itself
    int values[16];
    int key(char name) const { return keys[names.find(name)]; }
    void* value(char name) { return &values[names.find(name)]; }
    char name_of(int k) const {
      for (std::size_t i = 0; i < keys.size(); ++i)
        if (keys[i] == k) return names[i];
      return '?';
    }
  };
  static void build(scene& s, const std::vector<spec>& specs) {
    s.obj = Kind::make();
    for (const spec& sp : specs) {
      int k = MPI_KEYVAL_INVALID;
      ASSERT_OK(Kind::create(sp, &k));
      s.names.push_back(sp.name);
      s.keys.push_back(k);
      ASSERT_OK(Kind::set(s.obj, k, s.value(sp.name)));
      if (sp.copy == copy_kind::user_fails) g_failing = k;
    }
  }
  // The log as "copy B, delete C, ..." with keyval names.
  static std::string events(const scene& s) {
    std::string out;
    for (const auto& e : cb_log()) {
      if (!out.empty()) out += ", ";
      out += e.what + " " + s.name_of(e.keyval);
    }
    return out;
  }
  // Duplicates s.obj with a failing copy callback: the call fails and gives the null handle.
  static void failed_dup(int variant, scene& s) {
    typename Kind::object d = s.obj;
    int rc = Kind::dup(variant, s.obj, &d);
    EXPECT_EQ(error_class(rc), MPI_ERR_INTERN) << error_string(rc);
    EXPECT_EQ(d, Kind::null());
  }
  static void free_all(scene& s) {
    if (s.obj != Kind::null()) ASSERT_OK(Kind::free(&s.obj));
    for (std::size_t i = 0; i < s.keys.size(); ++i)
      if (s.freed.find(s.names[i]) == std::string::npos) {
        int k = s.keys[i];
        Kind::free_keyval(&k);
      }
  }
};

constexpr copy_kind kDup = copy_kind::dup_fn, kUser = copy_kind::user,
                    kFails = copy_kind::user_fails, kNull = copy_kind::null_copy;

// A mix of MPI_XXX_DUP_FN and user copy callbacks on both sides of the failing one, a NULL copy
// function, and a replaced value (which counts as newest, D10).
template <typename K>
void D10_failed_dup_rollback_order() {
  using H = harness<K>;
  fresh_state state;
  for (int variant = 0; variant < K::kVariants; ++variant) {
    SCOPED_TRACE(variant);
    H::reset();
    typename H::scene s;
    H::build(s, {{'A', kDup, true},
                 {'B', kUser, true},
                 {'C', kDup, true},
                 {'N', kDup, false},
                 {'F', kFails, true},
                 {'D', kDup, true},
                 {'E', kUser, true},
                 {'G', kNull, true}});
    int a2 = 0;
    ASSERT_OK(K::set(s.obj, s.key('A'), &a2));  // A is the newest now: set after F
    ASSERT_EQ(H::events(s), "delete A") << "the replaced value's delete callback";
    H::reset();

    H::failed_dup(variant, s);
    // Copies oldest first: B's callback, then F's, which fails; A (replaced), D and E come after F.
    // The copies made (B by its callback, C by MPI_XXX_DUP_FN; N has no delete callback) are
    // deleted newest first.
    EXPECT_EQ(H::events(s), "copy B, copy F, delete C, delete B");
    ASSERT_EQ(cb_log().size(), 4u);
    EXPECT_EQ(cb_log()[2].value, s.value('C')) << "MPI_XXX_DUP_FN copied C's value itself";
    EXPECT_NE(cb_log()[3].value, s.value('B')) << "B's copy is the value its copy callback made";

    // The original is untouched.
    for (char n : std::string("BCNFDEG")) {
      void* v = nullptr;
      ASSERT_EQ(K::get(s.obj, s.key(n), &v), 1) << n;
      EXPECT_EQ(v, s.value(n)) << n;
    }
    void* v = nullptr;
    ASSERT_EQ(K::get(s.obj, s.key('A'), &v), 1);
    EXPECT_EQ(v, &a2);

    // Once F copies, the same dup succeeds and copies everything in the same order.
    g_failing = MPI_KEYVAL_INVALID;
    H::reset();
    typename K::object d = K::null();
    ASSERT_OK(K::dup(variant, s.obj, &d));
    EXPECT_EQ(H::events(s), "copy B, copy F, copy E");
    H::reset();
    ASSERT_OK(K::free(&d));
    EXPECT_EQ(H::events(s), "delete A, delete E, delete D, delete F, delete C, delete B");
    H::reset();
    H::free_all(s);
    EXPECT_EQ(H::events(s), "delete A, delete G, delete E, delete D, delete F, delete C, delete B");
  }
}

template <typename K>
void D10_failed_dup_oldest_attribute_fails_nothing_copied() {
  using H = harness<K>;
  fresh_state state;
  for (int variant = 0; variant < K::kVariants; ++variant) {
    SCOPED_TRACE(variant);
    H::reset();
    typename H::scene s;
    H::build(s, {{'F', kFails, true}, {'A', kDup, true}, {'B', kUser, true}, {'C', kDup, true}});
    H::failed_dup(variant, s);
    EXPECT_EQ(H::events(s), "copy F");
    H::reset();
    H::free_all(s);
    EXPECT_EQ(H::events(s), "delete C, delete B, delete A, delete F");
  }
}

template <typename K>
void D10_failed_dup_newest_attribute_fails_all_others_deleted_newest_first() {
  using H = harness<K>;
  fresh_state state;
  for (int variant = 0; variant < K::kVariants; ++variant) {
    SCOPED_TRACE(variant);
    H::reset();
    typename H::scene s;
    H::build(s, {{'A', kDup, true}, {'B', kUser, true}, {'C', kDup, true}, {'F', kFails, true}});
    H::failed_dup(variant, s);
    EXPECT_EQ(H::events(s), "copy B, copy F, delete C, delete B, delete A");
    H::reset();
    H::free_all(s);
    EXPECT_EQ(H::events(s), "delete F, delete C, delete B, delete A");
  }
}

// The copies of attributes newer than the failing one are not made, so they hold no reference to
// their keyval (R2.2, D6, D20): a keyval the program freed lives exactly as long as the attributes
// on the original, whether it was freed before the dup or by a copy callback during it.
template <typename K>
void D10_D20_failed_dup_leaves_freed_keyvals_only_the_originals_attributes() {
  using H = harness<K>;
  fresh_state state;
  for (int variant = 0; variant < K::kVariants; ++variant) {
    for (bool during : {false, true}) {
      SCOPED_TRACE(std::to_string(variant) + (during ? " freed during the dup" : " freed before"));
      H::reset();
      typename H::scene s;
      H::build(s,
               {{'A', kDup, true}, {'B', kUser, false}, {'F', kFails, false}, {'D', kDup, true}});
      const int stale_a = s.key('A'), stale_d = s.key('D');
      int free_a = stale_a, free_d = stale_d;
      ASSERT_OK(K::free_keyval(&free_a));
      if (during) {
        g_free_in_copy = &free_d;  // B's copy callback frees D while the dup runs
        g_free_keyval = K::free_keyval;
      } else {
        ASSERT_OK(K::free_keyval(&free_d));
      }
      s.freed = "AD";  // D: one way or the other
      H::failed_dup(variant, s);
      EXPECT_EQ(H::events(s), "copy B, copy F, delete A");
      H::reset();

      void* v = nullptr;
      ASSERT_EQ(K::get(s.obj, stale_a, &v), 1);
      EXPECT_EQ(v, s.value('A'));
      ASSERT_EQ(K::get(s.obj, stale_d, &v), 1);
      EXPECT_EQ(v, s.value('D'));
      ASSERT_OK(K::del(s.obj, stale_d));
      ASSERT_OK(K::del(s.obj, stale_a));
      EXPECT_EQ(H::events(s), "delete D, delete A");
      EXPECT_EQ(K::get(s.obj, stale_d, &v), -1) << "D's key outlived its last attribute";
      EXPECT_EQ(K::get(s.obj, stale_a, &v), -1) << "A's key outlived its last attribute";
      H::free_all(s);
    }
  }
}

TEST(D10, D10_failed_dup_rollback_order_comm) { D10_failed_dup_rollback_order<CommKind>(); }
TEST(D10, D10_failed_dup_rollback_order_type) { D10_failed_dup_rollback_order<TypeKind>(); }
TEST(D10, D10_failed_dup_oldest_attribute_fails_nothing_copied_comm) {
  D10_failed_dup_oldest_attribute_fails_nothing_copied<CommKind>();
}
TEST(D10, D10_failed_dup_oldest_attribute_fails_nothing_copied_type) {
  D10_failed_dup_oldest_attribute_fails_nothing_copied<TypeKind>();
}
TEST(D10, D10_failed_dup_newest_attribute_fails_all_others_deleted_newest_first_comm) {
  D10_failed_dup_newest_attribute_fails_all_others_deleted_newest_first<CommKind>();
}
TEST(D10, D10_failed_dup_newest_attribute_fails_all_others_deleted_newest_first_type) {
  D10_failed_dup_newest_attribute_fails_all_others_deleted_newest_first<TypeKind>();
}
TEST(D10, D10_D20_failed_dup_leaves_freed_keyvals_only_the_originals_attributes_comm) {
  D10_D20_failed_dup_leaves_freed_keyvals_only_the_originals_attributes<CommKind>();
}
TEST(D10, D10_D20_failed_dup_leaves_freed_keyvals_only_the_originals_attributes_type) {
  D10_D20_failed_dup_leaves_freed_keyvals_only_the_originals_attributes<TypeKind>();
}

}  // namespace
