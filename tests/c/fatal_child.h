/* fatal_child.h: runs one MPI call in a forked child and reports how the child ended, with what
 * it wrote to stderr (for calls that must be fatal through the initial error handler, R10.5). */
#ifndef MPIATTR_TEST_FATAL_CHILD_H
#define MPIATTR_TEST_FATAL_CHILD_H
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

/* Calls call(which) in a child whose stderr goes into msg (at most cap bytes with the NUL).
 * Returns the child's exit status (42 if the call returned), or 128 + signal. */
static int run_child(void (*call)(int which), int which, char *msg, size_t cap) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    dup2(fds[1], 2);
    call(which);
    _exit(42); /* not reached if the call is fatal */
  }
  close(fds[1]);
  size_t n = 0;
  ssize_t r;
  while (n + 1 < cap && (r = read(fds[0], msg + n, cap - 1 - n)) > 0) n += (size_t)r;
  msg[n] = '\0';
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

#endif
