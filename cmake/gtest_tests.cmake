# mpiattr_gtest_tests(TARGET [PREFIX p] [SUFFIX s] [EXTRA_ARGS a...] [TIMEOUT t] [LABELS l...]):
# registers a GoogleTest executable's cases with ctest (PREFIX names each case's test).
# Normally each case is one ctest test (gtest_discover_tests), so a failure names its case and
# `ctest -R` picks single cases. Under ASan + UBSan (MPIATTR_SANITIZE) the whole executable is one
# test: LeakSanitizer scans the library's static slot tables at every exit, about 0.7 s a process,
# and 630 one-case processes made the sanitizer stage 4 minutes longer than the same cases run
# once per executable. Every executable initialises MPI once for all its cases
# (tests/support/gtest_main.cc), so running them together is the way they were written to run.
include(GoogleTest)
function(mpiattr_gtest_tests target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "PREFIX;SUFFIX;TIMEOUT" "EXTRA_ARGS;LABELS")
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 120)
  endif()
  if(MPIATTR_SANITIZE)
    set(name "${target}${arg_SUFFIX}")
    add_test(NAME ${name} COMMAND ${target} ${arg_EXTRA_ARGS})
    math(EXPR timeout "${arg_TIMEOUT} * 5")
    set_tests_properties(${name} PROPERTIES TIMEOUT ${timeout} LABELS "${arg_LABELS}")
  else()
    gtest_discover_tests(${target} TEST_PREFIX "${arg_PREFIX}" TEST_SUFFIX "${arg_SUFFIX}"
                         EXTRA_ARGS ${arg_EXTRA_ARGS} DISCOVERY_TIMEOUT 60
                         PROPERTIES TIMEOUT ${arg_TIMEOUT} LABELS "${arg_LABELS}")
  endif()
endfunction()
