"""The ikshade Python package: `pip install ./python` (offline: Debian's setuptools, nothing
downloaded; there is no pyproject.toml on purpose, since one would make pip fetch a build backend).

The binding's struct layouts are not written by hand: gen_layout.c, compiled here against the
library's header, prints them (ikshade/_layout.py). The header is found through $IKSHADE_INCLUDE,
then the source tree this directory is in (../include), then `pkg-config --cflags ikshade` (an
installed prefix). The library is found at import time through $IKSHADE_LIB, then the build tree
next to this directory when there is one (BUILD, default ../build), then the prefix pkg-config named
when the package was built (its libdir, which the loader may not search), then the system's search.
"""
import os
import shlex
import subprocess
import sys
import tempfile

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


def include_flags():
    env = os.environ.get("IKSHADE_INCLUDE")
    if env:
        return ["-I" + env]
    tree = os.path.join(HERE, "..", "include")
    if os.path.isfile(os.path.join(tree, "ikshade", "ikshade.h")):
        return ["-I" + os.path.normpath(tree)]
    try:
        return shlex.split(subprocess.check_output(["pkg-config", "--cflags", "ikshade"], text=True))
    except (OSError, subprocess.CalledProcessError):
        sys.exit("ikshade: cannot find <ikshade/ikshade.h>: set IKSHADE_INCLUDE, or install libikshade "
                 "(make install) so that pkg-config finds it")


def layout_module():
    cc = os.environ.get("CC", "cc")
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "gen_layout")
        cmd = [cc, "-std=c11", "-Wall", "-Wextra", "-Werror", *include_flags(),
               os.path.join(HERE, "gen_layout.c"), "-o", exe]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            sys.exit(f"ikshade: gen_layout.c does not compile against this header ({' '.join(cmd)}):\n{r.stderr}")
        return subprocess.check_output([exe], text=True)


def prefix_library():
    """libikshade.so.1 of the prefix pkg-config knows (an installed libikshade), or None"""
    try:
        libdir = subprocess.check_output(["pkg-config", "--variable=libdir", "ikshade"], text=True,
                                         stderr=subprocess.DEVNULL).strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    lib = os.path.normpath(os.path.join(libdir, "libikshade.so.1"))
    return lib if libdir and os.path.exists(lib) else None


def project_version():
    """the library's version: the source tree's CMakeLists.txt, else the installed ikshade.pc"""
    import re
    try:
        with open(os.path.join(HERE, "..", "CMakeLists.txt")) as f:
            m = re.search(r"project\(ikshade VERSION ([0-9.]+)", f.read())
            if m:
                return m.group(1)
    except OSError:
        pass
    try:
        return subprocess.check_output(["pkg-config", "--modversion", "ikshade"], text=True).strip()
    except (OSError, subprocess.CalledProcessError):
        return "0"


class BuildPy(build_py):
    def run(self):
        super().run()
        pkg = os.path.join(self.build_lib, "ikshade")
        with open(os.path.join(pkg, "_layout.py"), "w") as f:
            f.write(layout_module())
        build = os.environ.get("IKSHADE_BUILD", os.path.join(HERE, "..", "build"))
        libpath = os.path.normpath(os.path.join(build, "libikshade.so"))
        with open(os.path.join(pkg, "_paths.py"), "w") as f:
            f.write("# where the package was built from: the library of that build tree, if it is there\n")
            f.write(f"BUILD_LIBRARY = {libpath!r} if __import__('os').path.exists({libpath!r}) else None\n")
            # an installed prefix the loader may not search (a user's ~/.local): its library by path, so
            # that the package needs neither LD_LIBRARY_PATH nor IKSHADE_LIB
            f.write(f"PREFIX_LIBRARY = {prefix_library()!r}\n")


setup(
    name="ikshade",
    version=project_version(),
    description="Shadertoy-style shaders and two-bone IK from Python, drawn by libikshade",
    packages=["ikshade"],
    package_data={"ikshade": ["py.typed", "*.pyi"]},
    python_requires=">=3.9",
    cmdclass={"build_py": BuildPy},
)
