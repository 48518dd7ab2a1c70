// Datatypes on the standalone runtime, continued: how each was made (MPI_Type_get_envelope,
// MPI_Type_get_contents), names, element counts, the _x queries, MPI_Type_match_size and the
// f90 types (MPI-4.1 §6.1.11-§6.1.13, §6.8, §19.1.9; D43).
#include <array>
#include <cstring>
#include <mutex>
#include <string>
#include <tuple>
#include <unordered_map>

#include "datatypes_internal.h"

namespace mpiattr {
namespace {

const gen::datatype_info* predefined_info(handle_t h) {
  for (const auto& d : gen::datatypes)
    if (d.value == h) return &d;
  return nullptr;
}

// The pair types of MPI_MINLOC and MPI_MAXLOC hold two basic elements each, as if built by
// MPI_Type_create_struct (MPI-4.1 §6.9.4).
bool is_pair(const char* name) {
  static const char* const pairs[] = {"MPI_2INT", "MPI_SHORT_INT", "MPI_LONG_INT", "MPI_FLOAT_INT",
                                      "MPI_DOUBLE_INT", "MPI_LONG_DOUBLE_INT", "MPI_2REAL",
                                      "MPI_2DOUBLE_PRECISION", "MPI_2INTEGER"};
  for (const char* p : pairs)
    if (std::strcmp(p, name) == 0) return true;
  return false;
}

// What a part needs of a predefined datatype: whether it is one, and for a pair type the bytes of
// its first element (MPI_<X>_INT: an X, then an int; MPI_2<X>: two of X). Worked out once for
// every predefined handle (D62: each constructor of a predefined datatype asks).
struct named_info {
  bool known = false;
  bool pair = false;
  aint first = 0;
};
named_info info_of(const gen::datatype_info* d) {
  named_info n;
  if (d == nullptr) return n;
  n.known = true;
  n.pair = is_pair(d->name);
  if (n.pair) n.first = std::strncmp(d->name, "MPI_2", 5) != 0 ? d->size - static_cast<aint>(sizeof(int)) : d->size / 2;
  return n;
}
named_info named(handle_t h) {
  using table = std::array<named_info, handles::kPredefinedLimit>;
  static const table by_handle = [] {
    table t{};
    for (const auto& d : gen::datatypes)  // the first of aliases with one value, as predefined_info
      if (d.value < handles::kPredefinedLimit && !t[d.value].known) t[d.value] = info_of(&d);
    return t;
  }();
  return h < handles::kPredefinedLimit ? by_handle[h] : info_of(predefined_info(h));
}

// Basic elements in the first `rem` bytes of one item of t (0 < rem < t.size), or -1 when
// they end inside a basic element.
aint partial_elements(const type_part& t, aint rem) {
  if (!t.env || t.env->runs.empty()) return t.first > 0 && rem == t.first ? 1 : -1;
  aint n = 0;
  for (const auto& [count, which] : t.env->runs) {
    const type_part& s = t.env->types[which];
    if (s.size == 0 || count <= 0) continue;
    if (rem >= count * s.size) {
      n += count * s.elements;
      rem -= count * s.size;
      if (rem == 0) return n;
      continue;
    }
    const aint whole = rem / s.size;
    n += whole * s.elements;
    rem -= whole * s.size;
    if (rem == 0) return n;
    const aint p = partial_elements(s, rem);
    return p < 0 ? -1 : n + p;
  }
  return -1;
}

// The bytes of the first `rest` basic elements of one item of t (0 < rest < t.elements).
aint partial_bytes(const type_part& t, aint rest) {
  if (!t.env || t.env->runs.empty()) return t.first;  // a pair type's first element
  aint b = 0;
  for (const auto& [count, which] : t.env->runs) {
    const type_part& s = t.env->types[which];
    if (s.elements == 0 || count <= 0) {
      b += count > 0 ? count * s.size : 0;
      continue;
    }
    if (rest >= count * s.elements) {
      b += count * s.size;
      rest -= count * s.elements;
      if (rest == 0) return b;
      continue;
    }
    const aint whole = rest / s.elements;
    b += whole * s.size;
    rest -= whole * s.elements;
    return rest == 0 ? b : b + partial_bytes(s, rest);
  }
  return b;
}

// Basic elements in `bytes` bytes of items of t, or -1 (MPI_UNDEFINED).
aint count_elements(const type_part& t, aint bytes) {
  if (t.size == 0) return 0;
  aint n = (bytes / t.size) * t.elements;
  if (const aint rem = bytes % t.size; rem != 0) {
    const aint p = partial_elements(t, rem);
    if (p < 0) return -1;
    n += p;
  }
  return n;
}

}  // namespace

// A derived datatype the program receives from MPI_Type_get_contents or MPI_File_get_view: a new
// object equivalent to the part (MPI-4.1 §6.1.13), its own envelope kept.
status publish_part(const type_part& p, handle_t& out) {
  auto* t = new type_object;
  t->size = p.size;
  t->lb = p.lb;
  t->extent = p.extent;
  t->align = p.align;
  t->marks = p.marks;
  t->committed = p.committed;
  t->map = p.map;
  t->env = p.env;
  return insert_new(rt().types, t, out, "datatypes");
}

namespace {
// The part of t after `level` of its t.dups dups are peeled off (level t.dups: t itself; 0: the
// datatype its envelope describes, or the predefined one). Only level 0 is built without
// allocating: above it each level is an envelope of MPI_COMBINER_DUP (a constructor given a dup
// keeps it so, MPI_Type_get_contents returns it).
type_part part_at(const type_object& t, std::uint32_t level) {
  type_part p;
  p.size = t.size;
  p.lb = t.lb;
  p.extent = t.extent;
  p.align = t.align;
  p.marks = t.marks;
  p.committed = level == t.dups ? t.committed : t.dup_committed;
  p.map = t.map;
  if (level > 0) {
    p.env = make_envelope(MPI_COMBINER_DUP, {}, {}, {part_at(t, level - 1)}, {{1, 0}});
    p.elements = p.env->elements;
    return p;
  }
  p.env = t.env;
  p.named = t.dups != 0 ? t.dup_named : t.predefined ? t.handle : 0;  // a basic or f90 type (never freed)
  if (p.env && !p.env->runs.empty()) {
    p.elements = p.env->elements;
  } else if (const named_info n = p.env ? named_info{} : named(p.named); n.known) {
    p.elements = t.size == 0 ? 0 : n.pair ? 2 : 1;
    if (p.elements == 2) p.first = n.first;
  }
  return p;
}

// How t was made (null: predefined); a dup's envelope is built on demand.
std::shared_ptr<const type_envelope> envelope_of(const type_object& t) {
  return t.dups != 0 ? part_at(t, t.dups).env : t.env;
}
}  // namespace

type_part part_of(const type_object& t) { return part_at(t, t.dups); }

type_part core_part(const type_object& t) { return part_at(t, 0); }

std::shared_ptr<const type_envelope> make_envelope(int combiner, std::vector<int> ints,
                                                   std::vector<aint> addrs, std::vector<type_part> types,
                                                   std::vector<std::pair<aint, std::size_t>> runs,
                                                   std::vector<std::int64_t> large) {
  auto e = std::make_shared<type_envelope>();
  e->combiner = combiner;
  e->large = std::move(large);
  e->ints.assign(std::move(ints));
  e->addrs.assign(std::move(addrs));
  e->types.assign(std::move(types));
  e->runs.assign(std::move(runs));
  for (const auto& [count, which] : e->runs) e->elements += count * e->types[which].elements;
  return e;
}

std::shared_ptr<const type_envelope> make_one_envelope(int combiner, std::span<const int> ints,
                                                       std::span<const aint> addrs, type_part part, aint items,
                                                       std::span<const std::int64_t> large) {
  auto e = std::make_shared<type_envelope>();
  e->combiner = combiner;
  if (!large.empty()) [[unlikely]] e->large.assign(large.begin(), large.end());
  e->ints.assign(ints);
  e->addrs.assign(addrs);
  e->elements = items * part.elements;
  e->types.assign_one(std::move(part));
  e->runs.assign_one({items, 0});
  return e;
}

namespace api {

// ---- names (MPI-4.1 §6.8): a predefined datatype is named after itself; a new one has none ----

status type_set_name(type_object& t, const char* name) { return set_object_name(t, name); }

status type_get_name(type_object* t, char* name, int& resultlen) {
  return get_object_name(t, "MPI_DATATYPE_NULL", name, resultlen);
}

// ---- envelopes and contents (MPI-4.1 §6.1.13) ----

namespace {
// MPI_Type_get_envelope and _get_contents cannot describe a datatype a large-count constructor
// made of values its int routine could not take (MPI-4.1 §6.1.13; class MPI_ERR_TYPE, D113).
status large_only(const type_envelope& env, const char* routine) {
  return fail(MPI_ERR_TYPE,
              "the datatype was made by a large-count constructor of values an int cannot hold, so %s cannot "
              "describe it (%zu large counts): use %s_c",
              routine, env.large.size(), routine);
}
}  // namespace

status type_get_envelope_c(type_object& t, std::int64_t& num_integers, std::int64_t& num_addresses,
                           std::int64_t& num_large_counts, std::int64_t& num_datatypes, int& combiner) {
  num_integers = num_addresses = num_large_counts = 0;
  if (t.dups != 0) {  // its original, one datatype (D62: nothing to build)
    num_datatypes = 1;
    combiner = MPI_COMBINER_DUP;
    return status::ok();
  }
  const auto& env = t.env;
  if (!env) {
    num_datatypes = 0;
    combiner = MPI_COMBINER_NAMED;
    return status::ok();
  }
  num_integers = static_cast<std::int64_t>(env->ints.size());
  num_addresses = static_cast<std::int64_t>(env->addrs.size());
  num_large_counts = static_cast<std::int64_t>(env->large.size());
  num_datatypes = static_cast<std::int64_t>(env->types.size());
  combiner = env->combiner;
  return status::ok();
}

status type_get_envelope(type_object& t, int& num_integers, int& num_addresses, int& num_datatypes,
                         int& combiner) {
  if (t.dups == 0 && t.env && !t.env->large.empty()) return large_only(*t.env, "MPI_Type_get_envelope");
  std::int64_t ni = 0, na = 0, nl = 0, nd = 0;
  (void)type_get_envelope_c(t, ni, na, nl, nd, combiner);
  num_integers = static_cast<int>(ni);
  num_addresses = static_cast<int>(na);
  num_datatypes = static_cast<int>(nd);
  return status::ok();
}

status type_get_contents_c(type_object& t, std::int64_t max_integers, std::int64_t max_addresses,
                           std::int64_t max_large_counts, std::int64_t max_datatypes, int* integers,
                           aint* addresses, std::int64_t* large_counts, handle_t* datatypes) {
  auto env = envelope_of(t);
  if (!env)
    return fail(MPI_ERR_TYPE, "a predefined datatype has no contents (its combiner is MPI_COMBINER_NAMED)");
  const auto ni = env->ints.size(), na = env->addrs.size(), nl = env->large.size(), nd = env->types.size();
  const auto short_of = [](std::int64_t max, std::size_t n) { return max < 0 || static_cast<std::uint64_t>(max) < n; };
  if (short_of(max_integers, ni) || short_of(max_addresses, na) || short_of(max_large_counts, nl) ||
      short_of(max_datatypes, nd)) {
    if (nl == 0)
      return fail(MPI_ERR_ARG,
                  "max_integers %lld, max_addresses %lld, max_datatypes %lld are less than the %zu, %zu, %zu "
                  "that MPI_Type_get_envelope returns",
                  static_cast<long long>(max_integers), static_cast<long long>(max_addresses),
                  static_cast<long long>(max_datatypes), ni, na, nd);
    return fail(MPI_ERR_ARG,
                "max_integers %lld, max_addresses %lld, max_large_counts %lld, max_datatypes %lld are less than "
                "the %zu, %zu, %zu, %zu that MPI_Type_get_envelope_c returns",
                static_cast<long long>(max_integers), static_cast<long long>(max_addresses),
                static_cast<long long>(max_large_counts), static_cast<long long>(max_datatypes), ni, na, nl, nd);
  }
  if ((ni > 0 && integers == nullptr) || (na > 0 && addresses == nullptr))
    return fail(MPI_ERR_ARG, "array_of_integers or array_of_addresses is a NULL pointer");
  if (nl > 0 && large_counts == nullptr) return fail(MPI_ERR_ARG, "array_of_large_counts is a NULL pointer");
  std::vector<handle_t> out(nd, h::datatype_null);
  for (std::size_t i = 0; i < nd; ++i) {
    const type_part& p = env->types[i];
    status st;
    try {
      st = p.named != 0 ? status::ok() : publish_part(p, out[i]);
    } catch (...) {  // out of memory (D65): as any failure, the datatypes made so far go
      st = from_exception("a datatype of the contents");
    }
    if (p.named != 0) out[i] = p.named;
    if (!st.is_ok()) {  // nothing half-returned: free what was made
      for (std::size_t j = 0; j < i; ++j)
        if (env->types[j].named == 0) (void)type_free(out[j]);
      return st;
    }
  }
  std::copy(env->ints.begin(), env->ints.end(), integers);
  std::copy(env->addrs.begin(), env->addrs.end(), addresses);
  std::copy(env->large.begin(), env->large.end(), large_counts);
  std::copy(out.begin(), out.end(), datatypes);
  return status::ok();
}

status type_get_contents(type_object& t, int max_integers, int max_addresses, int max_datatypes,
                         int* integers, aint* addresses, handle_t* datatypes) {
  if (t.dups == 0 && t.env && !t.env->large.empty()) return large_only(*t.env, "MPI_Type_get_contents");
  return type_get_contents_c(t, max_integers, max_addresses, 0, max_datatypes, integers, addresses, nullptr,
                             datatypes);
}

// ---- element counts (MPI-4.1 §6.1.12) and statuses (§14.3) ----

status get_elements_x(const msg_status& st, type_object& t, std::int64_t& count) {
  const aint n = count_elements(core_part(t), static_cast<aint>(st.bytes));
  count = n < 0 ? MPI_UNDEFINED : n;
  return status::ok();
}

status get_elements(const msg_status& st, type_object& t, int& count) {
  std::int64_t n = 0;
  (void)get_elements_x(st, t, n);
  count = n > 2147483647 ? MPI_UNDEFINED : static_cast<int>(n);
  return status::ok();
}

// The status then says count basic elements of the datatype were received: count / elements
// whole items and the elements of a partial one (MPI_Get_count and MPI_Get_elements agree).
status status_set_elements_x(msg_status& st, type_object& t, std::int64_t count) {
  if (count < 0) return fail(MPI_ERR_COUNT, "count %lld is negative", static_cast<long long>(count));
  const type_part p = core_part(t);
  if (p.elements == 0 || count == 0) {
    st.bytes = 0;
    return status::ok();
  }
  aint bytes = (count / p.elements) * p.size;
  if (const aint rest = count % p.elements; rest > 0) bytes += partial_bytes(p, rest);
  st.bytes = bytes;
  return status::ok();
}

status status_set_elements(msg_status& st, type_object& t, int count) {
  return status_set_elements_x(st, t, count);
}

// ---- the _x queries (MPI-4.1 §6.1.5, §6.1.7, §6.1.8) ----

status type_size_x(type_object& t, std::int64_t& size) {
  size = t.size;
  return status::ok();
}

status type_get_extent_x(type_object& t, std::int64_t& lb, std::int64_t& extent) {
  lb = t.lb;
  extent = t.extent;
  return status::ok();
}

status type_get_true_extent_x(type_object& t, std::int64_t& true_lb, std::int64_t& true_extent) {
  aint l = 0, e = 0;
  (void)type_get_true_extent(t, l, e);
  true_lb = l;
  true_extent = e;
  return status::ok();
}

// ---- MPI_Type_match_size and the f90 types (MPI-4.1 §19.1.9) ----

namespace {
// The size-specific Fortran type of a class and size (MPI_REAL8, MPI_INTEGER4, MPI_COMPLEX16).
handle_t sized_type(int typeclass, int size) {
  const char* prefix = typeclass == MPI_TYPECLASS_REAL      ? "MPI_REAL"
                       : typeclass == MPI_TYPECLASS_INTEGER ? "MPI_INTEGER"
                       : typeclass == MPI_TYPECLASS_COMPLEX ? "MPI_COMPLEX"
                                                            : nullptr;
  if (prefix == nullptr || size <= 0) return 0;
  const std::string name = prefix + std::to_string(size);
  for (const auto& d : gen::datatypes)
    if (name == d.name && d.size == size) return d.value;
  return 0;
}

// The f90 datatypes made so far, by (combiner, p, r): the same arguments return the same datatype.
struct f90_cache {
  std::mutex mu;
  std::unordered_map<long long, handle_t> made;
};
f90_cache& f90s() {
  static f90_cache c;
  return c;
}

status f90_type(int combiner, int p, int r, int typeclass, int size, handle_t& newtype) {
  const handle_t base = sized_type(typeclass, size);
  if (base == 0)
    return fail(MPI_ERR_ARG, "no Fortran type of this kind has precision %d and range %d", p, r);
  const long long key = (static_cast<long long>(combiner) << 40) ^
                        (static_cast<long long>(static_cast<unsigned>(p)) << 20) ^ static_cast<unsigned>(r);
  auto& c = f90s();
  std::lock_guard lock(c.mu);
  if (auto it = c.made.find(key); it != c.made.end() && rt().types.lookup(it->second) != nullptr) {
    newtype = it->second;
    return status::ok();
  }
  c.made.try_emplace(key, 0);  // its entry before the datatype (out of memory after it: none, D65)
  const type_object* b = rt().types.lookup(base);
  if (b == nullptr) return fail(MPI_ERR_INTERN, "predefined datatype 0x%x is missing", base);
  std::vector<int> ints = combiner == MPI_COMBINER_F90_INTEGER ? std::vector<int>{r} : std::vector<int>{p, r};
  auto env = make_envelope(combiner, std::move(ints), {}, {}, {});
  auto* t = new type_object;
  t->predefined = true;  // as a predefined datatype: MPI_Type_free refuses it
  t->committed = true;
  t->size = b->size;
  t->lb = b->lb;
  t->extent = b->extent;
  t->align = b->align;
  t->map = b->map;
  t->env = std::move(env);
  handle_t h = 0;
  if (status st = insert_new(rt().types, t, h, "datatypes"); !st.is_ok()) return st;
  c.made[key] = h;
  newtype = h;
  return status::ok();
}

// What SELECTED_REAL_KIND(p, r) picks (MPI_UNDEFINED: no requirement): IEEE single, double, quad.
int real_bytes(int p, int r) {
  if (p == MPI_UNDEFINED) p = 0;
  if (r == MPI_UNDEFINED) r = 0;
  if (p < 0 || r < 0) return 0;
  if (p <= 6 && r <= 37) return 4;
  if (p <= 15 && r <= 307) return 8;
  if (p <= 33 && r <= 4931) return 16;
  return 0;
}
}  // namespace

status type_match_size(int typeclass, int size, handle_t& datatype) {
  if (typeclass != MPI_TYPECLASS_REAL && typeclass != MPI_TYPECLASS_INTEGER && typeclass != MPI_TYPECLASS_COMPLEX)
    return fail(MPI_ERR_ARG, "typeclass %d is not an MPI_TYPECLASS_* value", typeclass);
  const handle_t h = sized_type(typeclass, size);
  if (h == 0) return fail(MPI_ERR_ARG, "no predefined datatype of this type class has %d bytes", size);
  datatype = h;
  return status::ok();
}

status type_create_f90_integer(int r, handle_t& newtype) {
  // SELECTED_INT_KIND(r): the fewest bytes holding every integer of r decimal digits.
  const int rr = r == MPI_UNDEFINED ? 0 : r;
  const int size = rr < 0 ? 0 : rr <= 2 ? 1 : rr <= 4 ? 2 : rr <= 9 ? 4 : rr <= 18 ? 8 : rr <= 38 ? 16 : 0;
  return f90_type(MPI_COMBINER_F90_INTEGER, 0, r, MPI_TYPECLASS_INTEGER, size, newtype);
}

status type_create_f90_real(int p, int r, handle_t& newtype) {
  if (p == MPI_UNDEFINED && r == MPI_UNDEFINED)
    return fail(MPI_ERR_ARG, "p and r are both MPI_UNDEFINED");
  return f90_type(MPI_COMBINER_F90_REAL, p, r, MPI_TYPECLASS_REAL, real_bytes(p, r), newtype);
}

status type_create_f90_complex(int p, int r, handle_t& newtype) {
  if (p == MPI_UNDEFINED && r == MPI_UNDEFINED)
    return fail(MPI_ERR_ARG, "p and r are both MPI_UNDEFINED");
  return f90_type(MPI_COMBINER_F90_COMPLEX, p, r, MPI_TYPECLASS_COMPLEX, 2 * real_bytes(p, r), newtype);
}

}  // namespace api
}  // namespace mpiattr
