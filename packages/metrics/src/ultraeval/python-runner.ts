/**
 * The Python side of function_execution: run one program the way UltraEval's check_correctness does
 * (upstream's reliability guard, output swallowed, stdin unreadable, `exec(program, {})` under a
 * SIGALRM time limit) and write the outcome as JSON to file descriptor 3.
 * The guard only stops accidents (deleting files, killing processes); it is not a sandbox.
 */
export const PYTHON_RUNNER = `
import builtins, contextlib, faulthandler, io, json, os, signal, sys

_write = os.write
_path, _timeout = sys.argv[1], float(sys.argv[2])
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
_status = "passed"
signal.signal(signal.SIGALRM, _on_alarm)
_guard()
try:
    with contextlib.redirect_stdout(_sink), contextlib.redirect_stderr(_sink):
        _stdin, sys.stdin = sys.stdin, _sink
        try:
            signal.setitimer(signal.ITIMER_REAL, _timeout)
            try:
                exec(_source, {})
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        finally:
            sys.stdin = _stdin
except _Timeout:
    _status = "timed out"
except BaseException as e:
    _status = "failed: " + str(e)
_write(3, json.dumps(_status).encode("utf-8"))
`;
