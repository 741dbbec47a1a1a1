#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Build the peer implementations for bench/peers/peers-bench.c OUTSIDE this repository,
# from public snapshots the user supplies (their code is never copied into this tree):
#
#   bench/peers/build-peers.sh --pq-crystals SRC[@REV] --mldsa-native SRC[@REV] OUTDIR
#   bench/peers/build-peers.sh --libmldsa SRC[@REV] [--libmldsa-isas "scalar avx2"] OUTDIR
#
# SRC is a git repository (a bare mirror or a clone: its revision REV, default HEAD, is
# exported with `git archive`) or a plain source directory, of
#   pq-crystals/dilithium          https://github.com/pq-crystals/dilithium
#   pq-code-package/mldsa-native   https://github.com/pq-code-package/mldsa-native
#     either the single-unit layout (mldsa/mldsa_native.c, mldsa_native_asm.S and
#     mldsa_native.h, early 2026 on), or an early 2025 snapshot whose mldsa/ directory
#     has the pq-crystals API (sign.h with crypto_sign_signature_internal); others are
#     refused
# or, with --libmldsa, a libmldsa repository: its backends (--libmldsa-isas, default
# scalar) built as peers named libmldsa@REV-<isa>, for before/after figures from one
# interleaved run (libmldsa_shim.c).
# Any of them may be left out. OUTDIR/<peer>-<set>.so is written for each peer and parameter
# set, plus OUTDIR/peers.txt (name, path, commit, flags) for the driver and docs/performance.md:
#   pqcrystals-avx2          avx2/ with its Makefile's flags (-mavx2 -mpopcnt
#                            -march=native -mtune=native -O3)
#   pqcrystals-avx2-noavx512 the same plus -mno-avx512f
#   pqcrystals-ref           ref/ with its Makefile's flags (-O3 -fomit-frame-pointer)
#   mldsa-native             its portable C with its Makefiles' flags (-O3
#                            -fomit-frame-pointer -std=c99)
#   mldsa-native-avx2        (single-unit layout only) its x86_64 arithmetic and FIPS202
#                            backends, with the flags its own build adds on an x86-64 host
#                            with AVX2 and BMI2 (test/mk/auto.mk: -DMLD_FORCE_X86_64
#                            -mavx2 -mbmi2); it chooses them when compiled (__AVX2__), and
#                            its run-time capability check defaults to "yes"
# and OUTDIR/pqcrystals-avx2-kernels.so: avx2/'s Keccak, NTT and product kernels
# (peer_kernels_shim.c) for bench/peers/peers-kernels.c.
# mldsa-native's single-unit layout is called through mldsa_native_shim.c (shared with
# bench/aarch64/build-peer.sh), the rest through peer_shim.c. Each library is one shared
# object with every symbol hidden but the shim's calls, and bound to itself
# (-Bsymbolic), so the driver can dlopen builds that share symbol names. -fPIC costs
# nothing measurable on x86-64 (libmldsa is built -fPIC too).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pqc="" mln="" lib="" lib_isas="scalar" out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --pq-crystals) pqc=$2; shift ;;
    --mldsa-native) mln=$2; shift ;;
    --libmldsa) lib=$2; shift ;;
    --libmldsa-isas) lib_isas=$2; shift ;;
    -h|--help) sed -n '3,39p' "$0"; exit 0 ;;
    *) out=$1 ;;
  esac
  shift
done
[ -n "$out" ] || { echo "usage: $0 [--pq-crystals SRC[@REV]] [--mldsa-native SRC[@REV]] OUTDIR" >&2; exit 2; }
case "$(cd "$(dirname "$out")" 2>/dev/null && pwd)/" in
  "$(cd "$here/../.." && pwd)"/*) echo "build-peers: OUTDIR must be outside the repository" >&2; exit 2 ;;
esac
mkdir -p "$out/src"
out=$(cd "$out" && pwd)
CC=${CC:-cc}
: > "$out/peers.txt"

# export SRC[@REV] NAME: a copy of SRC's tree (at REV, default HEAD, when SRC is a git
# repository) in $out/src/NAME; prints its commit (or "dir")
export_tree() {
  local src=$1 name=$2 rev=HEAD dst="$out/src/$2" commit=dir
  case "$src" in *@*) rev=${src##*@}; src=${src%@*} ;; esac
  rm -rf "$dst"; mkdir -p "$dst"
  if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
    commit=$(git -C "$src" rev-parse "$rev^{commit}")
    git -C "$src" archive --format=tar "$commit" | tar -x -C "$dst"
  else
    cp -a "$src/." "$dst/"
  fi
  echo "$commit"
}

# build NAME DIR COMMIT "CFLAGS" SOURCES...: one shared object per parameter set
build() {
  local name=$1 dir=$2 commit=$3 flags=$4; shift 4
  local srcs=() f
  for f in "$@"; do srcs+=("$dir/$f"); done
  for p in 44 65 87; do
    local mode=$(( p == 44 ? 2 : p == 65 ? 3 : 5 ))
    # shellcheck disable=SC2086
    $CC $flags -fPIC -fvisibility=hidden -shared -Wl,-Bsymbolic -Wl,-z,noexecstack \
      -DDILITHIUM_MODE=$mode -I"$dir" -w -o "$out/$name-$p.so" "${srcs[@]}" "$here/peer_shim.c"
  done
  printf '%s\t%s\t%s\t%s\n' "$name" "$out/$name-%d.so" "$commit" "$flags" >> "$out/peers.txt"
  echo "build-peers: $name ($commit) -> $out/$name-{44,65,87}.so" >&2
}

if [ -n "$pqc" ]; then
  commit=$(export_tree "$pqc" pq-crystals)
  d="$out/src/pq-crystals"
  avx2_src=(sign.c packing.c polyvec.c poly.c ntt.S invntt.S pointwise.S shuffle.S consts.c
            rejsample.c rounding.c fips202.c fips202x4.c f1600x4.S symmetric-shake.c)
  ref_src=(sign.c packing.c polyvec.c poly.c ntt.c reduce.c rounding.c fips202.c
           symmetric-shake.c)
  avx2_flags="-mavx2 -mpopcnt -march=native -mtune=native -O3"
  build pqcrystals-avx2 "$d/avx2" "$commit" "$avx2_flags" "${avx2_src[@]}"
  build pqcrystals-avx2-noavx512 "$d/avx2" "$commit" "$avx2_flags -mno-avx512f" "${avx2_src[@]}"
  build pqcrystals-ref "$d/ref" "$commit" "-O3 -fomit-frame-pointer" "${ref_src[@]}"
  # its hot kernels alone, for peers-kernels (ML-DSA-65's L for the product sum)
  # shellcheck disable=SC2086
  $CC $avx2_flags -fPIC -fvisibility=hidden -shared -Wl,-Bsymbolic -Wl,-z,noexecstack \
    -DDILITHIUM_MODE=3 -I"$d/avx2" -w -o "$out/pqcrystals-avx2-kernels.so" \
    "$d/avx2/ntt.S" "$d/avx2/invntt.S" "$d/avx2/pointwise.S" "$d/avx2/consts.c" \
    "$d/avx2/fips202x4.c" "$d/avx2/f1600x4.S" "$here/peer_kernels_shim.c"
  echo "build-peers: pqcrystals-avx2 kernels -> $out/pqcrystals-avx2-kernels.so" >&2
fi

# build_so NAME COMMIT "CFLAGS" SHIM "DEFINES" SOURCE... -- REQUIRED-SYMBOL...: one
# shared object per parameter set from mldsa-native's sources (relative to its mldsa/)
# and the shim, each compiled alone with CFLAGS, DEFINES (the configuration, not recorded
# as flags), MLD_CONFIG_PARAMETER_SET and MLDSA_MODE; each object then checked for the
# symbols (suffixes, namespaced or not) that must be defined and called or jumped to,
# i.e. the native code in use and not only compiled; and for undefined symbols, which
# dlopen would only report when the benchmark starts
build_so() {
  local name=$1 commit=$2 flags=$3 shim=$4 defs=$5; shift 5
  local srcs=() syms=() f p sym
  while [ $# -gt 0 ] && [ "$1" != -- ]; do srcs+=("$d/$1"); shift; done
  [ $# -gt 0 ] && shift
  syms=("$@")
  for p in 44 65 87; do
    local mode=$(( p == 44 ? 2 : p == 65 ? 3 : 5 )) obj="$out/obj/$name-$p" so="$out/$name-$p.so"
    rm -rf "$obj"; mkdir -p "$obj"
    for f in "${srcs[@]}" "$here/$shim"; do
      # shellcheck disable=SC2086
      $CC $flags -fPIC -fvisibility=hidden -DMLD_CONFIG_PARAMETER_SET=$p -DMLDSA_MODE=$mode \
        $defs -I"$d" -w -c "$f" -o "$obj/$(basename "$f" | tr . _).o"
    done
    # its assembly's symbols are global: the version script leaves the shim's alone exported
    printf '{ global: peer_keygen; peer_sign; peer_verify; peer_param; local: *; };\n' \
      > "$out/obj/peer.map"
    # shellcheck disable=SC2086
    $CC $flags -shared -Wl,-Bsymbolic -Wl,-z,noexecstack -Wl,--version-script="$out/obj/peer.map" \
      -Wl,--no-undefined -o "$so" "$obj"/*.o
    local dis
    dis=$(objdump -d --no-show-raw-insn "$so")
    for sym in "${syms[@]}"; do
      grep -Eq "(call|jmp)[a-z]* +[0-9a-f]+ <[^>+]*$sym(@plt)?>" <<<"$dis" ||
        { echo "build-peers: $name-$p.so never calls $sym: its native backend is not in use" >&2; exit 1; }
    done
  done
  printf '%s\t%s\t%s\t%s\n' "$name" "$out/$name-%d.so" "$commit" "$flags" >> "$out/peers.txt"
  echo "build-peers: $name ($commit) -> $out/$name-{44,65,87}.so" >&2
}

if [ -n "$mln" ]; then
  commit=$(export_tree "$mln" mldsa-native)
  d="$out/src/mldsa-native/mldsa"
  mln_c="-O3 -fomit-frame-pointer -std=c99"
  if [ -f "$d/mldsa_native.c" ] && [ -f "$d/mldsa_native_asm.S" ] && [ -f "$d/mldsa_native.h" ]; then
    # one C unit and one assembly unit (its examples/monolithic_build_native); no
    # randomised API, as nothing here draws randomness
    cfg="-DMLD_CONFIG_NO_RANDOMIZED_API"
    build_so mldsa-native "$commit" "$mln_c" mldsa_native_shim.c \
      "-DMLDSA_NATIVE_NAMESPACED $cfg" mldsa_native.c --
    # its x86_64 backends: the NTTs in assembly, the 4-way Keccak in C intrinsics (XKCP)
    native="-DMLD_CONFIG_USE_NATIVE_BACKEND_ARITH -DMLD_CONFIG_USE_NATIVE_BACKEND_FIPS202"
    build_so mldsa-native-avx2 "$commit" "$mln_c -DMLD_FORCE_X86_64 -mavx2 -mbmi2 $native" \
      mldsa_native_shim.c "-DMLDSA_NATIVE_NAMESPACED $cfg" mldsa_native.c mldsa_native_asm.S \
      -- _ntt_avx2 _invntt_avx2 _KeccakP1600times4_PermuteAll_24rounds
  elif [ -f "$d/sign.h" ] && grep -q crypto_sign_signature_internal "$d/sign.h"; then
    srcs=()
    for f in "$d"/*.c "$d"/fips202/*.c; do
      case "$f" in */randombytes.c) ;; *) srcs+=("${f#"$d"/}") ;; esac
    done
    build mldsa-native "$d" "$commit" "$mln_c" "${srcs[@]}"
  else
    echo "build-peers: this mldsa-native snapshot ($commit) has neither mldsa/mldsa_native.c nor the pq-crystals API in mldsa/sign.h; not built" >&2
    exit 1
  fi
fi

if [ -n "$lib" ]; then
  commit=$(export_tree "$lib" libmldsa)
  d="$out/src/libmldsa"
  short=${commit:0:7}
  if ! { cmake -S "$d" -B "$out/build-libmldsa" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF &&
         cmake --build "$out/build-libmldsa" --target mldsa_static -j "$(nproc)"; } \
       >"$out/build-libmldsa.log" 2>&1; then
    tail -20 "$out/build-libmldsa.log" >&2
    exit 1
  fi
  # what that revision's default build has (every set and ISA), and how its API calls
  # the backend: mu hashed by the backend (sign_msg), tr = H(pk) by it (verify_pk)
  defs="-DMLDSA_HAVE_ASM -DMLDSA_HAVE_44 -DMLDSA_HAVE_65 -DMLDSA_HAVE_87 -DMLDSA_HAVE_SSE2"
  defs="$defs -DMLDSA_HAVE_AVX2 -DMLDSA_HAVE_AVX512"
  if grep -q 'sign_msg' "$d/src/backend.h"; then defs="$defs -DSHIM_SIGN_MSG"; fi
  if grep -q 'verify_pk' "$d/src/backend.h"; then defs="$defs -DSHIM_VERIFY_PK"; fi
  for isa in $lib_isas; do
    name="libmldsa@$short-$isa"
    for p in 44 65 87; do
      # shellcheck disable=SC2086
      $CC -O2 -fPIC -fvisibility=hidden -shared -Wl,-Bsymbolic -Wl,-z,noexecstack \
        -DSHIM_SET=$p -DSHIM_ISA="$isa" $defs -I"$d/src" -I"$d/asm_out" \
        -I"$d/include" -o "$out/$name-$p.so" "$here/libmldsa_shim.c" \
        "$out/build-libmldsa/libmldsa.a" -lpthread
    done
    printf '%s\t%s\t%s\t%s\n' "$name" "$out/$name-%d.so" "$commit" "its CMake Release build" \
      >> "$out/peers.txt"
    echo "build-peers: $name -> $out/$name-{44,65,87}.so" >&2
  done
fi
