// MPI-IO on the standalone runtime's one process (MPI-4.1 §15, docs/decisions.md D107): files of the
// local file system, opened with POSIX open(2) and accessed with pread(2) and pwrite(2) through a
// view (a displacement, an etype and a filetype tiled from it). One process is the whole group, so
// a collective access is the same access, an ordered one is a shared-pointer one, and a nonblocking
// or split collective access is done at the call. A file is a record outside the object tables, as
// a session is (sessions.cc): its handle is kFileTag | a serial number never reused.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "datatypes_internal.h"
#include "p2p_internal.h"

namespace mpiattr {
namespace {

// Beside the tables' 0x40000000 | ... handles and the sessions' 0x20000000 | serial; fits a Fortran
// INTEGER, which standalone is the handle itself (D1).
constexpr handle_t kFileTag = 0x10000000;
constexpr handle_t kFileSerialMask = 0x0fffffff;

// The view's filetype as file accesses use it: its data runs in one tile, with the stream bytes
// before each run (MPI-4.1 §15.3: the filetype is tiled from the displacement, each tile one extent on).
struct view_map {
  std::vector<type_block> runs;
  std::vector<std::int64_t> before;  // stream bytes before runs[i] in the tile
  std::int64_t size = 0;             // data bytes in a tile (the filetype's size)
  std::int64_t extent = 0;           // a tile's length in the file (the filetype's extent)
  bool contiguous = true;            // one run at 0 that fills the tile: stream = file
};

enum class split { none, read_all, write_all, read_at_all, write_at_all, read_ordered, write_ordered };

// A data representation of the program's (MPI_Register_datarep, MPI-4.1 §15.5.3; D118): its
// functions in the convention of the language that registered them, a null conversion function
// for "none" (MPI_CONVERSION_FN_NULL, in any language). Registered for the life of the process
// (MPI has no routine that removes one) and never changed: a view names its entry.
struct datarep_entry {
  std::string name;
  language lang = language::c;
  bool large = false;  // MPI_Register_datarep_c: the conversion functions' count is an MPI_Count
  fnptr read = nullptr, write = nullptr, extent = nullptr;
  aint extra_state = 0;
};
std::mutex g_datareps_mu;
// The registrations, in a deque (an entry never moves) that is never destroyed: they last until
// the process ends, and what their extra_state points to (MPI::'s glue allocates one) stays
// reachable to the end, for leak checkers too.
std::deque<datarep_entry>& datareps() {
  static std::deque<datarep_entry>* d = new std::deque<datarep_entry>;
  return *d;
}

const datarep_entry* find_datarep(const char* name) {
  std::lock_guard lock(g_datareps_mu);
  for (const datarep_entry& d : datareps())
    if (d.name == name) return &d;
  return nullptr;
}

struct file_record {
  std::mutex mu;  // every access: the pointers and the view stay consistent with the file
  int fd = -1;
  std::string path;  // as opened (without a file-system prefix): MPI_MODE_DELETE_ON_CLOSE deletes it
  int amode = 0;
  std::atomic<errhandler_object*> errhandler{nullptr};
  hint_list hints;  // kept and ignored (D29)
  std::int64_t disp = 0;
  type_part etype, filetype;  // as given to MPI_File_set_view (the program may free them)
  std::string datarep = "native";
  bool external32 = false;  // the data are external32's bytes (of elements of memory's sizes)
  const datarep_entry* user = nullptr;  // a registered representation's (D118), or none
  view_map view;
  std::int64_t individual = 0, shared = 0;  // the file pointers, in etypes of the view
  bool atomic = false;
  // Whether this handle has changed the file (written, resized) since it last synchronised it:
  // MPI_File_close synchronises only then (D108).
  bool unsynced = false;
  split pending = split::none;  // the split collective begun and not yet ended
  const void* pending_buf = nullptr;
  api::msg_status pending_status;
};

std::mutex g_files_mu;
std::map<handle_t, std::shared_ptr<file_record>> g_files;
handle_t g_next_serial = 1;

std::shared_ptr<file_record> find_file(handle_t fh) {
  std::lock_guard lock(g_files_mu);
  auto it = g_files.find(fh);
  return it == g_files.end() ? nullptr : it->second;
}

// A handle that names no open file.
status no_file(handle_t fh) {
  if (fh == h::file_null) return fail(MPI_ERR_FILE, "the file handle is MPI_FILE_NULL");
  return fail(MPI_ERR_FILE, "0x%x is not a file handle (never opened, or closed)", fh);
}

status check_file(handle_t fh, std::shared_ptr<file_record>& out) {
  out = find_file(fh);
  return out != nullptr ? status::ok() : no_file(fh);
}

// A file's individual file pointer, which a file opened MPI_MODE_SEQUENTIAL has not (MPI-4.1
// §15.2.1; §15.8 names MPI_ERR_UNSUPPORTED_OPERATION for it).
status check_individual_pointer(const file_record& f) {
  if (!(f.amode & MPI_MODE_SEQUENTIAL)) return status::ok();
  return fail(MPI_ERR_UNSUPPORTED_OPERATION, "the file was opened MPI_MODE_SEQUENTIAL: it has no individual "
              "file pointer (MPI-4.1 section 15.2.1)");
}

// MPI_File_set_size and _preallocate: a size, on a file that is written and not sequential.
status check_resize(const file_record& f, std::int64_t size) {
  if (size < 0) return fail(MPI_ERR_ARG, "size %lld is negative", static_cast<long long>(size));
  if (f.amode & MPI_MODE_RDONLY) return fail(MPI_ERR_READ_ONLY, "the file was opened MPI_MODE_RDONLY");
  if (f.amode & MPI_MODE_SEQUENTIAL)
    return fail(MPI_ERR_UNSUPPORTED_OPERATION, "the file was opened MPI_MODE_SEQUENTIAL (MPI-4.1 section 15.2.1)");
  return status::ok();
}

// The class and text of a failed system call on `path`.
status io_failure(int err, const char* doing, const std::string& path) {
  int cls = MPI_ERR_IO;
  switch (err) {
    case ENOENT: case ENOTDIR: cls = MPI_ERR_NO_SUCH_FILE; break;
    case EEXIST: cls = MPI_ERR_FILE_EXISTS; break;
    case EACCES: case EPERM: cls = MPI_ERR_ACCESS; break;
    case ENOSPC: cls = MPI_ERR_NO_SPACE; break;
    case EDQUOT: cls = MPI_ERR_QUOTA; break;
    case EROFS: cls = MPI_ERR_READ_ONLY; break;
    case ENAMETOOLONG: case EISDIR: case ELOOP: cls = MPI_ERR_BAD_FILE; break;
    case EMFILE: case ENFILE: case ENOMEM: cls = MPI_ERR_NO_MEM; break;
    default: break;
  }
  return fail(cls, "%s \"%s\": %s", doing, path.c_str(), std::strerror(err));
}

// ROMIO's file names may start with the file system's name ("ufs:/data/out"); programs written for
// MPICH use them. A known prefix is dropped; any other name is the path itself (D107).
std::string path_of(const char* filename) {
  static const char* const kPrefixes[] = {"ufs:", "nfs:", "testfs:", "pvfs2:", "lustre:", "gpfs:", "panfs:",
                                          "xfs:", "daos:", "ime:", "quobytefs:"};
  for (const char* p : kPrefixes) {
    const std::size_t n = std::strlen(p);
    if (std::strncmp(filename, p, n) == 0 && filename[n] != '\0') return std::string(filename + n);
  }
  return std::string(filename);
}

handle_t byte_handle() {
  static const handle_t byte = [] {
    for (const auto& d : gen::datatypes)
      if (std::strcmp(d.name, "MPI_BYTE") == 0) return d.value;
    return handle_t{0};
  }();
  return byte;
}

// The view of bytes from displacement 0 that a file is opened with (MPI-4.1 §15.2.1).
status default_view(file_record& f) {
  type_object* byte = rt().types.lookup(byte_handle());
  if (byte == nullptr) return fail(MPI_ERR_INTERN, "MPI_BYTE is missing");
  f.etype = part_of(*byte);
  f.filetype = f.etype;
  f.view = view_map{};
  f.view.runs = {type_block{0, 1}};
  f.view.before = {0};
  f.view.size = f.view.extent = 1;
  f.disp = 0;
  f.datarep = "native";
  f.external32 = false;
  f.user = nullptr;
  return status::ok();
}

std::int64_t file_size(int fd) {
  struct stat st{};
  if (fstat(fd, &st) != 0) return -1;
  return static_cast<std::int64_t>(st.st_size);
}

// ---- the data stream of a view: its s-th byte, and the file's bytes in pieces ----

// Calls piece(file_offset, length, stream_offset) for the n stream bytes from stream byte s0, in
// order; stops when piece returns false.
template <typename Piece>
void for_each_piece(const file_record& f, std::int64_t s0, std::int64_t n, Piece&& piece) {
  const view_map& v = f.view;
  if (v.contiguous) {
    if (n > 0) piece(f.disp + s0, n, std::int64_t{0});
    return;
  }
  if (v.size == 0) return;  // (a view without data has no stream bytes)
  std::int64_t tile = s0 / v.size, in = s0 % v.size, done = 0;
  std::size_t i = static_cast<std::size_t>(
      std::upper_bound(v.before.begin(), v.before.end(), in) - v.before.begin() - 1);
  while (done < n) {
    const type_block& r = v.runs[i];
    const std::int64_t skip = in - v.before[i];
    const std::int64_t len = std::min<std::int64_t>(r.len - skip, n - done);
    if (!piece(f.disp + tile * v.extent + r.disp + skip, len, done)) return;
    done += len;
    in += len;
    if (++i == v.runs.size()) {
      i = 0;
      in = 0;
      ++tile;
    }
  }
}

// Stream bytes of the view that lie before byte `end` of the file.
std::int64_t stream_bytes_before(const file_record& f, std::int64_t end) {
  if (end <= f.disp) return 0;
  const std::int64_t rel = end - f.disp;
  const view_map& v = f.view;
  if (v.contiguous) return rel;
  if (v.size == 0) return 0;
  std::int64_t bytes = (rel / v.extent) * v.size;
  const std::int64_t rem = rel % v.extent;
  for (const type_block& r : v.runs) bytes += std::clamp<std::int64_t>(rem - r.disp, 0, r.len);
  return bytes;
}

// Reads n stream bytes from stream byte s0 into `out`; returns the bytes read before the end of
// the file (fewer than n there), or -1 with errno set.
std::int64_t read_stream(const file_record& f, std::int64_t s0, std::int64_t n, char* out) {
  std::int64_t got = 0;
  bool eof = false, failed = false;
  for_each_piece(f, s0, n, [&](std::int64_t at, std::int64_t len, std::int64_t into) {
    std::int64_t r = 0;
    while (r < len) {
      const ssize_t k = pread(f.fd, out + into + r, static_cast<std::size_t>(len - r), static_cast<off_t>(at + r));
      if (k < 0 && errno == EINTR) continue;
      if (k < 0) {
        failed = true;
        return false;
      }
      if (k == 0) {
        eof = true;
        break;
      }
      r += k;
    }
    got += r;
    return !eof;
  });
  return failed ? -1 : got;
}

// Writes n stream bytes from stream byte s0; false with errno set on failure.
bool write_stream(const file_record& f, std::int64_t s0, std::int64_t n, const char* in) {
  bool ok = true;
  for_each_piece(f, s0, n, [&](std::int64_t at, std::int64_t len, std::int64_t from) {
    std::int64_t w = 0;
    while (w < len) {
      const ssize_t k = pwrite(f.fd, in + from + w, static_cast<std::size_t>(len - w), static_cast<off_t>(at + w));
      if (k < 0 && errno == EINTR) continue;
      if (k < 0) {
        ok = false;
        return false;
      }
      w += k;
    }
    return true;
  });
  return ok;
}

// The first n packed bytes of elements of t, into memory at `out` (a read that ended early).
void unpack_prefix(const char* in, std::int64_t n, void* out, const type_object& t) {
  char* base = static_cast<char*>(out);
  if (contiguous(t)) {
    std::memcpy(base, in, static_cast<std::size_t>(n));
    return;
  }
  for (; n > 0; base += t.extent)
    for (const type_block& b : blocks(t.map)) {
      const std::int64_t len = std::min<std::int64_t>(b.len, n);
      std::memcpy(base + b.disp, in, static_cast<std::size_t>(len));
      in += len;
      n -= len;
      if (n == 0) return;
    }
}

// ---- a registered data representation's functions (D118) ----

bool c_convention(language lang) { return lang == language::c || lang == language::cxx; }

// A datatype as a C callback receives it (the ABI's MPI_Datatype, as MPI_Reduce_local passes it).
void* c_datatype(handle_t h) { return reinterpret_cast<void*>(static_cast<std::uintptr_t>(h)); }

// The file extent d's extent function gives predefined datatype `type`.
status datarep_extent(const datarep_entry& d, handle_t type, aint& extent) {
  int rc = MPI_SUCCESS;
  aint e = 0;
  if (c_convention(d.lang)) {
    rc = reinterpret_cast<int (*)(void*, aint*, void*)>(d.extent)(c_datatype(type), &e,
                                                                    reinterpret_cast<void*>(d.extra_state));
  } else {  // SUBROUTINE(DATATYPE, EXTENT, EXTRA_STATE, IERROR), every argument by reference
    fint ft = static_cast<fint>(type), ierr = MPI_SUCCESS;
    aint extra = d.extra_state;
    reinterpret_cast<void (*)(fint*, aint*, aint*, fint*)>(d.extent)(&ft, &e, &extra, &ierr);
    rc = ierr;
  }
  if (rc != MPI_SUCCESS)
    return fail(MPI_ERR_CONVERSION, "the extent function of data representation \"%s\" returned %d",
                d.name.c_str(), rc);
  extent = e;
  return status::ok();
}

// The predefined datatypes of p's type map, each once (an MPI_Type_create_f90_* one too, which keeps
// its handle); false for a part with data but none named, which no constructor makes.
bool named_types(const type_part& p, std::vector<handle_t>& out) {
  if (p.env && !p.env->runs.empty()) {
    for (const auto& run : p.env->runs)
      if (!named_types(p.env->types[run.second], out)) return false;
    return true;
  }
  if (p.named != 0) {
    if (std::find(out.begin(), out.end(), p.named) == out.end()) out.push_back(p.named);
    return true;
  }
  return p.size == 0;  // (an empty derived datatype has none)
}

// Whether t's file layout in representation d is its memory layout: every predefined datatype in
// it has a file extent, by d's extent function, equal to its size (what one element of it packs
// to). Files in a registered representation are accessed so (else MPI_ERR_UNSUPPORTED_DATAREP).
status datarep_same_size(const datarep_entry& d, const type_part& t, const char* what) {
  std::vector<handle_t> types;
  if (!named_types(t, types))
    return fail(MPI_ERR_INTERN, "the %s has data but no predefined datatype to ask data representation \"%s\"'s "
                "extent function about", what, d.name.c_str());
  for (handle_t h : types) {
    aint extent = 0;
    if (status st = datarep_extent(d, h, extent); !st.is_ok()) return st;
    type_object* b = rt().types.lookup(h);
    const aint size = b != nullptr ? b->size : -1;
    if (extent != size)
      return fail(MPI_ERR_UNSUPPORTED_DATAREP, "the extent function of data representation \"%s\" gives a basic "
                  "datatype of the %s (0x%x, %lld bytes in memory) %lld bytes in the file: mpiattr's standalone "
                  "runtime accesses files in a registered representation through datatypes whose basic elements "
                  "keep their size (D118)", d.name.c_str(), what, h, static_cast<long long>(size),
                  static_cast<long long>(extent));
  }
  return status::ok();
}

// Calls d's conversion function (`fn`: its read or write one) on `items` data items of the access
// datatype t, tiled over userbuf, from item `position` on, and the file's representation of them
// at filebuf; an int function in pieces of at most INT_MAX items, whole elements of t each.
status datarep_convert(const datarep_entry& d, fnptr fn, const char* which, void* userbuf, const type_object& t,
                       std::int64_t items, char* filebuf) {
  auto one = [&](std::int64_t count, std::int64_t position, char* at) {
    int rc = MPI_SUCCESS;
    const std::int64_t pos = position;
    if (c_convention(d.lang)) {
      void* extra = reinterpret_cast<void*>(d.extra_state);
      if (d.large)
        rc = reinterpret_cast<int (*)(void*, void*, std::int64_t, void*, std::int64_t, void*)>(fn)(
            userbuf, c_datatype(t.handle), count, at, pos, extra);
      else
        rc = reinterpret_cast<int (*)(void*, void*, int, void*, std::int64_t, void*)>(fn)(
            userbuf, c_datatype(t.handle), static_cast<int>(count), at, pos, extra);
    } else {  // SUBROUTINE(USERBUF, DATATYPE, COUNT, FILEBUF, POSITION, EXTRA_STATE, IERROR)
      fint ft = static_cast<fint>(t.handle), ierr = MPI_SUCCESS;
      std::int64_t p = pos;
      aint extra = d.extra_state;
      if (d.large) {
        std::int64_t c = count;
        reinterpret_cast<void (*)(void*, fint*, std::int64_t*, void*, std::int64_t*, aint*, fint*)>(fn)(
            userbuf, &ft, &c, at, &p, &extra, &ierr);
      } else {
        fint c = static_cast<fint>(count);
        reinterpret_cast<void (*)(void*, fint*, fint*, void*, std::int64_t*, aint*, fint*)>(fn)(
            userbuf, &ft, &c, at, &p, &extra, &ierr);
      }
      rc = ierr;
    }
    if (rc != MPI_SUCCESS)
      return fail(MPI_ERR_CONVERSION, "the %s conversion function of data representation \"%s\" returned %d",
                  which, d.name.c_str(), rc);
    return status::ok();
  };
  if (items <= 0) return status::ok();
  constexpr std::int64_t kIntMax = 2147483647;
  if (d.large || items <= kIntMax) return one(items, 0, filebuf);
  const aint per = core_part(t).elements;  // (items per element of t)
  if (per <= 0 || per > kIntMax)
    return fail(MPI_ERR_COUNT, "one element of the datatype holds %lld data items, more than the int count of "
                "data representation \"%s\"'s conversion functions", static_cast<long long>(per), d.name.c_str());
  const std::int64_t step = kIntMax / per;  // elements of t per call
  for (std::int64_t e = 0; e * per < items; e += step) {
    const std::int64_t n = std::min<std::int64_t>(step * per, items - e * per);
    if (status st = one(n, e * per, filebuf + e * t.size); !st.is_ok()) return st;
  }
  return status::ok();
}

// ---- accesses ----

enum class pointer { explicit_offset, individual, shared };

status check_access(const file_record& f, std::int64_t count, const type_object& t, bool writing, pointer how,
                    std::int64_t offset) {
  if (writing && (f.amode & MPI_MODE_RDONLY))
    return fail(MPI_ERR_READ_ONLY, "the file was opened MPI_MODE_RDONLY: it cannot be written");
  if (!writing && (f.amode & MPI_MODE_WRONLY))
    return fail(MPI_ERR_ACCESS, "the file was opened MPI_MODE_WRONLY: it cannot be read");
  if (how != pointer::shared && (f.amode & MPI_MODE_SEQUENTIAL))
    return fail(MPI_ERR_UNSUPPORTED_OPERATION, "the file was opened MPI_MODE_SEQUENTIAL: only the shared file "
                "pointer's routines access it (MPI-4.1 section 15.2.1)");
  if (how == pointer::explicit_offset && offset < 0)
    return fail(MPI_ERR_ARG, "offset %lld is negative", static_cast<long long>(offset));
  if (status st = check_count(count, t); !st.is_ok()) return st;
  if (!t.committed && !t.predefined) return fail(MPI_ERR_TYPE, "the datatype is not committed");
  const std::int64_t bytes = static_cast<std::int64_t>(count) * t.size;
  if (f.etype.size > 0 && bytes % f.etype.size != 0)
    return fail(MPI_ERR_TYPE, "%lld bytes (count %lld of a datatype of %lld bytes) are not a whole number of the "
                "view's etypes of %lld bytes (MPI-4.1 section 15.4.1)", static_cast<long long>(bytes),
                static_cast<long long>(count),
                static_cast<long long>(t.size), static_cast<long long>(f.etype.size));
  return status::ok();
}

// One access of count elements of t at buf, from the pointer `how` (or explicit etype `offset`),
// moving that pointer past what was accessed; `out` gets the bytes.
status access(file_record& f, pointer how, std::int64_t offset, void* buf, std::int64_t count, const type_object& t,
              bool writing, api::msg_status& out) {
  if (status st = check_access(f, count, t, writing, how, offset); !st.is_ok()) return st;
  if (writing && f.view.size == 0 && count > 0 && t.size > 0)  // (a read of it reads nothing: D110)
    return fail(MPI_ERR_IO, "the view's filetype holds no data: nothing can be written through it");
  if (f.external32)
    if (status st = external32_same_size(t); !st.is_ok()) return st;
  aint items_per_element = 0;  // (a registered representation's: the data items of one element of t)
  if (f.user != nullptr) {
    const type_part tp = core_part(t);
    if (status st = datarep_same_size(*f.user, tp, "datatype"); !st.is_ok()) return st;
    items_per_element = tp.elements;
  }
  const datarep_entry* conv = f.user;  // (converting only where its function for the direction is one)
  if (conv != nullptr && (writing ? conv->write : conv->read) == nullptr) conv = nullptr;
  const std::int64_t es = f.etype.size;
  std::int64_t& ptr = how == pointer::shared ? f.shared : f.individual;
  const std::int64_t at = how == pointer::explicit_offset ? offset : ptr;
  const std::int64_t n = static_cast<std::int64_t>(count) * t.size;
  const bool direct = contiguous(t) && !f.external32 && conv == nullptr;
  std::vector<char> packed;
  if (!direct && n > 0) packed.resize(static_cast<std::size_t>(n));  // (out of memory: nothing done, D65)
  std::int64_t done = n;
  if (writing) {
    const char* from = static_cast<const char*>(buf);
    if (!direct && n > 0) {
      if (conv != nullptr) {
        if (status st = datarep_convert(*conv, conv->write, "write", buf, t, count * items_per_element,
                                        packed.data());
            !st.is_ok())
          return st;  // (nothing written)
      } else {
        pack_elements(buf, count, t, packed.data());
      }
      if (f.external32) external32_swap(t, packed.data(), count, true);
      from = packed.data();
    }
    if (n > 0) f.unsynced = true;  // (a write that fails may have written part)
    if (n > 0 && !write_stream(f, at * es, n, from)) return io_failure(errno, "writing", f.path);
  } else if (n > 0) {
    char* into = direct ? static_cast<char*>(buf) : packed.data();
    done = read_stream(f, at * es, n, into);
    if (done < 0) return io_failure(errno, "reading", f.path);
    if (f.external32 && t.size > 0) external32_swap(t, packed.data(), (done + t.size - 1) / t.size, false);
    if (conv != nullptr) {  // (the whole elements read: a read that ends inside one leaves its part)
      const std::int64_t items = t.size > 0 ? (done / t.size) * items_per_element : 0;
      if (status st = datarep_convert(*conv, conv->read, "read", buf, t, items, packed.data()); !st.is_ok())
        return st;
    } else if (!direct) {
      unpack_prefix(packed.data(), done, buf, t);
    }
  }
  if (how != pointer::explicit_offset && es > 0) ptr = at + done / es;
  out = api::msg_status{};
  out.bytes = done;
  return status::ok();
}

template <typename Op>
status with_file(handle_t fh, Op&& op) {
  std::shared_ptr<file_record> f;
  if (status st = check_file(fh, f); !st.is_ok()) return st;
  std::lock_guard lock(f->mu);
  return op(*f);
}

status blocking(handle_t fh, pointer how, std::int64_t offset, void* buf, std::int64_t count, type_object& t, bool writing,
                api::msg_status& out) {
  return with_file(fh, [&](file_record& f) { return access(f, how, offset, buf, count, t, writing, out); });
}

// A nonblocking access: done at the call, its request complete with the access's status.
status nonblocking(handle_t fh, pointer how, std::int64_t offset, void* buf, std::int64_t count, type_object& t,
                   bool writing, handle_t& request) {
  std::shared_ptr<file_record> f;
  if (status st = check_file(fh, f); !st.is_ok()) return st;
  return with_new_request(request, "the file access", [&](handle_t r) {
    p2p::state& p = p2p::queues();
    {
      std::lock_guard lock(p.mu);
      p.done[r] = api::msg_status{};  // its slot first: nothing can fail after the access (D65)
    }
    api::msg_status st;
    status s;
    {
      std::lock_guard lock(f->mu);
      s = access(*f, how, offset, buf, count, t, writing, st);
    }
    std::lock_guard lock(p.mu);
    if (s.is_ok()) p.done[r] = st;
    else p.done.erase(r);
    return s;
  });
}

const char* split_name(split s) {
  switch (s) {
    case split::read_all: return "MPI_File_read_all_begin";
    case split::write_all: return "MPI_File_write_all_begin";
    case split::read_at_all: return "MPI_File_read_at_all_begin";
    case split::write_at_all: return "MPI_File_write_at_all_begin";
    case split::read_ordered: return "MPI_File_read_ordered_begin";
    case split::write_ordered: return "MPI_File_write_ordered_begin";
    default: return "none";
  }
}

// A split collective's begin: the access, its status kept for the end (MPI-4.1 §15.4.5: one
// split collective at a time on a file).
status split_begin(handle_t fh, split which, pointer how, std::int64_t offset, void* buf, std::int64_t count, type_object& t,
                   bool writing) {
  return with_file(fh, [&](file_record& f) {
    if (f.pending != split::none)
      return fail(MPI_ERR_IO, "%s was called and its end was not: one split collective at a time on a file "
                  "(MPI-4.1 section 15.4.5)", split_name(f.pending));
    api::msg_status st;
    if (status s = access(f, how, offset, buf, count, t, writing, st); !s.is_ok()) return s;
    f.pending = which;
    f.pending_buf = buf;
    f.pending_status = st;
    return status::ok();
  });
}

status split_end(handle_t fh, split which, const void* buf, api::msg_status& out) {
  return with_file(fh, [&](file_record& f) {
    if (f.pending != which)
      return f.pending == split::none
                 ? fail(MPI_ERR_IO, "no %s came before this end", split_name(which))
                 : fail(MPI_ERR_IO, "the split collective begun on the file is %s's, not %s's", split_name(f.pending),
                        split_name(which));
    if (buf != f.pending_buf)
      return fail(MPI_ERR_BUFFER, "buf is not the buffer given to %s", split_name(which));
    f.pending = split::none;
    out = f.pending_status;
    return status::ok();
  });
}

// A view's etype or filetype (MPI-4.1 §15.3): committed, its displacements non-negative and
// non-decreasing ("not required to be distinct"), and on a file opened for writing no two of its
// regions overlapping (D110). The runs are the type map's bytes, merged: a run that starts before
// the last one's start decreases; one that starts inside it overlaps.
status check_view_type(const type_object& t, const char* which, bool writable) {
  if (!t.committed && !t.predefined) return fail(MPI_ERR_TYPE, "the %s is not committed", which);
  aint start = 0, end = 0;
  for (const type_block& b : blocks(t.map)) {
    if (b.disp < 0)
      return fail(MPI_ERR_TYPE, "the %s has a negative displacement (%ld): a view's types may not (MPI-4.1 "
                  "section 15.3)", which, static_cast<long>(b.disp));
    if (b.disp < start)
      return fail(MPI_ERR_TYPE, "the %s's displacements decrease: a view's types must have non-decreasing ones "
                  "(MPI-4.1 section 15.3)", which);
    if (writable && b.disp < end)
      return fail(MPI_ERR_TYPE, "the %s's regions overlap (at byte %ld): on a file opened for writing a view's "
                  "types may not (MPI-4.1 section 15.3)", which, static_cast<long>(b.disp));
    start = b.disp;
    end = std::max(end, b.disp + b.len);
  }
  return status::ok();
}

view_map map_of(const type_part& ft) {
  view_map v;
  v.size = ft.size;
  v.extent = ft.extent;
  const auto& m = blocks(ft.map);
  if (ft.size == 0) {  // no data: no runs, and no stream (D110)
    v.contiguous = false;
    return v;
  }
  if (m.empty()) {  // a basic type: one run
    v.runs = {type_block{0, ft.size}};
  } else {
    v.runs.assign(m.begin(), m.end());
  }
  std::int64_t b = 0;
  for (const type_block& r : v.runs) {
    v.before.push_back(b);
    b += r.len;
  }
  v.contiguous = v.runs.size() == 1 && v.runs[0].disp == 0 && v.runs[0].len == v.extent;
  return v;
}

bool known_datarep(const char* d) {
  return std::strcmp(d, "native") == 0 || std::strcmp(d, "internal") == 0 || std::strcmp(d, "external32") == 0;
}

std::int64_t byte_offset(const file_record& f, std::int64_t offset) {
  const std::int64_t s = offset * f.etype.size;
  const view_map& v = f.view;
  if (v.contiguous) return f.disp + s;
  if (v.size == 0) return f.disp;
  const std::int64_t tile = s / v.size, in = s % v.size;
  const std::size_t i = static_cast<std::size_t>(
      std::upper_bound(v.before.begin(), v.before.end(), in) - v.before.begin() - 1);
  return f.disp + tile * v.extent + v.runs[i].disp + (in - v.before[i]);
}

status new_position(const file_record& f, std::int64_t current, std::int64_t offset, int whence,
                    std::int64_t& out) {
  std::int64_t base = 0;
  switch (whence) {
    case MPI_SEEK_SET: base = 0; break;
    case MPI_SEEK_CUR: base = current; break;
    case MPI_SEEK_END: {
      const std::int64_t size = file_size(f.fd);
      if (size < 0) return io_failure(errno, "finding the size of", f.path);
      // "the next elementary data item ... following the last whole elementary data item
      // accessible" (MPI-4.1 §15.4.3): whole etypes only.
      const std::int64_t es = f.etype.size > 0 ? f.etype.size : 1;
      base = stream_bytes_before(f, size) / es;
      break;
    }
    default:
      return fail(MPI_ERR_ARG, "whence %d is not MPI_SEEK_SET, MPI_SEEK_CUR or MPI_SEEK_END", whence);
  }
  if (base + offset < 0)
    return fail(MPI_ERR_ARG, "the pointer would move to %lld, before the start of the view",
                static_cast<long long>(base + offset));
  out = base + offset;
  return status::ok();
}

status merge_hints(file_record& f, handle_t info) {
  if (status st = check_info(info); !st.is_ok()) return st;
  f.hints = merged_hints(f.hints, pairs_of(info));  // (out of memory: the hints as they were, D65)
  return status::ok();
}

status check_amode(int amode) {
  const int access = amode & (MPI_MODE_RDONLY | MPI_MODE_RDWR | MPI_MODE_WRONLY);
  constexpr int known = MPI_MODE_RDONLY | MPI_MODE_RDWR | MPI_MODE_WRONLY | MPI_MODE_CREATE | MPI_MODE_EXCL |
                        MPI_MODE_DELETE_ON_CLOSE | MPI_MODE_UNIQUE_OPEN | MPI_MODE_SEQUENTIAL | MPI_MODE_APPEND;
  if (amode & ~known) return fail(MPI_ERR_AMODE, "amode %d has bits that are no MPI_MODE_ file mode", amode);
  if (access != MPI_MODE_RDONLY && access != MPI_MODE_RDWR && access != MPI_MODE_WRONLY)
    return fail(MPI_ERR_AMODE, "amode must have exactly one of MPI_MODE_RDONLY, MPI_MODE_RDWR and MPI_MODE_WRONLY "
                "(MPI-4.1 section 15.2.1)");
  if (access == MPI_MODE_RDONLY && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL)))
    return fail(MPI_ERR_AMODE, "MPI_MODE_RDONLY with MPI_MODE_CREATE or MPI_MODE_EXCL (MPI-4.1 section 15.2.1)");
  if (access == MPI_MODE_RDWR && (amode & MPI_MODE_SEQUENTIAL))
    return fail(MPI_ERR_AMODE, "MPI_MODE_RDWR with MPI_MODE_SEQUENTIAL (MPI-4.1 section 15.2.1)");
  return status::ok();
}

}  // namespace

// MPI_FILE_NULL's handler is error_handling.cc's; a live file's is its own.
errhandler_object* file_eh_of(handle_t fh) {
  std::shared_ptr<file_record> f = find_file(fh);
  return f == nullptr ? nullptr : f->errhandler.load(std::memory_order_acquire);
}

bool file_eh_store(handle_t fh, errhandler_object* e) {
  std::shared_ptr<file_record> f = find_file(fh);
  if (f == nullptr) return false;
  f->errhandler.store(e, std::memory_order_release);
  return true;
}

namespace api {

status file_open(comm_object& comm, const char* filename, int amode, handle_t info, handle_t& fh) {
  (void)comm;  // one process: the communicator's group is it (an intracommunicator: no others exist)
  if (status st = check_amode(amode); !st.is_ok()) return st;
  if (status st = check_info(info); !st.is_ok()) return st;
  auto f = std::make_shared<file_record>();
  f->path = path_of(filename);
  f->amode = amode;
  f->errhandler.store(file_default_eh());
  if (status st = default_view(*f); !st.is_ok()) return st;
  if (status st = merge_hints(*f, info); !st.is_ok()) return st;
  int flags = O_CLOEXEC;
  flags |= (amode & MPI_MODE_RDONLY) ? O_RDONLY : (amode & MPI_MODE_WRONLY) ? O_WRONLY : O_RDWR;
  if (amode & MPI_MODE_CREATE) flags |= O_CREAT;
  if (amode & MPI_MODE_EXCL) flags |= O_EXCL;
  std::unique_lock lock(g_files_mu);  // (the serial first: out of memory after open leaves no file open)
  if (g_next_serial > kFileSerialMask) return fail(MPI_ERR_INTERN, "too many files were opened");
  const handle_t handle = kFileTag | g_next_serial;
  auto [it, inserted] = g_files.emplace(handle, nullptr);
  (void)inserted;
  const int fd = ::open(f->path.c_str(), flags, 0666);
  if (fd < 0) {
    const int err = errno;
    g_files.erase(it);
    return io_failure(err, "opening", f->path);
  }
  f->fd = fd;
  if (amode & MPI_MODE_APPEND) {  // both pointers at the end (MPI-4.1 §15.2.1)
    const std::int64_t size = file_size(fd);
    f->individual = f->shared = size > 0 ? size : 0;
  }
  it->second = std::move(f);
  ++g_next_serial;
  fh = handle;
  return status::ok();
}

status file_close(handle_t& fh) {
  std::shared_ptr<file_record> f;
  {
    std::lock_guard lock(g_files_mu);
    auto it = g_files.find(fh);
    if (it == g_files.end()) return no_file(fh);
    f = std::move(it->second);
    g_files.erase(it);
  }
  std::lock_guard lock(f->mu);
  // MPI-4.1 §15.2.2: "first synchronizes file state (equivalent to performing an MPI_FILE_SYNC)",
  // which transfers this process's writes through fh (§15.6.1): nothing to transfer when the handle
  // changed nothing since its last sync, or when the file is deleted now (D108).
  const bool sync = f->unsynced && (f->amode & MPI_MODE_DELETE_ON_CLOSE) == 0;
  int err = !sync || ::fsync(f->fd) == 0 || errno == EINVAL || errno == EROFS ? 0 : errno;
  if (::close(f->fd) != 0 && err == 0) err = errno;
  fh = h::file_null;
  if (f->amode & MPI_MODE_DELETE_ON_CLOSE) ::unlink(f->path.c_str());
  if (err != 0) return io_failure(err, "closing", f->path);
  return status::ok();
}

status file_delete(const char* filename, handle_t info) {
  if (status st = check_info(info); !st.is_ok()) return st;
  const std::string path = path_of(filename);
  if (::unlink(path.c_str()) != 0) return io_failure(errno, "deleting", path);
  return status::ok();
}

status file_set_size(handle_t fh, std::int64_t size) {
  return with_file(fh, [&](file_record& f) {
    if (status st = check_resize(f, size); !st.is_ok()) return st;
    f.unsynced = true;
    if (::ftruncate(f.fd, static_cast<off_t>(size)) != 0) return io_failure(errno, "resizing", f.path);
    return status::ok();
  });
}

status file_preallocate(handle_t fh, std::int64_t size) {
  return with_file(fh, [&](file_record& f) {
    if (status st = check_resize(f, size); !st.is_ok()) return st;
    const std::int64_t now = file_size(f.fd);
    if (now < 0) return io_failure(errno, "finding the size of", f.path);
    if (size <= now) return status::ok();  // never shorter (MPI-4.1 §15.2.5)
    f.unsynced = true;
    int rc = ::posix_fallocate(f.fd, 0, static_cast<off_t>(size));
    if (rc == EOPNOTSUPP || rc == EINVAL) rc = ::ftruncate(f.fd, static_cast<off_t>(size)) == 0 ? 0 : errno;
    if (rc != 0) return io_failure(rc, "preallocating", f.path);
    return status::ok();
  });
}

status file_get_size(handle_t fh, std::int64_t& size) {
  return with_file(fh, [&](file_record& f) {
    size = file_size(f.fd);
    if (size < 0) return io_failure(errno, "finding the size of", f.path);
    return status::ok();
  });
}

status file_get_group(handle_t fh, handle_t& group) {
  std::shared_ptr<file_record> f;
  if (status st = check_file(fh, f); !st.is_ok()) return st;
  return new_group(1, group);
}

status file_get_amode(handle_t fh, int& amode) {
  return with_file(fh, [&](file_record& f) {
    amode = f.amode;
    return status::ok();
  });
}

status file_set_info(handle_t fh, handle_t info) {
  return with_file(fh, [&](file_record& f) { return merge_hints(f, info); });
}

status file_get_info(handle_t fh, handle_t& info_used) {
  hint_list hints;
  if (status st = with_file(fh, [&](file_record& f) {
        hints = f.hints;
        return status::ok();
      });
      !st.is_ok())
    return st;
  return new_info(std::move(hints), info_used);
}

status file_set_view(handle_t fh, std::int64_t disp, type_object& etype, type_object& filetype, const char* datarep,
                     handle_t info) {
  return with_file(fh, [&](file_record& f) {
    const bool writable = (f.amode & MPI_MODE_RDONLY) == 0;
    if (status st = check_view_type(etype, "etype", writable); !st.is_ok()) return st;
    if (status st = check_view_type(filetype, "filetype", writable); !st.is_ok()) return st;
    if (etype.size <= 0) return fail(MPI_ERR_TYPE, "the etype holds no data");
    // (A filetype may hold none: a process with nothing to access sets one, D110.)
    if (filetype.size % etype.size != 0)
      return fail(MPI_ERR_ARG, "the filetype (%ld bytes) is not built of whole etypes (%ld bytes; MPI-4.1 "
                  "section 15.3)", static_cast<long>(filetype.size), static_cast<long>(etype.size));
    const bool predefined_rep = known_datarep(datarep);
    const datarep_entry* user = predefined_rep ? nullptr : find_datarep(datarep);
    if (!predefined_rep && user == nullptr)
      return fail(MPI_ERR_UNSUPPORTED_DATAREP, "\"%s\" is not a data representation: \"native\", \"internal\" "
                  "and \"external32\" are, and those MPI_Register_datarep registered (D118)", datarep);
    const bool external = std::strcmp(datarep, "external32") == 0;
    if (external) {
      if (status st = external32_same_size(etype); !st.is_ok()) return st;
      if (status st = external32_same_size(filetype); !st.is_ok()) return st;
    }
    if (user != nullptr) {
      if (status st = datarep_same_size(*user, core_part(etype), "etype"); !st.is_ok()) return st;
      if (status st = datarep_same_size(*user, core_part(filetype), "filetype"); !st.is_ok()) return st;
    }
    if (disp == MPI_DISPLACEMENT_CURRENT) {
      if (!(f.amode & MPI_MODE_SEQUENTIAL))
        return fail(MPI_ERR_ARG, "MPI_DISPLACEMENT_CURRENT is for files opened MPI_MODE_SEQUENTIAL (MPI-4.1 "
                    "section 15.3)");
      disp = byte_offset(f, f.shared);
    } else if (disp < 0) {
      return fail(MPI_ERR_ARG, "disp %lld is negative", static_cast<long long>(disp));
    }
    // Everything that can fail (out of memory) before the file changes (D65).
    type_part e = part_of(etype), ft = part_of(filetype);
    view_map v = map_of(ft);
    std::string rep = datarep;
    if (status st = merge_hints(f, info); !st.is_ok()) return st;
    f.disp = disp;
    f.etype = std::move(e);
    f.filetype = std::move(ft);
    f.view = std::move(v);
    f.datarep = std::move(rep);
    f.external32 = external;
    f.user = user;
    f.individual = f.shared = 0;  // MPI-4.1 §15.3: both pointers go to zero
    return status::ok();
  });
}

status file_get_view(handle_t fh, std::int64_t& disp, handle_t& etype, handle_t& filetype, char* datarep) {
  type_part e, ft;
  std::string rep;
  std::int64_t d = 0;
  if (status st = with_file(fh, [&](file_record& f) {
        e = f.etype;
        ft = f.filetype;
        rep = f.datarep;
        d = f.disp;
        return status::ok();
      });
      !st.is_ok())
    return st;
  // A predefined type is itself; a derived one a new datatype equal to it, which the caller frees
  // (MPI-4.1 §15.3), as MPI_Type_get_contents gives one.
  handle_t eh = e.named, fth = ft.named;
  if (eh == 0)
    if (status st = publish_part(e, eh); !st.is_ok()) return st;
  if (fth == 0)
    if (status st = publish_part(ft, fth); !st.is_ok()) {
      if (e.named == 0) (void)type_free(eh);
      return st;
    }
  disp = d;
  etype = eh;
  filetype = fth;
  std::memcpy(datarep, rep.c_str(), rep.size() + 1);
  return status::ok();
}

status file_get_type_extent(handle_t fh, type_object& datatype, aint& extent) {
  return with_file(fh, [&](file_record& f) {
    if (f.external32) return external32_extent(datatype, extent);
    if (f.user != nullptr)  // (its basic elements keep their sizes, so the layout is memory's)
      if (status st = datarep_same_size(*f.user, core_part(datatype), "datatype"); !st.is_ok()) return st;
    extent = datatype.extent;  // native: the file's representation is memory's
    return status::ok();
  });
}

status file_set_atomicity(handle_t fh, bool flag) {
  return with_file(fh, [&](file_record& f) {
    f.atomic = flag;
    return status::ok();
  });
}

status file_get_atomicity(handle_t fh, bool& flag) {
  return with_file(fh, [&](file_record& f) {
    flag = f.atomic;
    return status::ok();
  });
}

status file_sync(handle_t fh) {
  return with_file(fh, [&](file_record& f) {
    // (Always: a program syncs to make the file durable, whatever wrote it; D108.)
    if (::fsync(f.fd) != 0 && errno != EINVAL && errno != EROFS) return io_failure(errno, "syncing", f.path);
    f.unsynced = false;
    return status::ok();
  });
}

status file_seek(handle_t fh, std::int64_t offset, int whence) {
  return with_file(fh, [&](file_record& f) {
    if (status st = check_individual_pointer(f); !st.is_ok()) return st;
    return new_position(f, f.individual, offset, whence, f.individual);
  });
}

status file_seek_shared(handle_t fh, std::int64_t offset, int whence) {
  return with_file(fh, [&](file_record& f) {
    if (f.amode & MPI_MODE_SEQUENTIAL)  // §15.8's example of MPI_ERR_UNSUPPORTED_OPERATION
      return fail(MPI_ERR_UNSUPPORTED_OPERATION, "the file was opened MPI_MODE_SEQUENTIAL: its file pointer "
                  "only moves forward, by the accesses (MPI-4.1 section 15.8)");
    return new_position(f, f.shared, offset, whence, f.shared);
  });
}

status file_get_position(handle_t fh, std::int64_t& offset) {
  return with_file(fh, [&](file_record& f) {
    if (status st = check_individual_pointer(f); !st.is_ok()) return st;
    offset = f.individual;
    return status::ok();
  });
}

status file_get_position_shared(handle_t fh, std::int64_t& offset) {
  return with_file(fh, [&](file_record& f) {
    offset = f.shared;
    return status::ok();
  });
}

status file_get_byte_offset(handle_t fh, std::int64_t offset, std::int64_t& disp) {
  return with_file(fh, [&](file_record& f) {
    if (offset < 0) return fail(MPI_ERR_ARG, "offset %lld is negative", static_cast<long long>(offset));
    disp = byte_offset(f, offset);
    return status::ok();
  });
}

// ---- data access (MPI-4.1 §15.4) ----

status file_read_at(handle_t fh, std::int64_t offset, void* buf, std::int64_t count, type_object& t, msg_status& st) {
  return blocking(fh, pointer::explicit_offset, offset, buf, count, t, false, st);
}
status file_read_at_all(handle_t fh, std::int64_t offset, void* buf, std::int64_t count, type_object& t, msg_status& st) {
  return file_read_at(fh, offset, buf, count, t, st);
}
status file_write_at(handle_t fh, std::int64_t offset, const void* buf, std::int64_t count, type_object& t, msg_status& st) {
  return blocking(fh, pointer::explicit_offset, offset, const_cast<void*>(buf), count, t, true, st);
}
status file_write_at_all(handle_t fh, std::int64_t offset, const void* buf, std::int64_t count, type_object& t,
                         msg_status& st) {
  return file_write_at(fh, offset, buf, count, t, st);
}
status file_iread_at(handle_t fh, std::int64_t offset, void* buf, std::int64_t count, type_object& t, handle_t& request) {
  return nonblocking(fh, pointer::explicit_offset, offset, buf, count, t, false, request);
}
status file_iread_at_all(handle_t fh, std::int64_t offset, void* buf, std::int64_t count, type_object& t, handle_t& request) {
  return file_iread_at(fh, offset, buf, count, t, request);
}
status file_iwrite_at(handle_t fh, std::int64_t offset, const void* buf, std::int64_t count, type_object& t,
                      handle_t& request) {
  return nonblocking(fh, pointer::explicit_offset, offset, const_cast<void*>(buf), count, t, true, request);
}
status file_iwrite_at_all(handle_t fh, std::int64_t offset, const void* buf, std::int64_t count, type_object& t,
                          handle_t& request) {
  return file_iwrite_at(fh, offset, buf, count, t, request);
}

status file_read(handle_t fh, void* buf, std::int64_t count, type_object& t, msg_status& st) {
  return blocking(fh, pointer::individual, 0, buf, count, t, false, st);
}
status file_read_all(handle_t fh, void* buf, std::int64_t count, type_object& t, msg_status& st) {
  return file_read(fh, buf, count, t, st);
}
status file_write(handle_t fh, const void* buf, std::int64_t count, type_object& t, msg_status& st) {
  return blocking(fh, pointer::individual, 0, const_cast<void*>(buf), count, t, true, st);
}
status file_write_all(handle_t fh, const void* buf, std::int64_t count, type_object& t, msg_status& st) {
  return file_write(fh, buf, count, t, st);
}
status file_iread(handle_t fh, void* buf, std::int64_t count, type_object& t, handle_t& request) {
  return nonblocking(fh, pointer::individual, 0, buf, count, t, false, request);
}
status file_iread_all(handle_t fh, void* buf, std::int64_t count, type_object& t, handle_t& request) {
  return file_iread(fh, buf, count, t, request);
}
status file_iwrite(handle_t fh, const void* buf, std::int64_t count, type_object& t, handle_t& request) {
  return nonblocking(fh, pointer::individual, 0, const_cast<void*>(buf), count, t, true, request);
}
status file_iwrite_all(handle_t fh, const void* buf, std::int64_t count, type_object& t, handle_t& request) {
  return file_iwrite(fh, buf, count, t, request);
}

status file_read_shared(handle_t fh, void* buf, std::int64_t count, type_object& t, msg_status& st) {
  return blocking(fh, pointer::shared, 0, buf, count, t, false, st);
}
status file_write_shared(handle_t fh, const void* buf, std::int64_t count, type_object& t, msg_status& st) {
  return blocking(fh, pointer::shared, 0, const_cast<void*>(buf), count, t, true, st);
}
status file_iread_shared(handle_t fh, void* buf, std::int64_t count, type_object& t, handle_t& request) {
  return nonblocking(fh, pointer::shared, 0, buf, count, t, false, request);
}
status file_iwrite_shared(handle_t fh, const void* buf, std::int64_t count, type_object& t, handle_t& request) {
  return nonblocking(fh, pointer::shared, 0, const_cast<void*>(buf), count, t, true, request);
}
// In rank order: one rank (MPI-4.1 §15.4.4).
status file_read_ordered(handle_t fh, void* buf, std::int64_t count, type_object& t, msg_status& st) {
  return file_read_shared(fh, buf, count, t, st);
}
status file_write_ordered(handle_t fh, const void* buf, std::int64_t count, type_object& t, msg_status& st) {
  return file_write_shared(fh, buf, count, t, st);
}

// Split collectives (MPI-4.1 §15.4.5).
status file_read_at_all_begin(handle_t fh, std::int64_t offset, void* buf, std::int64_t count, type_object& t) {
  return split_begin(fh, split::read_at_all, pointer::explicit_offset, offset, buf, count, t, false);
}
status file_read_at_all_end(handle_t fh, void* buf, msg_status& st) {
  return split_end(fh, split::read_at_all, buf, st);
}
status file_write_at_all_begin(handle_t fh, std::int64_t offset, const void* buf, std::int64_t count, type_object& t) {
  return split_begin(fh, split::write_at_all, pointer::explicit_offset, offset, const_cast<void*>(buf), count, t,
                     true);
}
status file_write_at_all_end(handle_t fh, const void* buf, msg_status& st) {
  return split_end(fh, split::write_at_all, buf, st);
}
status file_read_all_begin(handle_t fh, void* buf, std::int64_t count, type_object& t) {
  return split_begin(fh, split::read_all, pointer::individual, 0, buf, count, t, false);
}
status file_read_all_end(handle_t fh, void* buf, msg_status& st) { return split_end(fh, split::read_all, buf, st); }
status file_write_all_begin(handle_t fh, const void* buf, std::int64_t count, type_object& t) {
  return split_begin(fh, split::write_all, pointer::individual, 0, const_cast<void*>(buf), count, t, true);
}
status file_write_all_end(handle_t fh, const void* buf, msg_status& st) {
  return split_end(fh, split::write_all, buf, st);
}
status file_read_ordered_begin(handle_t fh, void* buf, std::int64_t count, type_object& t) {
  return split_begin(fh, split::read_ordered, pointer::shared, 0, buf, count, t, false);
}
status file_read_ordered_end(handle_t fh, void* buf, msg_status& st) {
  return split_end(fh, split::read_ordered, buf, st);
}
status file_write_ordered_begin(handle_t fh, const void* buf, std::int64_t count, type_object& t) {
  return split_begin(fh, split::write_ordered, pointer::shared, 0, const_cast<void*>(buf), count, t, true);
}
status file_write_ordered_end(handle_t fh, const void* buf, msg_status& st) {
  return split_end(fh, split::write_ordered, buf, st);
}

// MPI_Register_datarep (MPI-4.1 §15.5.3; D118): a name of 1 to MPI_MAX_DATAREP_STRING - 1
// characters (MPI_File_get_view returns it with its terminator) and an extent function, else
// MPI_ERR_ARG; a name already registered, or a predefined representation's, is
// MPI_ERR_DUP_DATAREP. A null conversion function (MPI_CONVERSION_FN_NULL) converts nothing.
static status register_datarep_as(language lang, bool large, const char* datarep, fnptr read_fn, fnptr write_fn,
                                  fnptr extent_fn, aint extra_state) {
  const std::size_t len = std::strlen(datarep);
  if (len == 0 || len >= MPI_MAX_DATAREP_STRING)
    return fail(MPI_ERR_ARG, "a data representation's name has 1 to %d characters, not %zu",
                MPI_MAX_DATAREP_STRING - 1, len);
  if (extent_fn == nullptr)
    return fail(MPI_ERR_ARG, "dtype_file_extent_fn is a NULL function: a data representation needs one");
  datarep_entry d;
  d.name = datarep;
  d.lang = lang;
  d.large = large;
  d.read = read_fn;
  d.write = write_fn;
  d.extent = extent_fn;
  d.extra_state = extra_state;
  std::lock_guard lock(g_datareps_mu);
  if (known_datarep(datarep))
    return fail(MPI_ERR_DUP_DATAREP, "\"%s\" is a predefined data representation (MPI-4.1 section 15.5)", datarep);
  for (const datarep_entry& e : datareps())
    if (e.name == d.name)
      return fail(MPI_ERR_DUP_DATAREP, "a data representation named \"%s\" is already registered", datarep);
  datareps().push_back(std::move(d));  // (out of memory: nothing registered, D65)
  return status::ok();
}

status register_datarep(language lang, const char* datarep, fnptr read_conversion_fn, fnptr write_conversion_fn,
                        fnptr dtype_file_extent_fn, aint extra_state) {
  return register_datarep_as(lang, false, datarep, read_conversion_fn, write_conversion_fn, dtype_file_extent_fn,
                             extra_state);
}

status register_datarep_c(language lang, const char* datarep, fnptr read_conversion_fn, fnptr write_conversion_fn,
                          fnptr dtype_file_extent_fn, aint extra_state) {
  return register_datarep_as(lang, true, datarep, read_conversion_fn, write_conversion_fn, dtype_file_extent_fn,
                             extra_state);
}

}  // namespace api
}  // namespace mpiattr
