"""Runs UltraEval transform files for yardstick's python3 bridge.

One JSON object per line on stdin, one answer per line on stdout:
  in:  {"id", "root", "file", "data", "target_scores": [[option, score], ...], "num_sample", "dataset_name", "seed"}
  out: {"id", "ok": true, "result": {...}}  or  {"id", "ok": false, "error": <last traceback line>, "traceback": <all of it>}
The worker exits when stdin closes.
"""
import importlib.machinery
import importlib.util
import json
import os
import random
import sys
import traceback

# Answers go to the real stdout; anything a transform prints goes to stderr instead.
PROTOCOL_OUT = sys.stdout
sys.stdout = sys.stderr

_modules = {}
_roots = set()


def _put_root_on_path(root):
    """Transforms import `UltraEval.tasks...`: make the checkout importable under that name, whatever its folder is called."""
    if root in _roots:
        return
    _roots.add(root)
    if root not in sys.path:
        sys.path.insert(0, root)
    if os.path.basename(os.path.normpath(root)) == "UltraEval":
        parent = os.path.dirname(os.path.normpath(root))
        if parent not in sys.path:
            sys.path.insert(0, parent)
    elif "UltraEval" not in sys.modules:
        spec = importlib.machinery.ModuleSpec("UltraEval", None, is_package=True)
        spec.submodule_search_locations = [root]
        sys.modules["UltraEval"] = importlib.util.module_from_spec(spec)


def _transform_of(file):
    fn = _modules.get(file)
    if fn is None:
        name = "yardstick_ultraeval_transform_%d" % len(_modules)
        spec = importlib.util.spec_from_file_location(name, file)
        if spec is None or spec.loader is None:
            raise ImportError("cannot load %s as a Python module" % file)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        fn = getattr(module, "transform", None)
        if not callable(fn):
            raise AttributeError("%s defines no transform(data, num_sample, r, dataset_name) function" % file)
        _modules[file] = fn
    return fn


def _record(request):
    data = dict(request.get("data") or {})
    pairs = request.get("target_scores")
    if pairs is not None and ("target_scores" in data or pairs):
        # The pairs keep the file's option order, which the JSON object may have lost.
        data["target_scores"] = {k: v for k, v in pairs}
    return data


def _answer(request):
    _put_root_on_path(request["root"])
    fn = _transform_of(request["file"])
    rnd = random.Random(request.get("seed", 1234))
    return fn(_record(request), request.get("num_sample", 0), rnd, request.get("dataset_name", ""))


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        request_id = None
        try:
            request = json.loads(line)
            request_id = request.get("id")
            reply = {"id": request_id, "ok": True, "result": _answer(request)}
            text = json.dumps(reply, default=str)
        except BaseException as exc:  # noqa: BLE001 - every failure is reported to the caller
            if isinstance(exc, KeyboardInterrupt):
                raise
            lines = traceback.format_exception_only(type(exc), exc)
            text = json.dumps({"id": request_id, "ok": False, "error": lines[-1].strip(), "traceback": traceback.format_exc()})
        PROTOCOL_OUT.write(text + "\n")
        PROTOCOL_OUT.flush()


if __name__ == "__main__":
    main()
