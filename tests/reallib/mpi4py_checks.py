"""tests/reallib/mpi4py_checks.py: mpi4py (Debian's python3-mpi4py, over Open MPI) with or without mpiattr.

    python3 mpi4py_checks.py OUTDIR atexit|mpi4py

The equivalent, through mpi4py's API, of the attribute, communicator, datatype, window and
environment tests of mpi4py 3.1.4's own test/ folder (not packaged by Debian): keyvals created with
Python copy and delete callbacks on communicators, datatypes and windows; set, get, delete, free
of keyvals; the predefined attributes (read after a user attribute is set on the same object);
Dup, Clone, Dup_with_info, Idup, Split, Create and Free with attributes copied or not as the copy
callback says; Datatype.Dup; windows from Win.Create and Win.Allocate; the environment; and
mpi4py's own caching: its pickle-based operations (allgather, allreduce) keep their context in an
attribute of a keyval mpi4py creates.

At the end attributes are left on COMM_SELF and COMM_WORLD. With `atexit`, a Python atexit handler
calls MPI.Finalize, so their Python delete callbacks run inside MPI_Finalize while the interpreter
is alive and write a line each (COMM_SELF's newest first, then COMM_WORLD's). With `mpi4py`, MPI is
left to mpi4py's own exit hook (Py_AtExit, after the interpreter is finalized, when mpi4py calls no
Python callback any more): only its exit status and mpiattr's report tell that MPI_Finalize ran.

Each rank writes its lines to OUTDIR/out.<rank> (tests/reallib/run.sh compares them between the
host alone and mpiattr); the exit status is 0 only if every check passed on every rank.
"""
import atexit
import os
import sys

from mpi4py import MPI

outdir, finalize_mode = sys.argv[1], sys.argv[2]
assert finalize_mode in ("atexit", "mpi4py"), finalize_mode
world = MPI.COMM_WORLD
rank, size = world.Get_rank(), world.Get_size()
out = open(os.path.join(outdir, f"out.{rank}"), "w")
failures = 0


def say(line):
    out.write(line + "\n")
    out.flush()


def check(ok, what):
    global failures
    say(("ok " if ok else "FAIL ") + what + ("" if ok else f" (events: {events_seen})"))
    if not ok:
        failures += 1


# What the callbacks saw, in order: ("copy" | "delete", kind, value).
events = []


def callbacks(kind, suffix="+"):
    """A copy callback that copies VALUE as VALUE + SUFFIX, and a delete callback; both record."""

    def copy_fn(obj, keyval, value):
        events.append(("copy", kind, value))
        return value + suffix

    def delete_fn(obj, keyval, value):
        events.append(("delete", kind, value))

    return copy_fn, delete_fn


events_seen = []  # what the last taken() returned, shown by a failing check


def taken():
    """The events recorded since the last call."""
    events_seen[:] = events
    events.clear()
    return list(events_seen)


say(f"rank {rank} of {size}: mpi4py {finalize_mode}")

# ---- environment ---------------------------------------------------------------------------------
check(MPI.Is_initialized() and not MPI.Is_finalized(), "Is_initialized, not Is_finalized")
say(f"Get_version: {MPI.Get_version()}, vendor: {MPI.get_vendor()}")
library = MPI.Get_library_version().replace("\0", "").splitlines()[0].strip()
say(f"Get_library_version: {library}")
name = MPI.Get_processor_name()
check(isinstance(name, str) and len(name) > 0, "Get_processor_name")
names = world.allgather(name)
check(len(set(names)) == 1, "one processor name on every rank (one machine)")
t0 = MPI.Wtime()
t1 = MPI.Wtime()
check(0 <= t1 - t0 < 10 and MPI.Wtick() > 0, "Wtime increases, Wtick is positive")
check(MPI.Query_thread() in (MPI.THREAD_SINGLE, MPI.THREAD_FUNNELED, MPI.THREAD_SERIALIZED,
                             MPI.THREAD_MULTIPLE), "Query_thread")
say(f"thread level: {MPI.Query_thread()}")

# ---- communicator attributes ---------------------------------------------------------------------
copy_fn, delete_fn = callbacks("comm")
key = MPI.Comm.Create_keyval(copy_fn, delete_fn)
check(key != MPI.KEYVAL_INVALID, "Comm.Create_keyval with Python callbacks")
world.Set_attr(key, "w")
check(world.Get_attr(key) == "w", "Set_attr, Get_attr on COMM_WORLD")

# The predefined attributes, after a user attribute was set on COMM_WORLD: the host's values.
tag_ub = world.Get_attr(MPI.TAG_UB)
check(isinstance(tag_ub, int) and tag_ub >= 32767, f"TAG_UB after a user attribute: {tag_ub}")
for pname in ("HOST", "IO", "WTIME_IS_GLOBAL", "APPNUM", "UNIVERSE_SIZE", "LASTUSEDCODE"):
    say(f"COMM_WORLD {pname}: {world.Get_attr(getattr(MPI, pname))!r}")

keep = MPI.Comm.Create_keyval(True, delete_fn)  # copy_fn=True: copied as it is (MPI_COMM_DUP_FN)
skip = MPI.Comm.Create_keyval(None, delete_fn)  # None: never copied (MPI_COMM_NULL_COPY_FN)
refuse = MPI.Comm.Create_keyval(lambda obj, k, v: NotImplemented, delete_fn)  # copies nothing
world.Set_attr(keep, "k")
world.Set_attr(skip, "s")
world.Set_attr(refuse, "r")
taken()

dup = world.Dup()
check(taken() == [("copy", "comm", "w")], "Dup runs the copy callback once")
check(dup.Get_attr(key) == "w+", "Dup: the copy callback's value")
check(dup.Get_attr(keep) == "k", "Dup: copy_fn=True copies the value as it is")
check(dup.Get_attr(skip) is None and dup.Get_attr(refuse) is None,
      "Dup: copy_fn=None and a copy_fn returning NotImplemented copy nothing")
clone = dup.Clone()
check(clone.Get_attr(key) == "w++" and clone.Get_attr(keep) == "k", "Clone of the duplicate")
info = MPI.Info.Create()
withinfo = world.Dup_with_info(info)
info.Free()
check(withinfo.Get_attr(key) == "w+", "Dup_with_info")
idup, request = world.Idup()
request.Wait()
check(idup.Get_attr(key) == "w+", "Idup, once complete")
split = world.Split(rank % 2, rank)
check(split.Get_attr(key) is None and split.Get_attr(keep) is None, "Split copies no attribute")
created = world.Create(world.Get_group())
check(created.Get_attr(key) is None, "Create copies no attribute")
taken()

dup.Set_attr(key, "replaced")  # replaces "w+": its delete callback runs
check(taken() == [("delete", "comm", "w+")], "Set_attr again deletes the old value")
dup.Delete_attr(key)
check(taken() == [("delete", "comm", "replaced")] and dup.Get_attr(key) is None, "Delete_attr")
for c in (dup, clone, withinfo, idup, split, created):
    c.Free()
seen = taken()
check(sorted(seen) == sorted([("delete", "comm", v) for v in ("k", "w++", "k", "w+", "k", "w+", "k")]),
      "Free runs the delete callbacks of what is left")
check(dup == MPI.COMM_NULL, "Free sets COMM_NULL")

fail_key = MPI.Comm.Create_keyval(lambda obj, k, v: 1 // 0, delete_fn)
world.Set_attr(fail_key, "f")
sys.stderr = open(os.devnull, "w")  # mpi4py prints the callback's traceback
try:
    bad = world.Dup()
    check(False, "a copy callback that raises fails the Dup")
    bad.Free()
except MPI.Exception as e:
    check(e.Get_error_class() != MPI.SUCCESS, "a copy callback that raises fails the Dup")
sys.stderr = sys.__stderr__
world.Delete_attr(fail_key)
MPI.Comm.Free_keyval(fail_key)
taken()

# Free_keyval: the keyval's attributes stay until their objects go (COMM_WORLD's: at finalize).
for k in (keep, skip, refuse):
    world.Delete_attr(k)
for k in (keep, skip, refuse):
    check(MPI.Comm.Free_keyval(k) == MPI.KEYVAL_INVALID, "Comm.Free_keyval")
check(world.Get_attr(key) == "w", "COMM_WORLD keeps its attribute")
check(taken() == [("delete", "comm", v) for v in ("k", "s", "r")], "Delete_attr on COMM_WORLD")

# ---- datatype attributes -------------------------------------------------------------------------
tcopy, tdelete = callbacks("type", "#")
tkey = MPI.Datatype.Create_keyval(tcopy, tdelete)
pair = MPI.INT.Create_contiguous(2).Commit()
pair.Set_attr(tkey, "t")
check(pair.Get_attr(tkey) == "t", "Datatype Set_attr, Get_attr")
pair2 = pair.Dup()
check(pair2.Get_attr(tkey) == "t#" and taken() == [("copy", "type", "t")],
      "Datatype.Dup copies through the copy callback")
check(pair2.Get_size() == 8 and pair2.Get_extent() == pair.Get_extent(), "the duplicate's layout")
pair2.Free()
check(taken() == [("delete", "type", "t#")], "Datatype.Free deletes")
MPI.DOUBLE.Set_attr(tkey, "d")
check(MPI.DOUBLE.Get_attr(tkey) == "d", "an attribute on a predefined datatype")
MPI.DOUBLE.Delete_attr(tkey)
pair.Delete_attr(tkey)
check(taken() == [("delete", "type", "d"), ("delete", "type", "t")], "Datatype Delete_attr")
pair.Set_attr(tkey, "t2")
pair.Free()
check(taken() == [("delete", "type", "t2")], "Datatype.Free of the original")
check(MPI.Datatype.Free_keyval(tkey) == MPI.KEYVAL_INVALID, "Datatype.Free_keyval")

# ---- window attributes ---------------------------------------------------------------------------
wcopy, wdelete = callbacks("win")
wkey = MPI.Win.Create_keyval(wcopy, wdelete)
# The windows are made on a communicator that carries no attribute: see the divergence below.
plain = world.Split(0, rank)
memory = bytearray(8 * 4)
win = MPI.Win.Create(memory, disp_unit=4, comm=plain)
win.Set_attr(wkey, "c")
check(win.Get_attr(wkey) == "c", "Win Set_attr, Get_attr (Win.Create)")
base = MPI.memory.frombuffer(memory).address
check(win.Get_attr(MPI.WIN_BASE) == base, "WIN_BASE after a user attribute")
check(win.Get_attr(MPI.WIN_SIZE) == 32 and win.Get_attr(MPI.WIN_DISP_UNIT) == 4,
      "WIN_SIZE, WIN_DISP_UNIT")
check(win.Get_attr(MPI.WIN_CREATE_FLAVOR) == MPI.WIN_FLAVOR_CREATE, "WIN_CREATE_FLAVOR: create")
check(win.Get_attr(MPI.WIN_MODEL) in (MPI.WIN_SEPARATE, MPI.WIN_UNIFIED), "WIN_MODEL")
say(f"WIN_MODEL: {'unified' if win.Get_attr(MPI.WIN_MODEL) == MPI.WIN_UNIFIED else 'separate'}")
# One-sided traffic on the window: each rank puts its rank into its right neighbour's first slot.
win.Fence()
win.Put(bytearray(rank.to_bytes(4, sys.byteorder)), (rank + 1) % size, 0)
win.Fence()
check(int.from_bytes(memory[:4], sys.byteorder) == (rank - 1) % size, "Put between fences")
win.Free()
check(taken() == [("delete", "win", "c")], "Win.Free deletes")
allocated = MPI.Win.Allocate(64, comm=plain)
allocated.Set_attr(wkey, "a")
check(allocated.Get_attr(MPI.WIN_CREATE_FLAVOR) == MPI.WIN_FLAVOR_ALLOCATE
      and allocated.Get_attr(MPI.WIN_SIZE) == 64, "Win.Allocate: flavor and size")
allocated.Delete_attr(wkey)
allocated.Set_attr(wkey, "a2")
allocated.Free()
check(taken() == [("delete", "win", "a"), ("delete", "win", "a2")], "Win Delete_attr, Free")
check(MPI.Win.Free_keyval(wkey) == MPI.KEYVAL_INVALID, "Win.Free_keyval")
plain.Free()

# A window made on COMM_WORLD, which carries an attribute with a copy callback: the standard runs
# copy callbacks only in the duplication routines (MPI-4.1 §8.7.2), never on a communicator the
# program does not hold. Open MPI 4.1.4 alone duplicates the communicator inside MPI_Win_create
# and MPI_Win_free frees it, running the program's copy and delete callbacks on that hidden
# communicator (its osc components call ompi_comm_dup). A `divergence` line: run.sh requires the
# standard's value with mpiattr and only logs the host alone's.
taken()
hidden = MPI.Win.Create(memory, disp_unit=4, comm=world)
hidden.Free()
ran = [e for e in taken() if e[1] == "comm"]
say(f"divergence window-creation-runs-no-comm-callback: standard 0 | this run {len(ran)}")

# ---- left at exit --------------------------------------------------------------------------------
def at_exit(obj, keyval, value):
    where = "COMM_SELF" if obj == MPI.COMM_SELF else "COMM_WORLD" if obj == MPI.COMM_WORLD else "?"
    say(f"at exit: {where}'s attribute {value} deleted")


for value in ("first", "second", "third"):  # deleted newest first (MPI-4.1 §12.2.4)
    exit_key = MPI.Comm.Create_keyval(None, at_exit)
    MPI.COMM_SELF.Set_attr(exit_key, value)
    if value == "third":
        world.Set_attr(exit_key, "world")
    MPI.Comm.Free_keyval(exit_key)  # the attributes stay
world.Delete_attr(key)  # the first keyval's value, deleted now; its keyval freed
MPI.Comm.Free_keyval(key)
check(taken() == [("delete", "comm", "w")], "the last Delete_attr")

total = world.allreduce(failures)
say(f"failures on all ranks before exit: {total}")
if finalize_mode == "atexit":
    def finalize():
        MPI.Finalize()
        say(f"after MPI.Finalize: Is_finalized {MPI.Is_finalized()}")

    atexit.register(finalize)
sys.exit(0 if total == 0 else 1)
