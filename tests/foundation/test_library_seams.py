"""Where a class of ours still overrides a library's private method, the library is pinned and this
test fails the day the method changes (issue 43: "no override of a library's private methods, or, if one
stays, the library pinned and a test that fails when it changes").

Only companion/serving.py's Handler does, over gevent's pywsgi handler: gevent has no public hook for a
client's error, a write or an unexpected error's log line (its docstring says why each is needed).
tests/foundation/test_templating.py holds the languages' libraries to none at all.
"""

from __future__ import annotations

import inspect
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: the private methods of a library a class of ours overrides: (our class, the library's class) -> names
OVERRIDDEN = {
    ("companion.serving.Handler", "gevent.pywsgi.WSGIHandler"): ("_handle_client_error", "_sendall", "_log_error"),
}


def _class(dotted: str):
    module, _, name = dotted.rpartition(".")
    return getattr(__import__(module, fromlist=[name]), name)


def _ours():
    from tests.foundation.test_templating import _ours as walk

    return walk()


def test_each_private_method_we_override_is_still_there_with_the_arguments_we_take():
    for (ours, theirs), names in OVERRIDDEN.items():
        mine, base = _class(ours), _class(theirs)
        for name in names:
            assert name in vars(mine), f"{ours} no longer overrides {name}: take it out of OVERRIDDEN"
            assert hasattr(base, name), f"{theirs}.{name} is gone in this gevent: {ours}.{name} is never called"
            said = list(inspect.signature(getattr(base, name)).parameters)
            taken = list(inspect.signature(getattr(mine, name)).parameters)
            assert said == taken, f"{theirs}.{name} now takes {said}; {ours}.{name} takes {taken}"


def test_the_library_whose_private_methods_we_override_is_pinned_to_the_versions_tested():
    from importlib.metadata import version

    wanted = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    for _, theirs in OVERRIDDEN:
        package = theirs.split(".")[0]
        spec = next(d for d in wanted if re.match(rf"{package}\b", d))
        upper = re.search(r"<\s*(\d+)", spec)
        assert upper, f"pyproject.toml: {spec!r} has no upper bound, yet we override its private methods"
        assert int(version(package).split(".")[0]) < int(upper.group(1)), (package, version(package), spec)


def test_no_other_class_of_ours_overrides_a_private_method_of_gevent():
    allowed = {(ours, name) for (ours, _), names in OVERRIDDEN.items() for name in names}
    found = []
    for cls in _ours():
        theirs = [b for b in cls.__mro__[1:] if b.__module__.split(".")[0] == "gevent"]
        for name, value in vars(cls).items():
            if name.startswith("_") and not name.startswith("__") and callable(value):
                if any(name in vars(b) for b in theirs) and (f"{cls.__module__}.{cls.__qualname__}", name) not in allowed:
                    found.append(f"{cls.__module__}.{cls.__qualname__}.{name}")
    assert not found, "a new override of gevent's private methods: use its public API, or list it in OVERRIDDEN:\n" + "\n".join(found)
