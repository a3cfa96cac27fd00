"""The C extension nccc._core of the package (pyproject.toml has the
rest). It is optional: without a compiler the package installs and runs
on its ctypes primitive (nccc/primitive.py)."""

from glob import glob

from setuptools import Extension, setup

setup(ext_modules=[Extension("nccc._core", sources=sorted(glob("core/*.c")),
                             libraries=["dl"], extra_compile_args=["-std=c11"],
                             optional=True)])
