/* tests/reallib/petsc_ksp.c: PETSc (Debian's libpetsc-real-dev, built against Open MPI), a
 * numerical library that caches on every communicator it touches, on the host alone or with mpiattr.
 *
 *   petsc_ksp OUTDIR
 *
 * PETSc creates its keyvals in PetscInitialize (MPI_Comm_create_keyval through the C name) and, the
 * first time an object is made on a communicator, duplicates it (PetscCommDuplicate: MPI_Comm_dup)
 * and links the two by attributes: the inner communicator under Petsc_InnerComm_keyval on the
 * user's, the user's under Petsc_OuterComm_keyval on the inner one, a reference count and tag
 * counter under Petsc_Counter_keyval. The delete callback of the inner-communicator attribute
 * deletes an attribute of another communicator (MPI_Comm_delete_attr inside a delete callback), and
 * PetscFinalize frees its keyvals while attributes may still be set under them. With mpiattr in
 * front of the host those keyvals are mpiattr's: every one of these calls is answered by mpiattr.
 *
 * The program:
 *   - caches an attribute of its own on a duplicate of PETSC_COMM_WORLD (`user`), with a copy
 *     callback that adds one to the value: PETSc's MPI_Comm_dup copies it to the inner
 *     communicator, and the program's own dup to its duplicate;
 *   - solves a 1-D Laplace problem with KSP (CG, Jacobi) on `user` (PETSc frees the inner
 *     communicator with the last object on it: the copied value is deleted), keeps a vector there,
 *     and reads PETSc's attributes back through PETSc's own keyvals: the inner communicator under
 *     the inner keyval, `user` under the outer keyval, congruent with `user`;
 *   - duplicates `user` (PETSc's attributes have MPI_COMM_NULL_COPY_FN: the duplicate gets only the
 *     program's) and makes a vector there, which gets an inner communicator of its own;
 *   - frees `user` while a vector still lives on its inner communicator: PETSc's delete callback
 *     unlinks the two, the vector is still usable, and destroying it frees the inner communicator,
 *     which runs the program's delete callback for the value copied there;
 *   - makes a KSP on a communicator of MPI_Comm_split (every rank its own at 1 process, halves at 4).
 * Each rank writes its lines to OUTDIR/out.<rank> (compared by tests/reallib/run.sh between the host
 * alone and mpiattr); the exit status is 0 only if every check passed.
 */
#include <petscksp.h>
#include <petsc/private/petscimpl.h> /* PETSc's keyvals (Petsc_InnerComm_keyval, ...) */
#include <stdio.h>
#include <stdlib.h>

#include "reallib_out.h"

static int rank, size;

/* A PETSc or MPI call that must succeed. */
#define OK(call, what) CHECK((call) == 0, what)

/* The program's attribute: an int, one more at each duplication; deletions are counted by value. */
static int copies, deletes, deleted_values;
static int mine_copy(MPI_Comm comm, int key, void *extra, void *in, void *outp, int *flag) {
  (void)comm, (void)key, (void)extra;
  int *copy = malloc(sizeof *copy);
  if (copy == NULL) return MPI_ERR_NO_MEM;
  *copy = *(int *)in + 1;
  *(int **)outp = copy;
  *flag = 1;
  copies++;
  return MPI_SUCCESS;
}
static int mine_delete(MPI_Comm comm, int key, void *val, void *extra) {
  (void)comm, (void)key, (void)extra;
  deletes++;
  deleted_values += *(int *)val;
  free(val);
  return MPI_SUCCESS;
}

/* The value of `key` on comm as an int (-1: not set). */
static int mine_on(MPI_Comm comm, int key) {
  int *v = NULL, flag = 0;
  if (MPI_Comm_get_attr(comm, key, &v, &flag) != MPI_SUCCESS) return -2;
  return flag ? *v : -1;
}

/* Solves -u'' = 1 on n points per rank with CG + Jacobi on comm; says the iterations and residual. */
static void solve(MPI_Comm comm, const char *where) {
  const PetscInt n = 8;
  PetscMPIInt csize;
  MPI_Comm_size(comm, &csize);
  const PetscInt N = n * csize;
  Mat A;
  Vec x, b;
  KSP ksp;
  char what[128];
  snprintf(what, sizeof what, "%s: the matrix and vectors", where);
  OK(MatCreateAIJ(comm, n, n, N, N, 3, NULL, 2, NULL, &A) || MatCreateVecs(A, &x, &b), what);
  PetscInt lo, hi;
  MatGetOwnershipRange(A, &lo, &hi);
  for (PetscInt i = lo; i < hi; i++) {
    if (i > 0) MatSetValue(A, i, i - 1, -1.0, INSERT_VALUES);
    if (i < N - 1) MatSetValue(A, i, i + 1, -1.0, INSERT_VALUES);
    MatSetValue(A, i, i, 2.0, INSERT_VALUES);
  }
  MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY);
  MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY);
  VecSet(b, 1.0);
  KSPCreate(comm, &ksp);
  KSPSetOperators(ksp, A, A);
  KSPSetType(ksp, KSPCG);
  PC pc;
  KSPGetPC(ksp, &pc);
  PCSetType(pc, PCJACOBI);
  KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, 200);
  snprintf(what, sizeof what, "%s: KSPSolve", where);
  OK(KSPSolve(ksp, b, x), what);
  PetscInt its;
  KSPConvergedReason reason;
  KSPGetIterationNumber(ksp, &its);
  KSPGetConvergedReason(ksp, &reason);
  PetscReal xmax;
  VecMax(x, NULL, &xmax);
  say("%s: %d unknowns, CG converged (%s) in %d iterations, max u = %.6f", where, (int)N,
      reason > 0 ? "yes" : "no", (int)its, (double)xmax);
  /* The exact solution's maximum: u(i) = (i+1)(N-i)/2 at i = (N-1)/2. */
  const PetscInt m = (N - 1) / 2;
  snprintf(what, sizeof what, "%s: the solution's maximum", where);
  CHECK(reason > 0 && PetscAbsReal(xmax - (PetscReal)((m + 1) * (N - m)) / 2) < 1e-6, what);
  KSPDestroy(&ksp);
  VecDestroy(&x);
  VecDestroy(&b);
  MatDestroy(&A);
}

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  const char *dir = argv[1];
  if (PetscInitialize(&argc, &argv, NULL, NULL) != 0) return 1;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  if (open_out(dir, rank) != 0) return 1;
  say("rank %d of %d", rank, size);
  CHECK(Petsc_InnerComm_keyval != MPI_KEYVAL_INVALID && Petsc_OuterComm_keyval != MPI_KEYVAL_INVALID &&
            Petsc_Counter_keyval != MPI_KEYVAL_INVALID,
        "PETSc's keyvals exist after PetscInitialize");

  int key = MPI_KEYVAL_INVALID;
  OK(MPI_Comm_create_keyval(mine_copy, mine_delete, &key, NULL), "the program's keyval");
  MPI_Comm user;
  OK(MPI_Comm_dup(PETSC_COMM_WORLD, &user), "user = a dup of PETSC_COMM_WORLD");
  int *one = malloc(sizeof *one);
  *one = 1;
  OK(MPI_Comm_set_attr(user, key, one), "the program's attribute on user (1)");

  /* Objects on user: PETSc duplicates it once and links the two. */
  solve(user, "user");
  say("after the solve on user: %d copies, %d deletes (sum of values %d)", copies, deletes, deleted_values);
  CHECK(copies == 1 && deletes == 1 && deleted_values == 2,
        "PETSc's dup copied the program's attribute (2), and freeing the inner one with the last object deleted it");
  Vec keep;
  OK(VecCreateMPI(user, 4, PETSC_DECIDE, &keep), "a vector on user, kept");
  MPI_Comm inner;
  PetscObjectGetComm((PetscObject)keep, &inner);
  CHECK(inner != user, "the vector's communicator is PETSc's inner one");
  int cmp = MPI_UNEQUAL;
  MPI_Comm_compare(inner, user, &cmp);
  CHECK(cmp == MPI_CONGRUENT, "the inner communicator is congruent with user");
  void *v = NULL;
  int flag = 0;
  OK(MPI_Comm_get_attr(user, Petsc_InnerComm_keyval, &v, &flag), "get user's inner-communicator attribute");
  union {
    MPI_Comm comm;
    void *ptr;
  } u = {.ptr = v};
  CHECK(flag && u.comm == inner, "user's inner-communicator attribute is the vector's communicator");
  flag = 0;
  OK(MPI_Comm_get_attr(inner, Petsc_OuterComm_keyval, &v, &flag), "get the inner one's outer-communicator attribute");
  u.ptr = v;
  CHECK(flag && u.comm == user, "the inner communicator's outer-communicator attribute is user");
  flag = 0;
  OK(MPI_Comm_get_attr(inner, Petsc_Counter_keyval, &v, &flag), "get the inner one's counter attribute");
  CHECK(flag && v != NULL, "the inner communicator has PETSc's counter");
  say("user: the program's value %d, on the inner communicator %d (PETSc's dup copied it once)",
      mine_on(user, key), mine_on(inner, key));
  CHECK(mine_on(user, key) == 1 && mine_on(inner, key) == 2, "the program's values on user and inner");

  /* The program's dup: its attribute is copied, PETSc's (MPI_COMM_NULL_COPY_FN) are not. */
  MPI_Comm dup;
  OK(MPI_Comm_dup(user, &dup), "dup = a dup of user");
  flag = 1;
  OK(MPI_Comm_get_attr(dup, Petsc_InnerComm_keyval, &v, &flag), "get dup's inner-communicator attribute");
  CHECK(!flag, "dup has no inner communicator (PETSc's copy callback is MPI_COMM_NULL_COPY_FN)");
  CHECK(mine_on(dup, key) == 2, "dup has the program's value, copied (2)");
  Vec on_dup;
  OK(VecCreateMPI(dup, 4, PETSC_DECIDE, &on_dup), "a vector on dup");
  MPI_Comm dup_inner;
  PetscObjectGetComm((PetscObject)on_dup, &dup_inner);
  CHECK(dup_inner != dup && dup_inner != inner, "the vector on dup has an inner communicator of its own");
  CHECK(mine_on(dup_inner, key) == 3, "dup's inner communicator has the program's value, copied again (3)");
  OK(VecDestroy(&on_dup), "destroy the vector on dup (PETSc frees dup's inner communicator)");
  say("after the vector on dup: %d copies, %d deletes (sum of values %d)", copies, deletes, deleted_values);
  OK(MPI_Comm_free(&dup), "free dup");
  say("after dup's free: %d copies, %d deletes (sum of values %d)", copies, deletes, deleted_values);
  CHECK(copies == 4 && deletes == 3 && deleted_values == 7, "dup's inner communicator's value (3) and dup's (2) deleted");

  /* Free user while `keep` lives on its inner communicator: PETSc's delete callback unlinks them
   * (it deletes the outer-communicator attribute of the inner one, inside MPI_Comm_free). */
  OK(MPI_Comm_free(&user), "free user while a vector lives on its inner communicator");
  CHECK(user == MPI_COMM_NULL, "user is MPI_COMM_NULL");
  flag = 1;
  OK(MPI_Comm_get_attr(inner, Petsc_OuterComm_keyval, &v, &flag), "get the inner one's outer attribute again");
  CHECK(!flag, "PETSc's callback deleted the inner communicator's outer-communicator attribute");
  CHECK(mine_on(inner, key) == 2, "the inner communicator keeps the program's value");
  say("after user's free: %d copies, %d deletes (sum of values %d)", copies, deletes, deleted_values);
  VecSet(keep, 2.0);
  PetscReal norm = 0;
  OK(VecNorm(keep, NORM_1, &norm), "the kept vector is still usable");
  CHECK(norm == 8.0 * size, "its 1-norm");
  OK(VecDestroy(&keep), "destroy the kept vector (PETSc frees user's inner communicator)");
  say("after the kept vector: %d copies, %d deletes (sum of values %d)", copies, deletes, deleted_values);
  CHECK(deletes == 5 && deleted_values == 10, "user's value (1) and its inner communicator's (2) deleted");

  /* A split communicator (PetscSubcomm's way): halves at 4 processes, each rank alone at 1. */
  MPI_Comm half;
  OK(MPI_Comm_split(PETSC_COMM_WORLD, rank % 2, rank, &half), "split PETSC_COMM_WORLD in two");
  solve(half, "half");
  OK(MPI_Comm_free(&half), "free the half");

  /* Objects on PETSC_COMM_WORLD and PETSC_COMM_SELF, alive until PetscFinalize. */
  solve(PETSC_COMM_WORLD, "world");
  solve(PETSC_COMM_SELF, "self");
  OK(MPI_Comm_free_keyval(&key), "free the program's keyval");
  say("before PetscFinalize: %d copies, %d deletes", copies, deletes);
  OK(PetscFinalize(), "PetscFinalize (it finalizes MPI)");
  int finalized = 0;
  MPI_Finalized(&finalized);
  CHECK(finalized, "MPI is finalized");
  say("%s: %d failure(s)", failures ? "FAILED" : "passed", failures);
  fclose(out);
  return failures ? 1 : 0;
}
