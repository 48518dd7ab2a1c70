// mpiattr/fast.h: the fast paths of get and set, for the generated bindings.
//
// A binding first tries the fast path; it handles the common case completely (MPI usable, a live
// object, a live user keyval of the object's kind, a slot that exists) or changes nothing and
// returns false, and the binding then takes its checked path, which validates every argument,
// reports errors through the object's error handler and handles every other case (predefined
// keys, delete callbacks to run, new chunks). Both paths give the
// same results; the fast one only skips work the common case does not need:
//  - no error-handler bookkeeping (nothing can fail);
//  - one flat-table load per handle (handles.h) and one word per keyval (keyval.h: live_user);
//  - no sequence counter and no lock below MPI_THREAD_MULTIPLE, where no two MPI calls overlap
//    (sync.h). At MPI_THREAD_MULTIPLE the *_concurrent forms take the same decisions with the
//    concurrent gate (runtime.h: concurrent_mask): a get reads under the store's sequence counter
//    (attr_store.h: read), a set stores under the store's lock, as the checked path does (D67).
// Everything here is inline: the call costs a few dozen instructions (docs/performance.md).
#pragma once
#include "mpiattr/attr_store.h"
#include "mpiattr/keyval.h"
#include "mpiattr/runtime.h"

namespace mpiattr::fast {

// A get's flag (C's int, Fortran's LOGICAL): one store of a constant in each branch. As plain
// stores, GCC merges the two branches' stores into one of a register it first loads with the
// constant (`mov $1,%eax; mov %eax,(%rcx)`), and in the Fortran entry points lays the hit out of
// line with jumps back to the shared tail; a volatile store is neither merged nor moved (D76).
MPIATTR_HOT void put_flag(int* flag, int value) { *static_cast<volatile int*>(flag) = value; }

// The object `h` names in `table` when a caching call on it can take the fast path, with the
// keyval's index; nullptr otherwise.
template <object_kind K, typename T>
MPIATTR_HOT T* target(const object_table<T>& table, handle_t h, int keyval, std::uint32_t* index) {
  T* o = table.fast_lookup(h, rt().fast_mask.load(std::memory_order_relaxed));
  if (o == nullptr || !keyvals().live_user(keyval, K, index)) return nullptr;
  return o;
}

// The fast paths at MPI_THREAD_MULTIPLE (D67), which the checked paths try first, so that the
// entry points keep their code; each declines (false, nothing changed) unless the concurrent gate
// is open.
template <object_kind K, typename T>
MPIATTR_HOT T* target_concurrent(const object_table<T>& table, handle_t h, int keyval, std::uint32_t* index) {
  T* o = table.template fast_lookup<std::memory_order_acquire>(
      h, rt().concurrent_mask.load(std::memory_order_relaxed));
  if (o == nullptr || !keyvals().live_user(keyval, K, index)) return nullptr;
  return o;
}
template <object_kind K, typename T>
MPIATTR_HOT bool get_attr_concurrent(const object_table<T>& table, handle_t h, int keyval,
                                           attr_read& out) {
  std::uint32_t index;
  T* o = target_concurrent<K>(table, h, keyval, &index);
  if (o == nullptr) return false;
  o->attrs.read(index, &out);  // under the store's sequence counter
  return true;
}
template <object_kind K, typename T>
MPIATTR_HOT bool set_attr_concurrent(const object_table<T>& table, handle_t h, int keyval,
                                           attribute_value v) {
  std::uint32_t index;
  T* o = target_concurrent<K>(table, h, keyval, &index);
  if (o == nullptr) return false;
  // Under the store's lock; a new attribute takes a reference on its keyval when a concurrent
  // free of it has begun its census (keyval.h: attach), as the checked path's does.
  return o->attrs.template put_fast<true>(index, v, keyvals().hot_flags(K, index),
                                          [index] { return keyvals().attach(index); }) !=
         attr_store::fast_put::not_done;
}

// MPI_XXX_GET_ATTR: not_done, or whether an attribute was there, as read(store, index) says (it
// writes the value the binding reads; attr_store.h: read_c_unsynchronised, read_word_unsynchronised,
// one compare or test on the hit, D82). (The keyval's index is computed once, in 64 bits, D71.)
enum class got { not_done, absent, present };
template <object_kind K, typename T, typename Read>
MPIATTR_HOT got get_attr(const object_table<T>& table, handle_t h, int keyval, Read&& read) {
  T* o = table.fast_lookup(h, rt().fast_mask.load(std::memory_order_relaxed));
  std::size_t index;
  if (o == nullptr || !keyvals().live_user(keyval, K, &index)) return got::not_done;
  return read(o->attrs, index) ? got::present : got::absent;
}

// MPI_XXX_SET_ATTR: true when done.
template <object_kind K, typename T>
MPIATTR_HOT bool set_attr(const object_table<T>& table, handle_t h, int keyval, attribute_value v) {
  std::uint32_t index;
  T* o = target<K>(table, h, keyval, &index);
  if (o == nullptr) return false;
  // (Below MPI_THREAD_MULTIPLE a live keyval is never counted: a new attribute only notes that
  // the keyval was used.)
  return o->attrs.template put_fast<false>(index, v, keyvals().hot_flags(K, index), [index] {
    keyvals().note_used(index);
    return false;
  }) != attr_store::fast_put::not_done;
}

// MPI_XXX_CREATE_KEYVAL and MPI_XXX_FREE_KEYVAL: true when done.
// At MPI_THREAD_MULTIPLE: keyval.h, create_fast_concurrent and free_fast_concurrent (D67).
template <object_kind K>
MPIATTR_HOT bool create_keyval_concurrent(language lang, fnptr copy_fn, fnptr delete_fn, int* keyval,
                                          aint extra_state) {
  if (!rt().concurrent_fast_paths() || keyval == nullptr) return false;
  return keyvals().create_fast_concurrent(K, lang, copy_fn, delete_fn, extra_state, keyval);
}
template <object_kind K>
MPIATTR_HOT bool free_keyval_concurrent(int* keyval) {
  if (!rt().concurrent_fast_paths() || keyval == nullptr) return false;
  return keyvals().free_fast_concurrent(K, keyval);
}
template <object_kind K>
MPIATTR_HOT bool create_keyval(language lang, fnptr copy_fn, fnptr delete_fn, int* keyval,
                               aint extra_state) {
  if (!rt().fast_paths() || keyval == nullptr) return false;
  return keyvals().create_fast(K, lang, copy_fn, delete_fn, extra_state, keyval);
}
template <object_kind K>
MPIATTR_HOT bool free_keyval(int* keyval) {
  if (!rt().fast_paths() || keyval == nullptr) return false;
  return keyvals().free_fast(K, keyval);
}

}  // namespace mpiattr::fast
