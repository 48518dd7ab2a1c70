// The error codes mpiattr returns over a host (docs/decisions.md D87): codes the host made.
//
// Each failure mpiattr raises over a host returns a code the host added to the error class of the
// failure (PMPI_Add_error_code, the host's value of the class), so the host's own MPI_Error_class
// classes it: this library does not define MPI_Error_class (nor its PMPI_, Fortran and mpi_f08
// names), and a program's call of it runs at the host's speed. The host cannot give these codes
// mpiattr's message (MPICH 4.0.2 ignores MPI_Add_error_string for a code of a predefined class,
// D83), so this library's MPI_Error_string answers for them, from the text kept here.
//
// Per class, a ring of kRing codes, each added the first time its slot is used (a program that
// never fails adds none) and reused round-robin after: a code's message is that of the last
// failure that took its slot. Two failures at once take different slots (the ring's counter);
// a slot's text is written and read under the ring's lock. The codes are found again through a
// table of their values, read without a lock (entries are only ever added, under g_add_mu).
// Out of memory (the ring of a class cannot be allocated), a host that refuses the code, more
// than kMaxCodes codes, MPI not initialised or finalized: the code is the bare host class, whose
// message is the host's text for it.
#include <cstring>
#include <mutex>
#include <new>

#include "host_glue.h"

namespace mpiattr::host {

std::atomic<std::uint64_t> g_code_range{kNoCodeRange};
std::atomic<std::uint64_t> g_code_table[kCodeTable]{};

namespace {

constexpr unsigned kRing = 64;  // codes per class
constexpr unsigned kClasses = 128;  // mpiattr's classes are below 128 (errors.cc: kClassBits)
// At most this many codes in all: MPICH 4.0.2 has 8,191 for the whole process (D83), the
// program's own included.
constexpr unsigned kMaxCodes = 1024;
static_assert(kCodeTable >= 2 * kMaxCodes, "the table stays at most half full");

struct class_ring {
  std::atomic<unsigned> next{0};
  std::mutex mu;  // the slots' codes and texts
  int code[kRing] = {};
  char text[kRing][MPI_MAX_ERROR_STRING] = {};
};
std::atomic<class_ring*> g_rings[kClasses] = {};
std::mutex g_add_mu;  // making rings, adding codes, writing the table and the range
unsigned g_added = 0;
int g_lo = 0, g_hi = 0;

// A new code of the host's class host_cls, or 0. Under g_add_mu.
int add_code(int host_cls, MPI_Comm quiet, unsigned cls, unsigned slot) {
  if (g_added >= kMaxCodes) return 0;
  int initialized = 0, finalized = 0;
  PMPI_Initialized(&initialized);
  PMPI_Finalized(&finalized);
  if (!initialized || finalized) return 0;  // (Open MPI aborts the process then, D83)
  // A host that refuses (MPICH's cap) raises on the handler of its errors with no object, which is
  // the program's and may be fatal: below MPI_THREAD_MULTIPLE it is MPI_ERRORS_RETURN for the call.
  MPI_Errhandler old = MPI_ERRHANDLER_NULL;
  const bool swapped = quiet != MPI_COMM_NULL && PMPI_Comm_get_errhandler(quiet, &old) == MPI_SUCCESS &&
                       PMPI_Comm_set_errhandler(quiet, MPI_ERRORS_RETURN) == MPI_SUCCESS;
  int code = 0;
  const int rc = PMPI_Add_error_code(host_cls, &code);
  if (swapped) PMPI_Comm_set_errhandler(quiet, old);
  if (!predefined_handler(old)) PMPI_Errhandler_free(&old);
  if (rc != MPI_SUCCESS || code <= 0) return 0;
  const auto u = static_cast<std::uint32_t>(code);
  for (unsigned i = code_hash(u);; i = (i + 1) & (kCodeTable - 1)) {
    if (g_code_table[i].load(std::memory_order_relaxed) == 0) {
      g_code_table[i].store(std::uint64_t{u} << 32 | cls << 8 | slot, std::memory_order_release);
      break;
    }
  }
  if (g_added++ == 0 || code < g_lo) g_lo = code;
  if (code > g_hi) g_hi = code;
  g_code_range.store(std::uint64_t{static_cast<std::uint32_t>(g_lo)} << 32 |
                         static_cast<std::uint32_t>(g_hi - g_lo),
                     std::memory_order_release);
  return code;
}

}  // namespace

int issue_code(int cls, int host_cls, const char* text, MPI_Comm quiet) noexcept {
  if (cls < 0 || static_cast<unsigned>(cls) >= kClasses) return host_cls;
  class_ring* r = g_rings[cls].load(std::memory_order_acquire);
  if (r == nullptr) {
    std::lock_guard lock(g_add_mu);
    r = g_rings[cls].load(std::memory_order_relaxed);
    if (r == nullptr) {
      r = new (std::nothrow) class_ring;  // (out of memory: the bare class, D61)
      if (r == nullptr) return host_cls;
      g_rings[cls].store(r, std::memory_order_release);
    }
  }
  const unsigned slot = r->next.fetch_add(1, std::memory_order_relaxed) % kRing;
  std::lock_guard lock(r->mu);
  if (r->code[slot] == 0) {
    std::lock_guard add(g_add_mu);
    r->code[slot] = add_code(host_cls, quiet, static_cast<unsigned>(cls), slot);
    if (r->code[slot] == 0) return host_cls;  // (tried again at the slot's next turn)
  }
  std::size_t n = std::strlen(text);
  if (n > MPI_MAX_ERROR_STRING - 1) n = MPI_MAX_ERROR_STRING - 1;
  std::memcpy(r->text[slot], text, n);
  r->text[slot][n] = '\0';
  return r->code[slot];
}

int error_string(int code, char* string, int* resultlen) {
  const std::uint64_t e = issued_entry(code);
  class_ring* r = g_rings[(e >> 8) & 0xff].load(std::memory_order_acquire);
  const unsigned slot = e & 0xff;
  {
    std::lock_guard lock(r->mu);
    const std::size_t n = std::strlen(r->text[slot]);
    std::memcpy(string, r->text[slot], n + 1);
    *resultlen = static_cast<int>(n);
  }
  return MPI_SUCCESS;
}

}  // namespace mpiattr::host
