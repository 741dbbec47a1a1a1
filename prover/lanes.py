# SPDX-License-Identifier: Apache-2.0 OR MIT
"""From a finished execution to obligations: the loop-structure check (trip counts,
pointer steps, every output coefficient written exactly once, reads in bounds, in-place
safety) and the lane classes: each output coefficient's term with its own lane's inputs
renamed to canonical variables must mention no other input; identical terms (Z3 terms
are hash-consed) form one class, proved once for all its lanes."""
import time
import z3


class Failure(Exception):
    pass


def free_vars(e):
    seen, out, stack = set(), {}, [e]
    while stack:
        x = stack.pop()
        i = x.get_id()
        if i in seen:
            continue
        seen.add(i)
        if z3.is_const(x) and x.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            out[str(x)] = x
        else:
            stack.extend(x.children())
    return out


DEFAULT_TIMEOUT_MS = 120000


def prove(claim, timeout_ms=None, what=''):
    """claim valid? Returns seconds; raises Failure with a counterexample or 'unknown'."""
    if timeout_ms is None or timeout_ms > DEFAULT_TIMEOUT_MS:
        timeout_ms = DEFAULT_TIMEOUT_MS
    t = time.time()
    s = z3.Solver()
    s.set('timeout', timeout_ms)
    s.add(z3.Not(claim))
    r = s.check()
    dt = time.time() - t
    if r == z3.unsat:
        return dt
    if r == z3.sat:
        mdl = s.model()
        cex = ', '.join('%s=%s' % (d.name(), mdl[d]) for d in mdl.decls() if not d.name().startswith('init_'))
        raise Failure('%s: counterexample %s' % (what, cex[:400]))
    raise Failure('%s: unfinished (Z3 %s after %.0f s)' % (what, s.reason_unknown(), dt))


def check_structure(res, outputs, inputs, n=256, alias=(), in_sizes=None, rewritten=()):
    """outputs/inputs: base names. Every output dword 0..n-1 written exactly once (at
    least once for the outputs in rewritten, which alias nothing: an encoder whose stores
    overlap, proved by its final contents), nothing
    else written (but the stack, which machine.py confines to the declared frame); every
    base read only within its extent (an input's size, an output's 4 n bytes, or in_sizes
    for either; a read past an output buffer is as much outside the caller's memory as one
    past an input); with alias pairs (out, in): the first write of out[i] comes after the
    last read of in[i]."""
    in_sizes = in_sizes or {}
    writes, reads = {}, {}
    for step, kind, base, off, nb in res.m.trace:
        if base in ('rodata',):
            continue
        for b in range(off, off + nb):
            d = (writes if kind == 'w' else reads).setdefault(base, {})
            d.setdefault(b, []).append(step)
    for base in writes:
        if base not in outputs and base != 'stack':
            raise Failure('writes to %s, which is not an output' % base)
    for base, r in reads.items():
        if base == 'stack':
            continue
        if base not in inputs and base not in outputs:
            raise Failure('reads %s, which is neither an input nor an output' % base)
        size = in_sizes.get(base, 4 * n)
        bad = sorted(b for b in r if not 0 <= b < size)
        if bad:
            raise Failure('%s: read outside [0, %d) at byte %d' % (base, size, bad[0]))
    for o in outputs:
        w = writes.get(o, {})
        if sorted(w) != list(range(4 * n)):
            extra = sorted(set(w) - set(range(4 * n)))[:4]
            missing = sorted(set(range(4 * n)) - set(w))[:4]
            raise Failure('%s: bytes written are not exactly [0, %d): extra %s missing %s' % (o, 4 * n, extra, missing))
        many = [b for b, s in w.items() if len(s) != 1]
        if many and o not in rewritten:
            raise Failure('%s: byte %d written %d times (overlap)' % (o, many[0], len(w[many[0]])))
    for i in inputs:
        size = in_sizes.get(i, 4 * n)
        r = reads.get(i, {})
        bad = [b for b in r if not 0 <= b < size]
        if bad:
            raise Failure('%s: read outside [0, %d) at byte %d' % (i, size, bad[0]))
        if sorted(r) != list(range(size)):
            raise Failure('%s: not every input byte read' % i)
    for o, i in alias:
        w, r = writes.get(o, {}), reads.get(i, {})
        for b in range(4 * n):
            if b in r and min(w[b]) < max(r[b]):
                raise Failure('in place %s = %s: byte %d written before it is read' % (o, i, b))
    return {'back_edges': dict(res.back_edges), 'steps': res.steps}


def classes(terms_by_lane):
    """terms_by_lane: list of (lane, term, {input var name: canonical var}). Returns a
    list of (term with canonical variables, [lanes])."""
    out = {}
    for lane, t, ren in terms_by_lane:
        subs = [(v, c) for v, c in ren]
        c = z3.substitute(t, *subs) if subs else t
        fv = free_vars(c)
        allowed = {str(cv) for _, cv in ren}
        other = [k for k in fv if k not in allowed]
        if other:
            raise Failure('lane %d depends on %s (not its own inputs)' % (lane, ', '.join(sorted(other)[:4])))
        key = c.get_id()
        if key not in out:
            out[key] = (c, [])
        out[key][1].append(lane)
    return list(out.values())
