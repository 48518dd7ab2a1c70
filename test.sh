#!/usr/bin/env bash
# Runs every test: the spec checker, the C API tests, the C programs, the differential tests
# against MPICH and Open MPI, host mode over both under mpiexec, the benchmark's quick mode as a smoke test (no timing is judged),
# the multithreaded stress tests under ThreadSanitizer, then the suite again (without the peers)
# under ASan + UBSan.
set -euo pipefail
cd "$(dirname "$0")"
scripts/deps.sh libmpich-dev mpich libopenmpi-dev openmpi-bin libbenchmark-dev groff-base
jobs=$(nproc)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

echo "== build and test =="
cmake -S . -B build -DPython3_EXECUTABLE=/usr/bin/python3 -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$jobs"
(cd build && ctest --output-on-failure -j"$jobs")

echo "== benchmark smoke test (bench/run.py --quick) =="
/usr/bin/python3 bench/run.py --quick

echo "== ThreadSanitizer: the multithreaded stress tests =="
cmake -S . -B build-tsan -DPython3_EXECUTABLE=/usr/bin/python3 -DCMAKE_BUILD_TYPE=Debug \
      -DMPIATTR_TSAN=ON -DMPIATTR_HOSTS= >/dev/null
cmake --build build-tsan -j"$jobs" --target test_r11_threads
(cd build-tsan && TSAN_OPTIONS=halt_on_error=1 ctest --output-on-failure -R '^R11_')

echo "== ASan + UBSan build and test (last: CI reads ctest's closing lines) =="
cmake -S . -B build-asan -DPython3_EXECUTABLE=/usr/bin/python3 -DCMAKE_BUILD_TYPE=Debug \
      -DMPIATTR_SANITIZE=ON -DMPIATTR_HOSTS= >/dev/null
cmake --build build-asan -j"$jobs"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
   ctest --output-on-failure -j"$jobs" -E '_(mpich|openmpi)_|^spec_pytest$')
