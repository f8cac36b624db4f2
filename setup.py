"""The packages of the wheel. Everything else is in pyproject.toml; this file exists for what
pyproject.toml cannot say: the code's packages found in their folders, and beside them the docs and
the example specs as data of `rulewright` (rulewright/bundle/docs and rulewright/bundle/specs in
an installed package, read by `rulewright docs`), while the checkout keeps docs/ and specs/ where
they are. An editable install reads the checkout's own folders (rulewright/docs.py).
"""

from setuptools import find_namespace_packages, setup

DATA = {"rulewright.bundle.docs": "docs", "rulewright.bundle.specs": "specs"}

setup(
    packages=find_namespace_packages(include=["rulewright*", "compiler*", "runtime*", "generated*"])
    + list(DATA),
    package_dir=DATA,
)
