! Fortran half of the C helpers (mixed_helpers.c): their BIND(C) interfaces, for the mixed-language
! programs test_mixed_lang.f90 (`use mpi`) and test_mixed_f08_lang.f90 (`use mpi_f08`). Handles
! cross as INTEGER (MPI_Fint), the MPI_VAL of an mpi_f08 handle.
module mixed_c
  use, intrinsic :: iso_c_binding, only: c_int, c_intptr_t
  implicit none
  interface
    subroutine c_set(comm, key, value) bind(c, name='c_set')
      import :: c_int, c_intptr_t
      integer(c_int), value :: comm, key
      integer(c_intptr_t), value :: value
    end subroutine
    integer(c_intptr_t) function c_get(comm, key, flag) bind(c, name='c_get')
      import :: c_int, c_intptr_t
      integer(c_int), value :: comm, key
      integer(c_int) :: flag
    end function
    integer(c_int) function c_get_deref_int(comm, key) bind(c, name='c_get_deref_int')
      import :: c_int
      integer(c_int), value :: comm, key
    end function
    integer(c_intptr_t) function c_get_deref_aint(comm, key) bind(c, name='c_get_deref_aint')
      import :: c_int, c_intptr_t
      integer(c_int), value :: comm, key
    end function
    integer(c_intptr_t) function c_static_address() bind(c, name='c_static_address')
      import :: c_intptr_t
    end function
    integer(c_int) function c_deref_static(p) bind(c, name='c_deref_static')
      import :: c_int, c_intptr_t
      integer(c_intptr_t), value :: p
    end function
    integer(c_int) function c_roundtrip(comm, type, win) bind(c, name='c_roundtrip')
      import :: c_int
      integer(c_int), value :: comm, type, win
    end function
    integer(c_int) function c_world_is(comm) bind(c, name='c_world_is')
      import :: c_int
      integer(c_int), value :: comm
    end function
    integer(c_int) function c_create_keyval() bind(c, name='c_create_keyval')
      import :: c_int
    end function
    integer(c_int) function c_create_dup_fn_keyval() bind(c, name='c_create_dup_fn_keyval')
      import :: c_int
    end function
    integer(c_int) function c_copy_calls() bind(c, name='c_copy_calls')
      import :: c_int
    end function
    integer(c_int) function c_delete_calls() bind(c, name='c_delete_calls')
      import :: c_int
    end function
    integer(c_intptr_t) function c_seen_value() bind(c, name='c_seen_value')
      import :: c_intptr_t
    end function
    integer(c_int) function c_dup(comm) bind(c, name='c_dup')
      import :: c_int
      integer(c_int), value :: comm
    end function
    integer(c_int) function c_free(comm) bind(c, name='c_free')
      import :: c_int
      integer(c_int), value :: comm
    end function
    integer(c_int) function c_delete_attr(comm, key) bind(c, name='c_delete_attr')
      import :: c_int
      integer(c_int), value :: comm, key
    end function
    integer(c_int) function c_tag_ub() bind(c, name='c_tag_ub')
      import :: c_int
    end function
    integer(c_intptr_t) function c_win_size(win) bind(c, name='c_win_size')
      import :: c_int, c_intptr_t
      integer(c_int), value :: win
    end function
    integer(c_intptr_t) function c_win_base(win) bind(c, name='c_win_base')
      import :: c_int, c_intptr_t
      integer(c_int), value :: win
    end function
    ! (A status or an array of them, passed by address: TYPE(*) takes either binding's.)
    integer(c_int) function c_which_f_status_ignore(s) bind(c, name='c_which_f_status_ignore')
      import :: c_int
      type(*), dimension(*) :: s
    end function
    integer(c_int) function c_which_f08_status_ignore(s) bind(c, name='c_which_f08_status_ignore')
      import :: c_int
      type(*) :: s
    end function
    integer(c_int) function c_which_f08_statuses_ignore(s) bind(c, name='c_which_f08_statuses_ignore')
      import :: c_int
      type(*), dimension(*) :: s
    end function
  end interface
contains
  ! The least significant 32 bits as a (two's complement) INTEGER: what R7.1 says MPI_ATTR_GET
  ! gives (c_intptr_t is MPI_ADDRESS_KIND).
  integer function lowpart(v)
    integer(c_intptr_t), intent(in) :: v
    integer(c_intptr_t) :: w
    w = iand(v, 4294967295_c_intptr_t)
    if (w >= 2147483648_c_intptr_t) w = w - 4294967296_c_intptr_t
    lowpart = int(w)
  end function lowpart
end module mixed_c
