#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 OR MIT
# TLS 1.3 handshakes per second with an ML-DSA-65 server certificate (an ML-DSA-87 CA),
# OpenSSL 3.5's s_time against its s_server on 127.0.0.1: the server and the client each
# with OpenSSL's default provider or this provider (keys prepared at their second use, or
# never: mldsa.prepare_keys = no). Rounds interleaved, median reported; the provider's
# counters confirm which provider signed and verified.
#
#   bench/provider/tls.sh PROVIDER_DIR [SECONDS] [ROUNDS]
set -euo pipefail
provider_dir=$(cd "$1" && pwd)
seconds=${2:-4}
rounds=${3:-3}
root=$(cd "$(dirname "$0")/../.." && pwd)
mapfile -t OPENSSL < <("$root/ci/openssl35" --argv)
work=$(mktemp -d)
trap 'pkill -f "s_server -accept 127.0.0.1:0 .*$work" 2>/dev/null || true; rm -rf "$work"' EXIT
cd "$work"

conf() { # name, extra line for the mldsa section
  cat >"$1.cnf" <<EOF
openssl_conf = init
[init]
providers = provs
alg_section = algs
[algs]
default_properties = ?provider=mldsa
[provs]
default = default_sect
mldsa = mldsa_sect
[default_sect]
activate = 1
[mldsa_sect]
module = $provider_dir/mldsa.so
activate = 1
mldsa.counters_file = $work/counts.$1
$2
EOF
}
conf prepared ""
conf unprepared "mldsa.prepare_keys = no"
printf 'openssl_conf = init\n[init]\nproviders = provs\n[provs]\ndefault = d\n[d]\nactivate = 1\n' >default.cnf

ossl() { local c=$1; shift; OPENSSL_CONF=$work/$c.cnf "${OPENSSL[@]}" "$@"; }
ossl default genpkey -algorithm ML-DSA-87 -out ca.key
ossl default req -x509 -new -key ca.key -subj /CN=CA -addext basicConstraints=critical,CA:TRUE \
  -days 2 -out ca.crt
ossl default genpkey -algorithm ML-DSA-65 -out leaf.key
ossl default req -new -key leaf.key -subj /CN=localhost -out leaf.csr
ossl default x509 -req -in leaf.csr -CA ca.crt -CAkey ca.key -days 2 -out leaf.crt 2>/dev/null

# handshakes/s of one round: server config, client config
round() {
  local port= out
  sleep $((seconds + 30)) | ossl "$1" s_server -accept 127.0.0.1:0 -cert leaf.crt -key leaf.key \
    -tls1_3 -www -CAfile "$work/ca.crt" >server.out 2>&1 &
  for _ in $(seq 100); do
    port=$(grep -o 'ACCEPT 127.0.0.1:[0-9]*' server.out | cut -d: -f2 || true)
    [ -n "$port" ] && break
    sleep 0.1
  done
  out=$(ossl "$2" s_time -connect 127.0.0.1:$port -new -time "$seconds" -CAfile ca.crt 2>&1 | grep 'real seconds')
  pkill -f "s_server -accept 127.0.0.1:0 .*$work" || true
  wait 2>/dev/null || true
  # "N connections in T real seconds"
  echo "$out" | awk '{ printf "%.0f\n", $1 / $4 }'
}

pairs=("default default" "prepared prepared" "unprepared unprepared" "prepared default" "default prepared")
declare -A results
for r in $(seq "$rounds"); do
  for p in "${pairs[@]}"; do
    results[$p]+="$(round $p) "
  done
done
echo "# TLS 1.3 handshakes/s, ML-DSA-65 certificate, $("${OPENSSL[@]}" version | cut -d' ' -f1-2), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $rounds rounds of $seconds s, median"
printf '%-12s %-12s %10s   %s\n' server client "handshakes/s" rounds
for p in "${pairs[@]}"; do
  read -r s c <<<"$p"
  median=$(echo ${results[$p]} | tr ' ' '\n' | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  printf '%-12s %-12s %10s   %s\n' "$s" "$c" "$median" "${results[$p]}"
done
for c in prepared unprepared; do
  echo "# the $c provider's counters, last process: $(tail -1 counts.$c 2>/dev/null)"
done
