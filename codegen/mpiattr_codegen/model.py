"""The typed, frozen model of the spec. Everything a template sees is one of these classes."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional


class SpecError(Exception):
    """A spec file is malformed; the message names the file and the entry."""


@dataclass(frozen=True)
class Kind:
    name: str
    cls: str  # handle | keyval | attr | extra | function | logical | scalar | string | ...
    c: Optional[str]
    f90: Optional[str]
    f08: Optional[str]  # the mpi_f08 type (spec/kinds.toml; the f90 type where it has none)
    cxx: Optional[str]
    core: Optional[str]
    object: Optional[str]  # for handles: comm | type | win | group | request | errhandler | info | op
    c_by_value_pointer: bool  # C passes a void* whatever the direction (attribute values, extra_state)
    origin_fortran: Optional[str]
    # The POLY* kinds: the C and mpi_f08 types in the large-count form MPI_X_c (MPI-4.1 §19.2), and
    # for POLYFUNCTION the suffix of its callback type there (docs/decisions.md D47).
    c_large: Optional[str] = None
    f08_large: Optional[str] = None
    large_func_suffix: Optional[str] = None
    # An array of this kind is declared `T* name`, not `T name[]` (the same C type): where the
    # standard lets a program pass a special address (MPI_UNWEIGHTED), which GCC's -Wall
    # (-Wstringop-overread) would otherwise flag at every call in the program (spec/kinds.toml).
    c_array_as_pointer: bool = False


@dataclass(frozen=True)
class Param:
    name: str
    kind: Kind
    dir: str  # as passed (apis.json param_direction): in | out | inout
    lis: str  # as printed in the standard's LIS table
    func_type: Optional[str] = None
    const: bool = False
    length: object = None
    c_decl: Optional[str] = None  # explicit C declaration where the kind table cannot say it
    asynchronous: bool = False  # ASYNCHRONOUS in the mpi_f08 binding (apis.json `asynchronous`)
    ignored_with: Optional[str] = None  # the buffer whose MPI_IN_PLACE, or the op whose MPI_NO_OP,
    # makes this datatype ignored (MPI-4.1 §7.2.1, §13.3.4.2): programs pass MPI_DATATYPE_NULL
    # Its null handle is an argument, not an error: the core gets a null object pointer
    # (MPI_Comm_get_name of MPI_COMM_NULL, MPI-4.1 §7.8; docs/decisions.md D116).
    null_ok: bool = False
    # In a large-count form (Function.large_of): the kind the routine itself gives this parameter,
    # where the form widens it (None: same type in both forms); `large_only`: the form's own
    # parameter, which the routine has not (docs/decisions.md D47).
    base_kind: Optional["Kind"] = None
    large_only: bool = False
    # C passes it by address although it is an input (apis.json `pointer`): the error handlers'
    # MPI_Comm* comm and int* error_code, MPI_User_function's int* len and MPI_Datatype* datatype.
    pointer: bool = False
    # Its declaration in the MPI:: typedef of a callback type where MPI-2.2 Annex A.4 departs from
    # what its kind gives (`const void* invec`, `Aint& file_extent`): docs/cxx.md.
    cxx_decl: Optional[str] = None


@dataclass(frozen=True)
class Deprecation:
    since: str
    replacement: str


# The `source` of the routines MPI-3.0 removed (spec/removed.toml, docs/decisions.md D58).
REMOVED_SOURCE = "MPI-2.2, removed in MPI-3.0"


@dataclass(frozen=True)
class Function:
    name: str
    ref: str
    core: Optional[str]  # None: `unsupported` says why the standalone runtime cannot carry it out
    params: tuple[Param, ...]
    origin: str
    unsupported: Optional[str] = None
    desc: str = ""
    object: Optional[str] = None  # COMM | WIN | TYPE for caching routines
    deprecated: Optional[Deprecation] = None
    cxx: Optional[dict] = None
    fortran: Optional[dict] = None  # { binding = false }: no Fortran binding; { f08 = false }: none in mpi_f08
    init: str = "during"  # during | before | any | setup (spec/runtime.toml's header)
    returns: Optional[Kind] = None  # None: returns an MPI error code
    ierror: str = "ierror"
    # A large-count form MPI_X_c (docs/decisions.md D47): the routine's name, and the core entry
    # that takes the large types (None: the form narrows around the routine's own core entry).
    large_of: Optional[str] = None
    large_core: Optional[str] = None
    # Where the routine's definition comes from when apis.json lacks it ("MPI-4.1, not in
    # apis.json", spec/mpi41_additions.toml, docs/decisions.md D55): the spec check then compares
    # its C prototype with the Forum's ABI header instead.
    source: Optional[str] = None

    @property
    def pmpi_name(self) -> str:
        return "P" + self.name

    @property
    def removed(self) -> bool:
        """An MPI-1 routine that MPI-3.0 removed (spec/removed.toml, docs/decisions.md D58)."""
        return self.source == REMOVED_SOURCE


# What a callback type is for (Callback.role): the attribute callbacks' copy and delete, and the
# others of the standard (docs/decisions.md D40).
ATTR_ROLES = ("copy", "delete")
CALLBACK_ROLES = ATTR_ROLES + ("errhandler", "user_op", "grequest", "datarep", "tool_event")


@dataclass(frozen=True)
class Callback:
    name: str
    ref: str
    object: Optional[str]  # COMM | WIN | TYPE for the attribute callbacks, else None
    role: str  # one of CALLBACK_ROLES
    params: tuple[Param, ...]
    origin: str
    deprecated: Optional[Deprecation] = None
    cxx: Optional[dict] = None
    ierror: str = "ierror"
    ierror_kind: str = "ERROR_CODE"
    fortran: Optional[dict] = None  # { f08 = false }: no mpi_f08 binding (the MPI-1 family)
    returns: Optional[Kind] = None  # None: returns an MPI error code (int); NOTHING: void
    # Its other C names, (name, deprecated since or None): MPI_Comm_errhandler_fn, deprecated since
    # MPI-2.2; mpi.h declares each as a typedef of the type.
    aliases: tuple[tuple[str, Optional[str]], ...] = ()
    # Its large-count form (MPI_User_function_c, docs/decisions.md D47): the type's name.
    large_of: Optional[str] = None
    desc: str = ""  # what the man page says it is (the attribute callbacks': lang/man.py's by role)

    @property
    def is_attr(self) -> bool:
        return self.role in ATTR_ROLES


@dataclass(frozen=True)
class PredefinedCallback:
    name: str
    ref: str
    object: str
    type: Callback
    behaviour: str  # null_copy | dup | null_delete | null_conversion (MPI_CONVERSION_FN_NULL)
    params: tuple[Param, ...]
    origin: str
    deprecated: Optional[Deprecation] = None
    ierror: str = "ierror"
    ierror_kind: str = "ERROR_CODE"
    fortran: Optional[dict] = None  # as Callback.fortran


@dataclass(frozen=True)
class PredefinedKey:
    name: str
    value: int
    object: str
    value_kind: str  # int | aint | address
    ref: str


@dataclass(frozen=True)
class ErrorClass:
    name: str
    value: int
    string: str


@dataclass(frozen=True)
class Handle:
    name: str
    type: str
    object: str
    value: int
    null: bool = False


@dataclass(frozen=True)
class Datatype:
    name: str
    value: int
    size: str
    extent: str
    aliases: tuple[str, ...] = ()
    cxx_size: Optional[str] = None
    # A pair type with a gap (MPI_SHORT_INT): its second member's offset; None: one block of size.
    second_at: Optional[str] = None
    align: Optional[str] = None  # its alignment, where its size or extent does not give it
    # An optional datatype (MPI-4.1 §3.2.2): a host MPI defines it only where its Fortran compiler
    # has the type, so bindings over a host name it where the host's mpi.h does.
    optional: bool = False


@dataclass(frozen=True)
class Removed:
    """An MPI-1 name that MPI-3.0 removed: standalone, its `value` (MPIATTR_NO_REMOVED hides it,
    docs/decisions.md D58); over a host, the host's (D41)."""
    name: str
    type: str  # Datatype | int | typedef
    open_mpi: Optional[str] = None  # Open MPI 4.1's object symbol (Datatype) or enumerator (int)
    value: Optional[int] = None  # the standalone value (Datatype, int)
    alias_of: Optional[str] = None  # typedef: the callback type it names


@dataclass(frozen=True)
class Op:
    name: str
    value: int


@dataclass(frozen=True)
class SizeofSpecific:
    """One specific procedure of MPI_SIZEOF's generic interface (spec/fortran.toml): the type of
    x, and its size in bytes as a C++ constant expression."""
    tag: str  # MPIATTR_SIZEOF_<TAG>, the specific's link name
    type: str  # INTEGER, REAL, COMPLEX, LOGICAL, CHARACTER
    kind: Optional[str]  # a named constant of ISO_FORTRAN_ENV (INT8, REAL64, ...), or None: default
    bytes: str


@dataclass(frozen=True)
class FortranRoutine:
    """A routine of the Fortran bindings only (apis.json c_expressible = false; spec/fortran.toml):
    no C, C++ or host binding and no core entry point; its entry points do it themselves."""
    name: str
    ref: str
    does: str  # nothing (MPI_F_SYNC_REG) | sizeof (MPI_SIZEOF)
    params: tuple[Param, ...]
    origin: str
    desc: str = ""
    deprecated: Optional[Deprecation] = None
    specifics: tuple[SizeofSpecific, ...] = ()  # does = "sizeof": one per type of x
    ierror: str = "ierror"


@dataclass(frozen=True)
class Spec:
    kinds: dict
    functions: tuple[Function, ...]
    callbacks: tuple[Callback, ...]
    predefined_callbacks: tuple[PredefinedCallback, ...]
    predefined_keys: tuple[PredefinedKey, ...]
    keyval_invalid: int
    error_classes: tuple[ErrorClass, ...]
    handles: tuple[Handle, ...]
    datatypes: tuple[Datatype, ...]
    ops: tuple[Op, ...]
    integers: tuple[tuple[str, int], ...]
    version: tuple[int, int]
    files: tuple[str, ...] = field(default=())
    since: tuple[tuple[str, str], ...] = ()  # constants newer than MPI-3.1, and the version
    removed: tuple[Removed, ...] = ()  # MPI-1 names removed in MPI-3.0 (D41, D58)
    # (name, kind parameter) of the integer constants not of Fortran's default INTEGER kind (D141).
    fortran_kinds: tuple[tuple[str, str], ...] = ()
    # Constants of the C binding only (docs/decisions.md D39): (name, value); (enum type, ((name,
    # value), ...)); (name, handle type, value).
    c_integers: tuple[tuple[str, int], ...] = ()
    tool_error_classes: tuple[ErrorClass, ...] = ()  # MPI_T_ERR_*: C constants, error classes too (D123)
    c_enums: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()
    c_handles: tuple[tuple[str, str, int], ...] = ()
    # (name, standard name it stands for; empty: a macro defined empty) (D107).
    c_aliases: tuple[tuple[str, str], ...] = ()
    # The large-count forms MPI_X_c (docs/decisions.md D47), derived from the routines.
    large_forms: tuple[Function, ...] = ()
    # The routines of the Fortran bindings only (spec/fortran.toml, docs/decisions.md D51).
    fortran_routines: tuple[FortranRoutine, ...] = ()
    # The callback types' large-count forms MPI_X_c (MPI_User_function_c), derived like large_forms.
    callback_large_forms: tuple[Callback, ...] = ()

    def large_form(self, fn: Function) -> Optional[Function]:
        for f in self.large_forms:
            if f.large_of == fn.name:
                return f
        return None

    @property
    def attr_callbacks(self) -> tuple[Callback, ...]:
        """The attribute callbacks (copy and delete), the only ones with predefined forms that the
        caching core runs."""
        return tuple(c for c in self.callbacks if c.is_attr)

    @property
    def attr_predefined_callbacks(self) -> tuple[PredefinedCallback, ...]:
        """The predefined attribute callbacks (MPI_COMM_DUP_FN, ...): real functions the core
        recognises; not MPI_CONVERSION_FN_NULL, a null function pointer in C (D54)."""
        return tuple(p for p in self.predefined_callbacks if p.type.is_attr)

    def callback_large_form(self, cb: Callback) -> Optional[Callback]:
        for c in self.callback_large_forms:
            if c.large_of == cb.name:
                return c
        return None

    def function(self, name: str) -> Function:
        for f in self.functions:
            if f.name == name:
                return f
        raise KeyError(name)

    @property
    def caching_functions(self) -> tuple[Function, ...]:
        return tuple(f for f in self.functions if f.object)
