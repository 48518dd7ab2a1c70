// mpiattr/attributes.h: the object-level caching operations the runtime uses on dup and free.
#pragma once
#include "mpiattr/keyval.h"
#include "mpiattr/object.h"
#include "mpiattr/status.h"

namespace mpiattr {

// Copies `from`'s attributes to the new object `to` through their copy callbacks (R6). On a
// callback failure, `to` is left with no attributes and the failure is returned (R4.5). The
// runtime holds a dup_in_progress for `to` around the call and the publication of `to`.
status copy_all(const attr_object& from, attr_object& to);
// A dup filling `to`, from before copy_all until the runtime has published `to` where its census
// (keyval.h: attribute_census) finds objects, or dropped it: until then the census finds it
// here (census_in_construction).
class dup_in_progress {
 public:
  // Registers `to` (a dup of `from`), unless no census can run before `to` is published: below
  // MPI_THREAD_MULTIPLE a dup of plain attributes (attr_store::all_plain) runs no callback, so
  // no keyval can be freed meanwhile. At MPI_THREAD_MULTIPLE copy_all registers it, under
  // `from`'s lock, once it finds an attribute to copy: a dup of an object with none takes
  // neither the list's lock nor `to`'s (D67).
  dup_in_progress(const attr_object& from, attr_object& to) : to_(&to) {
    if (sync::concurrent())
      to.building = attr_object::building_wanted;
    else if (!from.attrs.all_plain())
      enter(to);
  }
  ~dup_in_progress() {
    if (to_->building == attr_object::building_listed)
      leave(*to_);
    else if (to_->building == attr_object::building_in_slot)
      leave_slot(*to_);
    else
      to_->building = attr_object::building_none;
  }
  dup_in_progress(const dup_in_progress&) = delete;
  dup_in_progress& operator=(const dup_in_progress&) = delete;

  // Puts `to` on the list (copy_all, for a registration that waited).
  static void enter(attr_object& to);
  // enter(), and in the same hold of the list's lock, when `from`'s attributes are all plain and
  // no keyval is counted, copies them into `to` (whose lock is then not needed: a census finds
  // `to` only through the list). Returns whether it copied. `from`'s lock must be held; throws
  // std::bad_alloc (leaving `to` listed and empty) when the copy's chunks cannot be allocated (D73).
  static bool enter_copying_plain(const attr_object& from, attr_object& to);
  // With asymmetric fences (mpiattr/asymmetric_fence.h), instead of the list: `to` in the calling
  // thread's slot, and when no keyval is counted and `from`'s attributes are all plain, copies
  // them into `to` with no lock. Returns whether it copied (false: the slot is empty again and
  // nothing changed). `from`'s lock must be held; std::bad_alloc as above, `to` empty (D73).
  static bool copy_plain_in_slot(const attr_object& from, attr_object& to);

 private:
  static void leave(attr_object& to);
  static void leave_slot(attr_object& to);
  attr_object* to_;
};
// Deletes every attribute, newest first, running delete callbacks (R4.4, R10.1). On a callback
// failure the object keeps the attributes not yet deleted and stays usable.
status delete_all(attr_object& obj);
// Deletes one attribute (no-op when none is stored).
status delete_one(attr_object& obj, keyval_record& r, std::uint32_t idx);
// The census of lazy keyval counting (keyval.h): the attribute under keyval index `index` on `o`,
// if any, takes its reference unless it has one.
void census_one(attr_object& o, std::uint32_t index);
// census_one on every object of `kind` a dup is filling (dup_in_progress); the runtime visits the
// published ones.
void census_in_construction(object_kind kind, std::uint32_t index);

}  // namespace mpiattr
