/* D8, D3: when a delete callback fails in MPI_Finalize, or in a free, the error names the object,
 * the attribute's keyval and the code the callback returned.
 *  - In forked children, under MPI_COMM_SELF's initial handler (MPI_ERRORS_ARE_FATAL): the message
 *    on stderr names them, both when the callback returns a value that is no MPI code and when it
 *    returns a valid class (which the call passes on as it is), for MPI_COMM_SELF's and
 *    MPI_COMM_WORLD's attributes.
 *  - In the parent, under MPI_ERRORS_RETURN: MPI_Error_string of what MPI_Finalize and
 *    MPI_Comm_free return says the same, for a named communicator and a freed keyval too. */
#include "fatal_child.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int del(MPI_Comm comm, int keyval, void *val, void *extra) {
  (void)comm; (void)keyval; (void)val;
  return (int)(MPI_Aint)extra;
}

/* Child `which`: 0, 1: MPI_COMM_SELF's callback returns 12345 / MPI_ERR_OTHER; 2: MPI_COMM_WORLD's
 * returns 12345. Writes "keyval=0x..." to stderr, then finalizes (fatal). */
static void finalize_failing(int which) {
  int key, x = 0;
  MPI_Init(NULL, NULL);
  MPI_Comm_create_keyval(NULL, del, &key, (void *)(MPI_Aint)(which == 1 ? MPI_ERR_OTHER : 12345));
  MPI_Comm_set_attr(which == 2 ? MPI_COMM_WORLD : MPI_COMM_SELF, key, &x);
  fprintf(stderr, "keyval=0x%x\n", (unsigned)key);
  fflush(stderr);
  MPI_Finalize();
}

static int has(const char *what, const char *text, const char *part) {
  if (strstr(text, part)) return 1;
  fprintf(stderr, "FAIL: %s: the message lacks \"%s\": '%s'\n", what, part, text);
  return 0;
}

int main(int argc, char **argv) {
  int failures = 0;
  const char *objects[] = {"communicator MPI_COMM_SELF", "communicator MPI_COMM_SELF", "communicator MPI_COMM_WORLD"};
  const char *codes[] = {"returned error code 12345", "returned error code 16", "returned error code 12345"};
  for (int i = 0; i < 3; ++i) {
    char msg[4096], what[64], key[64];
    unsigned k = 0;
    snprintf(what, sizeof what, "fatal MPI_Finalize, child %d", i);
    int st = run_child(finalize_failing, i, msg, sizeof msg);
    /* The exit status is the error's class, MPI_ERR_OTHER in each case (D150). */
    if (st != MPI_ERR_OTHER) {
      fprintf(stderr, "FAIL: %s: exit status %d, expected MPI_ERR_OTHER (%d): '%s'\n", what, st, MPI_ERR_OTHER, msg);
      ++failures;
    }
    const char *printed = strstr(msg, "keyval=0x");
    if (!printed || sscanf(printed, "keyval=0x%x", &k) != 1) { fprintf(stderr, "FAIL: %s: no keyval printed: '%s'\n", what, msg); ++failures; continue; }
    snprintf(key, sizeof key, "keyval 0x%x", k);
    failures += !has(what, msg, "mpiattr: fatal error in MPI_Finalize");
    failures += !has(what, msg, "MPI_ERR_OTHER");
    failures += !has(what, msg, objects[i]);
    failures += !has(what, msg, key);
    failures += !has(what, msg, codes[i]);
  }

  /* Under MPI_ERRORS_RETURN: the code's string. */
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  int kself, kfree, x = 0, len;
  char text[MPI_MAX_ERROR_STRING], key[64];
  MPI_Comm_create_keyval(NULL, del, &kfree, (void *)(MPI_Aint)777);
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  MPI_Comm_set_name(comm, "solver");
  MPI_Comm_set_attr(comm, kfree, &x);
  int kfree_value = kfree;
  MPI_Comm_free_keyval(&kfree); /* the attribute keeps it (R2.2) */
  int rc = MPI_Comm_free(&comm);
  MPI_Error_string(rc, text, &len);
  snprintf(key, sizeof key, "keyval 0x%x (freed by the program)", (unsigned)kfree_value);
  failures += !has("MPI_Comm_free", text, "MPI_Comm_free: the delete callback of");
  failures += !has("MPI_Comm_free", text, key);
  failures += !has("MPI_Comm_free", text, "(\"solver\")");
  failures += !has("MPI_Comm_free", text, "returned error code 777");

  MPI_Comm_create_keyval(NULL, del, &kself, (void *)(MPI_Aint)12345);
  MPI_Comm_set_attr(MPI_COMM_SELF, kself, &x);
  rc = MPI_Finalize();
  MPI_Error_string(rc, text, &len);
  snprintf(key, sizeof key, "keyval 0x%x", (unsigned)kself);
  failures += !has("MPI_Finalize", text, "MPI_Finalize: the delete callback of");
  failures += !has("MPI_Finalize", text, key);
  failures += !has("MPI_Finalize", text, "communicator MPI_COMM_SELF");
  failures += !has("MPI_Finalize", text, "returned error code 12345");
  return failures ? 1 : 0; /* MPI stays initialized after the failed finalize (D8) */
}
