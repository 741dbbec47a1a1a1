# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The build the prover proves: the options CMake compiles each generated .S with (its
compile_commands.json) and the libraries it links (libmldsa.a, libmldsa.so), for the
native x86-64 build and the AArch64 cross build.

A .S is preprocessed and assembled with exactly its recorded command (compiler, -D, -I,
-O, -f, -m ...; only the input and the output are the prover's), so an #ifdef NDEBUG,
__OPTIMIZE__ or MLDSA_HAVE_* in a generated file is read as the build reads it. A text
the build does not compile (a form the self-test or the differential check writes) is
read with the options the build gives that machine's .S files."""
import json
import os
import shlex

from .syntax import ParseError

ARCHIVE, SHARED = 'libmldsa.a', 'libmldsa.so'


class Build:
    def __init__(self, directory):
        self.dir = os.path.abspath(directory)
        path = os.path.join(self.dir, 'compile_commands.json')
        if not os.path.exists(path):
            raise ParseError('%s: no compile_commands.json (configure the build with CMake first: '
                             'ci/prove builds it)' % self.dir)
        with open(path) as f:
            entries = json.load(f)
        self.commands = {}
        for e in entries:
            if e['file'].endswith('.S'):
                args = e['arguments'] if 'arguments' in e else shlex.split(e['command'])
                self.commands[os.path.realpath(os.path.join(e['directory'], e['file']))] = \
                    (args[0], _options(args, e['file']))
        if not self.commands:
            raise ParseError('%s: the build compiles no .S (configured without assembly?)' % self.dir)
        self._members = self._shared = None

    def command(self, path):
        """(compiler, options) the build compiles path with, or its .S files' options."""
        got = self.commands.get(os.path.realpath(path))
        if got:
            return got
        common = set(self.commands.values())
        if len(common) != 1:
            raise ParseError('%s: not compiled by the build, whose .S files have %d different '
                             'option sets' % (path, len(common)))
        return next(iter(common))

    def compiles(self, path):
        return os.path.realpath(path) in self.commands

    def members(self):
        """(name, bytes) of each object in libmldsa.a."""
        if self._members is None:
            from .elf import archive_members
            with open(self._library(ARCHIVE), 'rb') as f:
                self._members = archive_members(f.read())
        return self._members

    def shared(self):
        """libmldsa.so as an elf.Object."""
        if self._shared is None:
            from .elf import Object
            with open(self._library(SHARED), 'rb') as f:
                self._shared = Object(f.read())
        return self._shared

    def _library(self, name):
        path = os.path.join(self.dir, name)
        if not os.path.exists(path):
            raise ParseError('%s: not built (cmake --build %s --target mldsa_static mldsa_shared)'
                             % (path, self.dir))
        return path


def _options(args, source):
    """a compile command without the compiler, -c, -o and its argument, and the source."""
    out, skip = [], False
    for a in args[1:]:
        if skip:
            skip = False
        elif a == '-o':
            skip = True
        elif a == '-c' or a == source or a.startswith('-o'):
            continue
        else:
            out.append(a)
    return tuple(out)


# machine ('x86' or 'a64') -> its Build; set once by the command line, before any parse
BUILDS = {}


def use(x86=None, a64=None):
    BUILDS.clear()
    if x86:
        BUILDS['x86'] = Build(x86)
    if a64:
        BUILDS['a64'] = Build(a64)


def of(arch):
    if arch not in BUILDS:
        raise ParseError('no %s build to take the options from (ci/prove --build DIR, '
                         '--build-aarch64 DIR)' % ('x86-64' if arch == 'x86' else 'AArch64'))
    return BUILDS[arch]
