#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Build mldsa-native for AArch64 OUTSIDE this repository, as static archives that
# bench/aarch64/count_ops.c links (its code is never copied into this tree):
#
#   bench/aarch64/build-peer.sh SRC[@REV] OUTDIR
#
# SRC is an mldsa-native git repository (the mldsa/ directory of its revision REV,
# default HEAD, is exported with `git archive`) or a plain source directory holding
# mldsa/, of a snapshot that has the AArch64 backends and the *_internal API with pre and
# externalmu, in either layout:
#   single unit (early 2026 on)  mldsa/mldsa_native.c and mldsa_native_asm.S, backends in
#                                mldsa/src/native/aarch64, mldsa/src/fips202/native/aarch64
#                                (its examples/monolithic_build_native; -DMLD_FORCE_AARCH64
#                                as its test/mk/auto.mk adds)
#   2025                         one unit per source, backends in mldsa/native/aarch64,
#                                mldsa/fips202/native/aarch64
# Written, per set (44, 65, 87):
#   OUTDIR/mldsa-native-aarch64-<set>.a       native arithmetic + FIPS202 backends,
#                                            -march=armv8-a (Keccak x1 scalar, x4 hybrid)
#   OUTDIR/mldsa-native-aarch64-sha3-<set>.a  the same, -march=armv8.2-a+sha3 (its x4
#                                            hybrid Keccak with EOR3/RAX1/XAR/BCAX; needs
#                                            a CPU with SHA3)
#   OUTDIR/mldsa-native-c-<set>.a             its portable C, no native backend
# each with bench/peers/mldsa_native_shim.c, and OUTDIR/peer.txt (commit, flags).
# Flags as its test/mk/config.mk: -O3 -fomit-frame-pointer -std=c99. It chooses its
# backends when compiled (its config, native/meta.h, fips202/native/auto.h), not at
# run time, hence one archive per choice. Each build is checked with nm for the
# assembly symbols of the backends it should use.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 2 ] || { echo "usage: $0 SRC OUTDIR" >&2; exit 2; }
src=$1 out=$2
case "$(mkdir -p "$out" && cd "$out" && pwd)/" in
  "$(cd "$here/../.." && pwd)"/*) echo "build-peer: OUTDIR must be outside the repository" >&2; exit 2 ;;
esac
out=$(cd "$out" && pwd)
CC=${AARCH64_CC:-aarch64-linux-gnu-gcc}
AR=${AARCH64_AR:-aarch64-linux-gnu-ar}
JOBS=${JOBS:-2}

rev=HEAD
case "$src" in *@*) rev=${src##*@}; src=${src%@*} ;; esac
rm -rf "$out/src"; mkdir -p "$out/src"
commit=dir
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
  commit=$(git -C "$src" rev-parse "$rev^{commit}")
  git -C "$src" archive --format=tar --prefix=mldsa/ "$commit:mldsa" | tar -x -C "$out/src"
else
  cp -a "$src/mldsa" "$out/src/"
fi
d="$out/src/mldsa"
shim="$here/../peers/mldsa_native_shim.c"
if [ -f "$d/mldsa_native.c" ] && [ -f "$d/mldsa_native_asm.S" ]; then
  layout=unit
  { [ -f "$d/src/native/aarch64/meta.h" ] && [ -f "$d/src/fips202/native/aarch64/auto.h" ]; } ||
    { echo "build-peer: snapshot $commit has no AArch64 backend" >&2; exit 1; }
  grep -q 'int externalmu' "$d/mldsa_native.h" ||
    { echo "build-peer: snapshot $commit lacks the *_internal API with externalmu" >&2; exit 1; }
  srcs=("$d/mldsa_native.c" "$d/mldsa_native_asm.S")
  # nothing here draws randomness
  layout_flags="-DMLDSA_NATIVE_NAMESPACED -DMLD_CONFIG_NO_RANDOMIZED_API"
  native_flags="-DMLD_FORCE_AARCH64"
  x4=keccak_f1600_x4_v8a_scalar_hybrid_asm x4_sha3=keccak_f1600_x4_v8a_v84a_scalar_hybrid_asm
else
  layout=2025
  { [ -f "$d/native/aarch64/meta.h" ] && [ -f "$d/fips202/native/aarch64/auto.h" ]; } ||
    { echo "build-peer: snapshot $commit has no AArch64 backend" >&2; exit 1; }
  grep -q 'int externalmu' "$d/sign.h" ||
    { echo "build-peer: snapshot $commit lacks the *_internal API with externalmu" >&2; exit 1; }
  srcs=()
  for f in "$d"/*.c "$d"/fips202/*.c "$d"/native/aarch64/src/*.[cS] \
           "$d"/fips202/native/aarch64/src/*.[cS]; do
    [ -e "$f" ] && srcs+=("$f")
  done
  layout_flags="" native_flags=""
  x4=keccak_f1600_x4_scalar_v8a_hybrid_asm x4_sha3=keccak_f1600_x4_scalar_v8a_v84a_hybrid_asm
fi

base="-O3 -fomit-frame-pointer -std=c99"
native="-DMLD_CONFIG_USE_NATIVE_BACKEND_ARITH -DMLD_CONFIG_USE_NATIVE_BACKEND_FIPS202"
: > "$out/peer.txt"

# build NAME "FLAGS" REQUIRED-SYMBOL...
build() {
  local name=$1 flags=$2; shift 2
  for p in 44 65 87; do
    local mode=$(( p == 44 ? 2 : p == 65 ? 3 : 5 )) obj="$out/obj/$name-$p"
    rm -rf "$obj"; mkdir -p "$obj"
    # the compiler, source directory, source and object directory are the inner shell's
    # positional parameters (expanded there, hence the single quotes)
    # shellcheck disable=SC2016
    printf '%s\n' "${srcs[@]}" "$shim" |
      xargs -P "$JOBS" -I{} sh -c '"$0" '"$flags $layout_flags"' -DMLDSA_MODE='"$mode"' \
        -DMLD_CONFIG_PARAMETER_SET='"$p"' -I"$1" -c "$2" \
        -o "$3/$(basename "$2" | tr . _).o"' "$CC" "$d" {} "$obj"
    rm -f "$out/$name-$p.a"
    "$AR" rcs "$out/$name-$p.a" "$obj"/*.o
    local sym syms
    syms=$(aarch64-linux-gnu-nm "$out/$name-$p.a" 2>/dev/null)
    for sym in "$@"; do
      # defined, and called from the C code (a backend compiled but unused is not enough)
      { grep -q " T .*$sym\$" <<<"$syms" && grep -q " U .*$sym\$" <<<"$syms"; } ||
        { echo "build-peer: $name-$p.a lacks $sym: the native backend is not in use" >&2; exit 1; }
    done
  done
  printf '%s\t%s\t%s\n' "$name" "$commit" "$flags" >> "$out/peer.txt"
  echo "build-peer: $name ($commit, $layout layout) -> $out/$name-{44,65,87}.a" >&2
}

build mldsa-native-aarch64 "$base $native $native_flags" ntt_asm intt_asm "$x4"
build mldsa-native-aarch64-sha3 "$base $native $native_flags -march=armv8.2-a+sha3" ntt_asm \
  "$x4_sha3"
build mldsa-native-c "$base"
