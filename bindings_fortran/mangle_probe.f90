! Configure-time probe (bindings_fortran/CMakeLists.txt): compiled, never run, into a static
! library whose symbol names say how the compiler names a global subroutine, with and without an
! underscore in its name, and a module procedure: the link names the C side must define
! (fc_mangle.h). One compile, where CMake's FortranCInterface builds two test projects (D75).
subroutine mpiattrmangle()
end subroutine mpiattrmangle

subroutine mpiattr_mangle()
end subroutine mpiattr_mangle

module mpiattrmanglemod
contains
  subroutine mpiattrmanglesub()
  end subroutine mpiattrmanglesub
end module mpiattrmanglemod

module mpiattr_mangle_mod
contains
  subroutine mpiattr_mangle_sub()
  end subroutine mpiattr_mangle_sub
end module mpiattr_mangle_mod
