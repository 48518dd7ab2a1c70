// What datatypes.cc (the constructors) and datatypes_envelope.cc (envelopes, contents, names,
// element counts, the f90 types) share: how a datatype was made (D43).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "runtime_internal.h"

namespace mpiattr {

struct type_envelope;

// A datatype a constructor was given, as it was then: the program may free it afterwards, and
// MPI_Type_get_contents still returns an equivalent one (MPI-4.1 §6.1.13).
struct type_part {
  handle_t named = 0;  // a predefined datatype (a basic one, or an f90 one): returned as itself
  aint size = 0, lb = 0, extent = 0, align = 1;
  std::uint8_t marks = 0;  // type_object::marks
  bool committed = false;
  std::shared_ptr<const std::vector<type_block>> map;
  std::shared_ptr<const type_envelope> env;  // how a derived one was made
  aint elements = 1;  // basic elements in one item (a pair type such as MPI_2INT has 2)
  aint first = 0;     // a pair type: the bytes of its first element
};

// An envelope's array: up to N elements in itself, more on the heap (D72). The envelope of a
// one-datatype constructor (contiguous, vector, resized, ...) so keeps its integers, addresses,
// datatype and run in its own allocation instead of four more.
template <typename T, std::size_t N>
class small_vec {
 public:
  // Each replaces the contents; std::bad_alloc (only beyond N) changes nothing.
  void assign(std::vector<T>&& v) {
    if (v.size() > N) {
      heap_ = std::move(v);
      n_ = heap_.size();
      return;
    }
    std::move(v.begin(), v.end(), in_.begin());
    n_ = v.size();
  }
  void assign(std::span<const T> s) {
    if (s.size() > N)
      heap_.assign(s.begin(), s.end());
    else
      std::copy(s.begin(), s.end(), in_.begin());
    n_ = s.size();
  }
  void assign_one(T&& v) {
    in_[0] = std::move(v);
    n_ = 1;
  }
  const T* data() const { return n_ <= N ? in_.data() : heap_.data(); }
  std::size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + n_; }
  const T& operator[](std::size_t i) const { return data()[i]; }

 private:
  std::array<T, N> in_{};
  std::vector<T> heap_;
  std::size_t n_ = 0;
};

// A derived datatype's constructor and arguments (MPI_Type_get_envelope / _get_contents).
struct type_envelope {
  int combiner = MPI_COMBINER_NAMED;
  small_vec<int, 4> ints;
  small_vec<aint, 2> addrs;
  // A large-count constructor's counts, displacements and bounds, where its int routine could not
  // have taken them (MPI-4.1 §6.1.13's large-count layout; then only MPI_Type_get_envelope_c and
  // _get_contents_c describe the datatype, D113). Empty for every other datatype.
  std::vector<std::int64_t> large;
  small_vec<type_part, 1> types;
  // The type map in order as runs of items of one part: (count, index into types); what
  // MPI_Get_elements walks.
  small_vec<std::pair<aint, std::size_t>, 1> runs;
  aint elements = 0;  // basic elements in one item
  // The type map of the datatype the constructor made, kept here (D67): the datatype's `map`
  // points at it without a count of its own, and the datatype, its dups and every part that names
  // it hold `env`, so a dup copies one reference count instead of two.
  std::vector<type_block> map;
};

// The part a constructor keeps of one of its datatypes (a dup's names what it duplicates, D62).
type_part part_of(const type_object& t);
// The part of the datatype t duplicates (through every dup), or of t when it is no dup: the same
// type map, size and elements as t, built without allocating (element counts, signatures).
type_part core_part(const type_object& t);

// A new datatype equivalent to the part, its own envelope kept (MPI_Type_get_contents, MPI_File_get_view).
status publish_part(const type_part& p, handle_t& out);

// Builds an envelope; `runs` and `elements` follow from the parts and the counts given.
std::shared_ptr<const type_envelope> make_envelope(int combiner, std::vector<int> ints,
                                                   std::vector<aint> addrs, std::vector<type_part> types,
                                                   std::vector<std::pair<aint, std::size_t>> runs,
                                                   std::vector<std::int64_t> large = {});
// The same for a constructor of one datatype, `items` items of it in the type map: with at most
// four integers and two addresses, one allocation (D72).
std::shared_ptr<const type_envelope> make_one_envelope(int combiner, std::span<const int> ints,
                                                       std::span<const aint> addrs, type_part part, aint items,
                                                       std::span<const std::int64_t> large = {});

}  // namespace mpiattr
