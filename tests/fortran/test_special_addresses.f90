! The special addresses of `use mpi` (MPI-4.1 §3.5.4, §20.1.2), which mpif.h shares: MPI_IN_PLACE
! as a reduction's send buffer, MPI_STATUS_IGNORE that no routine writes, MPI_BOTTOM as a window's
! base; MPI_GET_ADDRESS; MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY as weights. test_special_addresses_f08.f90
! does the same through mpi_f08.
program test_special_addresses
  use mpi
  use ftest
  use, intrinsic :: iso_c_binding, only: c_loc
  implicit none
  integer, parameter :: ak = MPI_ADDRESS_KIND
  integer :: ierr, comm, req, win, source_before
  integer, target :: buf(4)
  integer(kind=ak) :: val, addr
  logical :: flag
  integer :: graph, nbr(1), dst(1), w(1), indegree, outdegree
  logical :: weighted

  call MPI_INIT(ierr)
  buf = [1, 2, 3, 4]
  call MPI_ALLREDUCE(MPI_IN_PLACE, buf, 4, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
  call expect_i('IN_PLACE allreduce, ierror', ierr, MPI_SUCCESS)
  call expect_l('IN_PLACE allreduce on one process keeps the buffer', all(buf == [1, 2, 3, 4]), .true.)

  source_before = MPI_STATUS_IGNORE(MPI_SOURCE)
  call MPI_COMM_IDUP(MPI_COMM_WORLD, comm, req, ierr)
  call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
  call expect_i('STATUS_IGNORE wait, ierror', ierr, MPI_SUCCESS)
  call expect_l('STATUS_IGNORE is not written', MPI_STATUS_IGNORE(MPI_SOURCE) == source_before, .true.)

  call MPI_GET_ADDRESS(buf, addr, ierr)
  call expect_l('GET_ADDRESS of a buffer is its address', addr == transfer(c_loc(buf), addr), .true.)
  call MPI_WIN_CREATE(MPI_BOTTOM, 0_ak, 1, MPI_INFO_NULL, MPI_COMM_SELF, win, ierr)
  call expect_i('BOTTOM window, ierror', ierr, MPI_SUCCESS)
  call MPI_WIN_GET_ATTR(win, MPI_WIN_BASE, val, flag, ierr)
  call expect_l('BOTTOM window, MPI_WIN_BASE is 0', flag .and. val == 0_ak, .true.)
  call MPI_WIN_FREE(win, ierr)

  ! MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY as weights arrays (MPI-4.1 §8.5.4): one edge from and to
  ! the process itself, unweighted; then no edge, weighted.
  nbr = 0
  dst = -1
  call MPI_DIST_GRAPH_CREATE_ADJACENT(MPI_COMM_WORLD, 1, nbr, MPI_UNWEIGHTED, 1, nbr, &
                                      MPI_UNWEIGHTED, MPI_INFO_NULL, .false., graph, ierr)
  call expect_i('UNWEIGHTED distributed graph, ierror', ierr, MPI_SUCCESS)
  call MPI_DIST_GRAPH_NEIGHBORS_COUNT(graph, indegree, outdegree, weighted, ierr)
  call expect_i('UNWEIGHTED graph, indegree', indegree, 1)
  call expect_l('UNWEIGHTED graph is not weighted', weighted, .false.)
  call MPI_DIST_GRAPH_NEIGHBORS(graph, 1, nbr, MPI_UNWEIGHTED, 1, dst, w, ierr)
  call expect_i('UNWEIGHTED neighbours, ierror', ierr, MPI_SUCCESS)
  call expect_i('UNWEIGHTED neighbours, the source', nbr(1), 0)
  call expect_i('UNWEIGHTED neighbours, the destination', dst(1), 0)
  call MPI_COMM_FREE(graph, ierr)
  call MPI_DIST_GRAPH_CREATE_ADJACENT(MPI_COMM_WORLD, 0, nbr, MPI_WEIGHTS_EMPTY, 0, nbr, &
                                      MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, .false., graph, ierr)
  call expect_i('WEIGHTS_EMPTY distributed graph, ierror', ierr, MPI_SUCCESS)
  call MPI_DIST_GRAPH_NEIGHBORS_COUNT(graph, indegree, outdegree, weighted, ierr)
  call expect_i('WEIGHTS_EMPTY graph, outdegree', outdegree, 0)
  call expect_l('WEIGHTS_EMPTY graph is weighted', weighted, .true.)
  call MPI_COMM_FREE(graph, ierr)

  call MPI_COMM_FREE(comm, ierr)
  call MPI_FINALIZE(ierr)
  call ftest_finish()
end program test_special_addresses
