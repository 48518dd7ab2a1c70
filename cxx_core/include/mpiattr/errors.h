// mpiattr/errors.h: error codes and their strings (MPI_Error_class, MPI_Error_string).
//
// A failing call returns an error *code*, not just a class: the code names the class and a
// message slot holding the sentence that says what went wrong ("MPI_Comm_set_attr: keyval
// 0x40000010 was created for datatypes, not communicators"). Slots are recycled after 4096 newer
// errors; an old code then still gives its class and the class's string. Class values are the
// codes of their own class, so a program comparing a return value with MPI_ERR_KEYVAL after
// MPI_Error_class works as everywhere.
#pragma once
#include <cstddef>

#include "mpiattr/status.h"

namespace mpiattr::errors {

// Builds an error code for a failed call of `routine` from the thread's last detail.
int make_code(int error_class, const char* routine);
// MPI_Error_class: returns false for a code that is neither a class nor made by make_code.
bool class_of(int code, int* error_class);
// Whether `code` is one make_code returned whose message is still kept (not a bare class).
bool made_code(int code);
// MPI_Error_string: writes at most `cap` bytes including the terminating NUL.
bool string_of(int code, char* buf, std::size_t cap, int* len);
// The name (MPI_ERR_KEYVAL) and description of a class; nullptr for an unknown class.
const char* class_name(int error_class);
const char* class_string(int error_class);

// User-defined classes and codes (MPI_Add_error_class, _code, _string; MPI-4.1 §10.5). Their values
// follow MPI_ERR_LASTCODE, one counter for both, so MPI_LASTUSEDCODE (last_used_code) is the
// largest class or code in use; a user code's class is the class it was added to.
status add_class(int& error_class);
status add_code(int error_class, int& code);
status add_string(int code, const char* text);
// MPI_Remove_error_class, _code, _string (MPI-4.1 §10.5, docs/decisions.md D55): a removed value is
// no class or code any more (MPI_Error_class fails on it) and is never reused; a class goes only
// when no code of it is left.
status remove_class(int error_class);
status remove_code(int code);
status remove_string(int code);
int last_used_code();

}  // namespace mpiattr::errors
