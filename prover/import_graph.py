# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The prover's modules and which import which, read from the source (every import
statement, also one inside a function: a lazy import is still a dependency), and the
check that the graph has no cycle, so that the package can be read bottom up.

python3 -m prover.import_graph   prints each cycle and exits 1 if there is one."""
import ast
import os
import sys

PACKAGE = os.path.dirname(os.path.abspath(__file__))


def modules(root=PACKAGE):
    """module name -> path, for every .py of the package (subpackages as a.b)."""
    out = {}
    for d, _, files in os.walk(root):
        for f in files:
            if f.endswith('.py'):
                rel = os.path.relpath(os.path.join(d, f), root)[:-3].replace(os.sep, '.')
                out[rel[:-len('.__init__')] if rel.endswith('.__init__') else rel] = os.path.join(d, f)
    return out


def _resolve(name, level, current, known):
    """the package module an import names, or None for one outside the package."""
    if level == 0:
        if not name or name.split('.')[0] != 'prover':
            return None
        parts = name.split('.')[1:]
    else:
        here = current.split('.')[:-1] if current != '__init__' else []
        if level > 1:
            here = here[:len(here) - (level - 1)]
        parts = here + (name.split('.') if name else [])
    while parts and '.'.join(parts) not in known:
        parts = parts[:-1]
    return '.'.join(parts) if parts else '__init__'


def edges(root=PACKAGE):
    """module -> {(imported module, line)}; `from . import x` names module x."""
    known = modules(root)
    out = {}
    for mod, path in known.items():
        with open(path) as f:
            tree = ast.parse(f.read(), path)
        deps = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    t = _resolve(a.name, 0, mod, known)
                    if t:
                        deps.add((t, node.lineno))
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(node.module, node.level, mod, known)
                if base is None:
                    continue
                for a in node.names:
                    sub = (base + '.' + a.name) if base != '__init__' else a.name
                    deps.add((sub if sub in known else base, node.lineno))
        out[mod] = {(t, n) for t, n in deps if t != mod and t != '__init__'}
    return out


def cycles(graph):
    """the strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    succ = {m: sorted({t for t, _ in ds}) for m, ds in graph.items()}

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in succ.get(v, []):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))
    sys.setrecursionlimit(max(1000, 10 * len(succ)))
    for v in sorted(succ):
        if v not in index:
            visit(v)
    return out


def describe(graph, comp):
    """the imports inside one cycle, as 'a:line -> b'."""
    inside = set(comp)
    return ['%s:%d -> %s' % (m, n, t) for m in comp for t, n in sorted(graph[m]) if t in inside]


def main(root=PACKAGE, out=print):
    g = edges(root)
    bad = cycles(g)
    for comp in bad:
        out('import cycle: %s' % ' <-> '.join(comp))
        for line in describe(g, comp):
            out('    ' + line)
    if not bad:
        out('imports: %d modules, no cycle' % len(g))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
