#!/usr/bin/env bash
# tests/reallib/run.sh BUILD_DIR: mpiattr in front of real libraries that use MPI's attribute caching,
# built from Debian's packages: mpi4py (python3-mpi4py, over Open MPI), parallel HDF5
# (libhdf5-openmpi-dev, libhdf5-mpich-dev), Boost.MPI (libboost-mpi-dev, built against Open MPI)
# PETSc (libpetsc-real-dev, built against Open MPI) and libsc (libp4est-dev, built against Open MPI).
# ./test.sh runs it (stage real-libraries), after installing the packages in its deps stage.
#
# Each program of this folder runs at 1 and at 4 processes in three configurations:
#   alone    the host by itself;
#   preload  mpiattr's host library given to the ranks through the launcher
#            (mpiexec.openmpi -x LD_PRELOAD=..., mpiexec.mpich -genv LD_PRELOAD ...);
#   linked   the program linked with it, the library first: HDF5's with mpicc.<host>
#            -lmpiattr_<host> before HDF5's pkg-config flags, PETSc's likewise before PETSc's,
#            Boost.MPI's with mpicxx.openmpi -lmpiattr_openmpi (checked: libmpiattr_<host> is NEEDED before the host's library),
#            and for mpi4py (prebuilt by Debian) a copy of the
#            package whose extension module lists libmpiattr_openmpi.so first among the libraries
#            it needs (patchelf --add-needed, what building mpi4py with mpiattr-openmpi-cc gives;
#            docs/decisions.md D34), found first through PYTHONPATH.
# Each rank writes its lines to out.<rank>; the preload and linked runs must give exactly the
# alone run's lines, standard output and exit status (0). A `divergence NAME: standard V | this
# run W` line is compared without its values, and with mpiattr W must be V (the host alone's W is
# only logged: a place where the host alone departs from the standard).
# Every run has MPIATTR_REPORT=<run dir>/report-<step>.%r: the mpiattr runs must leave, for each rank, a
# report whose header names the rank and the host and whose "keyvals created" and "attributes set"
# totals are not zero (mpiattr, not the host, answered the caching calls); the alone runs must
# leave none.
# One line per program, host and process count; a failing run shows its files. Needs the packages
# above, patchelf and pkg-config.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: run.sh BUILD_DIR}" && pwd)
lib=$build/lib
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Open MPI 4.1's default one-sided component cannot make a window from memory in a one-process job
# (MPI_ERR_WIN); its UCX component can, at 1 and 4 processes. The same for every configuration.
export OMPI_MCA_osc=ucx
# The pml Open MPI selects here anyway (ob1: Debian's openmpi-mca-params.conf excludes ucx, and cm's
# MTLs find no hardware), named so that each process does not probe cm and its MTLs first, about
# 0.2 s of every start (tests/host/hostrun.py OPENMPI_FAST_START, D80).
export OMPI_MCA_pml=ob1
python=/usr/bin/python3  # Debian's, where python3-mpi4py is (not a python3 earlier in PATH)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpiattr-reallib.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
started=$SECONDS

fail() {
  echo "  reallib: FAILED: $*" >&2
  exit 1
}

# show DIR: the files of a run, for a failure.
show() {
  local f
  for f in "$1"/*; do
    [ -f "$f" ] || continue
    case "$f" in *.h5) continue ;; esac
    echo "---- $f" >&2
    head -c 6000 "$f" >&2
  done
}

for h in openmpi mpich; do
  [ -f "$lib/libmpiattr_$h.so" ] || fail "$lib/libmpiattr_$h.so is missing: build mpiattr with both hosts"
done

# ---- builds ----------------------------------------------------------------------------------------
bin=$tmp/bin
mkdir -p "$bin"
built() {  # PROGRAM: a linked one needs libmpiattr before the host's library, another not at all
  local p=$1 needed
  needed=$(readelf -d "$p" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
  case "$p" in
    *_linked*) [[ $needed =~ libmpiattr_[a-z]*\.so.*libmpi(ch)?\.so ]] ||
      fail "$p does not need libmpiattr before the host's library: $needed" ;;
    *) [[ $needed != *libmpiattr* ]] || fail "$p needs libmpiattr: $needed" ;;
  esac
}
for h in openmpi mpich; do
  # HDF5's shared library, through its pkg-config file. Linked: mpiattr's library first. (Not with
  # mpiattr-<host>-cc, which adds -lmpiattr_<host> after the arguments: the file's Requires (ompi,
  # mpich) would put the host's library before it, and the host would answer the caching calls.)
  # shellcheck disable=SC2046  # pkg-config's flags are words
  "mpicc.$h" -O1 -Wall -Wextra -Werror "$here/hdf5_io.c" $(pkg-config --cflags --libs "hdf5-$h") \
    -o "$bin/hdf5_${h}_alone"
  # shellcheck disable=SC2046
  "mpicc.$h" -O1 -Wall -Wextra -Werror "$here/hdf5_io.c" -L"$lib" -Wl,-rpath,"$lib" -lmpiattr_$h \
    $(pkg-config --cflags --libs "hdf5-$h") -o "$bin/hdf5_${h}_linked"
done
# PETSc (Open MPI only in Debian), as HDF5: its pkg-config flags; linked, mpiattr's library first.
# shellcheck disable=SC2046
mpicc.openmpi -O1 -Wall -Wextra -Werror "$here/petsc_ksp.c" $(pkg-config --cflags --libs petsc) -o "$bin/petsc_alone"
# shellcheck disable=SC2046
mpicc.openmpi -O1 -Wall -Wextra -Werror "$here/petsc_ksp.c" -L"$lib" -Wl,-rpath,"$lib" -lmpiattr_openmpi \
  $(pkg-config --cflags --libs petsc) -o "$bin/petsc_linked"
# libsc (Open MPI only in Debian; no pkg-config file): -lsc; linked, mpiattr's library first.
mpicc.openmpi -O1 -Wall -Wextra -Werror "$here/libsc_nodecomms.c" -lsc -o "$bin/libsc_alone"
mpicc.openmpi -O1 -Wall -Wextra -Werror "$here/libsc_nodecomms.c" -L"$lib" -Wl,-rpath,"$lib" -lmpiattr_openmpi \
  -lsc -o "$bin/libsc_linked"
# Boost.MPI calls the C API: the host's mpicxx, and mpiattr's host library before the host's (not
# mpiattr-openmpi-cxx, which gives mpiattr's own MPI:: classes).
# Compiled once (Boost's headers are slow), linked twice.
mpicxx.openmpi -O1 -Wall -c "$here/boost_mpi.cc" -o "$tmp/boost_mpi.o"
mpicxx.openmpi "$tmp/boost_mpi.o" -lboost_mpi -lboost_serialization -o "$bin/boost_alone"
mpicxx.openmpi "$tmp/boost_mpi.o" -L"$lib" -Wl,-rpath,"$lib" -lmpiattr_openmpi \
  -lboost_mpi -lboost_serialization -o "$bin/boost_linked"
for p in "$bin"/*; do built "$p"; done
# mpi4py, linked: a copy of Debian's package whose extension module needs libmpiattr_openmpi.so
# before libmpi.so.40, with the build's lib/ in its run path.
pkg=$("$python" -c 'import mpi4py, os; print(os.path.dirname(mpi4py.__file__))')
mkdir -p "$tmp/pylinked"
cp -r "$pkg" "$tmp/pylinked/mpi4py"
ext=$(ls "$tmp"/pylinked/mpi4py/MPI.*.so)
# (Two calls: patchelf 0.14 given both options writes the library's name as the run path.)
patchelf --add-needed libmpiattr_openmpi.so "$ext"
patchelf --set-rpath "$lib" "$ext"
[ "$(patchelf --print-rpath "$ext")" = "$lib" ] || fail "the patched mpi4py's run path: $(patchelf --print-rpath "$ext")"
needed=$(readelf -d "$ext" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
[[ $needed == libmpiattr_openmpi.so\ * && $needed == *libmpi.so.40* ]] ||
  fail "the patched mpi4py needs: $needed"
[ "$(PYTHONPATH=$tmp/pylinked "$python" -c 'import mpi4py; print(mpi4py.__file__)')" = \
  "$tmp/pylinked/mpi4py/__init__.py" ] || fail "PYTHONPATH does not reach the patched mpi4py"
echo "  reallib: built the programs and the linked mpi4py ($((SECONDS - started)) s)"

# ---- runs ------------------------------------------------------------------------------------------
# launch HOST N DIR CONFIG PYPATH REPORT COMMAND...: runs COMMAND on N ranks in DIR, with
# MPIATTR_REPORT=DIR/REPORT and, when PYPATH is not empty, PYTHONPATH=PYPATH; its exit status is
# appended to DIR/status (a case may have several steps).
launch() {
  local h=$1 n=$2 dir=$3 config=$4 pypath=$5 report=$6
  shift 6
  local -a l
  if [ "$h" = openmpi ]; then
    l=(mpiexec.openmpi --oversubscribe -n "$n" -x "MPIATTR_REPORT=$dir/$report")
    [ "$config" = preload ] && l+=(-x "LD_PRELOAD=$lib/libmpiattr_openmpi.so")
    [ -n "$pypath" ] && l+=(-x "PYTHONPATH=$pypath")
  else
    l=(mpiexec.mpich -n "$n" -genv MPIATTR_REPORT "$dir/$report")
    [ "$config" = preload ] && l+=(-genv LD_PRELOAD "$lib/libmpiattr_mpich.so")
  fi
  local rc=0
  (cd "$dir" && timeout 120 "${l[@]}" "$@") >>"$dir/stdout" 2>>"$dir/stderr" || rc=$?
  echo "$rc" >>"$dir/status"
}

# The outputs a run is judged by, in one file: its steps' exit statuses, its standard output
# (sorted: the ranks' lines reach mpiexec in any order) and each rank's lines, in rank order.
# `divergence` lines lose their values here.
outputs() {
  local dir=$1 n=$2 r
  echo "exit statuses: $(tr '\n' ' ' <"$dir/status")"
  echo "standard output:"
  sort "$dir/stdout"
  for r in $(seq 0 $((n - 1))); do
    echo "rank $r:"
    sed 's/^\(divergence [^:]*\):.*/\1/' "$dir/out.$r" 2>/dev/null || echo "(no out.$r)"
  done
}

# report_ok DIR N HOSTNAME PREFIX: each rank's report (DIR/PREFIX.<rank>) has its header and non-zero
# keyvals created and attributes set (the totals over comm, type and win).
report_ok() {
  local dir=$1 n=$2 hostname=$3 prefix=$4 r f
  for r in $(seq 0 $((n - 1))); do
    f=$dir/$prefix.$r
    [ -f "$f" ] || { echo "no report $f"; return 1; }
    grep -qx "mpiattr report: rank $r of $n, mpiattr over $hostname" "$f" || {
      echo "$f: no header for rank $r of $n over $hostname"
      return 1
    }
    grep -qx "mpiattr report: end" "$f" || { echo "$f: no end line"; return 1; }
    local what total
    for what in "keyvals created" "attributes set"; do
      total=$(sed -n "s/^mpiattr report: $what: comm \([0-9]*\), type \([0-9]*\), win \([0-9]*\)\$/\1 \2 \3/p" "$f" |
        awk '{ print $1 + $2 + $3 }')
      if [ -z "$total" ] || [ "$total" -eq 0 ]; then
        echo "$f: $what total is '${total:-missing}'"
        return 1
      fi
    done
  done
}

# divergences_ok DIR N: with mpiattr, each divergence line shows the standard's value.
divergences_ok() {
  local dir=$1 n=$2
  if grep -h '^divergence ' "$dir"/out.* | grep -v ': standard \(.*\) | this run \1$'; then
    echo "(above) mpiattr's answer is not the standard's"
    return 1
  fi
}

# case_ NAME HOST N STEP...: runs the steps, in order, in each of the three configurations, and
# judges them. A step is "STEPNAME:ARGS", ARGS the program's arguments with @DIR@ for the run's
# directory; its report prefix is report-STEPNAME. The program: $alone_prog (alone, preload) or
# $linked_prog (linked, then with PYTHONPATH=$pylinked when that is set), each split into words.
runs=0
case_() {
  local name=$1 h=$2 n=$3
  shift 3
  local t0=$SECONDS config hostname
  [ "$h" = openmpi ] && hostname="Open MPI" || hostname=MPICH
  for config in alone preload linked; do
    local dir=$tmp/runs/$name-$h-n$n-$config step
    mkdir -p "$dir"
    : >"$dir/status"
    for step in "$@"; do
      local stepname=${step%%:*} args=${step#*:}
      local -a argv
      read -r -a argv <<<"${args//@DIR@/$dir}"
      local prog
      case $config in
        linked) prog=${linked_prog} ;;
        *) prog=${alone_prog} ;;
      esac
      local pypath=""
      [ "$config" = linked ] && pypath=${pylinked:-}
      # shellcheck disable=SC2086  # the program may be an interpreter and a script
      launch "$h" "$n" "$dir" "$config" "$pypath" "report-$stepname.%r" $prog "${argv[@]}"
      runs=$((runs + 1))
    done
    outputs "$dir" "$n" >"$dir/outputs"
    if [ "$config" = alone ]; then
      if ls "$dir"/report-* >/dev/null 2>&1; then show "$dir"; fail "$name $h n=$n alone: a report (mpiattr was loaded)"; fi
      grep -q '^exit statuses: \(0 \)*$' "$dir/outputs" || { show "$dir"; fail "$name $h n=$n alone: a step failed"; }
      ! grep -q '^(no out\.' "$dir/outputs" || { show "$dir"; fail "$name $h n=$n alone: a rank wrote nothing"; }
      grep -h '^divergence ' "$dir"/out.0 | sed "s/^/  reallib: $name $h n=$n host alone: /" || true
      continue
    fi
    local ref=$tmp/runs/$name-$h-n$n-alone
    if ! diff -u "$ref/outputs" "$dir/outputs" >"$dir/diff"; then
      show "$dir"
      fail "$name $h n=$n $config: not what the host alone gave (diff above, in $dir/diff)"
    fi
    for step in "$@"; do
      local msg
      msg=$(report_ok "$dir" "$n" "$hostname" "report-${step%%:*}") || { show "$dir"; fail "$name $h n=$n $config: $msg"; }
      # The log shows rank 0's counts of each mpiattr run.
      echo "    $config ${step%%:*}, rank 0's report: $(sed -n 's/^mpiattr report: \(\(keyvals created\|attributes set\|delete callbacks\): .*\)/\1/p' \
        "$dir/report-${step%%:*}.0" | paste -sd';' | sed 's/;/; /g')"
    done
    local msg
    msg=$(divergences_ok "$dir" "$n") || { show "$dir"; fail "$name $h n=$n $config: $msg"; }
  done
  echo "  reallib: $name over $h at $n process(es): alone, preload, linked: ok ($((SECONDS - t0)) s)"
}

for n in 1 4; do
  alone_prog="$python $here/mpi4py_checks.py" linked_prog="$python $here/mpi4py_checks.py" \
    pylinked=$tmp/pylinked
  case_ mpi4py openmpi "$n" "atexit:@DIR@ atexit" "mpi4pyexit:@DIR@ mpi4py"
  pylinked=
  for h in openmpi mpich; do
    alone_prog=$bin/hdf5_${h}_alone linked_prog=$bin/hdf5_${h}_linked
    case_ hdf5 "$h" "$n" "write:@DIR@ @DIR@/data.h5 write" "check:@DIR@ @DIR@/data.h5 check"
  done
  alone_prog=$bin/boost_alone linked_prog=$bin/boost_linked
  case_ boost-mpi openmpi "$n" "boost:@DIR@"
  alone_prog=$bin/petsc_alone linked_prog=$bin/petsc_linked
  case_ petsc openmpi "$n" "ksp:@DIR@"
  alone_prog=$bin/libsc_alone linked_prog=$bin/libsc_linked
  case_ libsc openmpi "$n" "nodecomms:@DIR@"
done
echo "  reallib: $runs runs of mpiexec; with mpiattr, each as the host alone and reported: ok ($((SECONDS - started)) s)"
