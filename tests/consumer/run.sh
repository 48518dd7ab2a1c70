#!/usr/bin/env bash
# tests/consumer/run.sh BUILD_DIR: mpiattr as its users get it. Installs BUILD_DIR into a temporary
# prefix and builds and runs the programs of this folder (C, C++, Fortran `use mpi` and `use
# mpi_f08`) outside the source tree: with find_package(mpiattr), with pkg-config, with the installed
# wrappers (and mpiexec), with CMake's find_package(MPI) pointed at the wrappers; then the same after
# moving the prefix to a path with a space;
# and the Debian package of `cpack -G DEB`, extracted into a temporary root. One line per stage;
# a failing stage shows its log. Needs cmake, pkg-config, the compilers and, for the package,
# dpkg-deb. ./test.sh runs it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$(cd "${1:?usage: run.sh BUILD_DIR}" && pwd)
jobs=${JOBS:-2}
# Open MPI's mpiexec refuses root without these (as in ./test.sh).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpiattr-consumer.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
log=$tmp/log

# stage NAME COMMAND...: runs COMMAND with its output in the log; prints one line.
stage() {
  local name=$1
  shift
  local rc
  # Not in an `if`: there, `set -e` would not stop the stage at its first failing command.
  set +e
  (set -ex; "$@") >"$log" 2>&1  # -x: a failing check shows in the log
  rc=$?
  set -e
  if [ $rc = 0 ]; then
    echo "  consumer: $name: ok"
  else
    echo "  consumer: $name: FAILED" >&2
    tail -n 60 "$log" >&2
    exit 1
  fi
}

# run_all PROGRAMS...: each program runs and says ok.
run_all() {
  local p
  for p in "$@"; do
    "$p" | grep -q ': ok$' || { echo "$p did not say ok"; return 1; }
  done
}

# two_ok COMMAND...: a two-process job whose processes both say ok (its output in the log).
two_ok() {
  local out
  out=$("$@" 2>&1) || { printf '%s\n' "$out"; return 1; }
  printf '%s\n' "$out"
  # Counted, not as lines: the processes' lines may reach mpiexec's output interleaved.
  [ "$(grep -o ': ok' <<<"$out" | wc -l)" = 2 ]
}

# Copies of the programs, outside the source tree.
fresh_project() {
  rm -rf "$1"
  mkdir -p "$1"
  cp "$here"/CMakeLists.txt "$here"/hello.c "$here"/hello.cc "$here"/hello_mpi.f90 "$here"/hello_f08.f90 "$1"/
}

cmake_project() {  # DIR PREFIX MODE [cmake args]: configure, build and run the consumer project
  local dir=$1 prefix=$2 mode=$3
  shift 3
  fresh_project "$dir"
  cmake -S "$dir" -B "$dir/build" -DMODE="$mode" -DCMAKE_PREFIX_PATH="$prefix" "$@"
  cmake --build "$dir/build" -j"$jobs"
  run_all "$dir"/build/hello_c "$dir"/build/hello_cxx "$dir"/build/hello_mpi "$dir"/build/hello_f08
}

check_install() {  # PREFIX: what is installed names neither the source nor the build tree
  local p=$1
  for f in lib/libmpiattr.so lib/libmpiattr_cxx.so include/mpi.h include/mpicxx.h include/mpif.h \
           include/mpif-constants.h include/mpif-config.h include/mpi.mod include/mpi_f08.mod \
           include/mpi_f08_types.mod include/mpiattr_f08_predefined.mod bin/mpiattr-cc \
           bin/mpiattr-cxx bin/mpiattr-fort bin/mpiattr-run bin/mpiexec bin/mpirun \
           lib/cmake/mpiattr/mpiattrConfig.cmake lib/cmake/mpiattr/mpiattrConfigVersion.cmake \
           lib/pkgconfig/mpiattr.pc lib/pkgconfig/mpiattr-cxx.pc lib/pkgconfig/mpiattr-fort.pc \
           share/doc/mpiattr/README.md share/doc/mpiattr/host.md; do
    [ -e "$p/$f" ] || { echo "missing: $f"; return 1; }
  done
  readelf -d "$p/lib/libmpiattr.so" | grep -q 'SONAME.*libmpiattr\.so\.[0-9]' || { echo "no SONAME"; return 1; }
  # Text files only: the libraries' debugging information names the sources, as it should.
  if grep -rIl -e "$src" -e "$build" "$p"; then echo "these name the source or build tree"; return 1; fi
  # Test programs stay in the build tree.
  [ -z "$(ls "$p/bin" | grep -v '^mpiattr-\|^mpiexec$\|^mpirun$')" ] || { ls "$p/bin"; return 1; }
  local out
  out=$("$p/bin/mpiexec" -n 2 true 2>&1) && return 1
  grep -qF "$p/share/doc/mpiattr/host.md" <<<"$out"
}

wrappers() {  # PREFIX DIR: the wrappers, their -show family, their compiler override
  local p=$1 d=$2
  fresh_project "$d"
  cd "$d"
  "$p/bin/mpiattr-cc" hello.c -o "hello c"
  "$p/bin/mpiattr-cxx" hello.cc -o hello_cxx
  "$p/bin/mpiattr-fort" hello_mpi.f90 -o hello_mpi
  "$p/bin/mpiattr-fort" -c hello_f08.f90 -o hello_f08.o
  "$p/bin/mpiattr-fort" hello_f08.o -o hello_f08
  run_all "./hello c" ./hello_cxx ./hello_mpi ./hello_f08
  "$p/bin/mpiexec" -n 1 ./hello_f08 | grep -q ': ok$'
  # -show anywhere on the line prints, runs nothing: a command a shell reads back into the same
  # words, with the paths of the prefix.
  eval "set -- $("$p/bin/mpiattr-cc" hello.c -show -o x)"
  [ "$2|$3|$4|$5|$6|$7" = "-I$p/include|hello.c|-o|x|-L$p/lib|-Wl,-rpath,$p/lib" ]
  [ ! -e x ]
  eval "set -- $("$p/bin/mpiattr-cc" -showme -c hello.c)"
  [ "$*" = "${1} -I$p/include -c hello.c" ]
  eval "set -- $("$p/bin/mpiattr-fort" -showme:compile)"
  while [ "${1#-fallow-}" != "$1" ]; do shift; done  # legacy flags, where gfortran needs them (D58)
  [ "$#|$1|$2" = "2|-I$p/include|-I$p/include" ]
  eval "set -- $("$p/bin/mpiattr-cxx" -showme:link)"
  [ "$*" = "-L$p/lib -Wl,-rpath,$p/lib -lmpiattr_cxx -lmpiattr" ]
  eval "set -- $("$p/bin/mpiattr-cc" -compile_info)"
  [ "$#|$2" = "2|-I$p/include" ]
  eval "set -- $("$p/bin/mpiattr-cc" -link_info)"
  [ "$#|$2|$3|$5" = "5|-I$p/include|-L$p/lib|-lmpiattr" ]
  [ "$(MPIATTR_CC="echo cc" "$p/bin/mpiattr-cc" -c a.c)" = "cc -I$p/include -c a.c" ]  # echo: no quotes
  MPIATTR_CXX=false "$p/bin/mpiattr-cxx" -c hello.cc && return 1
  # A symbolic link to a wrapper finds the prefix too.
  ln -s "$p/bin/mpiattr-cc" linked-cc
  eval "set -- $(./linked-cc -showme:compile)"
  [ "$*" = "-I$p/include" ]
  # Host mode, through the installed host wrappers, under the host's mpiexec.
  for h in $(sed -n 's/^set(mpiattr_HOSTS "\(.*\)")$/\1/p' "$p/lib/cmake/mpiattr/mpiattrConfig.cmake" | tr ';' ' '); do
    "$p/bin/mpiattr-$h-cc" hello.c -o "host_$h"
    two_ok "mpiexec.$h" -n 2 "./host_$h"
    "$p/bin/mpiattr-$h-cxx" hello.cc -o "host_cxx_$h"
    two_ok "mpiexec.$h" -n 2 "./host_cxx_$h"
  done
}

pkgconfig() {  # PREFIX DIR: programs built with the flags of pkg-config (eval: paths may hold spaces)
  local p=$1 d=$2
  fresh_project "$d"
  cd "$d"
  export PKG_CONFIG_PATH="$p/lib/pkgconfig" LD_LIBRARY_PATH="$p/lib"
  [ "$(pkg-config --modversion mpiattr)" = "$(sed -n 's/^Version: //p' "$p/lib/pkgconfig/mpiattr.pc")" ]
  eval "cc hello.c -o hello_c $(pkg-config --cflags --libs mpiattr)"
  eval "c++ hello.cc -o hello_cxx $(pkg-config --cflags --libs mpiattr-cxx)"
  eval "gfortran hello_mpi.f90 -o hello_mpi $(pkg-config --cflags --libs mpiattr-fort)"
  eval "gfortran hello_f08.f90 -o hello_f08 $(pkg-config --cflags --libs mpiattr-fort)"
  run_all ./hello_c ./hello_cxx ./hello_mpi ./hello_f08
}

version_check() {  # PREFIX DIR: a version the package is not compatible with is refused
  local p=$1 d=$2
  mkdir -p "$d"
  printf 'cmake_minimum_required(VERSION 3.19)\nproject(v NONE)\nfind_package(mpiattr %s REQUIRED)\n' 99.0 \
    > "$d/CMakeLists.txt"
  local out
  out=$(cmake -S "$d" -B "$d/build" -DCMAKE_PREFIX_PATH="$p" 2>&1) && { echo "mpiattr 99.0 accepted"; return 1; }
  grep -q "mpiattrConfig.cmake, version: " <<<"$out"
}

host_cmake() {  # PREFIX DIR: mpiattr::<host> linked before the host MPI, run under its mpiexec;
  # mpiattr::cxx_<host> (mpiattr's MPI:: classes over the host) without the host's C++ library
  local p=$1 d=$2 h
  for h in $(sed -n 's/^set(mpiattr_HOSTS "\(.*\)")$/\1/p' "$p/lib/cmake/mpiattr/mpiattrConfig.cmake" | tr ';' ' '); do
    fresh_project "$d-$h"
    cmake -S "$d-$h" -B "$d-$h/build" -DMODE=host -DHOST="$h" -DCMAKE_PREFIX_PATH="$p"
    cmake --build "$d-$h/build"
    readelf -d "$d-$h/build/hello_host" | grep -q "NEEDED.*libmpiattr_$h\.so"
    two_ok "mpiexec.$h" -n 2 "$d-$h/build/hello_host"
    readelf -d "$d-$h/build/hello_host_cxx" | grep -q "NEEDED.*libmpiattr_cxx_$h\.so"
    if ldd "$d-$h/build/hello_host_cxx" | grep -E 'libmpichcxx|libmpi_cxx'; then
      echo "hello_host_cxx loads the host's C++ library"
      return 1
    fi
    two_ok "mpiexec.$h" -n 2 "$d-$h/build/hello_host_cxx"
  done
}

all_routes() {  # PREFIX TAG
  local p=$1 t=$2
  stage "$t: installed files" check_install "$p"
  stage "$t: find_package(mpiattr)" cmake_project "$tmp/fp-$t" "$p" find_package
  stage "$t: version check" version_check "$p" "$tmp/v-$t"
  stage "$t: wrappers" wrappers "$p" "$tmp/w-$t"
  stage "$t: pkg-config" pkgconfig "$p" "$tmp/pc-$t"
  stage "$t: find_package(mpiattr) in host mode" host_cmake "$p" "$tmp/h-$t"
  stage "$t: find_package(MPI) with the wrappers" cmake_project "$tmp/fm-$t" "$p" FindMPI \
    -DMPI_C_COMPILER="$p/bin/mpiattr-cc" -DMPI_CXX_COMPILER="$p/bin/mpiattr-cxx" \
    -DMPI_Fortran_COMPILER="$p/bin/mpiattr-fort" -DMPIEXEC_EXECUTABLE="$p/bin/mpiexec"
}

# The three prefixes (installed, moved, the package's) are independent: their routes run side by
# side (most of a route is one process at a time: cmake configuring, a compiler, mpiexec), each with
# its own log, and their lines are printed in a fixed order when all are done (D75). The moved
# prefix is a second install, moved away from where it was installed before its routes run.
prefix=$tmp/prefix
moved="$tmp/moved prefix"
stage "cmake --install" cmake --install "$build" --prefix "$prefix"
stage "cmake --install, then moved" cmake --install "$build" --prefix "$tmp/to-move"
mv "$tmp/to-move" "$moved"

# routes TAG COMMAND...: runs COMMAND (stages) in the background, its lines in $tmp/TAG.out.
pids=()
tags=()
routes() {
  local t=$1
  shift
  (log=$tmp/log-$t; "$@") >"$tmp/$t.out" 2>&1 &
  pids+=($!)
  tags+=("$t")
}
routes installed all_routes "$prefix" installed
routes moved all_routes "$moved" moved

# add_subdirectory: tests/examples builds examples/cmake_consumer, which has mpiattr's source tree
# as a subproject, in ctest (example_cmake_consumer_builds_mpiattr_with_add_subdirectory).

# The Debian package, extracted (not installed) into a temporary root.
if command -v dpkg-deb >/dev/null; then
  deb() {
    (cd "$build" && cpack -G DEB -B "$tmp/deb")
    dpkg-deb -f "$tmp"/deb/mpiattr_*.deb Depends | grep -q "libc6"
    dpkg-deb -x "$tmp"/deb/mpiattr_*.deb "$tmp/root"
  }
  deb_routes() {
    stage "cpack -G DEB" deb
    all_routes "$tmp/root/opt/mpiattr" deb
  }
  routes deb deb_routes
else
  echo "  consumer: Debian package: skipped (no dpkg-deb)"
fi

failed=0
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || failed=1
  cat "$tmp/${tags[$i]}.out"
done
exit $failed
