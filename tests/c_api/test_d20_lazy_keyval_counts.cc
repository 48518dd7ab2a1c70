// D20 / R2.2: a freed keyval lives until its last attribute is gone. Below MPI_THREAD_MULTIPLE
// attributes are counted only once their keyval is freed (keyval.h); these tests free keyvals at
// the awkward moments (attributes on several objects, a dup in progress, a delete callback
// running) and check that the keyval's index is not handed to a new keyval while an attribute
// still uses it: if it were, the new keyval would see the old attribute. The last ones free a
// keyval while other threads duplicate objects carrying it (MPI_THREAD_MULTIPLE), or between a
// thread's own dups, and check that its count comes out exact (freed_during_dups below).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <random>
#include <thread>

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

// ---------------------------------------------------------------------------------------------
// A keyval freed while objects carrying its attribute are being duplicated (R2.2, D6, D20; at
// MPI_THREAD_MULTIPLE R11.1: by other threads, at any moment). Whatever counts the keyval's
// attributes (eager atomic counts, or a census when the keyval is freed that must also find the
// objects a concurrent dup is still filling), the count must come out exact:
//  - too low, the key would go (its index recycled) while attributes still use it: a read
//    through the saved handle on a surviving object would be refused or find nothing, and a new
//    keyval could take the index and see the old attribute;
//  - too high (an attribute counted twice, or one never given back), the key would never go:
//    once the last attribute is gone the saved handle would still be accepted (flag 0) instead
//    of refused with MPI_ERR_KEYVAL.
// So each round checks, after the dups: every surviving object reads its own value through the
// saved handle; keyvals created meanwhile and afterwards take other indices (D2: the index is
// the low 20 bits of a handle; D6: it stays taken while the key lives) and see nothing of it;
// then the attributes are removed one by one, in random order, by freeing objects or deleting
// through the saved handle: after each removal the delete callbacks have run exactly once per
// attribute removed, the remaining objects still read their values and no new keyval takes the
// index; after the last one the saved handle is refused (MPI_ERR_KEYVAL).
//
// Three kinds of keyval take turns: MPI_XXX_DUP_FN with a counting delete callback, a user copy
// callback (each copy's value is its source's plus one, so a value also says how many copies
// away from the original it is) with a counting delete callback, and MPI_XXX_DUP_FN with no
// delete callback (the objects are then "plain": dups copy their slots wholesale and frees drop
// them without looking at each attribute, the path where a count is easiest to miss).
namespace freed_during_dups {

enum class copy_mode { dup_fn, user, plain };
constexpr int kModes = 3;
constexpr int kMaxThreads = 3;
constexpr std::size_t kKeepPerThread = 6;

std::atomic<long> g_copies{0}, g_deletes{0}, g_bad_callbacks{0};
std::atomic<long> g_overlaps{0};        // dups that were running when the keyval was freed
std::atomic<int> g_handle{0};           // the round's keyval, as created
std::atomic<std::uintptr_t> g_tag{0};   // the round's values are g_tag | copies-from-the-original

std::uintptr_t round_tag(int round) {
  return (std::uintptr_t{0x5A} << 40) | (static_cast<std::uintptr_t>(round + 1) << 16);
}
void* as_value(std::uintptr_t u) { return reinterpret_cast<void*>(u); }
bool of_this_round(void* v) {
  return (reinterpret_cast<std::uintptr_t>(v) & ~std::uintptr_t{0xFFFF}) == g_tag.load();
}
std::uint32_t keyval_index(int keyval) { return static_cast<std::uint32_t>(keyval) & 0xFFFFFu; }

// A copy that takes a little while, so that a free in another thread can land between the dup's
// snapshot of the old object and the copy's arrival on the new one.
void* copy_value(int k, void* in) {
  if (k != g_handle.load() || !of_this_round(in)) ++g_bad_callbacks;
  ++g_copies;
  for (int spin = 0; spin < 300; ++spin) asm volatile("" ::: "memory");
  return as_value(reinterpret_cast<std::uintptr_t>(in) + 1);
}
void note_delete(int k, void* v) {
  if (k != g_handle.load() || !of_this_round(v)) ++g_bad_callbacks;
  ++g_deletes;
}
int comm_copy(MPI_Comm, int k, void*, void* in, void* out, int* flag) {
  *static_cast<void**>(out) = copy_value(k, in);
  *flag = 1;
  return MPI_SUCCESS;
}
int comm_delete(MPI_Comm, int k, void* v, void*) {
  note_delete(k, v);
  return MPI_SUCCESS;
}
int type_copy(MPI_Datatype, int k, void*, void* in, void* out, int* flag) {
  *static_cast<void**>(out) = copy_value(k, in);
  *flag = 1;
  return MPI_SUCCESS;
}
int type_delete(MPI_Datatype, int k, void* v, void*) {
  note_delete(k, v);
  return MPI_SUCCESS;
}

struct comm_ops {
  using object = MPI_Comm;
  static object make() { return fresh_comm(); }
  static int create_keyval(copy_mode m, int* k) {
    return MPI_Comm_create_keyval(m == copy_mode::user ? comm_copy : MPI_COMM_DUP_FN,
                                  m == copy_mode::plain ? MPI_COMM_NULL_DELETE_FN : comm_delete, k,
                                  nullptr);
  }
  static int create_uncopied_keyval(int* k) {
    return MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, k, nullptr);
  }
  static int create_filler_keyval(int* k) {
    return MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, k, nullptr);
  }
  static int free_keyval(int* k) { return MPI_Comm_free_keyval(k); }
  static int dup(object o, object* d) { return MPI_Comm_dup(o, d); }
  static int free(object* o) { return MPI_Comm_free(o); }
  static int set(object o, int k, void* v) { return MPI_Comm_set_attr(o, k, v); }
  static int get(object o, int k, void** v, int* flag) { return MPI_Comm_get_attr(o, k, v, flag); }
  static int del(object o, int k) { return MPI_Comm_delete_attr(o, k); }
};

struct type_ops {
  using object = MPI_Datatype;
  static object make() { return fresh_type(); }
  static int create_keyval(copy_mode m, int* k) {
    return MPI_Type_create_keyval(m == copy_mode::user ? type_copy : MPI_TYPE_DUP_FN,
                                  m == copy_mode::plain ? MPI_TYPE_NULL_DELETE_FN : type_delete, k,
                                  nullptr);
  }
  static int create_uncopied_keyval(int* k) {
    return MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, k, nullptr);
  }
  static int create_filler_keyval(int* k) {
    return MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, k, nullptr);
  }
  static int free_keyval(int* k) { return MPI_Type_free_keyval(k); }
  static int dup(object o, object* d) { return MPI_Type_dup(o, d); }
  static int free(object* o) { return MPI_Type_free(o); }
  static int set(object o, int k, void* v) { return MPI_Type_set_attr(o, k, v); }
  static int get(object o, int k, void** v, int* flag) { return MPI_Type_get_attr(o, k, v, flag); }
  static int del(object o, int k) { return MPI_Type_delete_attr(o, k); }
};

// What a get that should have read `want` returned, for a failure's message.
std::string describe_read(int rc, int flag, void* v, std::uintptr_t want, bool freeing, bool freed) {
  char text[MPI_MAX_ERROR_STRING] = "";
  int len = 0;
  if (rc != MPI_SUCCESS) MPI_Error_string(rc, text, &len);
  return (::testing::Message() << "rc " << rc << " (" << text << "), flag " << flag << ", value " << v
                               << " for " << as_value(want) << ", the free "
                               << (freed ? "done" : freeing ? "under way" : "not begun"))
      .GetString();
}

template <class Ops>
struct held {
  typename Ops::object obj;
  std::uintptr_t value;  // of the round's attribute on it
};

// Whether `o` reads `want` through keyval `k` (flag 1 and that value).
template <class Ops>
bool reads(typename Ops::object o, int k, std::uintptr_t want) {
  void* v = nullptr;
  int flag = 0;
  return Ops::get(o, k, &v, &flag) == MPI_SUCCESS && flag == 1 && v == as_value(want);
}
// Whether `o` has nothing under keyval `k` (success, flag 0).
template <class Ops>
bool has_nothing(typename Ops::object o, int k) {
  void* v = nullptr;
  int flag = 1;
  return Ops::get(o, k, &v, &flag) == MPI_SUCCESS && flag == 0;
}

// One round: the original object carries two filler attributes (MPI_XXX_DUP_FN) around the
// round's keyval k; `threads` threads (0: the main thread itself) duplicate it and their
// duplicates, keeping some, while k is freed at a random moment. Then the checks above.
template <class Ops>
void run_round(int round, copy_mode mode, int threads, std::mt19937& rng, const int (&fillers)[2]) {
  using object = typename Ops::object;
  const std::uintptr_t tag = round_tag(round);
  const std::uintptr_t step = mode == copy_mode::user ? 1 : 0;  // a user copy adds 1
  const bool counts_deletes = mode != copy_mode::plain;
  g_tag = tag;
  g_copies = 0;
  g_deletes = 0;

  object orig = Ops::make();
  int k = MPI_KEYVAL_INVALID;
  ASSERT_OK(Ops::set(orig, fillers[0], as_value(tag | 0x1111)));
  ASSERT_OK(Ops::create_keyval(mode, &k));
  const int handle = k;
  g_handle = handle;
  ASSERT_OK(Ops::set(orig, k, as_value(tag)));
  ASSERT_OK(Ops::set(orig, fillers[1], as_value(tag | 0x2222)));

  std::atomic<bool> freeing{false}, freed{false};
  std::atomic<long> dups{0}, errors{0}, bad_reads{0};
  std::string first_bad_read;  // (written by the thread whose bad read was the first)
  std::atomic<int> after_free[kMaxThreads] = {};
  std::vector<std::vector<held<Ops>>> kept(static_cast<std::size_t>(threads > 0 ? threads : 1));
  const unsigned seed = static_cast<unsigned>(rng());

  // One dup by worker `t` (its generator `r`): from the original or one of its own duplicates;
  // the copy must read its value through the handle at once (live or freed: D6 either way).
  auto dup_once = [&](int t, std::mt19937& r) {
    auto& mine = kept[static_cast<std::size_t>(t)];
    held<Ops> src{orig, tag};
    if (!mine.empty() && r() % 3 != 0) src = mine[r() % mine.size()];
    object d;
    if (Ops::dup(src.obj, &d) != MPI_SUCCESS) {
      ++errors;
      return false;
    }
    ++dups;
    held<Ops> h{d, src.value + step};
    {
      void* v = nullptr;
      int flag = 0;
      const int rc = Ops::get(d, handle, &v, &flag);
      if ((rc != MPI_SUCCESS || flag != 1 || v != as_value(h.value)) && bad_reads++ == 0)
        first_bad_read = describe_read(rc, flag, v, h.value, freeing.load(), freed.load());
    }
    if (mine.size() < kKeepPerThread && (r() & 1)) {
      mine.push_back(h);
    } else if (Ops::free(&d) != MPI_SUCCESS) {
      ++errors;
    }
    return true;
  };

  std::vector<int> fresh;  // keyvals created while the freed one still has attributes
  auto make_fresh = [&](int n) {
    for (int i = 0; i < n; ++i) {
      int f = MPI_KEYVAL_INVALID;
      EXPECT_OK(Ops::create_uncopied_keyval(&f));
      if (f == MPI_KEYVAL_INVALID) continue;
      EXPECT_NE(keyval_index(f), keyval_index(handle))
          << "a new keyval took the index of a freed keyval whose attributes still exist";
      fresh.push_back(f);
      // It is set on the original only (NULL_COPY_FN: dups do not copy it); its value is its
      // handle. A stale read on the original must still give the round's own value.
      EXPECT_OK(Ops::set(orig, f, as_value(static_cast<std::uint32_t>(f))));
    }
  };
  auto free_k = [&] {
    freeing = true;
    EXPECT_OK(Ops::free_keyval(&k));
    EXPECT_EQ(k, MPI_KEYVAL_INVALID);
    freed = true;
    make_fresh(2);
    EXPECT_TRUE(reads<Ops>(orig, handle, tag)) << "just after the free";
  };

  if (threads == 0) {
    // The main thread alone: k is freed before dup number `at` (0..n; n: after the last one).
    const int n = 6 + static_cast<int>(rng() % 12);
    const int at = static_cast<int>(rng() % static_cast<unsigned>(n + 1));
    std::mt19937 r(seed);
    for (int i = 0; i <= n; ++i) {
      if (i == at) free_k();
      if (i < n && !dup_once(0, r)) break;
    }
  } else {
    // The free comes after a random number of dups (0 included) and a random spin, while the
    // workers go on; each worker stops after two dups it began once the free was done (and
    // waits for the free after 32 dups, so that a round stays short when the main thread is
    // not scheduled).
    const long free_after = static_cast<long>(rng() % static_cast<unsigned>(4 * threads));
    const int spin = static_cast<int>(rng() % 3000);
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t)
      workers.emplace_back([&, t] {
        std::mt19937 r(seed + static_cast<unsigned>(t));
        for (int mine = 0; after_free[t].load() < 2;) {
          const bool after = freed.load();
          if (!after && mine >= 32) {
            std::this_thread::yield();
            continue;
          }
          if (!dup_once(t, r)) break;
          ++mine;
          if (after) ++after_free[t];
          // Began before the free was done and ended after it had begun:
          if (!after && freeing.load()) ++g_overlaps;
        }
      });
    const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (dups.load() < free_after && errors.load() == 0 &&
           std::chrono::steady_clock::now() < limit)
      std::this_thread::yield();
    for (int i = 0; i < spin; ++i) asm volatile("" ::: "memory");
    free_k();
    for (auto& w : workers) w.join();
    for (int t = 0; t < threads; ++t)
      EXPECT_TRUE(after_free[t].load() >= 2 || errors.load() != 0)
          << "worker " << t << " made " << after_free[t].load() << " dups after the free";
  }
  EXPECT_EQ(errors.load(), 0) << "a dup or free failed";
  EXPECT_EQ(bad_reads.load(), 0) << "a new duplicate did not read its value through the handle; the first: "
                                 << first_bad_read;

  // The survivors: the original first, then the kept duplicates.
  std::vector<held<Ops>> alive{{orig, tag}};
  for (auto& v : kept) alive.insert(alive.end(), v.begin(), v.end());
  const long total_dups = dups.load();
  const long attributes = 1 + total_dups;  // each dup copied the attribute once
  EXPECT_EQ(g_copies.load(), mode == copy_mode::user ? total_dups : 0);
  // The duplicates freed during the dups deleted their copies.
  const long freed_early = total_dups - static_cast<long>(alive.size() - 1);
  EXPECT_EQ(g_deletes.load(), counts_deletes ? freed_early : 0);

  // Every survivor reads its own value through the freed keyval (D6).
  for (std::size_t i = 0; i < alive.size(); ++i)
    EXPECT_TRUE(reads<Ops>(alive[i].obj, handle, alive[i].value))
        << "survivor " << i << " of " << alive.size() << " (0: the original), dups " << total_dups;
  // Keyvals created meanwhile, and now, see nothing of it (and take other indices).
  make_fresh(4);
  for (int f : fresh)
    for (std::size_t i = 0; i < alive.size(); ++i) {
      if (i == 0) {
        EXPECT_TRUE(reads<Ops>(orig, f, static_cast<std::uint32_t>(f)));
      } else {
        EXPECT_TRUE(has_nothing<Ops>(alive[i].obj, f)) << "a new keyval sees an attribute on a dup";
      }
    }

  // Remove the attributes one at a time, in random order.
  std::shuffle(alive.begin(), alive.end(), rng);
  long removed = freed_early;
  bool orig_alive = true;
  for (std::size_t i = 0; i < alive.size(); ++i) {
    held<Ops>& h = alive[i];
    const bool is_orig = h.obj == orig;
    if (is_orig ? (rng() & 1) : (rng() % 4 == 0)) {
      EXPECT_OK(Ops::del(h.obj, handle));  // through the freed keyval (D6)
      EXPECT_TRUE(has_nothing<Ops>(h.obj, handle) || i + 1 == alive.size());
      if (!is_orig) {
        EXPECT_OK(Ops::free(&h.obj));
      }
    } else {
      EXPECT_OK(Ops::free(&h.obj));
      if (is_orig) orig_alive = false;
    }
    ++removed;
    if (counts_deletes) {
      EXPECT_EQ(g_deletes.load(), removed) << "after removal " << i;
    }
    for (std::size_t j = i + 1; j < alive.size(); ++j)
      EXPECT_TRUE(reads<Ops>(alive[j].obj, handle, alive[j].value))
          << "the freed keyval went while " << alive.size() - i - 1 << " attributes remained";
    if (i + 1 < alive.size()) {  // its index is still taken
      int probe = MPI_KEYVAL_INVALID;
      EXPECT_OK(Ops::create_uncopied_keyval(&probe));
      EXPECT_NE(keyval_index(probe), keyval_index(handle))
          << "index reused while " << alive.size() - i - 1 << " attributes remained";
      EXPECT_OK(Ops::free_keyval(&probe));
    }
  }
  EXPECT_EQ(removed, attributes);
  if (counts_deletes) {
    EXPECT_EQ(g_deletes.load(), attributes);
  }
  EXPECT_EQ(g_bad_callbacks.load(), 0) << "a callback got another keyval or value";

  // The last attribute is gone: so is the key, and the saved handle is refused (D6).
  object probe_obj = orig_alive ? orig : Ops::make();
  void* v = nullptr;
  int flag = 0;
  EXPECT_CLASS(Ops::get(probe_obj, handle, &v, &flag), MPI_ERR_KEYVAL);
  EXPECT_CLASS(Ops::del(probe_obj, handle), MPI_ERR_KEYVAL);
  for (int& f : fresh) {
    if (orig_alive) {
      EXPECT_OK(Ops::del(orig, f));
    }
    EXPECT_OK(Ops::free_keyval(&f));
  }
  EXPECT_OK(Ops::free(&probe_obj));
}

template <class Ops>
void run_rounds(int threads, int min_rounds, std::chrono::milliseconds budget, unsigned seed) {
  g_bad_callbacks = 0;
  g_overlaps = 0;
  int fillers[2];
  for (int& f : fillers) ASSERT_OK(Ops::create_filler_keyval(&f));
  // The random choices differ from run to run; --gtest_random_seed=N replays a run's.
  const int run_seed = ::testing::UnitTest::GetInstance()->random_seed();
  std::mt19937 rng(seed ^ static_cast<unsigned>(run_seed));
  const auto deadline = std::chrono::steady_clock::now() + budget;
  int round = 0;
  for (; round < min_rounds || std::chrono::steady_clock::now() < deadline; ++round) {
    const auto mode = static_cast<copy_mode>(round % kModes);
    SCOPED_TRACE(::testing::Message() << "round " << round << ", mode " << static_cast<int>(mode)
                                      << ", --gtest_random_seed=" << run_seed);
    run_round<Ops>(round, mode, threads, rng, fillers);
    if (::testing::Test::HasFailure()) break;  // one round's messages are enough
  }
  ::testing::Test::RecordProperty("rounds", round);
  if (threads > 0)  // how often the free landed inside a dup (shown with --gtest_output=xml)
    ::testing::Test::RecordProperty("dups_overlapping_the_free",
                                    static_cast<int>(g_overlaps.load()));
  for (int& f : fillers) ASSERT_OK(Ops::free_keyval(&f));
}

}  // namespace freed_during_dups

TEST(D20, R11_1_D20_keyval_freed_during_concurrent_dups_lives_until_its_last_attribute) {
  REQUIRE_THREAD_MULTIPLE();
  freed_during_dups::run_rounds<freed_during_dups::comm_ops>(3, 60, std::chrono::milliseconds(300),
                                                              20240601u);
}

TEST(D20, R11_1_D20_type_keyval_freed_during_concurrent_dups_lives_until_its_last_attribute) {
  REQUIRE_THREAD_MULTIPLE();
  freed_during_dups::run_rounds<freed_during_dups::type_ops>(3, 60, std::chrono::milliseconds(300),
                                                              20240602u);
}

// D81: a get through a copy of the handle, in another thread, while the keyval is being freed
// reads the attribute: the keyval is live or freed with its attributes counted (D6), never in
// between. (Before D81 the free removed the handle before it marked the keyval counted, and a
// get in that window failed with MPI_ERR_KEYVAL "has been freed".) A reader gets through the
// round's handle without pause while the main thread frees the keyval; then, once no reader is
// inside a get, the attribute is deleted through the handle and the keyval is gone.
TEST(D20, R11_1_D81_get_through_the_handle_while_another_thread_frees_the_keyval) {
  using freed_during_dups::as_value;
  using freed_during_dups::describe_read;
  REQUIRE_THREAD_MULTIPLE();
  constexpr int kReaders = 1;  // (with the main thread, one per core of a two-core machine)
  MPI_Comm c = fresh_comm();
  std::atomic<int> current{0};  // the round's keyval while the readers may get through it
  std::atomic<int> inside[kReaders] = {};  // the handle a reader is getting through, or 0
  std::atomic<long> reads[kReaders] = {};
  std::atomic<long> bad{0}, during_free{0};
  std::atomic<bool> freeing{false}, stop{false};
  std::string first_bad;
  std::vector<std::thread> readers;
  for (int t = 0; t < kReaders; ++t)
    readers.emplace_back([&, t] {
      while (!stop.load()) {
        const int h = current.load();
        if (h == 0) {
          std::this_thread::yield();
          continue;
        }
        inside[t].store(h);
        if (current.load() == h) {
          void* v = nullptr;
          int flag = 0;
          const bool in_free = freeing.load();
          const int rc = MPI_Comm_get_attr(c, h, &v, &flag);
          if ((rc != MPI_SUCCESS || flag != 1 || v != as_value(static_cast<std::uint32_t>(h))) && bad++ == 0)
            first_bad = describe_read(rc, flag, v, static_cast<std::uint32_t>(h), in_free, !in_free);
          if (in_free) ++during_free;
          ++reads[t];
        }
        inside[t].store(0);
      }
    });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
  int round = 0;
  for (; (round < 100 || std::chrono::steady_clock::now() < deadline) && bad.load() == 0; ++round) {
    int k = MPI_KEYVAL_INVALID;
    ASSERT_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &k, nullptr));
    const int handle = k;
    ASSERT_OK(MPI_Comm_set_attr(c, k, as_value(static_cast<std::uint32_t>(handle))));
    long before[kReaders];
    for (int t = 0; t < kReaders; ++t) before[t] = reads[t].load();
    current.store(handle);
    // Free once each reader is getting through it (or after 2 ms: a reader not scheduled).
    const auto wait_until = std::chrono::steady_clock::now() + std::chrono::milliseconds(2);
    for (int t = 0; t < kReaders; ++t)
      while (reads[t].load() == before[t] && std::chrono::steady_clock::now() < wait_until) {
      }
    freeing.store(true);
    ASSERT_OK(MPI_Comm_free_keyval(&k));
    freeing.store(false);
    for (int t = 0; t < kReaders; ++t) before[t] = reads[t].load();
    const auto after_until = std::chrono::steady_clock::now() + std::chrono::milliseconds(2);
    for (int t = 0; t < kReaders; ++t)
      while (reads[t].load() < before[t] + 2 && std::chrono::steady_clock::now() < after_until) {
      }
    current.store(0);
    for (int t = 0; t < kReaders; ++t)
      while (inside[t].load() == handle) std::this_thread::yield();
    ASSERT_OK(MPI_Comm_delete_attr(c, handle));  // the last attribute: the keyval goes (D6)
    void* v = nullptr;
    int flag = 0;
    EXPECT_CLASS(MPI_Comm_get_attr(c, handle, &v, &flag), MPI_ERR_KEYVAL);
  }
  stop.store(true);
  for (auto& r : readers) r.join();
  EXPECT_EQ(bad.load(), 0) << "a get through the handle failed while the keyval was freed, round "
                           << round - 1 << ": " << first_bad;
  ::testing::Test::RecordProperty("rounds", round);
  ::testing::Test::RecordProperty("gets_during_the_free", static_cast<int>(during_free.load()));
  ASSERT_OK(MPI_Comm_free(&c));
}

// The same rounds with no threads: the main thread frees the keyval between two of its dups (or
// before the first, or after the last). Runs at both thread levels (.single: the lazy counts of
// D20 and the fast paths of D19).
TEST(D20, R2_2_D20_keyval_freed_between_dups_lives_until_its_last_attribute) {
  freed_during_dups::run_rounds<freed_during_dups::comm_ops>(0, 90, std::chrono::milliseconds(0),
                                                              20240603u);
  freed_during_dups::run_rounds<freed_during_dups::type_ops>(0, 90, std::chrono::milliseconds(0),
                                                              20240604u);
}

}  // namespace
