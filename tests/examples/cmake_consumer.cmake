# cmake -D SOURCE=... -D BUILD=... -D MPIATTR_SOURCE_DIR=... -D PYTHON=... -P cmake_consumer.cmake:
# configures examples/cmake_consumer in a fresh BUILD directory, builds it and runs its programs
# (C, C++ and Fortran: mpiattr::mpiattr, mpiattr::cxx and mpiattr::fortran through add_subdirectory).
# Each step's output goes to BUILD.log; a failing step prints it and fails the test.
# The build type None (no flags: -O0, no -g): the test is about the targets add_subdirectory gives,
# and without optimisation, link-time optimisation or debugging information the copy of mpiattr
# builds in a fraction of the time (D75).
file(REMOVE_RECURSE ${BUILD})
set(_log ${BUILD}.log)
file(WRITE ${_log} "")
function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  file(APPEND ${_log} "== ${what}\n${out}\n")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake_consumer: ${what} failed (${rc}):\n${out}")
  endif()
  message(STATUS "cmake_consumer: ${what}: ok")
endfunction()
step("configure" ${CMAKE_COMMAND} -S ${SOURCE} -B ${BUILD} -DMPIATTR_SOURCE_DIR=${MPIATTR_SOURCE_DIR}
     -DPython3_EXECUTABLE=${PYTHON} -DMPIATTR_HOSTS= -DCMAKE_BUILD_TYPE=None)
step("build" ${CMAKE_COMMAND} --build ${BUILD} -j2)
foreach(program consumer consumer_cxx consumer_f08)
  step("run ${program}" ${BUILD}/${program})
endforeach()
