#!/usr/bin/env bash
# Runs every test: the spec checker, the C API tests, the C programs, the examples, the manual
# pages, the differential tests against MPICH and Open MPI, host mode over both under mpiexec,
# host mode in front of real libraries (mpi4py, parallel HDF5, Boost.MPI: tests/reallib/run.sh),
# the consumer test (an installed mpiattr used as its users would: tests/consumer/run.sh), the
# instruction-count guard (bench/icount.py: each hot path's instructions against its budget), the
# benchmark's quick mode as a smoke test (no timing is measured), the multithreaded stress tests
# under ThreadSanitizer, then the suite again (without the peers) under ASan + UBSan.
#
# It prints one line per stage and a summary; each stage's full output is in build/test-logs/
# (NN-stage.log). A failing stage stops the run and prints the end of its log. The last lines are
# ctest's own closing lines of the ASan + UBSan run, which CI reads. The sanitizer builds' configure
# steps run in the background beside the consumer stage and those after it (their stages wait for
# them and say so), since those leave a core idle (docs/decisions.md D75).
set -uo pipefail
cd "$(dirname "$0")"
jobs=$(nproc)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
logs=$PWD/build/test-logs
mkdir -p "$logs"
rm -f "$logs"/*.log
n=0
results=()
started=$SECONDS

# stage NAME COMMAND...: runs COMMAND with its output in build/test-logs/NN-NAME.log.
stage() {
  local name=$1; shift
  n=$((n + 1))
  log=$(printf '%s/%02d-%s.log' "$logs" "$n" "$name")
  printf '[%2d] %-44s ' "$n" "$name"
  local t0=$SECONDS rc=0
  "$@" >"$log" 2>&1 || rc=$?
  local took=$((SECONDS - t0))
  if [ $rc -ne 0 ]; then
    echo "FAILED (exit $rc, ${took} s)"
    echo "---- the last 60 lines of $log ----"
    tail -n 60 "$log"
    echo "---- full log: $log"
    results+=("$(printf '%-44s FAILED' "$name")")
    summary
    exit 1
  fi
  local note=""
  if grep -q "tests passed" "$log"; then  # a ctest run: its one-line verdict
    note=" - $(grep -E '^[0-9]+% tests passed' "$log" | tail -n 1)"
  fi
  echo "ok (${took} s)$note"
  results+=("$(printf '%-44s ok%s' "$name" "$note")")
}

# no_warnings LOG...: fails, listing them, if the compiler printed a warning in a build log.
no_warnings() {
  if grep -i -n -H "warning" "$@"; then
    echo "the build printed compiler warnings (above); fix their causes"
    return 1
  fi
  echo "no compiler warning in: $*"
}

# background NAME COMMAND...: starts COMMAND now, beside the stages that follow, its output in a log;
# `stage NAME joined NAME` later waits for it and reports it as that stage (its own duration, and
# the wait). For commands that are one process at a time (cmake configuring), put beside stages
# that leave a core idle (D75).
declare -A bg_pid bg_log
background() {
  local name=$1; shift
  bg_log[$name]=$logs/background-$name.log
  ( t0=$SECONDS; rc=0; "$@" || rc=$?; echo "$((SECONDS - t0))" >"${bg_log[$name]}.took"; exit $rc ) \
    >"${bg_log[$name]}" 2>&1 &
  bg_pid[$name]=$!
}
# A failing stage ends the run: what runs in the background finishes first (it is never killed).
trap 'for p in "${bg_pid[@]}"; do wait "$p" 2>/dev/null; done' EXIT
joined() {
  local name=$1 rc=0
  wait "${bg_pid[$name]}" || rc=$?
  cat "${bg_log[$name]}"
  echo "(started in the background; it took $(cat "${bg_log[$name]}.took" 2>/dev/null || echo '?') s there)"
  rm -f "${bg_log[$name]}" "${bg_log[$name]}.took"
  return $rc
}

summary() {
  echo "== summary ($((SECONDS - started)) s; logs in ${logs#"$PWD"/}) =="
  printf '  %s\n' "${results[@]}"
}

stage deps scripts/deps.sh libmpich-dev mpich libopenmpi-dev openmpi-bin libbenchmark-dev groff-base gdb \
  python3-mpi4py libhdf5-openmpi-dev libhdf5-mpich-dev libboost-mpi-dev libpetsc-real-dev libp4est-dev patchelf pkg-config

stage configure cmake -S . -B build -DPython3_EXECUTABLE=/usr/bin/python3 -DCMAKE_BUILD_TYPE=RelWithDebInfo
stage build cmake --build build -j"$jobs"
stage build-has-no-warnings no_warnings "$log"
stage ctest bash -c "cd build && ctest --output-on-failure -j$jobs"

# mpiattr in front of real libraries (mpi4py, parallel HDF5, Boost.MPI, PETSc, libsc):
# tests/reallib/run.sh.
stage real-libraries tests/reallib/run.sh build

# The sanitizer builds' configure steps (one process each, half a minute) run beside the consumer
# stage and those after it, which leave a core idle; their stages below wait for them (D75).
background tsan-configure cmake -S . -B build-tsan -DPython3_EXECUTABLE=/usr/bin/python3 \
      -DCMAKE_BUILD_TYPE=Debug -DMPIATTR_TSAN=ON -DMPIATTR_HOSTS=
background asan-configure cmake -S . -B build-asan -DPython3_EXECUTABLE=/usr/bin/python3 \
      -DCMAKE_BUILD_TYPE=Debug -DMPIATTR_SANITIZE=ON -DMPIATTR_HOSTS=

# An installed mpiattr used as its users would: find_package, pkg-config, the wrappers, a moved
# prefix, add_subdirectory, the .deb.
stage consumer env JOBS="$jobs" tests/consumer/run.sh build

# The instruction-count guard (D62, docs/performance.md): the instructions of each hot path under
# callgrind (a loaded machine cannot move them), standalone and over each host, at both thread
# levels, against bench/icount_budgets.json; it fails naming each path over its budget.
stage D62-icount-guard /usr/bin/python3 bench/icount.py --build-dir build -j"$jobs"

# The benchmark's quick mode builds the benchmark against the library just built and each peer and
# runs each once: a smoke test, no timing.
stage bench-smoke /usr/bin/python3 bench/run.py --quick --mpiattr-prefix build

stage tsan-configure joined tsan-configure
stage tsan-build cmake --build build-tsan -j"$jobs" --target test_r11_threads test_d20_lazy_keyval_counts test_d35_keyval_x_threads test_native_map c_D107_file_threads
stage tsan-build-has-no-warnings no_warnings "$log"
stage tsan-ctest bash -c "cd build-tsan && TSAN_OPTIONS=halt_on_error=1 ctest --output-on-failure -R '^(R11_|D20\.|D35\.|record_table\.|c_D107_file_threads$)'"

# Last: CI reads ctest's closing lines.
stage asan-configure joined asan-configure
stage asan-build cmake --build build-asan -j"$jobs"
stage asan-build-has-no-warnings no_warnings "$log"
stage asan-ctest bash -c "cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --output-on-failure -j$jobs -E '_(mpich|openmpi)_|^spec_pytest\$'"
asan_log=$log

summary
echo "== ctest's closing lines of the ASan + UBSan run =="
sed -n '/^[0-9]*% tests passed/,$p' "$asan_log"
