/**
 * The Python side of function_execution: run one program the way UltraEval's check_correctness does
 * (upstream's reliability guard, output swallowed, stdin unreadable, `exec(program, {})` under a
 * SIGALRM time limit) and write the outcome as JSON to file descriptor 3.
 * With a third argument `capture` (LiveCodeBench), the program runs as a script instead: its stdout
 * is kept and reported with the status, `__name__` is "__main__", and `exit()` / `sys.exit(0)` end it
 * normally, as in a sandbox that runs the file.
 * Before the guard, the runner limits its own address space (RLIMIT_AS, argument 4 in bytes, 0 = none)
 * and CPU time (RLIMIT_CPU, argument 5 in seconds: SIGXCPU ends a program the wall-clock kill missed,
 * e.g. when the parent died); a MemoryError is reported as "failed: out of memory (limit N MiB)".
 * The guard only stops accidents (deleting files, killing processes); it is not a sandbox.
 */
export const PYTHON_RUNNER = `
import builtins, contextlib, faulthandler, io, json, os, resource, signal, sys

_write = os.write
_path, _timeout = sys.argv[1], float(sys.argv[2])
_capture = sys.argv[3] == "capture"
_memory, _cpu = int(sys.argv[4]), int(sys.argv[5])

def _limit(kind, soft, hard):
    _, current = resource.getrlimit(kind)
    if current != resource.RLIM_INFINITY:
        soft, hard = min(soft, current), min(hard, current)
    resource.setrlimit(kind, (soft, hard))

if _memory > 0:
    _limit(resource.RLIMIT_AS, _memory, _memory)
if _cpu > 0:
    _limit(resource.RLIMIT_CPU, _cpu, _cpu + 1)
del resource, _limit
with open(_path, encoding="utf-8") as _f:
    _source = _f.read()

class _Unreadable(io.StringIO):
    def read(self, *a, **k): raise IOError
    def readline(self, *a, **k): raise IOError
    def readlines(self, *a, **k): raise IOError
    def readable(self, *a, **k): return False

class _Timeout(Exception):
    pass

def _on_alarm(signum, frame):
    raise _Timeout("Timed out!")

def _guard():
    faulthandler.disable()
    if not _capture:
        builtins.exit = None
        builtins.quit = None
    builtins.help = None
    os.environ["OMP_NUM_THREADS"] = "1"
    for name in ("kill", "system", "putenv", "remove", "removedirs", "rmdir", "fchdir", "setuid", "fork",
                 "forkpty", "killpg", "rename", "renames", "truncate", "replace", "unlink", "fchmod", "fchown",
                 "chmod", "chown", "chroot", "lchflags", "lchmod", "lchown", "getcwd", "chdir"):
        setattr(os, name, None)
    import shutil, subprocess
    shutil.rmtree = None
    shutil.move = None
    shutil.chown = None
    subprocess.Popen = None
    for name in ("ipdb", "joblib", "resource", "psutil", "tkinter"):
        sys.modules[name] = None

_sink = _Unreadable()
_bytes = io.BytesIO()
_out = io.TextIOWrapper(_bytes, encoding="utf-8", errors="replace", write_through=True) if _capture else _sink
_status = "passed"
signal.signal(signal.SIGALRM, _on_alarm)
_guard()
try:
    with contextlib.redirect_stdout(_out), contextlib.redirect_stderr(_sink):
        _stdin, sys.stdin = sys.stdin, _sink
        try:
            signal.setitimer(signal.ITIMER_REAL, _timeout)
            try:
                exec(_source, {"__name__": "__main__"} if _capture else {})
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        finally:
            sys.stdin = _stdin
except _Timeout:
    _status = "timed out"
except MemoryError:
    _status = "failed: out of memory (limit %d MiB)" % (_memory >> 20) if _memory > 0 else "failed: out of memory"
except SystemExit as e:
    _status = "passed" if _capture and e.code in (None, 0) else "failed: " + str(e)
except BaseException as e:
    _status = "failed: " + str(e)
if _capture:
    try:
        _out.flush()
    except BaseException:
        pass
    _report = {"status": _status, "stdout": _bytes.getvalue().decode("utf-8", "replace")}
else:
    _report = _status
_data = json.dumps(_report).encode("utf-8")
while _data:
    _data = _data[_write(3, _data):]
`;
