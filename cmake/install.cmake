# What `cmake --install build --prefix P` puts into P, besides what the folders install themselves
# (the Fortran headers and modules, the wrappers and mpiattr-run, the host-mode libraries):
#   lib/         libmpiattr and libmpiattr_cxx (versioned, with SONAME)
#   include/     mpi.h, mpio.h (ROMIO's name; it includes mpi.h) and mpicxx.h (mpi.h includes nothing
#                else of mpiattr's)
#   lib/cmake/mpiattr/   the CMake package: find_package(mpiattr) gives mpiattr::mpiattr (C),
#                mpiattr::cxx, mpiattr::fortran, mpiattr::<host> and mpiattr::cxx_<host>
#   lib/pkgconfig/       mpiattr.pc, mpiattr-cxx.pc, mpiattr-fort.pc
#   share/doc/mpiattr/   README.md, LICENSE and docs/
# Nothing installed names the build or the source tree: the CMake package, the pkg-config files
# and the scripts in bin/ find the prefix from their own location, so a prefix can be moved.
include(CMakePackageConfigHelpers)

install(TARGETS mpiattr EXPORT mpiattrTargets)
if(TARGET mpiattr_cxx)
  install(TARGETS mpiattr_cxx EXPORT mpiattrTargets)
endif()
install(FILES ${MPIATTR_GEN_DIR}/include/mpi.h ${MPIATTR_GEN_DIR}/include/mpio.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(TARGET mpiattr_cxx_generated)
  install(FILES ${MPIATTR_GEN_DIR}/include/mpicxx.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endif()

# ---- the CMake package ----
install(EXPORT mpiattrTargets NAMESPACE mpiattr:: DESTINATION ${MPIATTR_INSTALL_CMAKEDIR})
set(MPIATTR_PACKAGE_COMPONENTS C)
if(TARGET mpiattr_cxx)
  list(APPEND MPIATTR_PACKAGE_COMPONENTS CXX)
endif()
if(TARGET mpiattr_fortran)
  list(APPEND MPIATTR_PACKAGE_COMPONENTS Fortran)
endif()
set(MPIATTR_PACKAGE_HOSTS "")
foreach(t IN LISTS MPIATTR_HOST_TARGETS)
  if(TARGET ${t})
    string(REGEX REPLACE "^mpiattr_" "" _h ${t})
    list(APPEND MPIATTR_PACKAGE_HOSTS ${_h})
  endif()
endforeach()
set(MPIATTR_PACKAGE_FORTRAN_COMPILER "${CMAKE_Fortran_COMPILER_ID} ${CMAKE_Fortran_COMPILER_VERSION}")
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/mpiattrConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/mpiattrConfig.cmake INSTALL_DESTINATION ${MPIATTR_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR)
# 0.x: a new minor version may change the interface.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/mpiattrConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/mpiattrConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake/mpiattrConfigVersion.cmake
        DESTINATION ${MPIATTR_INSTALL_CMAKEDIR})

# ---- pkg-config: prefix is found from the .pc file's own place (${pcfiledir}) ----
set(_pcdir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH MPIATTR_PC_PREFIX_REL /P/${_pcdir} /P)
string(REGEX REPLACE "/$" "" MPIATTR_PC_PREFIX_REL "${MPIATTR_PC_PREFIX_REL}")
set(_pcs mpiattr)
if(TARGET mpiattr_cxx)
  list(APPEND _pcs mpiattr-cxx)
endif()
if(TARGET mpiattr_fortran)
  list(APPEND _pcs mpiattr-fort)
endif()
foreach(pc IN LISTS _pcs)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/${pc}.pc.in ${PROJECT_BINARY_DIR}/pkgconfig/${pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/${pc}.pc DESTINATION ${_pcdir})
endforeach()

# ---- the documents ----
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/LICENSE
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}
        FILES_MATCHING PATTERN "*.md")
