// One-sided communication on the standalone runtime's one process (MPI-4.1 §13, D46): the
// synchronisation calls keep track of the window's epochs, and every transfer targets the
// process's own window memory, done at once.
#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <mutex>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "predefined_arith.h"
#include "runtime_internal.h"

namespace mpiattr {

// ---- the windows' RMA state ----

namespace {
std::unordered_map<handle_t, rma_state>& rma_table() {
  static auto* t = new std::unordered_map<handle_t, rma_state>;  // never destroyed, as p2p's
  return *t;
}
}  // namespace

std::mutex& rma_mutex() {
  static auto* m = new std::mutex;
  return *m;
}

rma_state& rma_of(const win_object& win) { return rma_table()[win.handle]; }

void rma_forget(const win_object& win) {
  std::lock_guard lock(rma_mutex());
  rma_table().erase(win.handle);
}

namespace {

// ---- predefined operations on predefined datatypes (MPI-4.1 §7.9.2; predefined_arith.h) ----

using namespace arith;

// Whether an accumulate may apply op to elements of group c: MPI_REPLACE and MPI_NO_OP to any.
bool accumulate_op_applies(handle_t op, cat c) {
  const char* name = op_name(op);
  if (name == nullptr) return false;
  if (named(name, {"MPI_REPLACE", "MPI_NO_OP"})) return true;
  return arith::op_applies(name, c);
}

// inout = inout op in, for one element of type T (a real or an integer).
template <typename T>
void combine(const char* opname, const char* in, char* inout) {
  T a = load<T>(inout), b = load<T>(in), r = a;
  auto is = [](const std::string_view n, const char* op) { return n == op; };
  const std::string_view op(opname);
  if (is(op, "MPI_SUM")) r = static_cast<T>(a + b);
  else if (is(op, "MPI_PROD")) r = static_cast<T>(a * b);
  else if (is(op, "MPI_MAX")) r = a < b ? b : a;
  else if (is(op, "MPI_MIN")) r = b < a ? b : a;
  else if (is(op, "MPI_LAND")) r = static_cast<T>((a != 0) && (b != 0));
  else if (is(op, "MPI_LOR")) r = static_cast<T>((a != 0) || (b != 0));
  else if (is(op, "MPI_LXOR")) r = static_cast<T>((a != 0) != (b != 0));
  else if constexpr (std::is_integral_v<T>) {
    if (is(op, "MPI_BAND")) r = static_cast<T>(a & b);
    else if (is(op, "MPI_BOR")) r = static_cast<T>(a | b);
    else if (is(op, "MPI_BXOR")) r = static_cast<T>(a ^ b);
  }
  store<T>(inout, r);
}

template <typename T>
void combine_complex(const char* opname, const char* in, char* inout) {
  std::complex<T> a = load<std::complex<T>>(inout), b = load<std::complex<T>>(in);
  store(inout, std::strcmp(opname, "MPI_SUM") == 0 ? a + b : a * b);
}

// MINLOC and MAXLOC: (value, index) pairs; a tie keeps the smaller index (MPI-4.1 §7.9.4).
template <typename V, typename I>
void combine_loc(bool max, const char* in, char* inout, aint index_at) {
  V a = load<V>(inout), b = load<V>(in);
  I ia = load<I>(inout + index_at), ib = load<I>(in + index_at);
  bool take = max ? (a < b) : (b < a);
  if (!(a < b) && !(b < a)) {  // equal
    if (ib < ia) store<I>(inout + index_at, ib);
    return;
  }
  if (take) {
    store<V>(inout, b);
    store<I>(inout + index_at, ib);
  }
}

}  // namespace

// Combines n packed elements of the predefined datatype `basic`: inout = inout op in (op a
// predefined operation that accumulate_op_applies() to it; MPI_REPLACE copies, MPI_NO_OP leaves inout).
static void apply_op(handle_t op, handle_t basic, aint esize, const char* in, char* inout, aint n) {
  const char* name = op_name(op);
  if (name == nullptr || std::strcmp(name, "MPI_NO_OP") == 0 || n <= 0) return;
  if (std::strcmp(name, "MPI_REPLACE") == 0) {
    std::memmove(inout, in, static_cast<std::size_t>(n * esize));
    return;
  }
  basic_info b = basic_of(basic);
  for (aint i = 0; i < n; ++i, in += esize, inout += esize) {
    if (b.c == cat::pair) {
      bool max = std::strcmp(name, "MPI_MAXLOC") == 0;
      aint index_at = esize - num_size(b.index);
      with_num(b.value, [&](auto v) {
        with_num(b.index, [&](auto ix) { combine_loc<decltype(v), decltype(ix)>(max, in, inout, index_at); });
      });
    } else if (b.c == cat::complex) {
      with_num(b.n, [&](auto v) {
        if constexpr (std::is_floating_point_v<decltype(v)>) combine_complex<decltype(v)>(name, in, inout);
      });
    } else {
      with_num(b.n, [&](auto v) { combine<decltype(v)>(name, in, inout); });
    }
  }
}

namespace api {
namespace {

// ---- epochs (MPI-4.1 §13.5) ----

status sync_error(const char* what) {
  return fail(MPI_ERR_RMA_SYNC, "%s (MPI-4.1 section 13.5)", what);
}

status check_target(int rank, const char* what) {
  if (rank == 0 || rank == MPI_PROC_NULL) return status::ok();
  return fail(MPI_ERR_RANK, "%s rank %d is not a rank of a one-process window", what, rank);
}

status check_assert(int assert, int allowed, const char* routine) {
  if ((assert & ~allowed) == 0) return status::ok();
  return fail(MPI_ERR_ASSERT, "assert 0x%x has bits %s does not accept", assert, routine);
}

bool passive(const rma_state& s) { return s.lock_type != 0 || s.lock_all; }

// Whether the process may access its own window now: the origin's access epoch.
status check_access(const rma_state& s) {
  if (s.fence || passive(s) || (s.access && s.access_self)) return status::ok();
  if (s.access) return sync_error("the access epoch's group (MPI_Win_start) does not hold the target");
  return sync_error("no access epoch is open on the window (fence, MPI_Win_start, or a lock)");
}

// A fence without MPI_MODE_NOSUCCEED starts an epoch only if RMA calls follow it before the next
// fence (MPI-4.1 §13.5.1): until one does, a lock or a PSCW epoch may follow it instead, which
// ends what the fence might have begun. After an RMA call the fence's epoch is open, and
// another kind of epoch inside it is an error.
status leave_unused_fence(rma_state& s, const char* routine) {
  if (!s.fence) return status::ok();
  if (s.fence_used)
    return fail(MPI_ERR_RMA_SYNC, "%s inside a fence epoch: RMA calls followed MPI_Win_fence, so it "
                "started one, which only another MPI_Win_fence ends (MPI-4.1 section 13.5)", routine);
  s.fence = false;
  return status::ok();
}

// An RMA call that went through in the fence's epoch (see leave_unused_fence).
status note_fence_use(status st, int rank, win_object& win) {
  if (!st.is_ok() || rank == MPI_PROC_NULL) return st;
  std::lock_guard lock(rma_mutex());
  rma_state& s = rma_of(win);
  if (s.fence) s.fence_used = true;
  return st;
}

status would_wait_forever(const char* what) {
  return fail(MPI_ERR_OTHER, "%s: the process itself is to call the matching routine, and it is "
              "waiting: it would wait forever (docs/decisions.md D31, D46)", what);
}

}  // namespace

status win_fence(int assert, win_object& win) {
  if (status st = check_assert(assert, MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE |
                               MPI_MODE_NOSUCCEED, "MPI_Win_fence"); !st.is_ok()) return st;
  std::lock_guard lock(rma_mutex());
  rma_state& s = rma_of(win);
  if (passive(s)) return sync_error("MPI_Win_fence inside a passive target epoch (a lock)");
  if (s.access || s.exposure) return sync_error("MPI_Win_fence inside a PSCW epoch");
  s.fence = (assert & MPI_MODE_NOSUCCEED) == 0;
  s.fence_used = false;
  return status::ok();
}

status win_lock(int lock_type, int rank, int assert, win_object& win) {
  if (lock_type != MPI_LOCK_EXCLUSIVE && lock_type != MPI_LOCK_SHARED)
    return fail(MPI_ERR_LOCKTYPE, "lock_type %d is neither MPI_LOCK_EXCLUSIVE nor MPI_LOCK_SHARED", lock_type);
  if (status st = check_target(rank, "target"); !st.is_ok()) return st;
  if (status st = check_assert(assert, MPI_MODE_NOCHECK, "MPI_Win_lock"); !st.is_ok()) return st;
  if (rank == MPI_PROC_NULL) return status::ok();
  std::lock_guard lock(rma_mutex());
  rma_state& s = rma_of(win);
  if (s.lock_type != 0) return sync_error("the window is already locked by the process");
  if (s.lock_all) return sync_error("MPI_Win_lock inside MPI_Win_lock_all's epoch");
  if (s.access) return sync_error("MPI_Win_lock inside an active target epoch (MPI_Win_start)");
  if (status st = leave_unused_fence(s, "MPI_Win_lock"); !st.is_ok()) return st;
  s.lock_type = lock_type;
  return status::ok();
}

status win_unlock(int rank, win_object& win) {
  if (status st = check_target(rank, "target"); !st.is_ok()) return st;
  if (rank == MPI_PROC_NULL) return status::ok();
  std::lock_guard lock(rma_mutex());
  rma_state& s = rma_of(win);
  if (s.lock_type == 0) return sync_error("MPI_Win_unlock without MPI_Win_lock");
  s.lock_type = 0;
  return status::ok();
}

status win_lock_all(int assert, win_object& win) {
  if (status st = check_assert(assert, MPI_MODE_NOCHECK, "MPI_Win_lock_all"); !st.is_ok()) return st;
  std::lock_guard lock(rma_mutex());
  rma_state& s = rma_of(win);
  if (passive(s)) return sync_error("the window is already locked by the process");
  if (s.access) return sync_error("MPI_Win_lock_all inside an active target epoch (MPI_Win_start)");
  if (status st = leave_unused_fence(s, "MPI_Win_lock_all"); !st.is_ok()) return st;
  s.lock_all = true;
  return status::ok();
}

status win_unlock_all(win_object& win) {
  std::lock_guard lock(rma_mutex());
  rma_state& s = rma_of(win);
  if (!s.lock_all) return sync_error("MPI_Win_unlock_all without MPI_Win_lock_all");
  s.lock_all = false;
  return status::ok();
}

status win_post(group_object& group, int assert, win_object& win) {
  if (status st = check_assert(assert, MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT,
                               "MPI_Win_post"); !st.is_ok()) return st;
  std::lock_guard lock(rma_mutex());
  rma_state& s = rma_of(win);
  if (s.exposure) return sync_error("an exposure epoch (MPI_Win_post) is already open");
  if (status st = leave_unused_fence(s, "MPI_Win_post"); !st.is_ok()) return st;
  s.exposure = true;
  s.exposure_self = group.size > 0;
  s.completed = false;
  return status::ok();
}

status win_start(group_object& group, int assert, win_object& win) {
  if (status st = check_assert(assert, MPI_MODE_NOCHECK, "MPI_Win_start"); !st.is_ok()) return st;
  std::lock_guard lock(rma_mutex());
  rma_state& s = rma_of(win);
  if (s.access) return sync_error("an access epoch (MPI_Win_start) is already open");
  if (passive(s)) return sync_error("MPI_Win_start inside a passive target epoch (a lock)");
  if (status st = leave_unused_fence(s, "MPI_Win_start"); !st.is_ok()) return st;
  s.access = true;
  s.access_self = group.size > 0;
  return status::ok();
}

status win_complete(win_object& win) {
  std::lock_guard lock(rma_mutex());
  rma_state& s = rma_of(win);
  if (!s.access) return sync_error("MPI_Win_complete without MPI_Win_start");
  if (s.access_self && !(s.exposure && s.exposure_self))
    return would_wait_forever("MPI_Win_complete to the process, which has not posted (MPI_Win_post)");
  s.access = false;
  if (s.access_self) s.completed = true;
  return status::ok();
}

status win_wait(win_object& win) {
  std::lock_guard lock(rma_mutex());
  rma_state& s = rma_of(win);
  if (!s.exposure) return sync_error("MPI_Win_wait without MPI_Win_post");
  if (s.exposure_self && !s.completed)
    return would_wait_forever("MPI_Win_wait for the process's own MPI_Win_complete");
  s.exposure = false;
  return status::ok();
}

status win_test(win_object& win, bool& flag) {
  std::lock_guard lock(rma_mutex());
  rma_state& s = rma_of(win);
  if (!s.exposure) return sync_error("MPI_Win_test without MPI_Win_post");
  flag = !s.exposure_self || s.completed;
  if (flag) s.exposure = false;
  return status::ok();
}

namespace {
status flush(int rank, win_object& win, const char* routine) {
  if (status st = check_target(rank, "target"); !st.is_ok()) return st;
  std::lock_guard lock(rma_mutex());
  if (!passive(rma_of(win))) return fail(MPI_ERR_RMA_SYNC, "%s outside a passive target epoch (a lock)", routine);
  return status::ok();  // every operation completed when it was called
}
}  // namespace

status win_flush(int rank, win_object& win) { return flush(rank, win, "MPI_Win_flush"); }
status win_flush_local(int rank, win_object& win) { return flush(rank, win, "MPI_Win_flush_local"); }
status win_flush_all(win_object& win) { return flush(0, win, "MPI_Win_flush_all"); }
status win_flush_local_all(win_object& win) { return flush(0, win, "MPI_Win_flush_local_all"); }

// One copy of the window's memory: nothing to synchronise, in or out of an epoch (D46).
status win_sync(win_object&) { return status::ok(); }

// ---- data movement to the process's own window (MPI-4.1 §13.3) ----

namespace {

bool is_op(handle_t op, const char* name) {
  const char* n = op_name(op);
  return n != nullptr && std::strcmp(n, name) == 0;
}

status check_type(std::int64_t count, const type_object& t, const char* which) {
  if (count < 0) return fail(MPI_ERR_COUNT, "%s count %lld is negative", which, static_cast<long long>(count));
  if (!bytes_fit(count, t.size))
    return fail(MPI_ERR_COUNT, "%s count %lld of a datatype of %lld bytes does not fit in MPI_Aint", which,
                static_cast<long long>(count), static_cast<long long>(t.size));
  if (!t.committed) return fail(MPI_ERR_TYPE, "the %s datatype is not committed (MPI_Type_commit)", which);
  return status::ok();
}

// The bytes count elements of t touch, relative to where they start: [lo, hi). False when they
// span more than MPI_Aint counts (a large-count form's count, D115): then no window holds them.
bool touched(std::int64_t count, const type_object& t, aint& lo, aint& hi) {
  lo = hi = 0;
  const auto& m = blocks(t.map);
  if (count <= 0 || m.empty()) return true;
  aint first = m.front().disp, last = m.front().disp + m.front().len;
  for (const type_block& b : m) {
    first = std::min(first, b.disp);
    last = std::max(last, b.disp + b.len);
  }
  const __int128 span = static_cast<__int128>(count - 1) * t.extent;
  const __int128 l = first + std::min<__int128>(0, span), h = last + std::max<__int128>(0, span);
  if (l < std::numeric_limits<aint>::min() || h > std::numeric_limits<aint>::max()) return false;
  lo = static_cast<aint>(l);
  hi = static_cast<aint>(h);
  return true;
}

// Whether every byte count elements of t at `at` touch is in memory attached to a dynamic window,
// the regions taken together (D140): the regions, merged where they meet, cover the bytes from lo
// to hi, or else each block of each element (the datatype's holes need not be attached).
bool attached_covers(const rma_state& s, const char* at, std::int64_t count, const type_object& t, aint lo,
                     aint hi) {
  std::vector<std::pair<const char*, const char*>> merged;  // [from, to), by address, merged
  for (const auto& [base, size] : s.attached)
    if (size > 0) merged.emplace_back(base, base + size);
  std::sort(merged.begin(), merged.end());
  std::size_t n = 0;  // regions that meet or overlap become one, in place
  for (const auto& r : merged)
    if (n > 0 && r.first <= merged[n - 1].second)
      merged[n - 1].second = std::max(merged[n - 1].second, r.second);
    else
      merged[n++] = r;
  merged.resize(n);
  auto covered = [&](const char* from, const char* to) {
    auto after = std::upper_bound(merged.begin(), merged.end(), from,
                                  [](const char* p, const auto& m) { return p < m.first; });
    return after != merged.begin() && to <= std::prev(after)->second;
  };
  if (covered(at + lo, at + hi)) return true;
  if (contiguous(t)) return false;  // (no holes: the span is every byte)
  for (std::int64_t e = 0; e < count; ++e)
    for (const type_block& b : blocks(t.map)) {
      const char* from = at + static_cast<aint>(e) * t.extent + b.disp;
      if (b.len > 0 && !covered(from, from + b.len)) return false;
    }
  return true;
}

// Where the target's count elements of t start: the window's base plus disp units, or, for a
// dynamic window, the address disp within memory attached to it (MPI-4.1 §13.2.4). Every byte
// they touch must be in the window (MPI_ERR_RMA_RANGE); in a dynamic window they may lie in
// several attached regions (D140). Holds rma_mutex() (attached regions).
status target_address(win_object& win, const rma_state& s, aint disp, std::int64_t count, const type_object& t,
                      char*& at) {
  if (disp < 0) return fail(MPI_ERR_DISP, "target_disp %ld is negative", static_cast<long>(disp));
  aint lo = 0, hi = 0;
  if (!touched(count, t, lo, hi))
    return fail(MPI_ERR_RMA_RANGE, "target_count %lld elements of extent %lld span more bytes than MPI_Aint "
                "counts: no window holds them", static_cast<long long>(count), static_cast<long long>(t.extent));
  if (win.flavor == MPI_WIN_FLAVOR_DYNAMIC) {
    at = reinterpret_cast<char*>(disp);
    if (hi == lo) return status::ok();
    for (const auto& [base, size] : s.attached)
      if (at + lo >= base && at + hi <= base + size) return status::ok();
    if (attached_covers(s, at, count, t, lo, hi)) return status::ok();
    return fail(MPI_ERR_RMA_RANGE, "bytes %ld to %ld after address 0x%lx are not in memory attached "
                "to the dynamic window (MPI_Win_attach)", static_cast<long>(lo), static_cast<long>(hi),
                static_cast<unsigned long>(disp));
  }
  const __int128 off = static_cast<__int128>(disp) * win.disp_unit;
  if (hi == lo) {
    at = static_cast<char*>(win.base) + (off <= win.size ? static_cast<aint>(off) : 0);  // (nothing is touched)
    return status::ok();
  }
  if (off + lo < 0 || off + hi > win.size)
    return fail(MPI_ERR_RMA_RANGE, "bytes %lld to %lld of the window are outside its %ld bytes",
                static_cast<long long>(std::min<__int128>(off + lo, std::numeric_limits<long long>::max())),
                static_cast<long long>(std::min<__int128>(off + hi, std::numeric_limits<long long>::max())),
                static_cast<long>(win.size));
  at = static_cast<char*>(win.base) + static_cast<aint>(off);
  return status::ok();
}

aint bytes_of(std::int64_t count, const type_object& t) { return static_cast<aint>(count) * t.size; }

// The first n bytes of elements of t at `buf`, in type-map order, to packed bytes (a transfer
// smaller than the other side's datatype fills part of it, up to a partial element).
void pack_n(const void* buf, aint n, const type_object& t, char* out) {
  const char* base = static_cast<const char*>(buf);
  if (contiguous(t)) {  // (one copy, not one per element)
    if (n > 0) std::memcpy(out, base, static_cast<std::size_t>(n));
    return;
  }
  for (; n > 0; base += t.extent)
    for (const type_block& b : blocks(t.map)) {
      aint k = std::min(n, b.len);
      std::memcpy(out, base + b.disp, static_cast<std::size_t>(k));
      out += k;
      if ((n -= k) == 0) return;
    }
}

void unpack_n(const char* in, aint n, void* buf, const type_object& t) {
  char* base = static_cast<char*>(buf);
  if (contiguous(t)) {
    if (n > 0) std::memcpy(base, in, static_cast<std::size_t>(n));
    return;
  }
  for (; n > 0; base += t.extent)
    for (const type_block& b : blocks(t.map)) {
      aint k = std::min(n, b.len);
      std::memcpy(base + b.disp, in, static_cast<std::size_t>(k));
      in += k;
      if ((n -= k) == 0) return;
    }
}

status check_fits(aint sent, aint room, const char* into) {
  if (sent <= room) return status::ok();
  return fail(MPI_ERR_TRUNCATE, "%ld bytes sent, the %s holds %ld", static_cast<long>(sent), into,
              static_cast<long>(room));
}

// An accumulate's operation for its datatypes (MPI-4.1 §13.3.4): predefined, MPI_NO_OP only where
// the old value is fetched; every datatype of one predefined type, the same; the operation
// defined for it.
// An accumulate's operation, whatever the target.
status check_accumulate_op(handle_t op, bool fetching) {
  const char* name = op_name(op);
  if (name == nullptr) {
    if (rt().ops.lookup(op) != nullptr)
      return fail(MPI_ERR_OP, "a user-defined operation cannot be used in an accumulate (MPI-4.1 section 13.3.4)");
    return fail(MPI_ERR_OP, "operation handle 0x%x is not valid", op);
  }
  if (!fetching && std::strcmp(name, "MPI_NO_OP") == 0)
    return fail(MPI_ERR_OP, "MPI_NO_OP is for MPI_Get_accumulate, MPI_Rget_accumulate and MPI_Fetch_and_op only");
  return status::ok();
}

// An accumulate's datatypes against each other and the operation: checked where elements move,
// not for MPI_PROC_NULL, which moves none (as in point-to-point, MPI-4.1 section 13.3; mpi4py
// passes a result buffer of MPI_BYTE with an MPI_INT origin there: D103). After
// check_accumulate_op.
status check_accumulate(handle_t op, std::initializer_list<const type_object*> types) {
  const char* name = op_name(op);
  handle_t basic = 0;
  for (const type_object* t : types) {
    if (t == nullptr || t->basic == 0) continue;  // ignored (MPI_NO_OP's origin), or empty
    if (t->basic == basic_mixed || (basic != 0 && t->basic != basic))
      return fail(MPI_ERR_TYPE, "an accumulate's datatypes must all be built of one and the same "
                  "predefined datatype (MPI-4.1 section 13.3.4)");
    basic = t->basic;
  }
  if (basic != 0 && !accumulate_op_applies(op, computable(basic_of(basic))))
    return fail(MPI_ERR_OP, "%s is not defined for the datatype's elements (MPI-4.1 section 7.9.2)", name);
  return status::ok();
}

aint element_size(const type_object& t) {
  for (const auto& d : gen::datatypes)
    if (d.value == t.basic) return d.size;
  return 1;
}

// The transfers. Each holds rma_mutex() from the epoch check to the last byte written: the
// process's accumulates are atomic element-wise with respect to each other (MPI-4.1 §13.7.1).
status do_put(const void* origin, std::int64_t ocount, const type_object& otype, int rank, aint disp, std::int64_t tcount,
              const type_object& ttype, win_object& win, handle_t op) {
  if (status st = check_type(ocount, otype, "origin"); !st.is_ok()) return st;
  if (status st = check_type(tcount, ttype, "target"); !st.is_ok()) return st;
  if (status st = check_target(rank, "target"); !st.is_ok()) return st;
  if (op != 0) {
    if (status st = check_accumulate_op(op, false); !st.is_ok()) return st;
  }
  if (rank == MPI_PROC_NULL) return status::ok();
  if (op != 0 && (bytes_of(ocount, otype) > 0 || bytes_of(tcount, ttype) > 0)) {  // (D116: as above)
    if (status st = check_accumulate(op, {&otype, &ttype}); !st.is_ok()) return st;
  }
  std::lock_guard lock(rma_mutex());
  const rma_state& s = rma_of(win);
  if (status st = check_access(s); !st.is_ok()) return st;
  char* at = nullptr;
  if (status st = target_address(win, s, disp, tcount, ttype, at); !st.is_ok()) return st;
  aint n = bytes_of(ocount, otype);
  if (status st = check_fits(n, bytes_of(tcount, ttype), "target"); !st.is_ok()) return st;
  if (n == 0) return status::ok();
  const bool replace = op == 0 || is_op(op, "MPI_REPLACE");
  if (replace && contiguous(otype) && contiguous(ttype)) {  // (no copy between: the bytes in order)
    std::memmove(at, origin, static_cast<std::size_t>(n));
    return status::ok();
  }
  std::vector<char> in(static_cast<std::size_t>(n));
  pack_elements(origin, ocount, otype, in.data());
  if (!replace) {
    std::vector<char> cur(static_cast<std::size_t>(n));
    pack_n(at, n, ttype, cur.data());
    aint es = element_size(ttype);
    apply_op(op, ttype.basic, es, in.data(), cur.data(), n / es);
    in.swap(cur);
  }
  unpack_n(in.data(), n, at, ttype);
  return status::ok();
}

status do_get(void* origin, std::int64_t ocount, const type_object& otype, int rank, aint disp, std::int64_t tcount,
              const type_object& ttype, win_object& win) {
  if (status st = check_type(ocount, otype, "origin"); !st.is_ok()) return st;
  if (status st = check_type(tcount, ttype, "target"); !st.is_ok()) return st;
  if (status st = check_target(rank, "target"); !st.is_ok()) return st;
  if (rank == MPI_PROC_NULL) return status::ok();
  std::lock_guard lock(rma_mutex());
  const rma_state& s = rma_of(win);
  if (status st = check_access(s); !st.is_ok()) return st;
  char* at = nullptr;
  if (status st = target_address(win, s, disp, tcount, ttype, at); !st.is_ok()) return st;
  aint n = bytes_of(tcount, ttype);
  if (status st = check_fits(n, bytes_of(ocount, otype), "origin buffer"); !st.is_ok()) return st;
  if (n == 0) return status::ok();
  if (contiguous(otype) && contiguous(ttype)) {
    std::memmove(origin, at, static_cast<std::size_t>(n));
    return status::ok();
  }
  std::vector<char> data(static_cast<std::size_t>(n));
  pack_elements(at, tcount, ttype, data.data());
  unpack_n(data.data(), n, origin, otype);
  return status::ok();
}

// result = target; target = target op origin (MPI_NO_OP: origin ignored).
status do_get_accumulate(const void* origin, std::int64_t ocount, const type_object* otype, void* result, std::int64_t rcount,
                         const type_object& rtype, int rank, aint disp, std::int64_t tcount, const type_object& ttype,
                         handle_t op, win_object& win) {
  bool no_op = is_op(op, "MPI_NO_OP");
  if (!no_op && otype != nullptr) {
    if (status st = check_type(ocount, *otype, "origin"); !st.is_ok()) return st;
    // (the bindings' D111 test leaves this buffer out: MPI_NO_OP makes it ignored; D149)
    if (status st = check_buffer(origin, ocount, *otype, "origin_addr"); !st.is_ok()) return st;
  }
  if (status st = check_type(rcount, rtype, "result"); !st.is_ok()) return st;
  if (status st = check_type(tcount, ttype, "target"); !st.is_ok()) return st;
  if (status st = check_target(rank, "target"); !st.is_ok()) return st;
  if (status st = check_accumulate_op(op, true); !st.is_ok()) return st;
  if (rank == MPI_PROC_NULL) return status::ok();
  // (Where no element moves, no operation is applied: count 0 is MPI_PROC_NULL's case, D116.)
  const bool moves = bytes_of(tcount, ttype) > 0 || bytes_of(rcount, rtype) > 0 || (!no_op && bytes_of(ocount, *otype) > 0);
  if (moves)
    if (status st = check_accumulate(op, {no_op ? nullptr : otype, &rtype, &ttype}); !st.is_ok()) return st;
  std::lock_guard lock(rma_mutex());
  const rma_state& s = rma_of(win);
  if (status st = check_access(s); !st.is_ok()) return st;
  char* at = nullptr;
  if (status st = target_address(win, s, disp, tcount, ttype, at); !st.is_ok()) return st;
  aint tn = bytes_of(tcount, ttype);
  if (status st = check_fits(tn, bytes_of(rcount, rtype), "result buffer"); !st.is_ok()) return st;
  aint on = no_op ? 0 : bytes_of(ocount, *otype);
  if (status st = check_fits(on, tn, "target"); !st.is_ok()) return st;
  if (tn == 0) return status::ok();
  std::vector<char> cur(static_cast<std::size_t>(tn));
  pack_elements(at, tcount, ttype, cur.data());
  // The old value goes out first: result may be the origin buffer's memory.
  std::vector<char> in(static_cast<std::size_t>(on));
  if (on > 0) pack_elements(origin, ocount, *otype, in.data());
  unpack_n(cur.data(), tn, result, rtype);
  if (on == 0) return status::ok();
  aint es = element_size(ttype);
  apply_op(op, ttype.basic, es, in.data(), cur.data(), on / es);
  unpack_n(cur.data(), on, at, ttype);
  return status::ok();
}

status check_single(const type_object& t, const char* routine) {
  if (!t.predefined) return fail(MPI_ERR_TYPE, "%s takes a predefined datatype", routine);
  return status::ok();
}

// A request-based transfer's request: complete, as the transfer is done (D46); it comes first
// (with_new_request, D65).
template <typename Transfer>
status completed(Transfer&& transfer, handle_t& request) {
  return with_new_request(request, "the transfer", [&](handle_t) { return transfer(); });
}

}  // namespace

status put(const void* origin_addr, std::int64_t origin_count, type_object& origin_datatype, int target_rank,
           aint target_disp, std::int64_t target_count, type_object& target_datatype, win_object& win) {
  return note_fence_use(do_put(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                                target_count, target_datatype, win, 0), target_rank, win);
}

status get(void* origin_addr, std::int64_t origin_count, type_object& origin_datatype, int target_rank,
           aint target_disp, std::int64_t target_count, type_object& target_datatype, win_object& win) {
  return note_fence_use(do_get(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                                target_count, target_datatype, win), target_rank, win);
}

status accumulate(const void* origin_addr, std::int64_t origin_count, type_object& origin_datatype, int target_rank,
                  aint target_disp, std::int64_t target_count, type_object& target_datatype, handle_t op,
                  win_object& win) {
  if (op == 0) return fail(MPI_ERR_OP, "operation handle 0x0 is not valid");  // (0: do_put's plain put)
  return note_fence_use(do_put(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                                target_count, target_datatype, win, op), target_rank, win);
}

status get_accumulate(const void* origin_addr, std::int64_t origin_count, type_object& origin_datatype,
                      void* result_addr, std::int64_t result_count, type_object& result_datatype, int target_rank,
                      aint target_disp, std::int64_t target_count, type_object& target_datatype, handle_t op,
                      win_object& win) {
  return note_fence_use(do_get_accumulate(origin_addr, origin_count, &origin_datatype, result_addr,
                                           result_count, result_datatype, target_rank, target_disp,
                                           target_count, target_datatype, op, win), target_rank, win);
}

status fetch_and_op(const void* origin_addr, void* result_addr, type_object& datatype, int target_rank,
                    aint target_disp, handle_t op, win_object& win) {
  if (status st = check_single(datatype, "MPI_Fetch_and_op"); !st.is_ok()) return st;
  if (status st = check_buffer(result_addr, 1, datatype, "result_addr"); !st.is_ok()) return st;  // (D149)
  return note_fence_use(do_get_accumulate(origin_addr, 1, &datatype, result_addr, 1, datatype, target_rank,
                                           target_disp, 1, datatype, op, win), target_rank, win);
}

status compare_and_swap(const void* origin_addr, const void* compare_addr, void* result_addr,
                        type_object& datatype, int target_rank, aint target_disp, win_object& win) {
  if (status st = check_single(datatype, "MPI_Compare_and_swap"); !st.is_ok()) return st;
  cat c = computable(basic_of(datatype.basic));
  if (c != cat::c_int && c != cat::f_int && c != cat::logical && c != cat::byte)
    return fail(MPI_ERR_TYPE, "MPI_Compare_and_swap takes an integer, logical or byte datatype "
                "(MPI-4.1 section 13.3.4)");
  if (status st = check_target(target_rank, "target"); !st.is_ok()) return st;
  // (no count: the bindings' D111 test does not reach these three; D149)
  if (status st = check_buffer(origin_addr, 1, datatype, "origin_addr"); !st.is_ok()) return st;
  if (status st = check_buffer(compare_addr, 1, datatype, "compare_addr"); !st.is_ok()) return st;
  if (status st = check_buffer(result_addr, 1, datatype, "result_addr"); !st.is_ok()) return st;
  if (target_rank == MPI_PROC_NULL) return status::ok();
  const status swapped = [&]() -> status {
    std::lock_guard lock(rma_mutex());
    const rma_state& s = rma_of(win);
    if (status st = check_access(s); !st.is_ok()) return st;
    char* at = nullptr;
    if (status st = target_address(win, s, target_disp, 1, datatype, at); !st.is_ok()) return st;
    auto n = static_cast<std::size_t>(datatype.size);
    std::vector<char> old(at, at + n);
    if (std::memcmp(old.data(), compare_addr, n) == 0) std::memmove(at, origin_addr, n);
    std::memcpy(result_addr, old.data(), n);
    return status::ok();
  }();
  return note_fence_use(swapped, target_rank, win);
}

status rput(const void* origin_addr, std::int64_t origin_count, type_object& origin_datatype, int target_rank,
            aint target_disp, std::int64_t target_count, type_object& target_datatype, win_object& win,
            handle_t& request) {
  return completed([&] { return put(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                                    target_count, target_datatype, win); }, request);
}

status rget(void* origin_addr, std::int64_t origin_count, type_object& origin_datatype, int target_rank,
            aint target_disp, std::int64_t target_count, type_object& target_datatype, win_object& win,
            handle_t& request) {
  return completed([&] { return get(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                                    target_count, target_datatype, win); }, request);
}

status raccumulate(const void* origin_addr, std::int64_t origin_count, type_object& origin_datatype, int target_rank,
                   aint target_disp, std::int64_t target_count, type_object& target_datatype, handle_t op,
                   win_object& win, handle_t& request) {
  return completed([&] { return accumulate(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                                           target_count, target_datatype, op, win); }, request);
}

status rget_accumulate(const void* origin_addr, std::int64_t origin_count, type_object& origin_datatype,
                       void* result_addr, std::int64_t result_count, type_object& result_datatype, int target_rank,
                       aint target_disp, std::int64_t target_count, type_object& target_datatype, handle_t op,
                       win_object& win, handle_t& request) {
  return completed([&] { return get_accumulate(origin_addr, origin_count, origin_datatype, result_addr,
                                               result_count, result_datatype, target_rank, target_disp,
                                               target_count, target_datatype, op, win); }, request);
}

}  // namespace api
}  // namespace mpiattr
