// mpiattr/runtime_api.h: the operations of the standalone runtime that the generated bindings call
// for the routines that are not caching (environment, communicators, groups, datatypes, windows,
// error handling, requests and collectives on one process). Same conventions as api.h: parameters
// follow the spec's order, IN handles arrive as looked-up objects, OUT and INOUT handles as
// handle_t&.
#pragma once
#include <cstdint>

#include "mpiattr/api.h"
#include "mpiattr/object.h"

namespace mpiattr {
// What the bindings put in an OUT array of handles before the core writes its first entries
// (MPI_Type_get_contents' array_of_datatypes): entries still holding it are left as they were.
inline constexpr handle_t unwritten_handle = 0xffffffffu;
}  // namespace mpiattr

namespace mpiattr::api {

// What a completed receive (or probe) tells: MPI_Status's fields and the bytes received. The
// bindings copy it into the caller's MPI_Status (C) or status array (Fortran), unless ignored.
struct msg_status {
  int source = MPI_ANY_SOURCE;
  int tag = MPI_ANY_TAG;
  int error = 0;
  long long bytes = 0;
  bool cancelled = false;  // MPI_Test_cancelled's flag: the status's sixth integer
  // The empty status (MPI-4.1 §3.7.3) that MPI_Request_get_status and _get_status_any give for a
  // null or inactive request: its error field, MPI_SUCCESS, is written too, as MPICH writes it
  // (a completion call on a null request leaves the field alone, as both hosts do; D116).
  bool empty_inquiry = false;
  // The byte count as the two hidden ints of a status (C's MPI_Status, Fortran's status array).
  int bytes_low() const { return static_cast<int>(static_cast<unsigned long long>(bytes) & 0xffffffffu); }
  int bytes_high() const { return static_cast<int>(static_cast<unsigned long long>(bytes) >> 32); }
  static long long bytes_of(int low, int high) {
    return static_cast<long long>(static_cast<unsigned long long>(static_cast<unsigned>(low)) |
                                  (static_cast<unsigned long long>(static_cast<unsigned>(high)) << 32));
  }
};

// ---- environment ----
status init(int* argc, char*** argv);
status init_thread(int* argc, char*** argv, int required, int& provided);
status initialized(bool& flag);
status finalize();
status finalized(bool& flag);
status query_thread(int& provided);
status is_thread_main(bool& flag);
status comm_get_parent(handle_t& parent);
status win_set_name(win_object& win, const char* name);
status win_get_name(win_object* win, char* name, int& resultlen);  // win null: MPI_WIN_NULL's name
status abort(comm_object& comm, int errorcode);
double wtime();
double wtick();
status get_version(int& version, int& subversion);

// ---- communicators and groups ----
status comm_size(comm_object& comm, int& size);
status comm_rank(comm_object& comm, int& rank);
status comm_compare(comm_object& comm1, comm_object& comm2, int& result);
status comm_test_inter(comm_object& comm, bool& flag);
status comm_group(comm_object& comm, handle_t& group);
status comm_dup(comm_object& comm, handle_t& newcomm);
status comm_dup_with_info(comm_object& comm, handle_t info, handle_t& newcomm);
status comm_idup(comm_object& comm, handle_t& newcomm, handle_t& request);
status comm_idup_with_info(comm_object& comm, handle_t info, handle_t& newcomm, handle_t& request);
status comm_split(comm_object& comm, int color, int key, handle_t& newcomm);
status comm_split_type(comm_object& comm, int split_type, int key, handle_t info, handle_t& newcomm);
status comm_create(comm_object& comm, group_object& group, handle_t& newcomm);
status comm_create_group(comm_object& comm, group_object& group, int tag, handle_t& newcomm);
status comm_free(handle_t& comm);
status comm_disconnect(handle_t& comm);  // one process: nothing pending, so comm_free
status comm_set_name(comm_object& comm, const char* name);
status comm_get_name(comm_object* comm, char* name, int& resultlen);  // comm null: MPI_COMM_NULL's name
status group_size(group_object& group, int& size);
status group_rank(group_object& group, int& rank);
status group_compare(group_object& group1, group_object& group2, int& result);
status group_incl(group_object& group, int n, const int* ranks, handle_t& newgroup);
status group_excl(group_object& group, int n, const int* ranks, handle_t& newgroup);
status group_range_incl(group_object& group, int n, int (*ranges)[3], handle_t& newgroup);
status group_range_excl(group_object& group, int n, int (*ranges)[3], handle_t& newgroup);
status group_union(group_object& group1, group_object& group2, handle_t& newgroup);
status group_intersection(group_object& group1, group_object& group2, handle_t& newgroup);
status group_difference(group_object& group1, group_object& group2, handle_t& newgroup);
status group_translate_ranks(group_object& group1, int n, const int* ranks1, group_object& group2,
                             int* ranks2);
status group_free(handle_t& group);
// A communicator's hints (D45): kept as given, copied by the duplicating routines.
status comm_set_info(comm_object& comm, handle_t info);
status comm_get_info(comm_object& comm, handle_t& info_used);

// ---- datatypes ----
status type_contiguous(int count, type_object& oldtype, handle_t& newtype);
status type_vector(int count, int blocklength, int stride, type_object& oldtype, handle_t& newtype);
status type_dup(type_object& oldtype, handle_t& newtype);
status type_commit(handle_t& datatype);
status type_free(handle_t& datatype);
status type_size(type_object& datatype, int& size);
status type_get_extent(type_object& datatype, aint& lb, aint& extent);
// MPI_Type_extent, MPI_Type_lb, MPI_Type_ub: removed in MPI-3.0, kept (docs/decisions.md D58).
status type_extent(type_object& datatype, aint& extent);
status type_lb(type_object& datatype, aint& displacement);
status type_ub(type_object& datatype, aint& displacement);
// The large-count forms' own entries (spec/large_count.toml, docs/decisions.md D47): the answers
// the int entries cannot give (large_counts.cc).
status type_size_c(type_object& datatype, std::int64_t& size);
status pack_size_c(std::int64_t incount, type_object& datatype, comm_object& comm, std::int64_t& size);
// The large-count forms of the datatype constructors, packing and datatype decoding (D113): values
// their int routines could take build what those build; others build a datatype described with
// large counts (MPI-4.1 §6.1.13), which only MPI_Type_get_envelope_c and _get_contents_c describe.
status type_contiguous_c(std::int64_t count, type_object& oldtype, handle_t& newtype);
status type_vector_c(std::int64_t count, std::int64_t blocklength, std::int64_t stride, type_object& oldtype,
                     handle_t& newtype);
status type_create_hvector_c(std::int64_t count, std::int64_t blocklength, std::int64_t stride,
                             type_object& oldtype, handle_t& newtype);
status type_indexed_c(std::int64_t count, const std::int64_t* blocklengths, const std::int64_t* displacements,
                      type_object& oldtype, handle_t& newtype);
status type_create_hindexed_c(std::int64_t count, const std::int64_t* blocklengths,
                              const std::int64_t* displacements, type_object& oldtype, handle_t& newtype);
status type_create_struct_c(std::int64_t count, const std::int64_t* blocklengths, const std::int64_t* displacements,
                            type_object* const* types, handle_t& newtype);
status type_create_indexed_block_c(std::int64_t count, std::int64_t blocklength, const std::int64_t* displacements,
                                   type_object& oldtype, handle_t& newtype);
status type_create_hindexed_block_c(std::int64_t count, std::int64_t blocklength,
                                    const std::int64_t* displacements, type_object& oldtype, handle_t& newtype);
status type_create_subarray_c(int ndims, const std::int64_t* sizes, const std::int64_t* subsizes,
                              const std::int64_t* starts, int order, type_object& oldtype, handle_t& newtype);
status type_create_darray_c(int size, int rank, int ndims, const std::int64_t* gsizes, const int* distribs,
                            const int* dargs, const int* psizes, int order, type_object& oldtype, handle_t& newtype);
status pack_c(const void* inbuf, std::int64_t incount, type_object& datatype, void* outbuf, std::int64_t outsize,
              std::int64_t& position, comm_object& comm);
status unpack_c(const void* inbuf, std::int64_t insize, std::int64_t& position, void* outbuf, std::int64_t outcount,
                type_object& datatype, comm_object& comm);
status type_get_envelope_c(type_object& datatype, std::int64_t& num_integers, std::int64_t& num_addresses,
                           std::int64_t& num_large_counts, std::int64_t& num_datatypes, int& combiner);
status type_get_contents_c(type_object& datatype, std::int64_t max_integers, std::int64_t max_addresses,
                           std::int64_t max_large_counts, std::int64_t max_datatypes, int* integers,
                           aint* addresses, std::int64_t* large_counts, handle_t* datatypes);
status get_count_c(const msg_status& status, type_object& datatype, std::int64_t& count);

status get_address(const void* location, aint& address);

status type_create_hvector(int count, int blocklength, aint stride, type_object& oldtype, handle_t& newtype);
status type_indexed(int count, const int* blocklengths, const int* displacements, type_object& oldtype,
                    handle_t& newtype);
status type_create_hindexed(int count, const int* blocklengths, const aint* displacements,
                            type_object& oldtype, handle_t& newtype);
status type_create_struct(int count, const int* blocklengths, const aint* displacements,
                          type_object* const* types, handle_t& newtype);
status type_create_resized(type_object& oldtype, aint lb, aint extent, handle_t& newtype);
status type_get_true_extent(type_object& datatype, aint& true_lb, aint& true_extent);
// A buffer of count elements of t at buf (D111, D149): NULL with data to carry (count > 0 elements
// of a t that holds data whose lowest byte is at its origin; MPI_BOTTOM, NULL too, with a datatype
// of absolute addresses passes), or MPI_IN_PLACE with data to carry, is MPI_ERR_BUFFER naming it.
// The bindings test with it each buffer whose count and datatype are scalars (call::buffer_ok),
// the runtime the others (a collective takes its legal MPI_IN_PLACE first).
status check_buffer(const void* buf, std::int64_t count, const type_object& t, const char* name);
status pack(const void* inbuf, int incount, type_object& datatype, void* outbuf, int outsize,
            int& position, comm_object& comm);
status unpack(const void* inbuf, int insize, int& position, void* outbuf, int outcount,
              type_object& datatype, comm_object& comm);
status pack_size(int incount, type_object& datatype, comm_object& comm, int& size);
// external32 (external32.cc, D50): datarep must be "external32".
status pack_external(const char* datarep, const void* inbuf, std::int64_t incount, type_object& datatype,
                     void* outbuf, aint outsize, aint& position);
status unpack_external(const char* datarep, const void* inbuf, aint insize, aint& position, void* outbuf,
                       std::int64_t outcount, type_object& datatype);
status pack_external_size(const char* datarep, std::int64_t incount, type_object& datatype, aint& size);
// MPI_Pcontrol: no profiling library is present, so any level does nothing (MPI-4.1 §15.2.4).
status pcontrol(int level);

// ---- names, envelopes, contents, more constructors, element counts (D43) ----
status type_set_name(type_object& datatype, const char* name);
status type_get_name(type_object* datatype, char* name, int& resultlen);  // null: MPI_DATATYPE_NULL's
status type_get_envelope(type_object& datatype, int& num_integers, int& num_addresses,
                         int& num_datatypes, int& combiner);
// array_of_datatypes: the bindings fill it with unwritten_handle; the core writes num_datatypes.
status type_get_contents(type_object& datatype, int max_integers, int max_addresses, int max_datatypes,
                         int* array_of_integers, aint* array_of_addresses, handle_t* array_of_datatypes);
status type_create_indexed_block(int count, int blocklength, const int* displacements, type_object& oldtype,
                                 handle_t& newtype);
status type_create_hindexed_block(int count, int blocklength, const aint* displacements,
                                  type_object& oldtype, handle_t& newtype);
status type_create_subarray(int ndims, const int* sizes, const int* subsizes, const int* starts, int order,
                            type_object& oldtype, handle_t& newtype);
status type_create_darray(int size, int rank, int ndims, const int* gsizes, const int* distribs,
                          const int* dargs, const int* psizes, int order, type_object& oldtype,
                          handle_t& newtype);
status get_elements(const msg_status& status, type_object& datatype, int& count);
status get_elements_x(const msg_status& status, type_object& datatype, std::int64_t& count);
status status_set_elements(msg_status& status, type_object& datatype, int count);
status status_set_elements_x(msg_status& status, type_object& datatype, std::int64_t count);
status type_size_x(type_object& datatype, std::int64_t& size);
status type_get_extent_x(type_object& datatype, std::int64_t& lb, std::int64_t& extent);
status type_get_true_extent_x(type_object& datatype, std::int64_t& true_lb, std::int64_t& true_extent);
status type_match_size(int typeclass, int size, handle_t& datatype);
status type_create_f90_integer(int r, handle_t& newtype);
status type_create_f90_real(int p, int r, handle_t& newtype);
status type_create_f90_complex(int p, int r, handle_t& newtype);
status get_processor_name(char* name, int& resultlen);

// ---- windows and memory ----
status win_create(void* base, aint size, int disp_unit, handle_t info, comm_object& comm,
                  handle_t& win);
status win_allocate(aint size, int disp_unit, handle_t info, comm_object& comm, void* baseptr,
                    handle_t& win);
status win_create_dynamic(handle_t info, comm_object& comm, handle_t& win);
status win_free(handle_t& win);
status win_allocate_shared(aint size, int disp_unit, handle_t info, comm_object& comm, void* baseptr,
                           handle_t& win);
status win_get_group(win_object& win, handle_t& group);
status win_shared_query(win_object& win, int rank, aint& size, int& disp_unit, void* baseptr);
status win_attach(win_object& win, void* base, aint size);
status win_detach(win_object& win, const void* base);
status win_get_info(win_object& win, handle_t& info_used);
status win_set_info(win_object& win, handle_t info);

// ---- one-sided communication on one process (rma.cc, D46) ----
status win_fence(int assert, win_object& win);
status win_lock(int lock_type, int rank, int assert, win_object& win);
status win_unlock(int rank, win_object& win);
status win_lock_all(int assert, win_object& win);
status win_unlock_all(win_object& win);
status win_post(group_object& group, int assert, win_object& win);
status win_start(group_object& group, int assert, win_object& win);
status win_complete(win_object& win);
status win_wait(win_object& win);
status win_test(win_object& win, bool& flag);
status win_flush(int rank, win_object& win);
status win_flush_all(win_object& win);
status win_flush_local(int rank, win_object& win);
status win_flush_local_all(win_object& win);
status win_sync(win_object& win);
status put(const void* origin_addr, std::int64_t origin_count, type_object& origin_datatype, int target_rank,
           aint target_disp, std::int64_t target_count, type_object& target_datatype, win_object& win);
status get(void* origin_addr, std::int64_t origin_count, type_object& origin_datatype, int target_rank,
           aint target_disp, std::int64_t target_count, type_object& target_datatype, win_object& win);
status accumulate(const void* origin_addr, std::int64_t origin_count, type_object& origin_datatype, int target_rank,
                  aint target_disp, std::int64_t target_count, type_object& target_datatype, handle_t op,
                  win_object& win);
status get_accumulate(const void* origin_addr, std::int64_t origin_count, type_object& origin_datatype,
                      void* result_addr, std::int64_t result_count, type_object& result_datatype, int target_rank,
                      aint target_disp, std::int64_t target_count, type_object& target_datatype, handle_t op,
                      win_object& win);
status fetch_and_op(const void* origin_addr, void* result_addr, type_object& datatype, int target_rank,
                    aint target_disp, handle_t op, win_object& win);
status compare_and_swap(const void* origin_addr, const void* compare_addr, void* result_addr,
                        type_object& datatype, int target_rank, aint target_disp, win_object& win);
status rput(const void* origin_addr, std::int64_t origin_count, type_object& origin_datatype, int target_rank,
            aint target_disp, std::int64_t target_count, type_object& target_datatype, win_object& win,
            handle_t& request);
status rget(void* origin_addr, std::int64_t origin_count, type_object& origin_datatype, int target_rank,
            aint target_disp, std::int64_t target_count, type_object& target_datatype, win_object& win,
            handle_t& request);
status raccumulate(const void* origin_addr, std::int64_t origin_count, type_object& origin_datatype, int target_rank,
                   aint target_disp, std::int64_t target_count, type_object& target_datatype, handle_t op,
                   win_object& win, handle_t& request);
status rget_accumulate(const void* origin_addr, std::int64_t origin_count, type_object& origin_datatype,
                       void* result_addr, std::int64_t result_count, type_object& result_datatype, int target_rank,
                       aint target_disp, std::int64_t target_count, type_object& target_datatype, handle_t op,
                       win_object& win, handle_t& request);
status alloc_mem(aint size, handle_t info, void* baseptr);
status free_mem(void* base);

// ---- info objects (MPI-4.1 §11); IN infos arrive as handles, MPI_INFO_NULL refused ----
status info_create(handle_t& info);
status info_set(handle_t info, const char* key, const char* value);
status info_delete(handle_t info, const char* key);
status info_get(handle_t info, const char* key, int valuelen, char* value, bool& flag);
status info_get_valuelen(handle_t info, const char* key, int& valuelen, bool& flag);
status info_get_string(handle_t info, const char* key, int& buflen, char* value, bool& flag);
status info_get_nkeys(handle_t info, int& nkeys);
status info_get_nthkey(handle_t info, int n, char* key);
status info_dup(handle_t info, handle_t& newinfo);
status info_free(handle_t& info);
status info_create_env(int argc, char** argv, handle_t& info);  // argv may be null (Fortran)

// ---- error handling ----
status add_error_class(int& errorclass);
status add_error_code(int errorclass, int& errorcode);
status add_error_string(int errorcode, const char* string);
status get_library_version(char* version, int& resultlen);
status comm_create_errhandler(language lang, fnptr fn, handle_t& errhandler);
status win_create_errhandler(language lang, fnptr fn, handle_t& errhandler);
status comm_set_errhandler(comm_object& comm, errhandler_object& errhandler);
status comm_get_errhandler(comm_object& comm, handle_t& errhandler);
status win_set_errhandler(win_object& win, errhandler_object& errhandler);
status win_get_errhandler(win_object& win, handle_t& errhandler);
status errhandler_free(handle_t& errhandler);
status comm_call_errhandler(comm_object& comm, int errorcode);
status win_call_errhandler(win_object& win, int errorcode);
// Files: an open file's handler, or MPI_FILE_NULL's, which routines without a file use and which a
// file gets when it is opened (MPI-4.1 §15.7).
status file_create_errhandler(language lang, fnptr fn, handle_t& errhandler);
status file_set_errhandler(handle_t file, errhandler_object& errhandler);
status file_get_errhandler(handle_t file, handle_t& errhandler);
status file_call_errhandler(handle_t file, int errorcode);

// ---- I/O on one process (MPI-4.1 §15, files.cc, docs/decisions.md D107). File handles arrive as
// handle_t and are checked here (MPI_ERR_FILE); offsets are MPI_Offset's 64 bits. ----
status file_open(comm_object& comm, const char* filename, int amode, handle_t info, handle_t& fh);
status file_close(handle_t& fh);
status file_delete(const char* filename, handle_t info);
status file_set_size(handle_t fh, std::int64_t size);
status file_preallocate(handle_t fh, std::int64_t size);
status file_get_size(handle_t fh, std::int64_t& size);
status file_get_group(handle_t fh, handle_t& group);
status file_get_amode(handle_t fh, int& amode);
status file_set_info(handle_t fh, handle_t info);
status file_get_info(handle_t fh, handle_t& info_used);
status file_set_view(handle_t fh, std::int64_t disp, type_object& etype, type_object& filetype, const char* datarep,
                     handle_t info);
status file_get_view(handle_t fh, std::int64_t& disp, handle_t& etype, handle_t& filetype, char* datarep);
status file_get_type_extent(handle_t fh, type_object& datatype, aint& extent);
// MPI_Register_datarep and its large-count form, whose conversion functions take an MPI_Count (D118).
status register_datarep(language lang, const char* datarep, fnptr read_conversion_fn, fnptr write_conversion_fn,
                        fnptr dtype_file_extent_fn, aint extra_state);
status register_datarep_c(language lang, const char* datarep, fnptr read_conversion_fn, fnptr write_conversion_fn,
                          fnptr dtype_file_extent_fn, aint extra_state);
status file_set_atomicity(handle_t fh, bool flag);
status file_get_atomicity(handle_t fh, bool& flag);
status file_sync(handle_t fh);
status file_seek(handle_t fh, std::int64_t offset, int whence);
status file_seek_shared(handle_t fh, std::int64_t offset, int whence);
status file_get_position(handle_t fh, std::int64_t& offset);
status file_get_position_shared(handle_t fh, std::int64_t& offset);
status file_get_byte_offset(handle_t fh, std::int64_t offset, std::int64_t& disp);
status file_read_at(handle_t fh, std::int64_t offset, void* buf, std::int64_t count, type_object& datatype, msg_status& st);
status file_read_at_all(handle_t fh, std::int64_t offset, void* buf, std::int64_t count, type_object& datatype,
                        msg_status& st);
status file_write_at(handle_t fh, std::int64_t offset, const void* buf, std::int64_t count, type_object& datatype,
                     msg_status& st);
status file_write_at_all(handle_t fh, std::int64_t offset, const void* buf, std::int64_t count, type_object& datatype,
                         msg_status& st);
status file_iread_at(handle_t fh, std::int64_t offset, void* buf, std::int64_t count, type_object& datatype,
                     handle_t& request);
status file_iread_at_all(handle_t fh, std::int64_t offset, void* buf, std::int64_t count, type_object& datatype,
                         handle_t& request);
status file_iwrite_at(handle_t fh, std::int64_t offset, const void* buf, std::int64_t count, type_object& datatype,
                      handle_t& request);
status file_iwrite_at_all(handle_t fh, std::int64_t offset, const void* buf, std::int64_t count, type_object& datatype,
                          handle_t& request);
status file_read(handle_t fh, void* buf, std::int64_t count, type_object& datatype, msg_status& st);
status file_read_all(handle_t fh, void* buf, std::int64_t count, type_object& datatype, msg_status& st);
status file_write(handle_t fh, const void* buf, std::int64_t count, type_object& datatype, msg_status& st);
status file_write_all(handle_t fh, const void* buf, std::int64_t count, type_object& datatype, msg_status& st);
status file_iread(handle_t fh, void* buf, std::int64_t count, type_object& datatype, handle_t& request);
status file_iread_all(handle_t fh, void* buf, std::int64_t count, type_object& datatype, handle_t& request);
status file_iwrite(handle_t fh, const void* buf, std::int64_t count, type_object& datatype, handle_t& request);
status file_iwrite_all(handle_t fh, const void* buf, std::int64_t count, type_object& datatype, handle_t& request);
status file_read_shared(handle_t fh, void* buf, std::int64_t count, type_object& datatype, msg_status& st);
status file_write_shared(handle_t fh, const void* buf, std::int64_t count, type_object& datatype, msg_status& st);
status file_iread_shared(handle_t fh, void* buf, std::int64_t count, type_object& datatype, handle_t& request);
status file_iwrite_shared(handle_t fh, const void* buf, std::int64_t count, type_object& datatype, handle_t& request);
status file_read_ordered(handle_t fh, void* buf, std::int64_t count, type_object& datatype, msg_status& st);
status file_write_ordered(handle_t fh, const void* buf, std::int64_t count, type_object& datatype, msg_status& st);
status file_read_at_all_begin(handle_t fh, std::int64_t offset, void* buf, std::int64_t count, type_object& datatype);
status file_read_at_all_end(handle_t fh, void* buf, msg_status& st);
status file_write_at_all_begin(handle_t fh, std::int64_t offset, const void* buf, std::int64_t count, type_object& datatype);
status file_write_at_all_end(handle_t fh, const void* buf, msg_status& st);
status file_read_all_begin(handle_t fh, void* buf, std::int64_t count, type_object& datatype);
status file_read_all_end(handle_t fh, void* buf, msg_status& st);
status file_write_all_begin(handle_t fh, const void* buf, std::int64_t count, type_object& datatype);
status file_write_all_end(handle_t fh, const void* buf, msg_status& st);
status file_read_ordered_begin(handle_t fh, void* buf, std::int64_t count, type_object& datatype);
status file_read_ordered_end(handle_t fh, void* buf, msg_status& st);
status file_write_ordered_begin(handle_t fh, const void* buf, std::int64_t count, type_object& datatype);
status file_write_ordered_end(handle_t fh, const void* buf, msg_status& st);
// Sessions (MPI-4.1 §11.3, D49): handles outside the object tables, checked here (MPI_ERR_SESSION).
status session_create_errhandler(language lang, fnptr fn, handle_t& errhandler);
status session_set_errhandler(handle_t session, errhandler_object& errhandler);
status session_get_errhandler(handle_t session, handle_t& errhandler);
status session_call_errhandler(handle_t session, int errorcode);
status session_init(handle_t info, errhandler_object& errhandler, handle_t& session);
status session_finalize(handle_t& session);
status session_get_num_psets(handle_t session, handle_t info, int& npset_names);
status session_get_nth_pset(handle_t session, handle_t info, int n, int& pset_len, char* pset_name);
status session_get_info(handle_t session, handle_t& info_used);
status session_get_pset_info(handle_t session, const char* pset_name, handle_t& info);
status group_from_session_pset(handle_t session, const char* pset_name, handle_t& newgroup);
status comm_create_from_group(group_object& group, const char* stringtag, handle_t info, errhandler_object& errhandler,
                              handle_t& newcomm);
status error_class(int errorcode, int& errorclass);
status error_string(int errorcode, char* string, int& resultlen);

// ---- requests and collectives on one process ----
status wait(handle_t& request, msg_status& status);
status test(handle_t& request, bool& flag, msg_status& status);
status waitall(int count, handle_t* requests, msg_status* statuses);
status waitany(int count, handle_t* requests, int& index, msg_status& status);
status testall(int count, handle_t* requests, bool& flag, msg_status* statuses);

// ---- point-to-point on one process: messages to self (MPI-4.1 §4) ----
status send(const void* buf, std::int64_t count, type_object& datatype, int dest, int tag, comm_object& comm);
status recv(void* buf, std::int64_t count, type_object& datatype, int source, int tag, comm_object& comm,
            msg_status& status);
status isend(const void* buf, std::int64_t count, type_object& datatype, int dest, int tag, comm_object& comm,
             handle_t& request);
status irecv(void* buf, std::int64_t count, type_object& datatype, int source, int tag, comm_object& comm,
             handle_t& request);
status sendrecv(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, int dest, int sendtag,
                void* recvbuf, std::int64_t recvcount, type_object& recvtype, int source, int recvtag,
                comm_object& comm, msg_status& status);
status probe(int source, int tag, comm_object& comm, msg_status& status);
status iprobe(int source, int tag, comm_object& comm, bool& flag, msg_status& status);
status get_count(const msg_status& status, type_object& datatype, int& count);
status ssend(const void* buf, std::int64_t count, type_object& datatype, int dest, int tag, comm_object& comm);
status rsend(const void* buf, std::int64_t count, type_object& datatype, int dest, int tag, comm_object& comm);
status issend(const void* buf, std::int64_t count, type_object& datatype, int dest, int tag, comm_object& comm,
              handle_t& request);
status irsend(const void* buf, std::int64_t count, type_object& datatype, int dest, int tag, comm_object& comm,
              handle_t& request);
status sendrecv_replace(void* buf, std::int64_t count, type_object& datatype, int dest, int sendtag, int source,
                        int recvtag, comm_object& comm, msg_status& status);
status testany(int count, handle_t* requests, int& index, bool& flag, msg_status& status);

// ---- the other collectives and user operations on one process (MPI-4.1 §7) ----

// An IN array of handles whose length the core knows and the binding does not (MPI_Alltoallw's
// datatypes: one per process of the group; the neighbourhood collectives': one per edge). The
// binding passes the array and how to read one entry in its language; the core reads only the
// entries the call uses (none of sendtypes with MPI_IN_PLACE).
struct handle_array {
  const void* base = nullptr;
  handle_t (*read)(const void* base, int i) = nullptr;
  handle_t operator[](int i) const { return read(base, i); }
};

status op_create(language lang, fnptr user_fn, bool commute, handle_t& op);
// MPI_Op_create_c: user_fn is an MPI_User_function_c, whose length is an MPI_Count (D52).
status op_create_c(language lang, fnptr user_fn, bool commute, handle_t& op);
status op_commutative(handle_t op, bool& commute);
status reduce_local(const void* inbuf, void* inoutbuf, std::int64_t count, type_object& datatype, handle_t op);
// The v- and w-collectives take their counts as int (the routines) or MPI_Count (the large-count
// forms), their displacements as int or MPI_Aint (MPI_Aint in both for the neighbourhood w form):
// instantiated for both in collectives.cc (D115).
template <typename C, typename D>
status alltoallw(const void* sendbuf, const C* sendcounts, const D* sdispls, handle_array sendtypes,
                 void* recvbuf, const C* recvcounts, const D* rdispls, handle_array recvtypes,
                 comm_object& comm);
// The blocking neighbourhood collectives on the topologies of topologies.cc (MPI-4.1 §9.6).
status neighbor_allgather(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                          std::int64_t recvcount, type_object& recvtype, comm_object& comm);
template <typename C, typename D>
status neighbor_allgatherv(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                           const C* recvcounts, const D* displs, type_object& recvtype,
                           comm_object& comm);
status neighbor_alltoall(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                         std::int64_t recvcount, type_object& recvtype, comm_object& comm);
template <typename C, typename D>
status neighbor_alltoallv(const void* sendbuf, const C* sendcounts, const D* sdispls,
                          type_object& sendtype, void* recvbuf, const C* recvcounts,
                          const D* rdispls, type_object& recvtype, comm_object& comm);
template <typename C>
status neighbor_alltoallw(const void* sendbuf, const C* sendcounts, const aint* sdispls,
                          handle_array sendtypes, void* recvbuf, const C* recvcounts,
                          const aint* rdispls, handle_array recvtypes, comm_object& comm);
status op_free(handle_t& op);
status gather(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf, std::int64_t recvcount,
              type_object& recvtype, int root, comm_object& comm);
template <typename C, typename D>
status gatherv(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
               const C* recvcounts, const D* displs, type_object& recvtype, int root, comm_object& comm);
status scatter(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf, std::int64_t recvcount,
               type_object& recvtype, int root, comm_object& comm);
template <typename C, typename D>
status scatterv(const void* sendbuf, const C* sendcounts, const D* displs, type_object& sendtype,
                void* recvbuf, std::int64_t recvcount, type_object& recvtype, int root, comm_object& comm);
status allgather(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf, std::int64_t recvcount,
                 type_object& recvtype, comm_object& comm);
template <typename C, typename D>
status allgatherv(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                  const C* recvcounts, const D* displs, type_object& recvtype, comm_object& comm);
status alltoall(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf, std::int64_t recvcount,
                type_object& recvtype, comm_object& comm);
template <typename C, typename D>
status alltoallv(const void* sendbuf, const C* sendcounts, const D* sdispls, type_object& sendtype,
                 void* recvbuf, const C* recvcounts, const D* rdispls, type_object& recvtype,
                 comm_object& comm);
status scan(const void* sendbuf, void* recvbuf, std::int64_t count, type_object& datatype, handle_t op, comm_object& comm);
status exscan(const void* sendbuf, void* recvbuf, std::int64_t count, type_object& datatype, handle_t op, comm_object& comm);
template <typename C>
status reduce_scatter(const void* sendbuf, void* recvbuf, const C* recvcounts, type_object& datatype,
                      handle_t op, comm_object& comm);
status reduce_scatter_block(const void* sendbuf, void* recvbuf, std::int64_t recvcount, type_object& datatype,
                            handle_t op, comm_object& comm);
status request_free(handle_t& request);
status barrier(comm_object& comm);
status bcast(void* buffer, std::int64_t count, type_object& datatype, int root, comm_object& comm);
status reduce(const void* sendbuf, void* recvbuf, std::int64_t count, type_object& datatype, handle_t op,
              int root, comm_object& comm);
status allreduce(const void* sendbuf, void* recvbuf, std::int64_t count, type_object& datatype, handle_t op,
                 comm_object& comm);

// ---- process topologies (topologies.cc); LOGICAL arrays arrive as C ints, 0 false ----
// ---- the MPI-4.1 routines apis.json lacks (spec/mpi41_additions.toml, D55) ----
status buffer_flush();
status buffer_iflush(handle_t& request);
status comm_attach_buffer(comm_object& comm, void* buffer, std::int64_t size);
status comm_detach_buffer(comm_object& comm, void*& buffer_addr, int& size);
status comm_detach_buffer_c(comm_object& comm, void*& buffer_addr, std::int64_t& size);
status comm_flush_buffer(comm_object& comm);
status comm_iflush_buffer(comm_object& comm, handle_t& request);
status session_attach_buffer(handle_t session, void* buffer, std::int64_t size);
status session_detach_buffer(handle_t session, void*& buffer_addr, int& size);
status session_detach_buffer_c(handle_t session, void*& buffer_addr, std::int64_t& size);
status session_flush_buffer(handle_t session);
status session_iflush_buffer(handle_t session, handle_t& request);
status request_get_status_all(int count, const handle_t* requests, bool& flag, msg_status* statuses);
status request_get_status_any(int count, const handle_t* requests, int& indx, bool& flag, msg_status& status);
status request_get_status_some(int incount, const handle_t* requests, int& outcount, int* indices,
                               msg_status* statuses);
status status_get_source(const msg_status& status, int& source);
status status_get_tag(const msg_status& status, int& tag);
status status_get_error(const msg_status& status, int& error);
status status_set_source(msg_status& status, int source);
status status_set_tag(msg_status& status, int tag);
status status_set_error(msg_status& status, int error);
status type_get_value_index(type_object& value_type, type_object& index_type, handle_t& pair_type);
status remove_error_class(int errorclass);
status remove_error_code(int errorcode);
status remove_error_string(int errorcode);
status get_hw_resource_info(handle_t& hw_info);

}  // namespace mpiattr::api
namespace mpiattr {
// The standalone lifecycle's hooks: a dup's copy keeps the topology, a released one drops it.
void topology_copy(const comm_object& from, comm_object& to);
void topology_drop(const comm_object& comm);
// The process's neighbours in comm's topology, in the order of MPI-4.1 §9.6: per dimension of a
// grid the negative then the positive direction (MPI_PROC_NULL off a non-periodic edge), a
// graph's edges, a distributed graph's sources and destinations. MPI_ERR_TOPOLOGY without one.
status topology_neighbors(comm_object& comm, std::vector<int>& sources, std::vector<int>& destinations);
}  // namespace mpiattr
namespace mpiattr::api {
status topo_test(comm_object& comm, int& result);
status dims_create(int nnodes, int ndims, int* dims);
status cart_create(comm_object& comm, int ndims, const int* dims, const int* periods, bool reorder,
                   handle_t& newcomm);
status cartdim_get(comm_object& comm, int& ndims);
status cart_get(comm_object& comm, int maxdims, int* dims, int* periods, int* coords);
status cart_rank(comm_object& comm, const int* coords, int& rank);
status cart_coords(comm_object& comm, int rank, int maxdims, int* coords);
status cart_shift(comm_object& comm, int direction, int disp, int& source, int& dest);
status cart_sub(comm_object& comm, const int* remain_dims, handle_t& newcomm);
status cart_map(comm_object& comm, int ndims, const int* dims, const int* periods, int& newrank);
status graph_create(comm_object& comm, int nnodes, const int* index, const int* edges, bool reorder,
                    handle_t& newcomm);
status graphdims_get(comm_object& comm, int& nnodes, int& nedges);
status graph_get(comm_object& comm, int maxindex, int maxedges, int* index, int* edges);
status graph_neighbors_count(comm_object& comm, int rank, int& nneighbors);
status graph_neighbors(comm_object& comm, int rank, int maxneighbors, int* neighbors);
status graph_map(comm_object& comm, int nnodes, const int* index, const int* edges, int& newrank);
status dist_graph_create_adjacent(comm_object& comm, int indegree, const int* sources,
                                  const int* sourceweights, int outdegree, const int* destinations,
                                  const int* destweights, handle_t info, bool reorder, handle_t& newcomm);
status dist_graph_create(comm_object& comm, int n, const int* sources, const int* degrees,
                         const int* destinations, const int* weights, handle_t info, bool reorder,
                         handle_t& newcomm);
status dist_graph_neighbors_count(comm_object& comm, int& indegree, int& outdegree, bool& weighted);
status dist_graph_neighbors(comm_object& comm, int maxindegree, int* sources, int* sourceweights,
                            int maxoutdegree, int* destinations, int* destweights);

// ---- requests (requests.cc, point_to_point.cc; D44) ----
status bsend(const void* buf, std::int64_t count, type_object& datatype, int dest, int tag, comm_object& comm);
status ibsend(const void* buf, std::int64_t count, type_object& datatype, int dest, int tag, comm_object& comm,
              handle_t& request);
status buffer_attach(void* buffer, std::int64_t size);
status buffer_detach(void*& buffer_addr, int& size);
// The int forms' detach fails (MPI_ERR_VALUE_TOO_LARGE) for a size beyond int; the _c ones give it (D115).
status buffer_detach_c(void*& buffer_addr, std::int64_t& size);
status send_init(const void* buf, std::int64_t count, type_object& datatype, int dest, int tag, comm_object& comm,
                 handle_t& request);
status bsend_init(const void* buf, std::int64_t count, type_object& datatype, int dest, int tag, comm_object& comm,
                  handle_t& request);
status ssend_init(const void* buf, std::int64_t count, type_object& datatype, int dest, int tag, comm_object& comm,
                  handle_t& request);
status rsend_init(const void* buf, std::int64_t count, type_object& datatype, int dest, int tag, comm_object& comm,
                  handle_t& request);
status recv_init(void* buf, std::int64_t count, type_object& datatype, int source, int tag, comm_object& comm,
                 handle_t& request);
status start(handle_t& request);
status startall(int count, handle_t* requests);
status cancel(handle_t request);
status test_cancelled(const msg_status& status, bool& flag);
status status_set_cancelled(msg_status& status, bool flag);
status waitsome(int incount, handle_t* requests, int& outcount, int* indices, msg_status* statuses);
status testsome(int incount, handle_t* requests, int& outcount, int* indices, msg_status* statuses);
status request_get_status(handle_t request, bool& flag, msg_status& status);
status grequest_start(language lang, fnptr query_fn, fnptr free_fn, fnptr cancel_fn, aint extra_state,
                      handle_t& request);
status grequest_complete(handle_t request);
status isendrecv(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, int dest, int sendtag,
                 void* recvbuf, std::int64_t recvcount, type_object& recvtype, int source, int recvtag,
                 comm_object& comm, handle_t& request);
status isendrecv_replace(void* buf, std::int64_t count, type_object& datatype, int dest, int sendtag, int source,
                         int recvtag, comm_object& comm, handle_t& request);
status mprobe(int source, int tag, comm_object& comm, handle_t& message, msg_status& status);
status improbe(int source, int tag, comm_object& comm, bool& flag, handle_t& message, msg_status& status);
status mrecv(void* buf, std::int64_t count, type_object& datatype, handle_t& message, msg_status& status);
status imrecv(void* buf, std::int64_t count, type_object& datatype, handle_t& message, handle_t& request);
status psend_init(const void* buf, int partitions, std::int64_t count, type_object& datatype, int dest, int tag,
                  comm_object& comm, handle_t info, handle_t& request);
status precv_init(void* buf, int partitions, std::int64_t count, type_object& datatype, int source, int tag,
                  comm_object& comm, handle_t info, handle_t& request);
status pready(int partition, handle_t request);
status pready_range(int partition_low, int partition_high, handle_t request);
status pready_list(int length, const int* partitions, handle_t request);
status parrived(handle_t request, int partition, bool& flag);

// ---- nonblocking and persistent collectives (collectives.cc; D44) ----
status ibarrier(comm_object& comm, handle_t& request);
status ibcast(void* buffer, std::int64_t count, type_object& datatype, int root, comm_object& comm, handle_t& request);
status ireduce(const void* sendbuf, void* recvbuf, std::int64_t count, type_object& datatype, handle_t op, int root,
               comm_object& comm, handle_t& request);
status iallreduce(const void* sendbuf, void* recvbuf, std::int64_t count, type_object& datatype, handle_t op,
                  comm_object& comm, handle_t& request);
status igather(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf, std::int64_t recvcount,
               type_object& recvtype, int root, comm_object& comm, handle_t& request);
template <typename C, typename D>
status igatherv(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                const C* recvcounts, const D* displs, type_object& recvtype, int root,
                comm_object& comm, handle_t& request);
status iscatter(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf, std::int64_t recvcount,
                type_object& recvtype, int root, comm_object& comm, handle_t& request);
template <typename C, typename D>
status iscatterv(const void* sendbuf, const C* sendcounts, const D* displs, type_object& sendtype,
                 void* recvbuf, std::int64_t recvcount, type_object& recvtype, int root, comm_object& comm,
                 handle_t& request);
status iallgather(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf, std::int64_t recvcount,
                  type_object& recvtype, comm_object& comm, handle_t& request);
template <typename C, typename D>
status iallgatherv(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                   const C* recvcounts, const D* displs, type_object& recvtype, comm_object& comm,
                   handle_t& request);
status ialltoall(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf, std::int64_t recvcount,
                 type_object& recvtype, comm_object& comm, handle_t& request);
template <typename C, typename D>
status ialltoallv(const void* sendbuf, const C* sendcounts, const D* sdispls, type_object& sendtype,
                  void* recvbuf, const C* recvcounts, const D* rdispls, type_object& recvtype,
                  comm_object& comm, handle_t& request);
template <typename C, typename D>
status ialltoallw(const void* sendbuf, const C* sendcounts, const D* sdispls, handle_array sendtypes,
                  void* recvbuf, const C* recvcounts, const D* rdispls, handle_array recvtypes,
                  comm_object& comm, handle_t& request);
status ineighbor_allgather(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                           std::int64_t recvcount, type_object& recvtype, comm_object& comm, handle_t& request);
template <typename C, typename D>
status ineighbor_allgatherv(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                            const C* recvcounts, const D* displs, type_object& recvtype,
                            comm_object& comm, handle_t& request);
status ineighbor_alltoall(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                          std::int64_t recvcount, type_object& recvtype, comm_object& comm, handle_t& request);
template <typename C, typename D>
status ineighbor_alltoallv(const void* sendbuf, const C* sendcounts, const D* sdispls,
                           type_object& sendtype, void* recvbuf, const C* recvcounts, const D* rdispls,
                           type_object& recvtype, comm_object& comm, handle_t& request);
template <typename C>
status ineighbor_alltoallw(const void* sendbuf, const C* sendcounts, const aint* sdispls,
                           handle_array sendtypes, void* recvbuf, const C* recvcounts, const aint* rdispls,
                           handle_array recvtypes, comm_object& comm, handle_t& request);
status iscan(const void* sendbuf, void* recvbuf, std::int64_t count, type_object& datatype, handle_t op,
             comm_object& comm, handle_t& request);
status iexscan(const void* sendbuf, void* recvbuf, std::int64_t count, type_object& datatype, handle_t op,
               comm_object& comm, handle_t& request);
template <typename C>
status ireduce_scatter(const void* sendbuf, void* recvbuf, const C* recvcounts, type_object& datatype,
                       handle_t op, comm_object& comm, handle_t& request);
status ireduce_scatter_block(const void* sendbuf, void* recvbuf, std::int64_t recvcount, type_object& datatype,
                             handle_t op, comm_object& comm, handle_t& request);
status barrier_init(comm_object& comm, handle_t info, handle_t& request);
status bcast_init(void* buffer, std::int64_t count, type_object& datatype, int root, comm_object& comm, handle_t info,
                  handle_t& request);
status reduce_init(const void* sendbuf, void* recvbuf, std::int64_t count, type_object& datatype, handle_t op, int root,
                   comm_object& comm, handle_t info, handle_t& request);
status allreduce_init(const void* sendbuf, void* recvbuf, std::int64_t count, type_object& datatype, handle_t op,
                      comm_object& comm, handle_t info, handle_t& request);
status gather_init(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf, std::int64_t recvcount,
                   type_object& recvtype, int root, comm_object& comm, handle_t info, handle_t& request);
template <typename C, typename D>
status gatherv_init(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                    const C* recvcounts, const D* displs, type_object& recvtype, int root,
                    comm_object& comm, handle_t info, handle_t& request);
status scatter_init(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf, std::int64_t recvcount,
                    type_object& recvtype, int root, comm_object& comm, handle_t info, handle_t& request);
template <typename C, typename D>
status scatterv_init(const void* sendbuf, const C* sendcounts, const D* displs, type_object& sendtype,
                     void* recvbuf, std::int64_t recvcount, type_object& recvtype, int root, comm_object& comm,
                     handle_t info, handle_t& request);
status allgather_init(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf, std::int64_t recvcount,
                      type_object& recvtype, comm_object& comm, handle_t info, handle_t& request);
template <typename C, typename D>
status allgatherv_init(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                       const C* recvcounts, const D* displs, type_object& recvtype, comm_object& comm,
                       handle_t info, handle_t& request);
status alltoall_init(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf, std::int64_t recvcount,
                     type_object& recvtype, comm_object& comm, handle_t info, handle_t& request);
template <typename C, typename D>
status alltoallv_init(const void* sendbuf, const C* sendcounts, const D* sdispls, type_object& sendtype,
                      void* recvbuf, const C* recvcounts, const D* rdispls, type_object& recvtype,
                      comm_object& comm, handle_t info, handle_t& request);
template <typename C, typename D>
status alltoallw_init(const void* sendbuf, const C* sendcounts, const D* sdispls, handle_array sendtypes,
                      void* recvbuf, const C* recvcounts, const D* rdispls, handle_array recvtypes,
                      comm_object& comm, handle_t info, handle_t& request);
status neighbor_allgather_init(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                               std::int64_t recvcount, type_object& recvtype, comm_object& comm, handle_t info,
                               handle_t& request);
template <typename C, typename D>
status neighbor_allgatherv_init(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                                const C* recvcounts, const D* displs, type_object& recvtype,
                                comm_object& comm, handle_t info, handle_t& request);
status neighbor_alltoall_init(const void* sendbuf, std::int64_t sendcount, type_object& sendtype, void* recvbuf,
                              std::int64_t recvcount, type_object& recvtype, comm_object& comm, handle_t info,
                              handle_t& request);
template <typename C, typename D>
status neighbor_alltoallv_init(const void* sendbuf, const C* sendcounts, const D* sdispls,
                               type_object& sendtype, void* recvbuf, const C* recvcounts,
                               const D* rdispls, type_object& recvtype, comm_object& comm, handle_t info,
                               handle_t& request);
template <typename C>
status neighbor_alltoallw_init(const void* sendbuf, const C* sendcounts, const aint* sdispls,
                               handle_array sendtypes, void* recvbuf, const C* recvcounts,
                               const aint* rdispls, handle_array recvtypes, comm_object& comm, handle_t info,
                               handle_t& request);
status scan_init(const void* sendbuf, void* recvbuf, std::int64_t count, type_object& datatype, handle_t op,
                 comm_object& comm, handle_t info, handle_t& request);
status exscan_init(const void* sendbuf, void* recvbuf, std::int64_t count, type_object& datatype, handle_t op,
                   comm_object& comm, handle_t info, handle_t& request);
template <typename C>
status reduce_scatter_init(const void* sendbuf, void* recvbuf, const C* recvcounts, type_object& datatype,
                           handle_t op, comm_object& comm, handle_t info, handle_t& request);
status reduce_scatter_block_init(const void* sendbuf, void* recvbuf, std::int64_t recvcount, type_object& datatype,
                                 handle_t op, comm_object& comm, handle_t info, handle_t& request);

}  // namespace mpiattr::api
