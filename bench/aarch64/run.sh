#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Instructions executed per operation on AArch64, counted under qemu-aarch64 with our TCG
# plugin (insn_count.c): no Arm machine here, so what executes stands in for time (docs/performance.md,
# "AArch64: instructions executed under qemu"). Identical inputs for every implementation
# (count_ops.c; the digests of their outputs are compared).
#
#   bench/aarch64/run.sh MLDSA_NATIVE_SRC[@REV] [OUT]  (make count-aarch64 MLDSA_NATIVE=...)
#
# MLDSA_NATIVE_SRC: an mldsa-native snapshot with its AArch64 backends, in either of the
# layouts build-peer.sh knows (a git repository at REV, default HEAD, or a source tree).
# Builds, outside the tree in COUNT_DIR (default /tmp/libmldsa-aarch64-counts): the plugin
# (host cc), the peers and the drivers; in the tree, the aarch64 libmldsa in COUNT_BUILD
# (default build-aarch64-count) configured like ci/aarch64 (Release, gcc-aarch64-linux-gnu)
# without the tests. Prints one table per set and one of the kernels, and writes them to
# OUT (default bench/aarch64/counts.txt).
#
# Rows: libmldsa scalar (MLDSA_ISA=scalar) and neon under -cpu max (with the SHA3
# instructions) and -cpu neoverse-n1 (without); mldsa-native with its AArch64 backends
# built for Armv8-A (no SHA3) and for Armv8.2-A+SHA3 (its own build adds SHA3 where the
# compiler and the host have it), and its portable C. N_OPS operations per count (default 100; keygen and verify too), N_KERNEL
# kernel calls (default 1000); COUNT_JOBS compile jobs (default 2).
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 1 ] || { sed -n '3,22p' "$0" >&2; exit 2; }
mln=$1 out=${2:-bench/aarch64/counts.txt}
W=${COUNT_DIR:-/tmp/libmldsa-aarch64-counts}
BUILD=${COUNT_BUILD:-build-aarch64-count}
N_OPS=${N_OPS:-100} N_KERNEL=${N_KERNEL:-1000}
JOBS=${COUNT_JOBS:-2}
QEMU=(qemu-aarch64 -L /usr/aarch64-linux-gnu)
mkdir -p "$W"
W=$(cd "$W" && pwd)

ci/install-deps qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross >/dev/null

cc -O2 -Wall -Wextra -shared -fPIC -o "$W/insn_count.so" bench/aarch64/insn_count.c

cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCMAKE_SYSTEM_NAME=Linux \
  -DCMAKE_SYSTEM_PROCESSOR=aarch64 -DCMAKE_C_COMPILER=aarch64-linux-gnu-gcc \
  -DCMAKE_LIBRARY_ARCHITECTURE=aarch64-linux-gnu -DBUILD_TESTING=OFF \
  -DMLDSA_BUILD_PROVIDER=OFF >/dev/null
cmake --build "$BUILD" -j "$JOBS" --target mldsa_static >/dev/null
# what the library was compiled with (its sets and ISAs), for the kernels' internal headers
defs=$(sed -n 's/^C_DEFINES = //p' "$BUILD/CMakeFiles/mldsa_common.dir/flags.make")
case " $defs " in *" -DMLDSA_HAVE_NEON "*) ;; *)
  echo "count-aarch64: $BUILD has no neon ISA" >&2; exit 1 ;; esac

JOBS=$JOBS bench/aarch64/build-peer.sh "$mln" "$W/peer" 2>/dev/null
peer_commit=$(cut -f2 "$W/peer/peer.txt" | head -1)

DRV_FLAGS=(-O2 -static -Wall -Wextra -Werror)
# shellcheck disable=SC2086
aarch64-linux-gnu-gcc "${DRV_FLAGS[@]}" -DCOUNT_LIBMLDSA $defs -Isrc -Iasm_out -Iinclude \
  bench/aarch64/count_ops.c "$BUILD/libmldsa.a" -lpthread -o "$W/count_ops-libmldsa"
peers=(mldsa-native-aarch64 mldsa-native-aarch64-sha3 mldsa-native-c)
for peer in "${peers[@]}"; do
  for p in 44 65 87; do
    aarch64-linux-gnu-gcc "${DRV_FLAGS[@]}" -DCOUNT_PEER bench/aarch64/count_ops.c \
      "$W/peer/$peer-$p.a" -o "$W/count_ops-$peer-$p"
  done
done

# count CPU ENV BIN ARGS...: instructions of BIN ARGS N 1 minus those of BIN ARGS N 0
# (N is the argument before last), with the plugin; its stdout (digest) in $W/last.out
count() {
  local cpu=$1 env=$2; shift 2
  local r
  for r in 0 1; do
    env ${env:+"$env"} "${QEMU[@]}" -cpu "$cpu" -plugin "$W/insn_count.so,out=$W/insns.$r" "$@" "$r" \
      > "$W/last.out.$r"
  done
  mv "$W/last.out.1" "$W/last.out"
  echo $(( $(cut -d' ' -f2 "$W/insns.1") - $(cut -d' ' -f2 "$W/insns.0") ))
}

# ratio A B: A/B to two decimals
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

declare -A c        # c[row,set,op]: instructions per operation
declare -A digest   # the digest of each set and operation (libmldsa scalar's)
rows=("libmldsa scalar|max|MLDSA_ISA=scalar|libmldsa|scalar"
      "libmldsa neon|max|MLDSA_ISA=neon|libmldsa|neon"
      "libmldsa neon|neoverse-n1|MLDSA_ISA=neon|libmldsa|neon"
      "mldsa-native AArch64|neoverse-n1|-|mldsa-native-aarch64|"
      "mldsa-native AArch64+SHA3|max|-|mldsa-native-aarch64-sha3|"
      "mldsa-native C|max|-|mldsa-native-c|")
for p in 44 65 87; do
  for row in "${rows[@]}"; do
    IFS='|' read -r name cpu env bin isa <<<"$row"
    [ "$bin" = libmldsa ] && exe="$W/count_ops-libmldsa" || exe="$W/count_ops-$bin-$p"
    [ "$env" = - ] && env=""
    for op in keygen sign verify; do
      total=$(count "$cpu" "$env" "$exe" op "$p" "$op" "$N_OPS")
      c[$name $cpu,$p,$op]=$(( total / N_OPS ))
      d=$(sed -n 's/^digest //p' "$W/last.out")
      if [ -n "$isa" ] && ! grep -qx "isa $isa" "$W/last.out"; then
        echo "count-aarch64: $name under -cpu $cpu ran $(sed -n 's/^isa //p' "$W/last.out")" >&2
        exit 1
      fi
      if [ -z "${digest[$p,$op]:-}" ]; then
        digest[$p,$op]=$d
      elif [ "${digest[$p,$op]}" != "$d" ]; then
        echo "count-aarch64: $name ML-DSA-$p $op: outputs differ from libmldsa scalar's" >&2
        exit 1
      fi
    done
  done
done

kernels=(ntt invntt_tomont pointwise_montgomery keccak_f1600_x1 keccak_f1600_batch
         rej_uniform rej_eta2 rej_eta4)
declare -A k        # k[kernel,column]: instructions per call (per permutation of one state)
for kern in "${kernels[@]}"; do
  for col in "scalar|max" "neon|max" "neon|neoverse-n1"; do
    IFS='|' read -r isa cpu <<<"$col"
    total=$(count "$cpu" "" "$W/count_ops-libmldsa" kernel "$isa" "$kern" "$N_KERNEL")
    lanes=$(sed -n 's/^lanes //p' "$W/last.out"); lanes=${lanes:-1}
    k[$kern,$isa $cpu]=$(( total / N_KERNEL / lanes ))
    [ "$kern" = keccak_f1600_batch ] && k[$kern,lanes $isa]=$lanes
  done
done

echo "# SPDX-License-Identifier: Apache-2.0 OR MIT" > "$out"
{
  echo "AArch64 instructions executed per operation under qemu-aarch64 $(qemu-aarch64 --version | head -1 | awk '{print $3}')"
  # the tree measured, and the last commit that changed the library itself
  lib=$(git log -1 --format=%h -- src asm_out include gen templates cmake CMakeLists.txt)
  dirty=$(git diff --quiet HEAD -- src asm_out include cmake CMakeLists.txt || echo ', with changes')
  echo "(bench/aarch64/run.sh at $(git rev-parse --short HEAD), libmldsa as of $lib$dirty,"
  echo " mldsa-native ${peer_commit:0:7};"
  echo " keygen and verify: mean of $N_OPS, sign: mean of $N_OPS messages of 64 bytes,"
  echo " pure ML-DSA, empty context, one fixed rnd; identical outputs checked)"
  for p in 44 65 87; do
    echo
    echo "ML-DSA-$p                                 keygen        sign      verify"
    for row in "${rows[@]}"; do
      IFS='|' read -r name cpu _ _ _ <<<"$row"
      printf '%-38s' "$name (-cpu $cpu)"
      for op in keygen sign verify; do printf ' %11s' "${c[$name $cpu,$p,$op]}"; done
      echo
    done
    for r in "neon/scalar (max)|libmldsa neon max|libmldsa scalar max" \
             "neon/scalar (neoverse-n1)|libmldsa neon neoverse-n1|libmldsa scalar max" \
             "neon/mldsa-native AArch64 (n1)|libmldsa neon neoverse-n1|mldsa-native AArch64 neoverse-n1" \
             "neon/mldsa-native +SHA3 (max)|libmldsa neon max|mldsa-native AArch64+SHA3 max"; do
      IFS='|' read -r label a b <<<"$r"
      printf '%-38s' "$label"
      for op in keygen sign verify; do
        printf ' %11s' "$(ratio "${c[$a,$p,$op]}" "${c[$b,$p,$op]}")"
      done
      echo
    done
  done
  echo
  echo "libmldsa kernels, instructions per call ($N_KERNEL calls; Keccak: per permutation of one state)"
  echo "kernel                      scalar   neon (max)   neon (n1)   neon/scalar (max, n1)"
  for kern in "${kernels[@]}"; do
    s=${k[$kern,scalar max]} nm=${k[$kern,neon max]} nn=${k[$kern,neon neoverse-n1]}
    label=$kern
    [ "$kern" = keccak_f1600_batch ] && label="$kern (W=${k[$kern,lanes neon]})"
    printf '%-26s %8s %12s %11s   %s, %s\n' "$label" "$s" "$nm" "$nn" \
      "$(ratio "$nm" "$s")" "$(ratio "$nn" "$s")"
  done
} | tee -a "$out"
