// D35: MPIX_Comm_create_keyval_x's destructor from several threads (at MPI_THREAD_MULTIPLE; the
// ".single" runs skip): each keyval's destructor runs
// exactly once, with its own extra_state, after the last of its attributes' delete callbacks,
// whichever thread frees the keyval or deletes that last attribute. (Single-threaded cases, and
// finalize: tests/c/D35_keyval_x_destructor.c.)
#include <thread>
#include <vector>

#include "attr_test_common.h"

namespace {

constexpr int kThreads = 4;
constexpr int kRounds = 200;

struct tracked {
  std::atomic<int> deletes{0};
  std::atomic<int> destroyed{0};
  std::atomic<int> deletes_at_destroy{-1};
};

int tracked_delete(MPI_Comm, int, void*, void* extra) {
  static_cast<tracked*>(extra)->deletes.fetch_add(1);
  return MPI_SUCCESS;
}

void tracked_destructor(void* extra) {
  auto* t = static_cast<tracked*>(extra);
  t->deletes_at_destroy.store(t->deletes.load());
  t->destroyed.fetch_add(1);
}

// Each thread: its own keyvals, on a communicator all threads share; the attribute is deleted
// before or after the keyval is freed, by turns.
TEST(D35, D35_keyval_x_destructor_runs_once_per_keyval_from_many_threads) {
  REQUIRE_THREAD_MULTIPLE();
  MPI_Comm shared = fresh_comm();
  std::vector<tracked> states(kThreads * kRounds);
  std::vector<std::thread> threads;
  std::atomic<int> errors{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int r = 0; r < kRounds; ++r) {
        tracked& s = states[t * kRounds + r];
        int k = MPI_KEYVAL_INVALID, v = r;
        if (MPIX_Comm_create_keyval_x(MPI_COMM_NULL_COPY_FN, tracked_delete, tracked_destructor, &k, &s) != MPI_SUCCESS) {
          ++errors;
          continue;
        }
        const int stale = k;
        if (MPI_Comm_set_attr(shared, k, &v) != MPI_SUCCESS) ++errors;
        if (r % 2 == 0) {
          if (MPI_Comm_free_keyval(&k) != MPI_SUCCESS) ++errors;
          if (s.destroyed.load() != 0) ++errors;  // the attribute is still there
          if (MPI_Comm_delete_attr(shared, stale) != MPI_SUCCESS) ++errors;
        } else {
          if (MPI_Comm_delete_attr(shared, k) != MPI_SUCCESS) ++errors;
          if (s.destroyed.load() != 0) ++errors;  // the keyval is still live
          if (MPI_Comm_free_keyval(&k) != MPI_SUCCESS) ++errors;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(errors.load(), 0);
  for (const tracked& s : states) {
    EXPECT_EQ(s.destroyed.load(), 1);
    EXPECT_EQ(s.deletes_at_destroy.load(), 1);
  }
  MPI_Comm_free(&shared);
}

// One keyval, its attributes on communicators that threads free concurrently with the keyval's
// free: the destructor runs once, after every delete.
TEST(D35, D35_keyval_x_destructor_after_the_last_of_concurrent_frees) {
  REQUIRE_THREAD_MULTIPLE();
  for (int round = 0; round < 50; ++round) {
    tracked s;
    int k = MPI_KEYVAL_INVALID, v = 1;
    ASSERT_OK(MPIX_Comm_create_keyval_x(MPI_COMM_NULL_COPY_FN, tracked_delete, tracked_destructor, &k, &s));
    std::vector<MPI_Comm> comms(kThreads);
    for (auto& c : comms) {
      c = fresh_comm();
      ASSERT_OK(MPI_Comm_set_attr(c, k, &v));
    }
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&comms, t] { MPI_Comm_free(&comms[t]); });
    ASSERT_OK(MPI_Comm_free_keyval(&k));
    for (auto& th : threads) th.join();
    EXPECT_EQ(s.deletes.load(), kThreads);
    EXPECT_EQ(s.destroyed.load(), 1);
    EXPECT_EQ(s.deletes_at_destroy.load(), kThreads);
  }
}

}  // namespace
