# `cd build && cpack -G DEB`: a Debian package of what `cmake --install` installs, in /opt/mpiattr
# (a prefix of its own: mpiattr's mpi.h, mpiexec and mpirun must not shadow the system MPI's).
# Put /opt/mpiattr/bin on PATH and find_package(mpiattr) finds the package from there; pkg-config
# needs PKG_CONFIG_PATH=/opt/mpiattr/lib/pkgconfig.
set(CPACK_PACKAGE_NAME mpiattr)
set(CPACK_PACKAGE_VENDOR "mpiattr")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "MPI attribute caching with C, Fortran and C++ bindings")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "mpiattr maintainers <mpiattr@localhost>")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /opt/mpiattr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_STRIP_FILES ON)  # no debugging information (it names the build machine's paths)
# The dependencies on the C and C++ runtimes and on the host MPIs' libraries, from the libraries.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${CMAKE_INSTALL_LIBDIR})
# The wrappers call the compilers mpiattr was built with.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gcc, g++, gfortran, pkgconf")
include(CPack)
