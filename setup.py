"""Build hook: cffi compiles the native engines during `pip install` (metadata is in pyproject.toml)."""

from setuptools import setup

setup(
    cffi_modules=[
        "native/build_native.py:ffibuilder",
        "native/build_native.py:ffibuilder_asan",
    ]
)
