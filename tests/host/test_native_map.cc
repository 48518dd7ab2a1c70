// The host runtime's record table (runtime_host/native_map.h), by itself: host mode keeps a record
// for each host object that carries an mpiattr attribute (docs/decisions.md D22), and at
// MPI_THREAD_MULTIPLE lookups read the table while other threads add and remove records (R11.1).
// Churning objects (each dup adds a record, each free takes it out, and the table is rebuilt now
// and then to clear what removals leave behind) must keep every live record findable from every
// thread, and must not make the table's memory grow without bound. A freed object's record may
// sleep in the table for the handle's next object (D32).
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <thread>
#include <vector>

#include "mpiattr/keyval.h"
#include "mpiattr/sync.h"
#include "native_map.h"
#include "record.h"

namespace {

struct record {
  std::uintptr_t native;  // the host handle, as attr_object::native
  bool sleep_flag = false;  // as the host runtime's records' (runtime_host/record.h)
  std::uint8_t busy_flag = 0;
  bool& may_sleep() { return sleep_flag; }
  const bool& may_sleep() const { return sleep_flag; }
  std::uint8_t& busy() { return busy_flag; }
  const std::uint8_t& busy() const { return busy_flag; }
  int census_saw = -1;  // (the census test: the last round whose census visited the record)
};

// Host handles as the tests use them: never 0 or 1 (the table's own marks), spread like pointers.
std::uintptr_t handle_of(std::size_t i) { return 0x1000 + i * 48; }
// The handle of a program's i-th dup of an object of kind `kind_bits` under MPICH 4.0.2 (D94,
// D98): its few direct handles, then blocks of 1,024 at a stride of 4,096.
std::uintptr_t mpich_handle(std::uintptr_t kind_bits, std::size_t i) {  // (0xcc: datatypes, ...)
  const std::size_t direct = kind_bits == 0xcc ? 3 : 8;  // (5 direct datatypes are predefined)
  if (i < direct) return ((kind_bits - 0x40) << 24) | (8 - direct + i);
  i -= direct;
  return (kind_bits << 24) | ((i / 1024) << 12) | (i % 1024);
}
// The i-th handle of either layout: Open MPI's (pointers, handle_of) or MPICH's datatypes.
template <bool Pointers>
std::uintptr_t handle_in(std::size_t i) { return Pointers ? handle_of(i) : mpich_handle(0xcc, i); }

// A map of the test's own, whose tables are freed when the test ends (the runtime's never are).
template <typename Hooks = mpiattr::host::no_map_hooks, bool Pointers = true>
struct test_map : mpiattr::host::native_map<record, Hooks, Pointers> {
  ~test_map() { this->release(); }
};

// Where a test's record of `key` lies: over MPICH in key's home, built there (docs/decisions.md
// D126: a fast lookup finds a record only in its home, as the runtime puts it: host_runtime.cc,
// take_home); over Open MPI, or when key has no home or another handle's record holds it, `own`.
template <bool Pointers, typename Map>
record* record_for(Map& map, std::uintptr_t key, record& own) {
  if constexpr (!Pointers) {
    void* extra = nullptr;
    bool built = true;
    if (record* h = map.home_memory(key, &extra, &built); h != nullptr && !built) return new (h) record{key};
  }
  own.native = key;
  return &own;
}

// Gives records[i] the handle handle_in<Pointers>(first + i) and adds it to the map.
template <bool Pointers = true, typename Map>
void insert_records(Map& map, std::vector<record>& records, std::size_t first = 0) {
  for (std::size_t i = 0; i < records.size(); ++i) {
    records[i].native = handle_in<Pointers>(first + i);
    map.insert(records[i].native, &records[i]);
  }
}

class level : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override { mpiattr::sync::set_concurrent(GetParam()); }
  void TearDown() override { mpiattr::sync::set_concurrent(true); }
};

// Many short-lived objects with distinct handles (as a program that dups and frees in a loop gets
// from Open MPI, whose handles are pointers): the table is rebuilt over and over at one size.
TEST_P(level, D22_record_table_memory_stays_bounded_under_churn) {
  test_map<> map;
  std::vector<record> live(8);
  insert_records(map, live);
  record churned{};
  std::size_t most_slots = 0;
  for (std::size_t i = 0; i < 200000; ++i) {
    const std::uintptr_t h = handle_of(1000 + i);
    churned.native = h;
    map.insert(h, &churned);
    ASSERT_EQ(map.find(h), &churned);
    ASSERT_EQ(map.erase(h), &churned);
    ASSERT_EQ(map.find(h), nullptr);
    most_slots = std::max(most_slots, map.slots_held());
  }
  for (const record& r : live) EXPECT_EQ(map.find(r.native), &r);
  EXPECT_EQ(map.size(), live.size());
  // Nine live records fit the first table (64 slots): at most two tables of that size are held.
  EXPECT_LE(map.tables_held(), GetParam() ? 2u : 1u);
  EXPECT_LE(most_slots, 2u * 64u);
}

// Growth keeps the outgrown tables at MPI_THREAD_MULTIPLE (a lookup may still read one), but no
// more than two of each size: fewer slots than four times the final table's.
TEST_P(level, D22_record_table_memory_after_growth_is_bounded_by_the_final_size) {
  test_map<> map;
  std::vector<record> recs(5000);
  for (std::size_t round = 0; round < 3; ++round) {
    for (std::size_t i = 0; i < recs.size(); ++i) {
      recs[i].native = handle_of(round * recs.size() + i);
      map.insert(recs[i].native, &recs[i]);
    }
    for (std::size_t i = 0; i < recs.size(); ++i) ASSERT_EQ(map.erase(recs[i].native), &recs[i]);
  }
  EXPECT_EQ(map.size(), 0u);
  if (GetParam())
    EXPECT_LT(map.slots_held(), 4 * map.capacity());
  else
    EXPECT_EQ(map.slots_held(), map.capacity());
}

INSTANTIATE_TEST_SUITE_P(thread_levels, level, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& p) {
                           return p.param ? std::string("multiple") : std::string("single");
                         });

// Readers on several threads find the records of long-lived objects, and never a wrong one, while
// one thread churns others through enough inserts and erases to rebuild the table thousands of
// times (each rebuild refilling the table some reader may still be probing).
TEST(record_table, R11_1_D22_lookups_concurrent_with_rebuilds_find_every_live_record) {
  mpiattr::sync::set_concurrent(true);
  test_map<> map;
  std::vector<record> live(24);
  insert_records(map, live);
  // Records never reused for another handle while a reader may hold them: one per churned handle.
  std::vector<record> pool(100000);
  for (std::size_t i = 0; i < pool.size(); ++i) pool[i].native = handle_of(1000 + i);
  std::atomic<bool> stop{false};
  std::atomic<long> wrong{0}, lookups{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 6; ++t) {  // more threads than cores: lookups preempted mid-probe
    readers.emplace_back([&, t] {
      long n = 0;
      for (std::size_t i = static_cast<std::size_t>(t); !stop.load(std::memory_order_relaxed); ++i, ++n) {
        const record& r = live[i % live.size()];
        const record* found = map.find(r.native);
        if (found != &r) wrong.fetch_add(1);
        if (map.find_shared(r.native) != &r) wrong.fetch_add(1);
        // A churned handle is either absent or its own record, never another object's.
        const std::uintptr_t other = handle_of(1000 + (i * 7919) % pool.size());
        const record* o = map.find(other);
        if (o != nullptr && o->native != other) wrong.fetch_add(1);
        o = map.find_shared(other);
        if (o != nullptr && __atomic_load_n(&o->native, __ATOMIC_RELAXED) != other) wrong.fetch_add(1);
      }
      lookups.fetch_add(n);
    });
  }
  constexpr std::size_t kAlive = 64;  // churned objects alive at once
  long lost = 0;  // (no ASSERT while the readers run: they must be joined)
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(1500);
  for (std::size_t i = 0; i % 4096 != 0 || std::chrono::steady_clock::now() < until; ++i) {
    if (i >= kAlive) {
      record& gone = pool[(i - kAlive) % pool.size()];
      if (map.erase(gone.native) != &gone) ++lost;
    }
    record& c = pool[i % pool.size()];
    map.insert(c.native, &c);
  }
  stop.store(true);
  for (std::thread& r : readers) r.join();
  EXPECT_EQ(lost, 0);
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_GT(lookups.load(), 0);
  EXPECT_LT(map.slots_held(), 4 * map.capacity());
}

// The cache the threads share at MPI_THREAD_MULTIPLE holds record pointers, and the host runtime
// reuses a freed object's record for the next one: an entry left by the first object must not
// answer for it once its record serves another, nor for any other handle.
TEST(record_table, R11_1_D22_shared_cache_never_answers_with_a_reused_record) {
  mpiattr::sync::set_concurrent(true);
  test_map<> map;
  record r{handle_of(1)};
  map.insert(r.native, &r);
  ASSERT_EQ(map.find_shared(handle_of(1)), &r);  // now cached
  ASSERT_EQ(map.find_shared(handle_of(1)), &r);  // from the cache
  ASSERT_EQ(map.erase(r.native), &r);             // the object is freed...
  __atomic_store_n(&r.native, std::uintptr_t{0}, __ATOMIC_RELEASE);
  EXPECT_EQ(map.find_shared(handle_of(1)), nullptr);
  __atomic_store_n(&r.native, handle_of(2), __ATOMIC_RELEASE);  // ...its record serves another
  map.insert(r.native, &r);
  EXPECT_EQ(map.find_shared(handle_of(1)), nullptr);
  EXPECT_EQ(map.find_shared(handle_of(2)), &r);
  // Every handle that shares a cache entry with another still gets its own record.
  std::vector<record> many(2000);
  for (std::size_t i = 0; i < many.size(); ++i) {
    many[i].native = handle_of(100 + i);
    map.insert(many[i].native, &many[i]);
  }
  for (int pass = 0; pass < 2; ++pass)
    for (std::size_t i = 0; i < many.size(); ++i) ASSERT_EQ(map.find_shared(handle_of(100 + i)), &many[i]);
  EXPECT_EQ(map.find_shared(handle_of(1)), nullptr);
}

// A freed object's record may sleep in its slot until the host hands the handle out again
// (docs/decisions.md D32). Asleep, it is no record of the handle for any lookup: a freed handle
// must be checked with the host (R3), and the handle's next object carries nothing (R4.4). It
// wakes for its handle only, found through the cache or, once the cache forgot it, the table.
TEST_P(level, D32_a_sleeping_record_answers_no_lookup_and_wakes_for_its_handle) {
  test_map<> map;
  record a{handle_of(1)}, b{handle_of(2)};
  map.insert(a.native, &a);
  map.insert(b.native, &b);
  ASSERT_EQ(map.lookup(handle_of(1)), &a);
  ASSERT_TRUE(map.retire(handle_of(1), &a));
  EXPECT_EQ(map.size(), 2u);  // (records, awake or asleep)
  EXPECT_EQ(map.dormant(), 1u);
  EXPECT_EQ(map.sleepers(), 1u);
  EXPECT_EQ(map.find(handle_of(1)), nullptr);
  EXPECT_EQ(map.lookup(handle_of(1)), nullptr);
  EXPECT_EQ(map.find_shared(handle_of(1)), nullptr);
  EXPECT_EQ(map.find_hot(handle_of(1)), nullptr);
  std::vector<record*> visited;
  map.for_each([&](record* r) { visited.push_back(r); });
  EXPECT_EQ(visited, std::vector<record*>{&b});
  EXPECT_EQ(map.revive(handle_of(2)), nullptr);  // awake: nothing to wake
  EXPECT_EQ(map.revive(handle_of(3)), nullptr);  // no record at all
  ASSERT_EQ(map.revive(handle_of(1)), &a);
  EXPECT_EQ(a.native, handle_of(1));
  EXPECT_EQ(map.size(), 2u);
  EXPECT_EQ(map.dormant(), 0u);
  EXPECT_EQ(map.sleepers(), 1u);  // (a keeps its token: its next sleep changes no count)
  EXPECT_EQ(map.lookup(handle_of(1)), &a);
  EXPECT_EQ(map.find(handle_of(1)), &a);
  EXPECT_EQ(map.revive(handle_of(1)), nullptr);  // awake now

  // Asleep again; the cache then forgets it (lookups of other handles take its entries) and the
  // table grows under it: it still wakes, from the table.
  ASSERT_TRUE(map.retire(handle_of(1), &a));
  std::vector<record> more(3000);
  insert_records(map, more, 10);
  for (std::size_t i = 0; i < 40000; ++i) (void)map.lookup(handle_of(100000 + i));
  EXPECT_EQ(map.find(handle_of(1)), nullptr);
  EXPECT_EQ(map.revive(handle_of(1)), &a);
  EXPECT_EQ(map.find(handle_of(1)), &a);
  for (std::size_t i = 0; i < more.size(); ++i) ASSERT_EQ(map.find(more[i].native), &more[i]);
}

// Sleeping records are bounded: a record sleeps only with one of kMaxDormant tokens; beyond, a
// freed object's record is erased instead. A token goes back with its record.
TEST_P(level, D32_at_most_kMaxDormant_records_sleep) {
  test_map<> map;
  constexpr std::size_t kMax = test_map<>::kMaxDormant;
  std::vector<record> recs(kMax + 10);
  insert_records(map, recs);
  std::size_t asleep = 0;
  for (std::size_t i = 0; i < recs.size(); ++i) {
    if (map.retire(recs[i].native, &recs[i])) {
      ++asleep;
    } else {
      EXPECT_EQ(recs[i].native, handle_of(i));  // refused: the record is untouched, awake
      EXPECT_EQ(map.erase(handle_of(i)), &recs[i]);
    }
  }
  EXPECT_EQ(asleep, kMax);
  EXPECT_EQ(map.dormant(), kMax);
  EXPECT_EQ(map.sleepers(), kMax);
  EXPECT_EQ(map.size(), kMax);
  // A woken record keeps its token; erased, it gives it back, and another record may sleep.
  ASSERT_EQ(map.revive(handle_of(0)), &recs[0]);
  EXPECT_EQ(map.sleepers(), kMax);
  EXPECT_FALSE(map.retire(recs[kMax].native, &recs[kMax]));
  EXPECT_EQ(map.erase(handle_of(0)), &recs[0]);
  EXPECT_FALSE(recs[0].may_sleep());
  EXPECT_EQ(map.sleepers(), kMax - 1);
  recs[kMax].native = handle_of(kMax);
  map.insert(recs[kMax].native, &recs[kMax]);
  EXPECT_TRUE(map.retire(recs[kMax].native, &recs[kMax]));
  EXPECT_EQ(map.sleepers(), kMax);
  std::size_t dropped = 0;
  map.drop_dormant([&](record*) { ++dropped; });
  EXPECT_EQ(dropped, kMax);
  EXPECT_EQ(map.dormant(), 0u);
  EXPECT_EQ(map.sleepers(), 0u);
  EXPECT_EQ(map.size(), 0u);
  for (std::size_t i = 0; i < recs.size(); ++i) EXPECT_EQ(map.revive(handle_of(i)), nullptr);
}

// The dup and free of plain attributes at MPI_THREAD_MULTIPLE (host_glue.h: fast_dup_concurrent,
// fast_free_concurrent) fill and empty a record in one hold of the table's lock. What they are
// given runs under it; when it declines, or there is no record to wake, or the record is not the
// handle's any more, nothing changes, and the general path, which finds everything as it was,
// does the call (D32).
TEST_P(level, D32_revive_with_and_retire_with_change_nothing_unless_they_act) {
  test_map<> map;
  record a{handle_of(1)}, b{handle_of(2)};
  map.insert(a.native, &a);
  map.insert(b.native, &b);
  (void)map.find_shared(handle_of(1));  // (the shared cache names a, as a get would have left it)
  int calls = 0;
  // retire_with: declined, then done
  EXPECT_FALSE(map.retire_with(handle_of(1), &a, [&](record*) { ++calls; return false; }));
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(map.find(handle_of(1)), &a);
  EXPECT_EQ(map.dormant(), 0u);
  EXPECT_FALSE(map.retire_with(handle_of(1), &b, [&](record*) { ++calls; return true; }));  // b is not 1's
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(map.retire_with(handle_of(1), &a, [&](record* r) { ++calls; return r == &a; }));
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(map.find(handle_of(1)), nullptr);
  EXPECT_EQ(map.find_shared(handle_of(1)), nullptr);
  EXPECT_EQ(map.size(), 2u);
  EXPECT_EQ(map.dormant(), 1u);
  EXPECT_FALSE(map.retire_with(handle_of(1), &a, [&](record*) { ++calls; return true; }));  // asleep
  EXPECT_EQ(calls, 2);

  // revive_with: nothing asleep for the handle (awake, or unknown): fill is not called
  EXPECT_FALSE(map.revive_with(handle_of(2), [&](record*) { ++calls; return true; }));
  EXPECT_FALSE(map.revive_with(handle_of(3), [&](record*) { ++calls; return true; }));
  EXPECT_EQ(calls, 2);
  // declined: still asleep; then woken
  EXPECT_FALSE(map.revive_with(handle_of(1), [&](record* r) { ++calls; return r != &a; }));
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(map.find(handle_of(1)), nullptr);
  EXPECT_EQ(map.dormant(), 1u);
  EXPECT_TRUE(map.revive_with(handle_of(1), [&](record* r) { ++calls; return r == &a; }));
  EXPECT_EQ(calls, 4);
  EXPECT_EQ(map.find(handle_of(1)), &a);
  EXPECT_EQ(map.find_shared(handle_of(1)), &a);
  EXPECT_EQ(map.size(), 2u);
  EXPECT_EQ(map.dormant(), 0u);

  // Found from the table once the shared cache names another record.
  ASSERT_TRUE(map.retire_with(handle_of(1), &a, [](record*) { return true; }));
  std::vector<record> more(600);
  insert_records(map, more, 10);
  for (record& r : more) (void)map.find_shared(r.native);  // (the shared cache names them)
  EXPECT_TRUE(map.revive_with(handle_of(1), [&](record* r) { return r == &a; }));
  EXPECT_EQ(map.find(handle_of(1)), &a);

  // At most kMaxDormant tokens (a, awake, holds one): retire_with refuses beyond, without
  // calling empty().
  std::size_t asleep = 0;
  calls = 0;
  for (std::size_t i = 0; i < more.size(); ++i)
    asleep += map.retire_with(more[i].native, &more[i], [&](record*) { ++calls; return true; });
  EXPECT_EQ(asleep, test_map<>::kMaxDormant - 1);
  EXPECT_EQ(calls, static_cast<int>(test_map<>::kMaxDormant - 1));
  EXPECT_EQ(map.sleepers(), test_map<>::kMaxDormant);
  map.drop_dormant([](record*) {});
}

// Below MPI_THREAD_MULTIPLE the cache in front of the table also remembers that a handle has no
// record (the dup and free of objects mpiattr has nothing on then cost one cache probe). Every
// change of the table for a handle must rewrite what the cache says of it.
TEST(record_table, D32_the_cache_never_answers_for_a_handle_whose_record_changed) {
  mpiattr::sync::set_concurrent(false);
  test_map<> map;
  record r{handle_of(7)};
  record* o = &r;
  EXPECT_EQ(map.lookup(handle_of(7)), nullptr);  // remembered: none
  EXPECT_TRUE(map.cached(handle_of(7), &o));
  EXPECT_EQ(o, nullptr);
  map.insert(r.native, &r);
  EXPECT_EQ(map.lookup(handle_of(7)), &r);
  EXPECT_EQ(map.find_hot(handle_of(7)), &r);
  EXPECT_EQ(map.erase(handle_of(7)), &r);
  EXPECT_EQ(map.lookup(handle_of(7)), nullptr);
  EXPECT_EQ(map.find_hot(handle_of(7)), nullptr);
  map.insert(r.native, &r);
  EXPECT_EQ(map.lookup(handle_of(7)), &r);
  ASSERT_TRUE(map.retire(handle_of(7), &r));
  EXPECT_EQ(map.lookup(handle_of(7)), nullptr);
  EXPECT_EQ(map.find_hot(handle_of(7)), nullptr);
  EXPECT_TRUE(map.cached(handle_of(7), &o));
  EXPECT_EQ(o, nullptr);
  EXPECT_EQ(map.revive(handle_of(7)), &r);
  EXPECT_EQ(map.lookup(handle_of(7)), &r);
  EXPECT_EQ(map.find_hot(handle_of(7)), &r);
  mpiattr::sync::set_concurrent(true);
}

// D84: an entry whose key is the handle always holds a record (the fast get and set do not test
// it): "none" is marked in the entry's key, and handle 0, which no host issues but a program may
// pass, is never answered by an empty entry once the map is sealed, before and after its cache
// grows, and after the cache forgets the records asleep.
// (Over both layouts: Open MPI's two-way cache, and MPICH's homes, D126, where handle 0's home,
// in the chunk of MPI_INT's, is never handed out and matches no lookup.)
template <bool Pointers>
void cached_handle_always_has_its_record() {
  SCOPED_TRACE(Pointers ? "pointer handles" : "MPICH handles");
  mpiattr::sync::set_concurrent(false);
  test_map<mpiattr::host::no_map_hooks, Pointers> map;
  map.seal();
  record* o = nullptr;
  record own_int;  // (over MPICH MPI_INT's home is in chunk 0, with handle 0's)
  record* mpi_int = record_for<Pointers>(map, Pointers ? handle_of(2) : 0x4c000405, own_int);
  map.insert(mpi_int->native, mpi_int);
  ASSERT_EQ(map.find_unsynchronised(mpi_int->native), mpi_int);
  auto handle_zero_has_none = [&] {
    EXPECT_EQ(map.find_hot(0), nullptr);
    EXPECT_EQ(map.find_unsynchronised(0), nullptr);
    record dummy{handle_in<Pointers>(1)};
    record* z = &dummy;
    EXPECT_TRUE(map.cached(0, &z));
    EXPECT_EQ(z, nullptr);
  };
  handle_zero_has_none();
  EXPECT_EQ(map.find_unsynchronised(handle_in<Pointers>(7)), nullptr);  // probed: none, remembered
  EXPECT_EQ(map.find_hot(handle_in<Pointers>(7)), nullptr);
  EXPECT_TRUE(map.cached(handle_in<Pointers>(7), &o));
  EXPECT_EQ(o, nullptr);
  record own7;
  record& r = *record_for<Pointers>(map, handle_in<Pointers>(7), own7);
  map.insert(r.native, &r);
  EXPECT_EQ(map.find_hot(handle_in<Pointers>(7)), &r);
  EXPECT_EQ(map.erase(handle_in<Pointers>(7)), &r);  // none again, in the cache
  if (!Pointers) r.native = 0;  // (as the runtime leaves an erased record's home: host_runtime.cc, recycle)
  EXPECT_EQ(map.find_hot(handle_in<Pointers>(7)), nullptr);
  EXPECT_EQ(map.find_unsynchronised(handle_in<Pointers>(7)), nullptr);
  o = &r;
  EXPECT_TRUE(map.cached(handle_in<Pointers>(7), &o));
  EXPECT_EQ(o, nullptr);
  // Enough records that the cache grows (twice the table's slots, D69): rebuilt, and sealed.
  // (Over MPICH: homes in more chunks.)
  std::vector<record> own(3000);
  std::vector<record*> recs(own.size());
  for (std::size_t i = 0; i < recs.size(); ++i) {
    recs[i] = record_for<Pointers>(map, handle_in<Pointers>(100 + i), own[i]);
    map.insert(recs[i]->native, recs[i]);
  }
  handle_zero_has_none();
  for (std::size_t i = 0; i < recs.size(); ++i) ASSERT_EQ(map.find_unsynchronised(handle_in<Pointers>(100 + i)), recs[i]) << i;
  ASSERT_TRUE(map.retire(handle_in<Pointers>(100), recs[0]));
  map.drop_dormant([](record*) {});  // (the test's records are its own)
  EXPECT_EQ(map.find_hot(handle_in<Pointers>(100)), nullptr);
  EXPECT_EQ(map.find_unsynchronised(handle_in<Pointers>(100)), nullptr);
  handle_zero_has_none();
  mpiattr::sync::set_concurrent(true);
}
TEST(record_table, D84_a_cached_handle_always_has_its_record) {
  cached_handle_always_has_its_record<true>();
  cached_handle_always_has_its_record<false>();
}

// Below MPI_THREAD_MULTIPLE the fast get and set find records through find_unsynchronised: with
// far more objects than the cache has entries, every record must still be found, from the cache or
// the table, with none for a handle that has none and none for a record asleep (which the cache
// then names as asleep, for revive_unsynchronised), so that the fast paths serve every call
// whatever the number of objects (docs/decisions.md D63).
TEST(record_table, D63_fast_lookup_finds_every_record_of_many) {
  mpiattr::sync::set_concurrent(false);
  test_map<> map;
  std::vector<record> recs(5000);
  insert_records(map, recs);
  record* o = nullptr;
  for (int round = 0; round < 2; ++round)
    for (std::size_t i = 0; i < recs.size(); i += 1 + round) {
      const std::size_t j = (i * 7919) % recs.size();  // (an order that defeats the cache)
      ASSERT_EQ(map.find_unsynchronised(handle_of(j)), &recs[j]) << j;
    }
  EXPECT_EQ(map.find_unsynchronised(handle_of(100000)), nullptr);
  EXPECT_EQ(map.find_unsynchronised(handle_of(100000)), nullptr);  // (now from the cache)
  ASSERT_TRUE(map.retire_unsynchronised(handle_of(3), &recs[3]));
  for (std::size_t i = 0; i < 40000; ++i) (void)map.find_unsynchronised(handle_of(100000 + i));  // (evicts it)
  EXPECT_EQ(map.find_unsynchronised(handle_of(3)), nullptr);
  EXPECT_TRUE(map.cached(handle_of(3), &o));
  EXPECT_EQ(o, nullptr);
  ASSERT_EQ(map.revive_unsynchronised(handle_of(3)), &recs[3]);
  EXPECT_EQ(map.find_unsynchronised(handle_of(3)), &recs[3]);
  EXPECT_EQ(map.erase(handle_of(4)), &recs[4]);
  EXPECT_EQ(map.find_unsynchronised(handle_of(4)), nullptr);
  mpiattr::sync::set_concurrent(true);
}

// Below MPI_THREAD_MULTIPLE the fast gets and sets read the cache alone (host_glue.h: find_hot;
// docs/decisions.md D69, D89), so the cache grows with the table: with 20,000 records most of
// them are found in it, where its first 4,096 entries could hold at most 4,096; it holds what the
// table holds (a record asleep stays asleep, an erased one is gone), and every record is found.
TEST(record_table, D69_cache_grows_with_the_table) {
  mpiattr::sync::set_concurrent(false);
  test_map<> map;
  std::vector<record> recs(20000);
  std::vector<record> first(recs.begin(), recs.begin() + 10000), second(recs.begin() + 10000, recs.end());
  insert_records(map, first);
  ASSERT_TRUE(map.retire_unsynchronised(handle_of(5), &first[5]));
  EXPECT_EQ(map.erase(handle_of(6)), &first[6]);
  insert_records(map, second, first.size());  // (the table grows: the cache is rebuilt from it)
  auto rec = [&](std::size_t i) { return i < first.size() ? &first[i] : &second[i - first.size()]; };
  std::size_t hits = 0;
  for (std::size_t i = 0; i < recs.size(); ++i) hits += map.find_hot(handle_of(i)) == rec(i);
  EXPECT_GT(hits, recs.size() * 3 / 4);  // (a cache of 4,096 entries would find at most 4,096)
  record* o = nullptr;
  EXPECT_TRUE(map.cached(handle_of(5), &o));  // asleep: no record (from the rebuilt cache)
  EXPECT_EQ(o, nullptr);
  EXPECT_EQ(map.find_unsynchronised(handle_of(5)), nullptr);
  EXPECT_EQ(map.find_unsynchronised(handle_of(6)), nullptr);
  for (std::size_t i = 0; i < recs.size(); ++i) {
    if (i == 5 || i == 6) continue;
    ASSERT_EQ(map.find_unsynchronised(handle_of(i)), rec(i)) << i;
  }
  ASSERT_EQ(map.revive_unsynchronised(handle_of(5)), &first[5]);
  EXPECT_EQ(map.find_unsynchronised(handle_of(5)), &first[5]);
  mpiattr::sync::set_concurrent(true);
}

// The cache has two ways per set (docs/decisions.md D74): 2,000 records whose handles are spread
// as Open MPI's pointers are (random strides, multiples of 16 up to 9.6 KB) are found in it after
// their inserts (then a rebuild of the cache) for more than 95 % of them; direct-mapped, the same
// entries held about 89 % (one record in nine shared its entry), and each miss cost a call the
// table's probe. A set holds a handle in either way, and a handle it does not hold displaces the
// older of the two: every record is found however the sets fill, the last one used from the cache.
TEST(record_table, D74_two_way_cache_holds_records_that_share_a_set) {
  mpiattr::sync::set_concurrent(false);
  test_map<> map;
  std::vector<record> recs(2000);
  std::uint64_t x = 0x2545F4914F6CDD1Dull, at = 0x7f3a12340000ull;
  for (record& r : recs) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;  // (xorshift: a fixed sequence)
    at += 16 * (1 + x % 600);
    r.native = at;
    map.insert(r.native, &r);
  }
  std::size_t hits = 0;
  for (record& r : recs) hits += map.find_hot(r.native) == &r;
  EXPECT_GT(hits, recs.size() * 95 / 100);  // (1,921 of 2,000; direct-mapped 1,783)
  for (int round = 0; round < 2; ++round)
    for (std::size_t i = 0; i < recs.size(); ++i) {
      record& r = recs[(i * 7919) % recs.size()];
      ASSERT_EQ(map.find_unsynchronised(r.native), &r);
      ASSERT_EQ(map.find_hot(r.native), &r);  // (now in way 0 of its set)
    }
  EXPECT_EQ(map.find_unsynchronised(at + 16), nullptr);  // (no record: the cache says so next)
  record* o = &recs[0];
  EXPECT_TRUE(map.cached(at + 16, &o));
  EXPECT_EQ(o, nullptr);
  mpiattr::sync::set_concurrent(true);
}

// Over MPICH a record lies in its handle's home (docs/decisions.md D126), at a place computed from
// the handle's place in MPICH 4.0.2's layout (the handle kind in bits 30-31, the object kind in
// 26-29, indirect objects in blocks of 1,024 at a stride of 4,096), which MPICH hands out in
// order: the direct ones, then block 0, 1, ... (mpich_handle: the handle of a program's i-th dup).
// Every handle of such a sequence, the predefined objects' beside them, gets a home of its own,
// except the few indirect handles that share a place with a builtin or direct one (D98); a
// record in its home is what find_hot returns, with consecutive handles' records 128 bytes
// apart (one record, two lines: nothing between them); the others are displaced and found
// through the table. A freed and reused handle, a handle of another kind asked of this map, and
// handles 0 and 1 (which MPICH never issues) change none of that.
TEST(record_table, D126_mpich_records_lie_in_their_homes) {
  mpiattr::sync::set_concurrent(false);
  struct kind {
    std::uintptr_t bits;
    std::vector<std::uintptr_t> predefined;
    std::size_t n;
  };
  const kind kinds[] = {
      {0xcc, {0x4c000405, 0x4c00080b, 0x4c000816, 0x4c000101, 0x8c000000, 0x8c000004}, 1000},  // MPI_INT, ...
      {0xcc, {0x4c000405, 0x4c00080b}, 100000},
      {0xcc, {}, 260000},  // (up to block 253, the last the homes cover before they wrap: D126)
      {0xc4, {0x44000000, 0x44000001}, 2046},  // MPI_COMM_WORLD, MPI_COMM_SELF and MPICH's limit
      {0xe0, {}, 1046},  // windows (each takes a communicator)
  };
  for (const kind& k : kinds) {
    SCOPED_TRACE(testing::Message() << std::hex << k.bits << std::dec << " n " << k.n);
    test_map<mpiattr::host::no_map_hooks, false> map;
    map.seal();
    std::vector<record> own(k.n + k.predefined.size());
    std::vector<record*> recs(own.size());
    std::size_t homed = 0;
    for (std::size_t i = 0; i < recs.size(); ++i) {
      const std::uintptr_t h = i < k.predefined.size() ? k.predefined[i] : mpich_handle(k.bits, i - k.predefined.size());
      recs[i] = record_for<false>(map, h, own[i]);  // (own[i] when a handle of its place took the home)
      homed += recs[i] != &own[i];
      map.insert(h, recs[i]);
    }
    // (A builtin or direct handle and the indirect one that shares its place: one of the two.)
    const std::size_t outside = k.predefined.size() + (k.bits == 0xcc ? 3 : 8);
    EXPECT_GE(homed + outside, recs.size());
    EXPECT_EQ(map.displaced(), recs.size() - homed);
    auto homes_answer = [&] {
      std::size_t hits = 0;
      for (std::size_t i = 0; i < recs.size(); ++i) {
        const bool home = recs[i] != &own[i];
        EXPECT_EQ(map.at_home(recs[i]->native, recs[i]), home);
        hits += map.find_hot(recs[i]->native) == recs[i];
        EXPECT_EQ(map.find_hot(recs[i]->native), home ? recs[i] : nullptr) << std::hex << recs[i]->native;
      }
      EXPECT_EQ(hits, homed);
    };
    homes_answer();
    // Consecutive indirect handles: consecutive homes, in runs of 64 (the kind bits, brought down
    // to bits 6-11 of the place, permute the runs of a block).
    const std::size_t first = k.predefined.size() + (k.bits == 0xcc ? 3 : 8);
    for (std::size_t i = first + 1; i < std::min(recs.size(), first + 1024); ++i) {
      if ((recs[i]->native & 0x3f) != 0 && recs[i] != &own[i] && recs[i - 1] != &own[i - 1]) {
        ASSERT_EQ(std::abs(recs[i] - recs[i - 1]), 1) << i;
      }
    }
    // A freed handle is the next one MPICH hands out (its free list is a stack): erased, or asleep,
    // and then given its record again, it is in its home as before.
    record* mid = recs[recs.size() / 2];
    const std::uintptr_t mid_handle = mid->native;
    EXPECT_EQ(map.erase(mid_handle), mid);
    mid->native = 0;  // (as the runtime leaves an erased record: host_runtime.cc, recycle)
    EXPECT_EQ(map.find_unsynchronised(mid_handle), nullptr);
    EXPECT_EQ(map.find_hot(mid_handle), nullptr);
    mid->native = mid_handle;
    map.insert(mid_handle, mid);
    record* last = recs.back();
    const std::uintptr_t last_handle = last->native;
    ASSERT_TRUE(map.retire_unsynchronised(last_handle, last));  // (its native then says so)
    EXPECT_EQ(map.find_unsynchronised(last_handle), nullptr);
    EXPECT_EQ(map.find_hot(last_handle), nullptr);
    ASSERT_EQ(map.revive_unsynchronised(last_handle), last);
    homes_answer();
    // Handles this map never had: 0 and 1 (no MPICH handle), another kind's first handles and
    // the next handle of this kind. None has a record: a fast lookup finds none, and where every
    // record is in its home the map says so without its table.
    for (std::uintptr_t h : {std::uintptr_t{0}, std::uintptr_t{1}, std::uintptr_t{0x44000000}, std::uintptr_t{0x84000000},
                             std::uintptr_t{0xc4000000}, std::uintptr_t{0xa0000000}, std::uintptr_t{0xe0000000},
                             std::uintptr_t{0x4c000405}, mpich_handle(k.bits, k.n)}) {
      if (std::any_of(recs.begin(), recs.end(), [&](const record* r) { return r->native == h; })) continue;
      EXPECT_EQ(map.find_unsynchronised(h), nullptr) << std::hex << h;
      EXPECT_EQ(map.find_hot(h), nullptr);
      EXPECT_EQ(map.lookup(h), nullptr);
      record* o = recs[0];
      if (map.displaced() == 0) {
        EXPECT_TRUE(map.cached(h, &o)) << std::hex << h;
        EXPECT_EQ(o, nullptr);
      }
    }
    for (record* r : recs) ASSERT_EQ(map.find_unsynchronised(r->native), r) << std::hex << r->native;
    for (record* r : recs) ASSERT_EQ(map.lookup(r->native), r) << std::hex << r->native;
  }
  mpiattr::sync::set_concurrent(true);
}

// D126: a record outside its home (here a handle of block 256 + b, whose place wraps onto one of
// block b's, after that handle took the home) is found through the table by every lookup
// but the fast one, which finds none and leaves the call to the checked path; while one is
// displaced, a home that does not hold a handle's record does not say that the handle has none
// (cached: false). Erased, it leaves the map as before: every record in its home, and a handle
// whose home is not its record has none. Handle 0 has no home, and the home at its place holds
// no record a lookup of handle 0 could match.
TEST(record_table, D126_a_displaced_record_is_found_through_the_table) {
  mpiattr::sync::set_concurrent(false);
  test_map<mpiattr::host::no_map_hooks, false> map;
  map.seal();
  const std::uintptr_t near = 0xcc000000 | (std::uintptr_t{5} << 12) | 0x123;
  const std::uintptr_t far = (near + (std::uintptr_t{256} << 12)) ^ 1;  // (bit 20 moves bit 0 of key >> 20)
  void* extra = nullptr;
  bool built = true;
  record* home = map.home_memory(near, &extra, &built);
  ASSERT_NE(home, nullptr);
  EXPECT_FALSE(built);
  record* r_near = new (home) record{near};
  map.insert(near, r_near);
  EXPECT_EQ(map.home_memory(far, &extra, &built), home);  // (the same place: taken)
  EXPECT_TRUE(built);
  record r_far{far};
  map.insert(far, &r_far);
  EXPECT_EQ(map.displaced(), 1u);
  EXPECT_FALSE(map.at_home(far, &r_far));
  EXPECT_EQ(map.find_hot(near), r_near);
  EXPECT_EQ(map.find_hot(far), nullptr);
  EXPECT_EQ(map.find_unsynchronised(far), &r_far);
  EXPECT_EQ(map.lookup(far), &r_far);
  EXPECT_EQ(map.find(far), &r_far);
  record* o = nullptr;
  EXPECT_FALSE(map.cached(far, &o));
  EXPECT_EQ(map.cached_at(far, &o), nullptr);
  const std::uintptr_t other = near + 1;  // (no record, its home unused: the table must say)
  EXPECT_FALSE(map.cached(other, &o));
  EXPECT_EQ(map.find_unsynchronised(other), nullptr);
  // Asleep and woken where it lies.
  ASSERT_TRUE(map.retire_unsynchronised(far, &r_far));
  EXPECT_EQ(map.find_unsynchronised(far), nullptr);
  EXPECT_EQ(map.revive_unsynchronised(far), &r_far);
  EXPECT_EQ(map.find_unsynchronised(far), &r_far);
  EXPECT_EQ(map.erase(far), &r_far);
  EXPECT_EQ(map.displaced(), 0u);
  EXPECT_EQ(map.find_unsynchronised(far), nullptr);
  EXPECT_TRUE(map.cached(far, &o));
  EXPECT_EQ(o, nullptr);
  EXPECT_TRUE(map.cached(near, &o));
  EXPECT_EQ(o, r_near);
  EXPECT_NE(map.cached_at(near, &o), nullptr);
  // Handle 0: no home is handed out for it; the one at its place (chunk 0, with MPI_INT's) holds
  // a handle no host has.
  EXPECT_EQ(map.home_memory(0, &extra, &built), nullptr);
  record* int_home = map.home_memory(0x4c000405, &extra, &built);
  ASSERT_NE(int_home, nullptr);
  map.insert(0x4c000405, new (int_home) record{0x4c000405});
  EXPECT_EQ(map.find_hot(0), nullptr);
  EXPECT_EQ(map.find_unsynchronised(0), nullptr);
  EXPECT_TRUE(map.cached(0, &o));
  EXPECT_EQ(o, nullptr);
  EXPECT_EQ(map.find_hot(0x4c000405), int_home);
  mpiattr::sync::set_concurrent(true);
}

// D126, D61: the homes are address space reserved when the map is sealed; a process that may not
// have that much (RLIMIT_AS, as batch systems set it) gets fewer homes, or none, and loses
// nothing: records whose places wrap, or every record when there are no homes, lie outside
// them and are found through the table. Each limit in a process of its own (a death test's
// child): while the map is sealed, the address space the process has then plus `room`.
void homes_within(std::size_t room, bool some_homes, bool some_displaced) {
  long pages = 0;
  if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
    std::fclose(f);
  }
  if (pages <= 0) std::_Exit(2);
  const rlim_t now = static_cast<rlim_t>(pages) * static_cast<rlim_t>(::sysconf(_SC_PAGESIZE));
  rlimit lim{};
  if (::getrlimit(RLIMIT_AS, &lim) != 0) std::_Exit(3);
  const rlim_t soft = lim.rlim_cur;
  lim.rlim_cur = now + room;
  mpiattr::sync::set_concurrent(false);
  test_map<mpiattr::host::no_map_hooks, false> map;
  if (::setrlimit(RLIMIT_AS, &lim) != 0) std::_Exit(3);
  map.seal();
  lim.rlim_cur = soft;
  if (::setrlimit(RLIMIT_AS, &lim) != 0) std::_Exit(3);
  std::vector<record> own(3000);
  std::vector<record*> recs(own.size());
  std::size_t homed = 0;
  for (std::size_t i = 0; i < recs.size(); ++i) {
    recs[i] = record_for<false>(map, mpich_handle(0xcc, i), own[i]);
    homed += recs[i] != &own[i];
    map.insert(recs[i]->native, recs[i]);
  }
  if (some_homes != (homed > 0)) std::_Exit(4);
  if (map.displaced() != recs.size() - homed || some_displaced != (homed < recs.size())) std::_Exit(5);
  for (record* r : recs) {
    if (map.find_unsynchronised(r->native) != r || map.lookup(r->native) != r) std::_Exit(6);
    if (map.find_hot(r->native) != (map.at_home(r->native, r) ? r : nullptr)) std::_Exit(7);
  }
  if (map.find_unsynchronised(0) != nullptr || map.find_hot(0) != nullptr) std::_Exit(8);
  std::_Exit(0);
}
TEST(record_table, D126_homes_within_a_limited_address_space) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  // (3,000 datatypes' places span 3 blocks of MPICH's handles, 16,384 places: 256 KiB of homes
  // of the test's records, 16 bytes. With 192 KiB the map gets the fewest, 8,192, onto which
  // block 2 wraps, onto block 0's; with none, none.)
  static_assert(sizeof(record) == 16);
  EXPECT_EXIT(homes_within(64 << 20, true, false), ::testing::ExitedWithCode(0), "");
  EXPECT_EXIT(homes_within(192 << 10, true, true), ::testing::ExitedWithCode(0), "");
  EXPECT_EXIT(homes_within(0, false, true), ::testing::ExitedWithCode(0), "");
}

// Below MPI_THREAD_MULTIPLE the fast dup and free use revive_unsynchronised and
// retire_unsynchronised (host_glue.h: fast_dup, fast_free). They must leave the table, its counts
// and its cache as retire and revive do: a sleeping record answers no lookup, wakes for its own
// handle only, also once the cache has forgotten it (then from the table), and no more than
// kMaxDormant sleep.
template <bool Pointers>
void unsynchronised_retire_and_revive() {
  SCOPED_TRACE(Pointers ? "pointer handles" : "MPICH handles");
  mpiattr::sync::set_concurrent(false);
  test_map<mpiattr::host::no_map_hooks, Pointers> map;
  map.seal();  // (as the runtime's, before the fast paths may run)
  constexpr std::size_t kMax = test_map<mpiattr::host::no_map_hooks, Pointers>::kMaxDormant;
  std::vector<record> own(kMax + 2);
  std::vector<record*> recs(own.size());
  for (std::size_t i = 0; i < recs.size(); ++i) {
    recs[i] = record_for<Pointers>(map, handle_in<Pointers>(i), own[i]);
    map.insert(recs[i]->native, recs[i]);
  }
  record* o = nullptr;
  for (std::size_t i = 0; i < kMax; ++i) ASSERT_TRUE(map.retire_unsynchronised(handle_in<Pointers>(i), recs[i]));
  EXPECT_FALSE(map.retire_unsynchronised(handle_in<Pointers>(kMax), recs[kMax]));  // the cap
  EXPECT_EQ(recs[kMax]->native, handle_in<Pointers>(kMax));  // refused: untouched, awake
  EXPECT_EQ(map.dormant(), kMax);
  EXPECT_EQ(map.sleepers(), kMax);
  EXPECT_EQ(map.size(), kMax + 2);
  EXPECT_EQ(map.lookup(handle_in<Pointers>(0)), nullptr);
  EXPECT_EQ(map.find(handle_in<Pointers>(0)), nullptr);
  EXPECT_TRUE(map.cached(handle_in<Pointers>(0), &o));
  EXPECT_EQ(o, nullptr);
  EXPECT_EQ(map.revive_unsynchronised(handle_in<Pointers>(kMax + 1)), nullptr);  // awake: nothing to wake
  EXPECT_EQ(map.revive_unsynchronised(handle_in<Pointers>(100000)), nullptr);   // no record at all
  ASSERT_EQ(map.revive_unsynchronised(handle_in<Pointers>(0)), recs[0]);       // from the cache
  EXPECT_EQ(recs[0]->native, handle_in<Pointers>(0));
  EXPECT_EQ(map.find_hot(handle_in<Pointers>(0)), recs[0]);
  EXPECT_EQ(map.find(handle_in<Pointers>(0)), recs[0]);
  EXPECT_EQ(map.revive_unsynchronised(handle_in<Pointers>(0)), nullptr);  // awake now
  // The cache forgets handle 1's entry (lookups of other handles take its slots): it still wakes.
  for (std::size_t i = 0; i < 40000; ++i) (void)map.lookup(handle_in<Pointers>(100000 + i));
  ASSERT_EQ(map.revive_unsynchronised(handle_in<Pointers>(1)), recs[1]);
  EXPECT_EQ(map.lookup(handle_in<Pointers>(1)), recs[1]);
  EXPECT_EQ(map.dormant(), kMax - 2);
  EXPECT_EQ(map.sleepers(), kMax);
  EXPECT_EQ(map.size(), kMax + 2);
  mpiattr::sync::set_concurrent(true);
}
TEST(record_table, D32_unsynchronised_retire_and_revive_do_what_retire_and_revive_do) {
  unsynchronised_retire_and_revive<true>();
  unsynchronised_retire_and_revive<false>();
}

// At MPI_THREAD_MULTIPLE the dup and free of plain attributes take no lock when the record holds a
// sleep token (host_glue.h: fast_dup_concurrent, fast_free_concurrent; docs/decisions.md D32).
// Like the locked forms they change nothing unless they act: no token, no record asleep for the
// handle, a record that is not the handle's, or a declining fill or empty leave everything as it
// was, so that the locked form or the general path finds it so.
TEST(record_table, D32_lock_free_revive_and_retire_change_nothing_unless_they_act) {
  mpiattr::sync::set_concurrent(true);
  test_map<> map;
  record a{handle_of(1)}, b{handle_of(2)};
  map.insert(a.native, &a);
  map.insert(b.native, &b);
  int calls = 0;
  auto yes = [&](record*) { ++calls; return true; };
  auto no = [&](record*) { ++calls; return false; };
  EXPECT_FALSE(map.retire_lock_free(handle_of(1), &a, yes));  // no token yet
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(map.find(handle_of(1)), &a);
  ASSERT_TRUE(map.retire(handle_of(1), &a));  // (the first sleep, under the lock, takes one)
  EXPECT_TRUE(a.may_sleep());
  EXPECT_FALSE(map.revive_lock_free(handle_of(2), yes));  // awake: nothing to wake
  EXPECT_FALSE(map.revive_lock_free(handle_of(3), yes));  // no record at all
  EXPECT_EQ(calls, 0);
  EXPECT_FALSE(map.revive_lock_free(handle_of(1), no));  // declined: still asleep
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(map.find(handle_of(1)), nullptr);
  EXPECT_TRUE(map.revive_lock_free(handle_of(1), yes));
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(map.find(handle_of(1)), &a);
  EXPECT_EQ(map.find_shared(handle_of(1)), &a);
  EXPECT_FALSE(map.retire_lock_free(handle_of(2), &a, yes));  // a is not 2's record
  EXPECT_FALSE(map.retire_lock_free(handle_of(1), &a, no));   // declined: still awake
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(map.find(handle_of(1)), &a);
  EXPECT_TRUE(map.retire_lock_free(handle_of(1), &a, yes));
  EXPECT_EQ(map.find(handle_of(1)), nullptr);
  EXPECT_EQ(map.find_shared(handle_of(1)), nullptr);
  EXPECT_EQ(map.dormant(), 1u);
  EXPECT_EQ(map.sleepers(), 1u);
  EXPECT_EQ(map.size(), 2u);
  // Found from the table once the shared cache names another record.
  std::vector<record> more(600);
  insert_records(map, more, 10);
  for (record& r : more) (void)map.find_shared(r.native);  // (the shared cache names them)
  EXPECT_TRUE(map.revive_lock_free(handle_of(1), yes));
  EXPECT_EQ(map.find(handle_of(1)), &a);
  EXPECT_EQ(a.busy(), 0);
}

// The census of lazy counting (host_runtime.cc) against lock-free dups and frees, at
// MPI_THREAD_MULTIPLE (D20, D32). A dup that copies uncounted attributes into a record the census
// has passed, or a free that empties one it is counting, would leave an attribute uncounted or a
// reference unreturned. So each record is seen by the census before a change or after it, or the
// change sees the census's flag and declines. Here workers wake and put to sleep records of their
// own without the lock while the census runs; once it has run, its flag stays set, so every
// change declines and a record awake then must have been visited by it.
TEST(record_table, R11_1_D20_census_sees_every_record_a_lock_free_dup_woke) {
  mpiattr::sync::set_concurrent(true);
  if (!mpiattr::host::asymmetric::enable()) GTEST_SKIP() << "the kernel refuses membarrier(2)";
  test_map<> map;
  constexpr int kWorkers = 3, kPerWorker = 4, kRounds = 100;
  std::vector<record> recs(kWorkers * kPerWorker);
  insert_records(map, recs);
  for (record& r : recs) ASSERT_TRUE(map.retire(r.native, &r));  // (each takes its token)
  std::atomic<int> counting{0};
  // A copy or a clearing takes a while: what the census must not see half done.
  auto work = [] {
    for (int i = 0; i < 200; ++i) std::atomic_signal_fence(std::memory_order_seq_cst);
  };
  int missed = 0;
  for (int round = 0; round < kRounds; ++round) {
    counting.store(0, std::memory_order_seq_cst);
    std::atomic<bool> stop{false};
    std::atomic<int> started{0};
    std::vector<std::thread> workers;
    for (int w = 0; w < kWorkers; ++w) {
      workers.emplace_back([&, w] {
        started.fetch_add(1);
        while (!stop.load(std::memory_order_relaxed)) {
          for (int j = 0; j < kPerWorker; ++j) {
            record& r = recs[w * kPerWorker + j];
            const std::uintptr_t h = handle_of(w * kPerWorker + j);
            auto act = [&](record*) {
              if (counting.load(std::memory_order_relaxed) != 0) return false;  // (as counting())
              work();
              return true;
            };
            if (__atomic_load_n(&r.native, __ATOMIC_RELAXED) == h) map.retire_lock_free(h, &r, act);
            else map.revive_lock_free(h, act);
          }
        }
      });
    }
    while (started.load() != kWorkers) std::this_thread::yield();
    for (int i = 0; i < 1000 * (round % 4); ++i) std::atomic_signal_fence(std::memory_order_seq_cst);
    counting.store(1, std::memory_order_seq_cst);
    mpiattr::host::asymmetric::heavy();
    map.for_each([&](record* r) { r->census_saw = round; });
    stop.store(true);
    for (std::thread& t : workers) t.join();
    for (const record& r : recs) {
      ASSERT_EQ(r.busy(), 0);
      if (r.native == handle_of(&r - recs.data()) && r.census_saw != round) ++missed;
    }
  }
  EXPECT_EQ(missed, 0) << "records woken behind the census";
  map.drop_dormant([](record*) {});
}

// The protocol itself, step by step: a lookup reads the table that is current, is held there
// while the table is replaced twice (so that its table is refilled) and resumes on the emptied
// table. It must notice and start again, and find the record in the table now current.
struct stop_points {
  static inline std::atomic<int> phase{0};
  static inline std::atomic<const void*> reader_table{nullptr};
  static void lookup_began(const void* t) {
    int expected = 0;
    if (phase.compare_exchange_strong(expected, 1)) {  // the first lookup only
      reader_table.store(t);
      while (phase.load() != 2) std::this_thread::yield();
    }
  }
  static void refill_cleared(const void* t) {
    if (phase.load() == 1 && t == reader_table.load()) {
      phase.store(2);  // the held lookup reads the emptied table now
      while (phase.load() != 3) std::this_thread::yield();
    }
  }
};

TEST(record_table, R11_1_D22_lookup_on_a_table_being_refilled_starts_again) {
  mpiattr::sync::set_concurrent(true);
  test_map<stop_points> map;
  record kept{handle_of(0)};
  map.insert(kept.native, &kept);
  const record* found = nullptr;
  std::thread reader([&] {
    found = map.find(kept.native);
    stop_points::phase.store(3);
  });
  while (stop_points::phase.load() != 1) std::this_thread::yield();
  const std::size_t tables_when_held = map.tables_held();
  record churned{};
  for (std::size_t i = 0; stop_points::phase.load() != 3 && i < 100000; ++i) {
    churned.native = handle_of(1000 + i);  // (only this thread reads churned records)
    map.insert(churned.native, &churned);
    map.erase(churned.native);
  }
  const bool refilled = stop_points::phase.load() == 3;
  if (!refilled) stop_points::phase.store(2);  // (the table was never refilled: free the reader)
  reader.join();
  EXPECT_TRUE(refilled) << "the table the lookup read was never refilled";
  EXPECT_EQ(tables_when_held, 1u);
  EXPECT_EQ(found, &kept);
}

// The fast paths' gate over a host (docs/decisions.md D89; host_glue.h: fast_gate) is the keyval's
// check itself: open, the kind's hot row and the full index mask accept exactly the live keyvals
// of that kind; closed (the state before mpiattr starts, at MPI_THREAD_MULTIPLE, while reporting
// and after finalize), the closed row and its mask accept no int at all, so a fast path reads
// neither the record cache nor a slot. Every value with the closed mask reads one of the closed
// row's two entries, 1 for an even value and 0 for an odd one: the keyvals tried are the live ones,
// the hosts' predefined and invalid ones, mpiattr's form with each low bit, and a million others.
TEST(record_table, D89_closed_gate_accepts_no_keyval) {
  using mpiattr::keyval_registry;
  using mpiattr::object_kind;
  int comm_key = 0, type_key = 0;
  mpiattr::callbacks cbs;
  ASSERT_TRUE(mpiattr::keyvals().create(object_kind::comm, cbs, &comm_key).is_ok());
  ASSERT_TRUE(mpiattr::keyvals().create(object_kind::type, cbs, &type_key).is_ok());
  const void* const comm_row = keyval_registry::hot_row_of(object_kind::comm);
  const void* const type_row = keyval_registry::hot_row_of(object_kind::type);
  constexpr std::size_t kOpen = keyval_registry::kMaxIndex - 1;
  std::uint32_t index = 0;
  EXPECT_TRUE(keyval_registry::live_user_gated(comm_row, kOpen, comm_key, &index));
  EXPECT_EQ(index, static_cast<std::uint32_t>(comm_key) & kOpen);
  EXPECT_TRUE(keyval_registry::live_user_gated(type_row, kOpen, type_key, &index));
  EXPECT_FALSE(keyval_registry::live_user_gated(comm_row, kOpen, type_key, &index));  // (R1.5)
  std::vector<int> tried = {comm_key, type_key, 0, 1, 2, 3, -1, -2, 0x40000000, 0x40000001, 0x40000010,
                            0x40000011, 0x24000000, 0x64400001, 0x66000009, static_cast<int>(0xa4400000u),
                            static_cast<int>(0xe4400009u), 12, 13, INT32_MAX, INT32_MIN};
  std::mt19937 random(89);
  for (int i = 0; i < 1000000; ++i) tried.push_back(static_cast<int>(random()));
  for (int k : tried) {
    EXPECT_FALSE(keyval_registry::live_user_gated(keyval_registry::closed_row(), keyval_registry::kClosedMask, k,
                                                  &index))
        << k;
  }
  EXPECT_TRUE(mpiattr::keyvals().free(object_kind::comm, &comm_key, "communicator").is_ok());
  EXPECT_TRUE(mpiattr::keyvals().free(object_kind::type, &type_key, "datatype").is_ok());
  EXPECT_FALSE(keyval_registry::live_user_gated(comm_row, kOpen, comm_key, &index));  // (freed)
}

// D95: a get or a set over a host of an attribute under the program's first keyval touches one
// line of the object's record: the store's first fields (what they read and write besides the
// slot) and the inline chunk's first slot share a line in every record, however made (new, in an
// array, on the stack).
template <typename Record>
void expect_hot_line(const char* what) {
  static_assert(alignof(Record) >= mpiattr::attr_store::kLine);
  auto* heap = new Record;
  EXPECT_TRUE(heap->attrs.hot_line_holds()) << what << " (new)";
  delete heap;
  std::vector<Record> many(3);
  for (const Record& r : many) EXPECT_TRUE(r.attrs.hot_line_holds()) << what << " (in a vector)";
  Record local;
  EXPECT_TRUE(local.attrs.hot_line_holds()) << what << " (on the stack)";
}
TEST(record_layout, D95_a_get_or_set_touches_one_line_of_the_record) {
  expect_hot_line<mpiattr::host::comm_record>("comm_record");
  expect_hot_line<mpiattr::host::type_record>("type_record");
  expect_hot_line<mpiattr::host::win_record>("win_record");
}

// D125: a record is its object's hot part, 128 bytes (what a get or set reads: two lines, the
// store's fields and first slots), and its cold part lies outside it; attributes under keyvals
// past the hot part's slots live in the cold part and are read and written through it.
template <typename Record>
void expect_hot_part_alone(const char* what) {
  EXPECT_EQ(sizeof(Record), 128u) << what;
  Record r;
  const char* hot = reinterpret_cast<const char*>(&r);
  const char* cold = reinterpret_cast<const char*>(&r.cold());
  EXPECT_TRUE(cold + sizeof(mpiattr::attr_object_cold) <= hot || cold >= hot + sizeof(Record)) << what;
  std::lock_guard lock(r.attrs.mutex());
  const std::uint32_t first = mpiattr::kPredefinedIndices;
  for (std::uint32_t i : {0u, 3u, 4u, 31u, 32u, 100u})
    r.attrs.put(first + i, mpiattr::attribute_value::from_c(reinterpret_cast<void*>(std::uintptr_t{1000 + i})), 0);
  for (std::uint32_t i : {0u, 3u, 4u, 31u, 32u, 100u}) {
    mpiattr::attr_read got;
    ASSERT_TRUE(r.attrs.read(first + i, &got)) << what << ", slot " << i;
    EXPECT_EQ(got.as_c(), reinterpret_cast<void*>(std::uintptr_t{1000 + i})) << what << ", slot " << i;
    const char* home = reinterpret_cast<const char*>(got.home);
    EXPECT_EQ(home >= hot && home < hot + sizeof(Record), i < mpiattr::attr_store::kNear) << what << ", slot " << i;
  }
  mpiattr::attr_read none;
  EXPECT_FALSE(r.attrs.read(first + 5, &none)) << what;
  EXPECT_EQ(r.attrs.size(), 6u) << what;
  EXPECT_FALSE(r.attrs.all_inline()) << what;
  for (std::uint32_t i : {100u, 32u}) EXPECT_FALSE(r.attrs.erase(first + i)) << what;  // (none counted)
  EXPECT_TRUE(r.attrs.all_inline()) << what;
}
TEST(record_layout, D125_a_record_is_its_objects_hot_part) {
  expect_hot_part_alone<mpiattr::host::comm_record>("comm_record");
  expect_hot_part_alone<mpiattr::host::type_record>("type_record");
  expect_hot_part_alone<mpiattr::host::win_record>("win_record");
}

}  // namespace
