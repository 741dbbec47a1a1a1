# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Everything the generator writes, as {path relative to asm_out/: text}.

Kernels: every templates/kernels/<kernel>.S.j2 is rendered once per ISA of gen.isa.ISAS
into asm_out/<isa>/<kernel>.S. The template sees `isa` (gen.isa.Isa), `c`
(gen.constants), `kernel` and `template`, plus whatever gen/kernels/<kernel>.py returns
from context(isa) when that module exists (tables in the order that ISA consumes them).
"""

import importlib
from pathlib import Path

import jinja2

import dataclasses

from . import constants, cpuid, hwcap, keccak, mcdt
from .flavour import FLAVOURS, kernel_arguments
from .isa import ISAS

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
OUT = ROOT / "asm_out"


def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        undefined=jinja2.StrictUndefined,   # a misspelt name is an error, not ""
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def scalar_outputs(env: jinja2.Environment) -> dict:
    text = env.get_template("c/zetas.h.j2").render(
        zetas=constants.zetas_montgomery(),
        invntt_scale=constants.invntt_scale_montgomery(),
        invntt_scale_zeta=constants.invntt_last_twiddle_scaled(),
        qinv=constants.signed32(constants.QINV),
    )
    keccak_text = env.get_template("c/keccak_constants.h.j2").render(
        rc=[f"0x{v:016x}ULL" for v in keccak.round_constants()], rho=keccak.rho_offsets())
    keccak_f = env.get_template("c/keccak_f1600.h.j2").render(
        round_a_to_e=keccak.round_statements_complemented("a", "e"),
        round_e_to_a=keccak.round_statements_complemented("e", "a"),
        complemented=keccak.COMPLEMENTED, a=keccak.lane_names("a"), lanes=keccak.lane_names)
    return {"scalar/zetas.h": text, "scalar/keccak_constants.h": keccak_text,
            "scalar/keccak_f1600.h": keccak_f}


def kernel_context(kernel: str, isa) -> dict:
    try:
        mod = importlib.import_module(f"gen.kernels.{kernel}")
    except ModuleNotFoundError as e:
        if e.name != f"gen.kernels.{kernel}" and e.name != "gen.kernels":
            raise
        return {}
    return mod.context(isa)


def kernel_outputs(env: jinja2.Environment) -> dict:
    """asm_out/[<flavour>/]<isa>/<kernel>.S for every flavour of gen/flavour.py that serves
    the ISA's architecture (ELF without a flavour directory: the files the prover reads)."""
    out = {}
    nargs = kernel_arguments()
    for path in sorted((TEMPLATES / "kernels").glob("*.S.j2")):
        kernel = path.name[: -len(".S.j2")]
        template = f"kernels/{path.name}"
        for base in ISAS.values():
            for fmt in FLAVOURS.values():
                if base.arch not in fmt.arches:
                    continue
                isa = dataclasses.replace(base, fmt=fmt)
                ctx = dict(isa=isa, c=constants, kernel=kernel, template=template)
                ctx.update(kernel_context(kernel, isa))
                text = fmt.finish(isa, env.get_template(template).render(**ctx), nargs)
                where = f"{fmt.subdir}/" if fmt.subdir else ""
                out[f"{where}{isa.name}/{kernel}.S"] = text
    return out


def gate_outputs(env: jinja2.Environment) -> dict:
    isas = [dict(name=i.name, features=i.features, gate=cpuid.gate(i.features))
            for i in ISAS.values() if i.arch == "x86_64"]
    arm = [dict(name=i.name, features=i.features, hwcap=hwcap.gate(i.features))
           for i in ISAS.values() if i.arch == "aarch64"]
    text = env.get_template("c/isa_gates.h.j2").render(
        isas=isas, arm=arm, hwcap=hwcap, regs=["eax", "ebx", "ecx", "edx"], mcdt=mcdt)
    return {"isa_gates.h": text}


def all_outputs() -> dict:
    env = environment()
    out = {}
    out.update(scalar_outputs(env))
    out.update(gate_outputs(env))
    out.update(kernel_outputs(env))
    return out
