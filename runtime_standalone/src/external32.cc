// external32 packing (MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size; MPI-4.1
// §6.2.3 and the "external32" representation of the I/O chapter) and MPI_Pcontrol (§15.2.4) on
// the standalone runtime (docs/decisions.md D50).
//
// external32 is big-endian, IEEE floating point, with a fixed size per basic datatype (MPI-4.1's
// table: MPI_LONG and MPI_UNSIGNED_LONG are 4 bytes, MPI_WCHAR 2, MPI_LONG_DOUBLE 16). A datatype
// packs as MPI_Pack packs it (its type map, in order) into a scratch buffer, whose basic elements
// are then converted one by one: bytes reversed, a long narrowed (a value that does not fit is
// MPI_ERR_CONVERSION, checked before anything is written), an x87 `long double` rewritten as the
// IEEE "Double Extended" 16-byte format the standard names. The basic elements come from the
// datatype's envelope (datatypes_internal.h), which MPI_Get_elements walks too.
#include <cfloat>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "datatypes_internal.h"

namespace mpiattr {
namespace {

static_assert(sizeof(long) == 8 && sizeof(wchar_t) == 4 && sizeof(void*) == 8 && sizeof(int) == 4 &&
                  sizeof(short) == 2,
              "external32 here assumes LP64 and a 4-byte wchar_t");
static_assert(sizeof(long double) == 16 && (LDBL_MANT_DIG == 64 || LDBL_MANT_DIG == 113),
              "external32 here knows x87 extended and IEEE quad long doubles");

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
constexpr bool big_endian_host = true;
#else
constexpr bool big_endian_host = false;
#endif

// How one basic element (or one member of a pair or complex type) converts.
enum class conv : std::uint8_t {
  reverse,     // an integer, a bool, a character, an IEEE real: big-endian, same size
  x87,         // an x87 long double: to IEEE Double Extended (15-bit exponent, 112-bit fraction)
  narrow,      // a long (8 bytes) as external32's 4, sign-extended back
  narrow_u,    // an unsigned long (8 bytes) as 4, zero-extended back
  wchar,       // a wchar_t (4 bytes) as external32's 2 (Unicode up to U+FFFF)
};

struct run {
  conv how;
  std::uint8_t size;  // bytes of one element in memory (as MPI_Pack packs it)
  aint count;         // elements in a row
  aint ext() const { return how == conv::narrow || how == conv::narrow_u ? 4 : how == conv::wchar ? 2 : size; }
};
using signature = std::vector<run>;

void add(signature& s, conv how, aint size, aint count = 1) {
  if (count <= 0 || size <= 0) return;
  if (!s.empty() && s.back().how == how && s.back().size == size)
    s.back().count += count;
  else
    s.push_back({how, static_cast<std::uint8_t>(size), count});
}

void append(signature& s, const signature& item, aint times) {
  for (aint i = 0; i < times; ++i)
    for (const run& r : item) add(s, r.how, r.size, r.count);
}

constexpr conv ld = LDBL_MANT_DIG == 64 ? conv::x87 : conv::reverse;

// A predefined datatype's elements: pair types (MPI-4.1 §6.9.4) are two, complex types two
// reals; MPI_LONG, MPI_UNSIGNED_LONG and MPI_WCHAR are narrower in external32 (4, 4, 2 bytes).
bool predefined_signature(handle_t handle, signature& s) {
  const gen::datatype_info* d = nullptr;
  for (const auto& x : gen::datatypes)
    if (x.value == handle) d = &x;
  if (d == nullptr) return false;
  const std::string name = d->name;
  const aint isz = static_cast<aint>(sizeof(int));
  if (name == "MPI_LONG_DOUBLE") {
    add(s, ld, 16);
  } else if (name == "MPI_C_LONG_DOUBLE_COMPLEX" || name == "MPI_CXX_LONG_DOUBLE_COMPLEX") {
    add(s, ld, 16, 2);
  } else if (name == "MPI_LONG_DOUBLE_INT") {
    add(s, ld, 16);
    add(s, conv::reverse, isz);
  } else if (name == "MPI_LONG") {
    add(s, conv::narrow, 8);
  } else if (name == "MPI_UNSIGNED_LONG") {
    add(s, conv::narrow_u, 8);
  } else if (name == "MPI_WCHAR") {
    add(s, conv::wchar, 4);
  } else if (name == "MPI_LONG_INT") {
    add(s, conv::narrow, 8);
    add(s, conv::reverse, isz);
  } else if (name == "MPI_2INT" || name == "MPI_2REAL" || name == "MPI_2DOUBLE_PRECISION" ||
             name == "MPI_2INTEGER" || name.find("COMPLEX") != std::string::npos) {
    add(s, conv::reverse, d->size / 2, 2);
  } else if (name == "MPI_DOUBLE_INT" || name == "MPI_SHORT_INT" || name == "MPI_FLOAT_INT") {
    add(s, conv::reverse, d->size - isz);
    add(s, conv::reverse, isz);
  } else {
    add(s, conv::reverse, d->size);
  }
  return true;
}

// The elements of one item of a datatype, in type-map order; false where one has no external32
// form.
bool signature_of(const type_part& p, signature& s) {
  if (p.env && !p.env->runs.empty()) {
    for (const auto& [count, which] : p.env->runs) {
      signature item;
      if (!signature_of(p.env->types[which], item)) return false;
      append(s, item, count);
    }
    return true;
  }
  if (p.env) {  // an f90 datatype (D43): its size-specific Fortran type's elements
    switch (p.env->combiner) {
      case MPI_COMBINER_F90_INTEGER:
      case MPI_COMBINER_F90_REAL:  // IEEE single, double, quad (REAL*16 is quad, not x87)
        add(s, conv::reverse, p.size);
        return true;
      case MPI_COMBINER_F90_COMPLEX:
        add(s, conv::reverse, p.size / 2, 2);
        return true;
      default:
        return p.size == 0;  // an empty derived datatype
    }
  }
  if (p.named != 0) return predefined_signature(p.named, s);
  return p.size == 0;
}

// The external32 elements of one item of t, checked against its size; `ext` is their external32
// size. MPI_Pack_external_size, as MPI_Pack_size, takes an uncommitted datatype too.
status external_signature(const type_object& t, signature& s, aint& ext, bool need_commit = true) {
  if (need_commit && !t.committed)
    return fail(MPI_ERR_TYPE, "the datatype is not committed (MPI_Type_commit)");
  bool ok = signature_of(core_part(t), s);
  aint bytes = 0;
  ext = 0;
  for (const run& r : s) {
    bytes += r.size * r.count;
    ext += r.ext() * r.count;
  }
  if (!ok || bytes != t.size)
    return fail(MPI_ERR_TYPE, "the datatype has a basic element with no external32 representation");
  return status::ok();
}

status check_datarep(const char* datarep) {
  if (std::strcmp(datarep, "external32") != 0)
    return fail(MPI_ERR_ARG, "datarep \"%s\" is not \"external32\", the only data representation of "
                "MPI_Pack_external, MPI_Unpack_external and MPI_Pack_external_size", datarep);
  return status::ok();
}

// What the three routines check first: the datarep, the count, the datatype; `need` is the
// external32 size of count items of t.
status external_items(const char* datarep, std::int64_t count, const type_object& t, signature& s, aint& need,
                      bool need_commit = true) {
  if (status st = check_datarep(datarep); !st.is_ok()) return st;
  if (status st = check_count(count, t); !st.is_ok()) return st;
  aint ext = 0;
  if (status st = external_signature(t, s, ext, need_commit); !st.is_ok()) return st;
  if (!bytes_fit(count, ext))
    return fail(MPI_ERR_COUNT, "count = %lld of a datatype of %lld bytes in external32 does not fit in MPI_Aint",
                static_cast<long long>(count), static_cast<long long>(ext));
  need = static_cast<aint>(count) * ext;
  return status::ok();
}

std::uint64_t load_le(const unsigned char* p, int n) {
  std::uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
std::uint64_t load_be(const unsigned char* p, int n) {
  std::uint64_t v = 0;
  for (int i = 0; i < n; ++i) v = (v << 8) | p[i];
  return v;
}
void store_le(unsigned char* p, std::uint64_t v, int n) {
  for (int i = 0; i < n; ++i, v >>= 8) p[i] = static_cast<unsigned char>(v);
}
void store_be(unsigned char* p, std::uint64_t v, int n) {
  for (int i = n - 1; i >= 0; --i, v >>= 8) p[i] = static_cast<unsigned char>(v);
}
// A native integer of n bytes (the host's order).
std::uint64_t load_native(const unsigned char* p, int n) { return big_endian_host ? load_be(p, n) : load_le(p, n); }
void store_native(unsigned char* p, std::uint64_t v, int n) {
  big_endian_host ? store_be(p, v, n) : store_le(p, v, n);
}

// x87 (64-bit significand with its integer bit, then sign and 15-bit exponent, little-endian, six
// bytes of padding) to IEEE Double Extended: sign, the same exponent, the 63 fraction bits at the
// top of a 112-bit fraction, big-endian.
void x87_to_external(const unsigned char* in, unsigned char* out) {
  const std::uint64_t mant = load_le(in, 8);
  const std::uint64_t sign_exp = load_le(in + 8, 2);
  const std::uint64_t frac = mant & 0x7fffffffffffffffULL;
  store_be(out, (sign_exp << 48) | (frac >> 15), 8);
  store_be(out + 8, frac << 49, 8);
}

// The reverse; fraction bits beyond x87's 63 are dropped (rounded toward zero, D50). The padding
// is zeroed.
void external_to_x87(const unsigned char* in, unsigned char* out) {
  const std::uint64_t hi = load_be(in, 8), lo = load_be(in + 8, 8);
  const std::uint64_t sign_exp = hi >> 48;
  const std::uint64_t frac = ((hi & 0xffffffffffffULL) << 15) | (lo >> 49);
  const std::uint64_t integer_bit = (sign_exp & 0x7fff) != 0 ? 1ULL << 63 : 0;
  store_le(out, integer_bit | frac, 8);
  store_le(out + 8, sign_exp, 2);
  std::memset(out + 10, 0, 6);
}

// Whether every narrowed element of `items` packed items fits in external32: a long in 32 bits,
// an unsigned long in 32 bits, a wchar_t in 16 (MPI_ERR_CONVERSION, naming the first that does not).
status check_fits(const char* native, aint items, const signature& s) {
  const auto* p = reinterpret_cast<const unsigned char*>(native);
  for (aint i = 0; i < items; ++i)
    for (const run& r : s)
      for (aint k = 0; k < r.count; ++k, p += r.size) {
        if (r.how != conv::narrow && r.how != conv::narrow_u && r.how != conv::wchar) continue;
        const std::uint64_t u = load_native(p, r.size);
        const std::int64_t v = r.size == 8 ? static_cast<std::int64_t>(u)
                                           : static_cast<std::int32_t>(static_cast<std::uint32_t>(u));
        if (r.how == conv::narrow && (v < INT32_MIN || v > INT32_MAX))
          return fail(MPI_ERR_CONVERSION, "the long %lld does not fit in external32's 4-byte MPI_LONG",
                      static_cast<long long>(v));
        if (r.how == conv::narrow_u && u > UINT32_MAX)
          return fail(MPI_ERR_CONVERSION,
                      "the unsigned long %llu does not fit in external32's 4-byte MPI_UNSIGNED_LONG",
                      static_cast<unsigned long long>(u));
        if (r.how == conv::wchar && (v < 0 || v > 0xffff))
          return fail(MPI_ERR_CONVERSION, "the wchar_t 0x%llx does not fit in external32's 2-byte MPI_WCHAR",
                      static_cast<unsigned long long>(u));
      }
  return status::ok();
}

// Converts `items` packed items of signature s: native to external32, or back.
void convert(const char* from, char* to, aint items, const signature& s, bool to_external) {
  const auto* in = reinterpret_cast<const unsigned char*>(from);
  auto* out = reinterpret_cast<unsigned char*>(to);
  for (aint i = 0; i < items; ++i)
    for (const run& r : s) {
      const int n = r.size, e = static_cast<int>(r.ext());
      for (aint k = 0; k < r.count; ++k) {
        switch (r.how) {
          case conv::x87:
            to_external ? x87_to_external(in, out) : external_to_x87(in, out);
            break;
          case conv::reverse:
            if (n > 8)  // 16 bytes (INTEGER*16, REAL*16): reversed whole
              for (int b = 0; b < n; ++b) out[b] = in[big_endian_host ? b : n - 1 - b];
            else if (to_external)
              store_be(out, load_native(in, n), n);
            else
              store_native(out, load_be(in, n), n);
            break;
          case conv::narrow:
          case conv::narrow_u:
          case conv::wchar:
            if (to_external) {
              store_be(out, load_native(in, n), e);
            } else {
              std::uint64_t v = load_be(in, e);
              if (r.how == conv::narrow && (v & 0x80000000ULL)) v |= 0xffffffff00000000ULL;
              store_native(out, v, n);
            }
            break;
        }
        in += to_external ? n : e;
        out += to_external ? e : n;
      }
    }
}

}  // namespace

// ---- external32 in files (files.cc, D107): where every basic element of a datatype has the same
// size in external32 as in memory, a file in external32 has memory's layout and other bytes ----

status external32_same_size(const type_object& t) {
  signature s;
  aint ext = 0;
  if (status st = external_signature(t, s, ext, false); !st.is_ok()) return st;
  if (ext != t.size)
    return fail(MPI_ERR_UNSUPPORTED_DATAREP, "the datatype has basic elements whose external32 size differs from "
                "their size in memory (MPI_LONG, MPI_UNSIGNED_LONG, MPI_WCHAR, ...): mpiattr's standalone runtime "
                "accesses files in \"external32\" through datatypes of the other basic types only (D107)");
  return status::ok();
}

status external32_extent(const type_object& t, aint& extent) {
  signature s;
  aint ext = 0;
  if (status st = external_signature(t, s, ext, false); !st.is_ok()) return st;
  if (ext == t.size) {
    extent = t.extent;
  } else if (contiguous(t)) {
    extent = ext;
  } else {
    return external32_same_size(t);  // (its error)
  }
  return status::ok();
}

void external32_swap(const type_object& t, char* packed, aint items, bool to_external) {
  signature s;
  aint ext = 0;
  if (items <= 0 || !external_signature(t, s, ext, false).is_ok()) return;  // (checked by the caller)
  const std::vector<char> from(packed, packed + items * t.size);
  convert(from.data(), packed, items, s, to_external);
}

namespace api {

status pack_external(const char* datarep, const void* inbuf, std::int64_t incount, type_object& t, void* outbuf,
                     aint outsize, aint& position) {
  signature s;
  aint need = 0;
  if (status st = external_items(datarep, incount, t, s, need); !st.is_ok()) return st;
  if (status st = check_pack_room(need, position, outsize, true); !st.is_ok()) return st;
  if (need == 0) return status::ok();  // nothing to read or write (buffers may be null)
  if (status st = check_buffer(inbuf, incount, t, "inbuf"); !st.is_ok()) return st;
  if (status st = check_packed(outbuf, need, "outbuf"); !st.is_ok()) return st;
  std::vector<char> native(static_cast<std::size_t>(incount) * static_cast<std::size_t>(t.size));
  pack_elements(inbuf, incount, t, native.data());
  if (status st = check_fits(native.data(), incount, s); !st.is_ok()) return st;
  convert(native.data(), static_cast<char*>(outbuf) + position, incount, s, true);
  position += need;
  return status::ok();
}

status unpack_external(const char* datarep, const void* inbuf, aint insize, aint& position, void* outbuf,
                       std::int64_t outcount, type_object& t) {
  signature s;
  aint need = 0;
  if (status st = external_items(datarep, outcount, t, s, need); !st.is_ok()) return st;
  if (status st = check_pack_room(need, position, insize, false); !st.is_ok()) return st;
  if (need == 0) return status::ok();
  if (status st = check_packed(inbuf, need, "inbuf"); !st.is_ok()) return st;
  if (status st = check_buffer(outbuf, outcount, t, "outbuf"); !st.is_ok()) return st;
  std::vector<char> native(static_cast<std::size_t>(outcount) * static_cast<std::size_t>(t.size));
  convert(static_cast<const char*>(inbuf) + position, native.data(), outcount, s, false);
  unpack_elements(native.data(), outbuf, outcount, t);
  position += need;
  return status::ok();
}

status pack_external_size(const char* datarep, std::int64_t incount, type_object& t, aint& size) {
  signature s;
  return external_items(datarep, incount, t, s, size, false);
}

status pcontrol(int) { return status::ok(); }

}  // namespace api
}  // namespace mpiattr
