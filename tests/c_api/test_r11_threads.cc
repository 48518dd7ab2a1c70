// R11 (MPI_THREAD_MULTIPLE): 4 threads doing mixed set/get/delete/dup/free on shared and private
// communicators and creating/freeing keyvals, with callbacks counting invocations atomically.
// Checks: every value read back (or handed to a callback) is one written for that key; delete
// callbacks equal the values removed (each stored value, including each copy, is removed exactly
// once by the end); no keyval leak (keyvals can still be created and used afterwards).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include "attr_test_common.h"

namespace {

constexpr int kThreads = 4;
constexpr int kSharedKeys = 4;
constexpr int kMaxIters = 20000;

std::atomic<long> g_copies{0}, g_deletes{0}, g_bad_values{0};
std::atomic<long> g_written[kThreads];

// A value says which key (extra_state tag) it was written for, which thread and which write.
void* encode(int tag, int tid, long n) {
  return reinterpret_cast<void*>((static_cast<std::uintptr_t>(tag + 1) << 40) |
                                 (static_cast<std::uintptr_t>(tid + 1) << 32) | static_cast<std::uint32_t>(n));
}
bool valid_for(void* v, int tag) {
  auto u = reinterpret_cast<std::uintptr_t>(v);
  int t = static_cast<int>(u >> 40) - 1;
  int tid = static_cast<int>((u >> 32) & 0xFF) - 1;
  long n = static_cast<long>(u & 0xFFFFFFFFu);
  return t == tag && tid >= 0 && tid < kThreads && n < g_written[tid].load();
}

int t_copy(MPI_Comm, int, void* extra, void* in, void* out, int* flag) {
  if (!valid_for(in, static_cast<int>(reinterpret_cast<std::intptr_t>(extra)))) ++g_bad_values;
  ++g_copies;
  *static_cast<void**>(out) = in;
  *flag = 1;
  return MPI_SUCCESS;
}
int t_delete(MPI_Comm, int, void* v, void* extra) {
  if (!valid_for(v, static_cast<int>(reinterpret_cast<std::intptr_t>(extra)))) ++g_bad_values;
  ++g_deletes;
  return MPI_SUCCESS;
}

TEST(R11_Threads, R11_1_concurrent_caching_is_consistent) {
  REQUIRE_THREAD_MULTIPLE();
  for (auto& w : g_written) w = 0;
  g_copies = g_deletes = g_bad_values = 0;

  MPI_Comm shared = fresh_comm();
  int keys[kSharedKeys];
  for (int j = 0; j < kSharedKeys; ++j)
    ASSERT_OK(MPI_Comm_create_keyval(t_copy, t_delete, &keys[j], reinterpret_cast<void*>(static_cast<std::intptr_t>(j))));

  std::atomic<long> stores{0};  // successful set_attr calls (each stores one value)
  std::atomic<long> unexpected_errors{0};
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);

  auto worker = [&](int tid) {
    std::mt19937 rng(1234u + static_cast<unsigned>(tid));
    MPI_Comm mine = fresh_comm();
    const int private_tag = kSharedKeys + tid;
    for (int it = 0; it < kMaxIters && std::chrono::steady_clock::now() < deadline; ++it) {
      int j = static_cast<int>(rng() % kSharedKeys);
      MPI_Comm target = (rng() & 1) ? shared : mine;
      switch (rng() % 8) {
        case 0:
        case 1: {  // set (concurrent replace/delete of the same attribute may fail with ERR_OTHER)
          long n = g_written[tid]++;
          int rc = MPI_Comm_set_attr(target, keys[j], encode(j, tid, n));
          if (rc == MPI_SUCCESS) ++stores;
          else if (error_class(rc) != MPI_ERR_OTHER) ++unexpected_errors;
          break;
        }
        case 2:
        case 3: {  // get
          void* v = nullptr;
          int flag = 0;
          if (MPI_Comm_get_attr(target, keys[j], &v, &flag) != MPI_SUCCESS) ++unexpected_errors;
          else if (flag && !valid_for(v, j)) ++g_bad_values;
          break;
        }
        case 4: {  // delete
          int rc = MPI_Comm_delete_attr(target, keys[j]);
          if (rc != MPI_SUCCESS && error_class(rc) != MPI_ERR_OTHER) ++unexpected_errors;
          break;
        }
        case 5: {  // dup and free (copies of shared or private attributes)
          MPI_Comm d = MPI_COMM_NULL;
          if (MPI_Comm_dup(target, &d) != MPI_SUCCESS) { ++unexpected_errors; break; }
          void* v = nullptr;
          int flag = 0;
          if (MPI_Comm_get_attr(d, keys[j], &v, &flag) != MPI_SUCCESS) ++unexpected_errors;
          else if (flag && !valid_for(v, j)) ++g_bad_values;
          if (MPI_Comm_free(&d) != MPI_SUCCESS) ++unexpected_errors;
          break;
        }
        case 6: {  // a private keyval: create, use, free while in use, delete
          int k = MPI_KEYVAL_INVALID;
          if (MPI_Comm_create_keyval(t_copy, t_delete, &k, reinterpret_cast<void*>(static_cast<std::intptr_t>(private_tag))) != MPI_SUCCESS) {
            ++unexpected_errors;
            break;
          }
          long n = g_written[tid]++;
          if (MPI_Comm_set_attr(mine, k, encode(private_tag, tid, n)) == MPI_SUCCESS) ++stores;
          else ++unexpected_errors;
          int handle = k;
          if (MPI_Comm_free_keyval(&k) != MPI_SUCCESS || k != MPI_KEYVAL_INVALID) ++unexpected_errors;
          if (rng() & 1) {
            if (MPI_Comm_delete_attr(mine, handle) != MPI_SUCCESS) ++unexpected_errors;
          }  // else: released when `mine` is freed below
          break;
        }
        case 7: {  // replace the private communicator (frees all its attributes)
          if (MPI_Comm_free(&mine) != MPI_SUCCESS) ++unexpected_errors;
          mine = fresh_comm();
          break;
        }
      }
    }
    if (MPI_Comm_free(&mine) != MPI_SUCCESS) ++unexpected_errors;
  };

  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back(worker, t);
  for (auto& t : threads) t.join();

  // Remove what is left on the shared communicator.
  for (int j = 0; j < kSharedKeys; ++j) ASSERT_OK(MPI_Comm_delete_attr(shared, keys[j]));
  ASSERT_OK(MPI_Comm_free(&shared));

  EXPECT_EQ(unexpected_errors.load(), 0);
  EXPECT_EQ(g_bad_values.load(), 0) << "a value read back was never written for that key";
  EXPECT_GT(stores.load(), 0);
  EXPECT_EQ(g_deletes.load(), stores.load() + g_copies.load())
      << "every stored value (and every copy) is removed exactly once: stores=" << stores
      << " copies=" << g_copies << " deletes=" << g_deletes;

  for (int& k : keys) ASSERT_OK(MPI_Comm_free_keyval(&k));
  // No leak: keyvals can still be created and used, and behave like fresh ones.
  MPI_Comm c = fresh_comm();
  for (int i = 0; i < 2000; ++i) {
    int k;
    ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &k, nullptr));
    int flag = 1;
    void* v;
    ASSERT_OK(MPI_Comm_get_attr(c, k, &v, &flag));
    ASSERT_EQ(flag, 0) << "a new keyval already has a value";
    ASSERT_OK(MPI_Comm_set_attr(c, k, &flag));
    ASSERT_OK(MPI_Comm_free_keyval(&k));
  }
  ASSERT_OK(MPI_Comm_free(&c));
}

// Concurrent gets of a value that another thread keeps replacing never see a torn value.
TEST(R11_Threads, R11_1_D13_readers_see_whole_values_during_replacement) {
  REQUIRE_THREAD_MULTIPLE();
  g_bad_values = 0;
  for (auto& w : g_written) w = 0;
  int k;
  ASSERT_OK(MPI_Comm_create_keyval(nullptr, t_delete, &k, reinterpret_cast<void*>(static_cast<std::intptr_t>(0))));
  MPI_Comm c = fresh_comm();
  g_written[0] = 1;
  ASSERT_OK(MPI_Comm_set_attr(c, k, encode(0, 0, 0)));
  std::atomic<bool> stop{false};
  std::vector<std::thread> readers;
  for (int r = 0; r < 3; ++r)
    readers.emplace_back([&] {
      while (!stop.load()) {
        void* v;
        int flag = 0;
        if (MPI_Comm_get_attr(c, k, &v, &flag) != MPI_SUCCESS || !flag || !valid_for(v, 0)) ++g_bad_values;
      }
    });
  for (long n = 1; n < 20000; ++n) {
    g_written[0] = n + 1;
    ASSERT_OK(MPI_Comm_set_attr(c, k, encode(0, 0, n)));
  }
  stop = true;
  for (auto& t : readers) t.join();
  EXPECT_EQ(g_bad_values.load(), 0);
  MPI_Comm_free(&c);
  MPI_Comm_free_keyval(&k);
}

// D6 under threads: readers get (and sometimes delete) through the handle of a keyval that the
// writer has freed while its attribute exists, while the writer deletes that attribute and at
// once creates new keyvals, which take the freed index, and sets their attributes on the same
// communicator. A read through the stale handle finds its own value or is refused
// (MPI_ERR_KEYVAL, once the key is gone), never another key's value; a delete through it never
// removes another key's attribute.
TEST(R11_Threads, R11_1_D6_stale_keyval_never_reaches_the_key_that_reuses_its_index) {
  REQUIRE_THREAD_MULTIPLE();
  MPI_Comm c = fresh_comm();
  // A stale key's value is its own handle; a new key's value is its handle with bit 40 set.
  auto own = [](int k) { return reinterpret_cast<void*>(static_cast<std::intptr_t>(k)); };
  auto other = [](int k) {
    return reinterpret_cast<void*>((std::uintptr_t{1} << 40) | static_cast<std::uint32_t>(k));
  };
  std::atomic<int> stale{MPI_KEYVAL_INVALID};
  std::atomic<bool> stop{false};
  std::atomic<long> bad{0}, found{0}, refused{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 2; ++r)
    readers.emplace_back([&, r] {
      long n = 0;
      while (!stop.load()) {
        const int k = stale.load();
        if (k == MPI_KEYVAL_INVALID) continue;
        if (r == 1 && (++n & 63) == 0) {
          int rc = MPI_Comm_delete_attr(c, k);
          if (rc != MPI_SUCCESS && error_class(rc) != MPI_ERR_KEYVAL) ++bad;
          continue;
        }
        void* v = nullptr;
        int flag = 0;
        int rc = MPI_Comm_get_attr(c, k, &v, &flag);
        if (rc == MPI_SUCCESS) {
          if (flag && v != own(k)) ++bad;
          if (flag) ++found;
        } else if (error_class(rc) == MPI_ERR_KEYVAL) {
          ++refused;
        } else {
          ++bad;
        }
      }
    });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(400);
  // (And on, up to a bound, until a reader met a stale handle: on a loaded machine the readers
  // may have had no turn between a free and the delete in the first 400 ms.)
  const auto hard_deadline = deadline + std::chrono::seconds(30);
  long rounds = 0;
  while (std::chrono::steady_clock::now() < deadline || rounds < 50 ||
         (refused.load() == 0 && std::chrono::steady_clock::now() < hard_deadline)) {
    ++rounds;
    int k = MPI_KEYVAL_INVALID;
    ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &k, nullptr));
    const int handle = k;
    ASSERT_OK(MPI_Comm_set_attr(c, k, own(handle)));
    ASSERT_OK(MPI_Comm_free_keyval(&k));
    stale.store(handle);
    std::this_thread::yield();
    int rc = MPI_Comm_delete_attr(c, handle);  // a reader may have deleted it first: then gone
    ASSERT_TRUE(rc == MPI_SUCCESS || error_class(rc) == MPI_ERR_KEYVAL) << error_string(rc);
    int fresh[4];
    for (int& f : fresh) {
      ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &f, nullptr));
      ASSERT_OK(MPI_Comm_set_attr(c, f, other(f)));
    }
    for (int& f : fresh) {
      void* v = nullptr;
      int flag = 0;
      ASSERT_OK(MPI_Comm_get_attr(c, f, &v, &flag));
      ASSERT_EQ(flag, 1) << "a delete through a stale handle removed a new key's attribute";
      ASSERT_EQ(v, other(f));
      ASSERT_OK(MPI_Comm_delete_attr(c, f));
      ASSERT_OK(MPI_Comm_free_keyval(&f));
    }
  }
  stop = true;
  for (auto& t : readers) t.join();
  EXPECT_EQ(bad.load(), 0) << "a read through a stale handle saw another key's value";
  EXPECT_GT(refused.load(), 0);
  MPI_Comm_free(&c);
}

// D67: at MPI_THREAD_MULTIPLE each thread keeps the index of the last keyval it freed that never
// had an attribute, and creates its next keyval there without the registry's lock. Threads create
// and free such keyvals in a loop (sometimes two live at once) while others read through the
// handles just freed: no index is ever held by two live keyvals, a keyval fresh from create has
// no value, and a freed handle reads nothing (or is refused with MPI_ERR_KEYVAL). Then two threads
// free one handle at once, many times: exactly one free succeeds each time.
TEST(R11_Threads, R11_1_D67_keyval_spare_indices_are_never_shared) {
  REQUIRE_THREAD_MULTIPLE();
  static std::atomic<int> owner[1 << 20];  // by keyval index: the thread whose live keyval has it
  MPI_Comm c = fresh_comm();
  std::atomic<int> last_freed{MPI_KEYVAL_INVALID};
  std::atomic<long> bad{0}, shared_index{0};
  std::atomic<bool> stop{false};
  auto creator = [&](int tid) {
    for (int it = 0; it < 2000; ++it) {
      int k[2] = {MPI_KEYVAL_INVALID, MPI_KEYVAL_INVALID};
      const int n = it % 5 == 0 ? 2 : 1;
      for (int j = 0; j < n; ++j) {
        if (MPI_Comm_create_keyval(nullptr, nullptr, &k[j], nullptr) != MPI_SUCCESS) {
          ++bad;
          return;
        }
        if (owner[k[j] & 0xFFFFF].exchange(tid + 1) != 0) ++shared_index;
        void* v = nullptr;
        int flag = 1;
        if (MPI_Comm_get_attr(c, k[j], &v, &flag) != MPI_SUCCESS || flag) ++bad;
      }
      for (int j = n - 1; j >= 0; --j) {
        const int handle = k[j];
        owner[handle & 0xFFFFF].store(0);
        if (MPI_Comm_free_keyval(&k[j]) != MPI_SUCCESS || k[j] != MPI_KEYVAL_INVALID) ++bad;
        last_freed.store(handle);
      }
    }
  };
  std::thread reader([&] {
    while (!stop.load()) {
      const int k = last_freed.load();
      if (k == MPI_KEYVAL_INVALID) continue;
      void* v = nullptr;
      int flag = 0;
      const int rc = MPI_Comm_get_attr(c, k, &v, &flag);
      if (rc == MPI_SUCCESS ? flag != 0 : error_class(rc) != MPI_ERR_KEYVAL) ++bad;
    }
  });
  std::vector<std::thread> creators;
  for (int t = 0; t < 3; ++t) creators.emplace_back(creator, t);
  for (auto& t : creators) t.join();
  stop = true;
  reader.join();
  EXPECT_EQ(shared_index.load(), 0) << "two live keyvals had one index";
  EXPECT_EQ(bad.load(), 0);

  // Two frees of one handle at once.
  std::atomic<int> target{MPI_KEYVAL_INVALID};
  std::atomic<int> round{0}, done{0}, successes{0};
  auto freer = [&](int me) {
    for (int r = 1; r <= 300; ++r) {
      while (round.load() < r) std::this_thread::yield();
      int k = target.load();
      const int rc = MPI_Comm_free_keyval(&k);
      if (rc == MPI_SUCCESS) ++successes;
      else if (error_class(rc) != MPI_ERR_KEYVAL) ++bad;
      (void)me;
      ++done;
    }
  };
  std::thread f1(freer, 1), f2(freer, 2);
  for (int r = 1; r <= 300; ++r) {
    int k = MPI_KEYVAL_INVALID;
    ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &k, nullptr));
    target.store(k);
    done.store(0);
    successes.store(0);
    round.store(r);
    while (done.load() < 2) std::this_thread::yield();
    ASSERT_EQ(successes.load(), 1) << "round " << r;
  }
  f1.join();
  f2.join();
  EXPECT_EQ(bad.load(), 0);
  // Every index came back: a keyval can be created, set and read.
  int k;
  ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &k, nullptr));
  ASSERT_OK(MPI_Comm_set_attr(c, k, &k));
  ASSERT_EQ(comm_get(c, k, nullptr), 1);
  ASSERT_OK(MPI_Comm_delete_attr(c, k));
  ASSERT_OK(MPI_Comm_free_keyval(&k));
  ASSERT_OK(MPI_Comm_free(&c));
}

// D119: a thread's spare keyval index (D67) goes back to the pool when the thread ends. Threads
// each create a keyval and free it (the thread keeps its index as its spare), then end; their
// indices are issued again, to the next creates, rather than held by threads that no longer exist.
TEST(R11_Threads, R11_1_D119_an_ended_thread_gives_its_spare_index_back) {
  REQUIRE_THREAD_MULTIPLE();
  constexpr int kThreads = 4;
  std::set<int> spares;
  for (int t = 0; t < kThreads; ++t) {
    int index = -1;
    std::thread th([&] {
      int k = MPI_KEYVAL_INVALID;
      if (MPI_Comm_create_keyval(nullptr, nullptr, &k, nullptr) != MPI_SUCCESS) return;
      index = k & 0xFFFFF;
      if (MPI_Comm_free_keyval(&k) != MPI_SUCCESS) index = -1;
    });
    th.join();
    ASSERT_GE(index, 0);
    spares.insert(index);
  }
  // The pool issues its smallest free index first; the main thread may hold one spare of its own.
  std::vector<int> made;
  std::set<int> seen;
  for (std::size_t i = 0; i < spares.size() + 1; ++i) {
    int k = MPI_KEYVAL_INVALID;
    ASSERT_OK(MPI_Comm_create_keyval(nullptr, nullptr, &k, nullptr));
    made.push_back(k);
    seen.insert(k & 0xFFFFF);
  }
  for (int index : spares) EXPECT_TRUE(seen.count(index)) << "index " << index << " was not given back";
  for (int& k : made) ASSERT_OK(MPI_Comm_free_keyval(&k));
}

std::atomic<long> g_type_copies{0}, g_type_deletes{0};
int type_copy(MPI_Datatype, int, void*, void* in, void* out, int* flag) {
  ++g_type_copies;
  *static_cast<void**>(out) = in;
  *flag = 1;
  return MPI_SUCCESS;
}
int type_delete(MPI_Datatype, int, void*, void*) {
  ++g_type_deletes;
  return MPI_SUCCESS;
}

// D67: at MPI_THREAD_MULTIPLE a dup of a datatype with no attribute takes neither the list of
// dups in progress nor the new datatype's lock, and the free of one takes no lock of it; a dup
// whose source has an attribute is listed before its first copy, so the census of a keyval freed
// meanwhile counts the copy. Two threads dup and free a derived datatype (and MPI_INT) while a
// third sets an attribute on it under a new keyval, frees the keyval while the attribute exists
// (the census) and deletes the attribute through the freed handle (D6): every value, copies
// included, is deleted exactly once, and the keyvals' indices come back.
TEST(R11_Threads, R11_1_D67_type_dups_without_attributes_meet_the_census) {
  REQUIRE_THREAD_MULTIPLE();
  g_type_copies = g_type_deletes = 0;
  MPI_Datatype shared;
  ASSERT_OK(MPI_Type_contiguous(2, MPI_INT, &shared));
  std::atomic<bool> stop{false};
  std::atomic<long> bad{0}, sets{0};
  auto duper = [&] {
    while (!stop.load()) {
      MPI_Datatype d = MPI_DATATYPE_NULL, e = MPI_DATATYPE_NULL;
      if (MPI_Type_dup(shared, &d) != MPI_SUCCESS || MPI_Type_dup(MPI_INT, &e) != MPI_SUCCESS) ++bad;
      int size = 0;
      if (MPI_Type_size(d, &size) != MPI_SUCCESS || size != 2 * static_cast<int>(sizeof(int))) ++bad;
      if (MPI_Type_free(&d) != MPI_SUCCESS || MPI_Type_free(&e) != MPI_SUCCESS) ++bad;
    }
  };
  std::thread d1(duper), d2(duper);
  for (int r = 0; r < 400; ++r) {
    int k = MPI_KEYVAL_INVALID;
    ASSERT_OK(MPI_Type_create_keyval(type_copy, type_delete, &k, nullptr));
    const int handle = k;
    ASSERT_OK(MPI_Type_set_attr(shared, k, &sets));
    ++sets;
    std::this_thread::yield();
    ASSERT_OK(MPI_Type_free_keyval(&k));  // the census: the dups in progress are counted too
    std::this_thread::yield();
    ASSERT_OK(MPI_Type_delete_attr(shared, handle));
  }
  stop = true;
  d1.join();
  d2.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_EQ(g_type_deletes.load(), sets.load() + g_type_copies.load())
      << "sets=" << sets << " copies=" << g_type_copies << " deletes=" << g_type_deletes;
  ASSERT_OK(MPI_Type_free(&shared));
  // The keyvals are gone (each index came back once its last attribute went).
  int k;
  ASSERT_OK(MPI_Type_create_keyval(nullptr, nullptr, &k, nullptr));
  MPI_Datatype t;
  ASSERT_OK(MPI_Type_dup(MPI_INT, &t));
  ASSERT_EQ(type_get(t, k, nullptr), 0);
  ASSERT_OK(MPI_Type_free(&t));
  ASSERT_OK(MPI_Type_free_keyval(&k));
}

// D73: at MPI_THREAD_MULTIPLE the dup of an object whose attributes are all plain (MPI_COMM_DUP_FN,
// no delete callback, no keyval counted) copies them with no lock, holding its new object in its
// thread's slot, and the free of such an object drops them with no lock: a census (a keyval freed
// while attributes use it) meets both through asymmetric fences. Two threads dup and free a
// communicator that carries a plain attribute, while the main thread sets one under a new keyval
// on it, frees that keyval (the census: the dups in flight and the frees in flight must be
// counted, or waited for) and deletes the attribute through the freed handle. Under
// ThreadSanitizer a copy or a drop that overlapped the census would be a data race; every count
// taken must be given back, so at the end every keyval index is free again.
TEST(R11_Threads, R11_1_D73_plain_dups_and_frees_meet_the_census) {
  REQUIRE_THREAD_MULTIPLE();
  static int base_value = 7, round_value = 8;
  int base = MPI_KEYVAL_INVALID;
  ASSERT_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &base, nullptr));
  MPI_Comm shared;
  ASSERT_OK(MPI_Comm_dup(MPI_COMM_WORLD, &shared));
  ASSERT_OK(MPI_Comm_set_attr(shared, base, &base_value));
  std::set<std::uint32_t> used{static_cast<std::uint32_t>(base) & 0xFFFFFu};  // keyval indices
  std::atomic<bool> stop{false};
  std::atomic<long> bad{0}, dups{0};
  auto duper = [&] {
    while (!stop.load()) {
      MPI_Comm d = MPI_COMM_NULL;
      if (MPI_Comm_dup(shared, &d) != MPI_SUCCESS) {
        ++bad;
        continue;
      }
      void* v = nullptr;
      if (comm_get(d, base, &v) != 1 || v != &base_value) ++bad;
      if (MPI_Comm_free(&d) != MPI_SUCCESS) ++bad;
      ++dups;
    }
  };
  std::thread d1(duper), d2(duper);
  // 200 rounds, and more until the two threads have dup'ed at all: on a loaded machine they may
  // not have been scheduled yet (a bound, so that a dup that never succeeds fails the test).
  const auto hard_deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  for (int r = 0; r < 200 || (dups.load() == 0 && std::chrono::steady_clock::now() < hard_deadline); ++r) {
    int k = MPI_KEYVAL_INVALID;
    ASSERT_OK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &k, nullptr));
    used.insert(static_cast<std::uint32_t>(k) & 0xFFFFFu);
    const int handle = k;
    ASSERT_OK(MPI_Comm_set_attr(shared, k, &round_value));
    std::this_thread::yield();
    ASSERT_OK(MPI_Comm_free_keyval(&k));  // the census, racing plain dups and frees
    std::this_thread::yield();
    ASSERT_OK(MPI_Comm_delete_attr(shared, handle));
  }
  stop = true;
  d1.join();
  d2.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_GT(dups.load(), 0);
  ASSERT_OK(MPI_Comm_free(&shared));
  ASSERT_OK(MPI_Comm_free_keyval(&base));
  // Every reference a census took came back: every index used is free again, so as many new
  // keyvals take exactly those (indices are reused smallest first, D20), and none of them sees an
  // attribute on a new communicator.
  std::vector<int> fresh(used.size());
  std::set<std::uint32_t> again;
  MPI_Comm c;
  ASSERT_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
  for (int& k : fresh) {
    ASSERT_OK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, nullptr));
    again.insert(static_cast<std::uint32_t>(k) & 0xFFFFFu);
    EXPECT_EQ(comm_get(c, k, nullptr), 0);
  }
  EXPECT_EQ(again, used);
  ASSERT_OK(MPI_Comm_free(&c));
  for (int& k : fresh) ASSERT_OK(MPI_Comm_free_keyval(&k));
}

}  // namespace
