"""Every public function, class and class member of the module is used by a test or a tested example:
a binding that no test touches is a binding nobody has seen work. The check reads the tests' and the
examples' syntax trees for the names they call, construct or read (attributes, names, keyword-free
imports), so renaming or adding a binding without a test fails here."""
import ast
import pathlib

import sinew._sinew as native

HERE = pathlib.Path(__file__).resolve().parent
# The files whose code runs under pytest: the tests (but not the stub and coverage checks, which only
# list names) and the examples, which test_examples.py runs.
EXERCISING = [p for p in sorted(HERE.glob("test_*.py")) if p.name not in ("test_stubs.py", "test_coverage.py")]
EXERCISING += sorted((HERE.parent / "examples").glob("*.py"))


def used_names():
    """Every identifier the exercising files use as a name, an attribute or an imported name."""
    names = set()
    for path in EXERCISING:
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Name):
                names.add(node.id)
            elif isinstance(node, ast.Attribute):
                names.add(node.attr)
            elif isinstance(node, ast.ImportFrom):
                names.update(alias.name for alias in node.names)
    return names


def bindings():
    """The module's public functions, and 'Class.member' for each public member of its classes. A class
    itself need not be named: the results (RunResult, KrylovResult, ...) come from calls, and are used
    through their members; a class without public members must be named."""
    out = []
    for name in dir(native):
        if name.startswith("_"):
            continue
        obj = getattr(native, name)
        if isinstance(obj, type) and not issubclass(obj, BaseException):
            members = [f"{name}.{m}" for m in vars(obj) if not m.startswith("_")]
            out.extend(members or [name])
        else:
            out.append(name)
    return out


def test_every_binding_is_used_by_a_test():
    used = used_names()
    unused = [b for b in bindings() if b.rsplit(".", 1)[-1] not in used]
    assert len(EXERCISING) > 10
    assert not unused, f"no test or example uses: {unused}"


def test_the_check_sees_an_unused_name():
    # The control: a name no file uses is reported.
    assert "no_binding_is_called_this" not in used_names()
