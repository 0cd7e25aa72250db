"""The type stubs (sinew/_sinew.pyi) name every public function, class and member of the module:
regenerate them with python/stubgen.sh when this fails."""
import ast
import pathlib

import sinew
import sinew._sinew as native


def stub_tree():
    path = pathlib.Path(native.__file__).with_name("_sinew.pyi")
    return ast.parse(path.read_text())


def test_stubs_cover_the_module():
    tree = stub_tree()
    top = {node.name: node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    public = [name for name in dir(native) if not name.startswith("_")]
    assert len(public) > 15
    missing = [name for name in public if name not in top]
    assert not missing, f"not in the stubs: {missing}"
    for name in public:
        obj = getattr(native, name)
        if not isinstance(obj, type) or issubclass(obj, BaseException):
            continue
        members = {n.name for n in top[name].body if isinstance(n, ast.FunctionDef)}
        absent = [m for m in vars(obj) if not m.startswith("_") and m not in members]
        assert not absent, f"{name}: not in the stubs: {absent}"


def test_every_public_name_has_a_docstring():
    for name in dir(native):
        if name.startswith("_"):
            continue
        obj = getattr(native, name)
        assert (obj.__doc__ or "").strip(), f"{name} has no docstring"
        if isinstance(obj, type) and not issubclass(obj, BaseException):
            for member, value in vars(obj).items():
                if not member.startswith("_"):
                    assert (value.__doc__ or "").strip(), f"{name}.{member} has no docstring"


def test_package_reexports_the_module():
    assert {n for n in dir(native) if not n.startswith("_")} <= set(sinew.__all__)
