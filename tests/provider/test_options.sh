# SPDX-License-Identifier: Apache-2.0 OR MIT
# shellcheck shell=bash disable=SC2154 # work, native, OPENSSL, counts, cli: set by test_provider.sh
# Sourced by test_provider.sh (its helpers, keys and working directory): OpenSSL 3.5's
# ml-dsa.* options, option for option. Each configuration is written twice, once in this
# provider's section and once in the default provider's, and where the OpenSSL is 3.5 the
# two must write the same bytes, accept the same keys and refuse the same ones with the
# same reason; with 3.0 (no ML-DSA of its own) the effects are checked against this
# provider's own forms.

# opt_confs NAME LINES: ours-NAME.cnf and default-NAME.cnf with LINES in the section
opt_confs() {
  provider_conf "ours-$1.cnf" "$2"
  default_conf "default-$1.cnf" "$2"
}
with() { local name=$1; shift; OPENSSL_CONF=$work/ours-$name.cnf "${OPENSSL[@]}" "$@"; }
dwith() { local name=$1; shift; OPENSSL_CONF=$work/default-$name.cnf "${OPENSSL[@]}" "$@"; }

# the texts of a command's error lines (what follows the last colon of each)
error_texts() { grep ':error:' "$1" | awk -F: '{print $NF}' | grep -v '^$' || true; }

# same_refusal WHAT NAME COMMAND...: the command fails under ours-NAME.cnf (cleanly, with
# this provider's reason), and with 3.5 also under default-NAME.cnf, every reason the
# default provider gives being among this provider's (same_reason=0: a key that is not
# sound, where this provider gives libmldsa's reason, not 3.5's words). 3.0's store drops
# the reasons of every decoder, so there only the refusal is checked for a key read.
same_refusal() {
  local what=$1 name=$2 rc=0
  shift 2
  with "$name" "$@" >refusal.ours 2>&1 || rc=$?
  [ "$rc" -ne 0 ] || fail "$what: accepted"
  [ "$rc" -lt 128 ] || fail "$what: killed by a signal (exit $rc)"
  if [ $native = 1 ]; then
    grep -q ':mldsa:' refusal.ours || fail "$what: no reason of this provider: $(cat refusal.ours)"
    rc=0
    dwith "$name" "$@" >refusal.default 2>&1 || rc=$?
    [ "$rc" -ne 0 ] || fail "$what: the default provider accepts it"
    local text
    [ "${same_reason:-1}" = 1 ] || { ok "$what: refused ($(error_texts refusal.ours | head -1))"; return; }
    while IFS= read -r text; do
      grep -qF -- "$text" refusal.ours ||
        fail "$what: the default provider says \"$text\", this provider: $(cat refusal.ours)"
    done < <(grep ':Provider routines:' refusal.default | awk -F: '{print $NF}')
  fi
  ok "$what: refused ($(error_texts refusal.ours | head -1))"
}

# ---- ml-dsa.output_formats: every form 3.5 has, lists, 3.5's prefix matching ----
forms=(seed-priv priv-only oqskeypair seed-only bare-priv bare-seed)
specs=("${forms[@]}" "bare" "SEED-ONLY" "junk, bare-seed" "priv-only seed-priv" "oqs")
for i in "${!specs[@]}"; do
  opt_confs "out$i" "ml-dsa.output_formats = ${specs[$i]}"
done
# every set where the bytes are compared with 3.5's; ML-DSA-65 alone with 3.0 (the same code)
[ $native = 1 ] && form_sets="44 65 87" || form_sets=65
for n in $form_sets; do
  for i in "${!forms[@]}"; do
    did "ML-DSA-$n output_formats = ${forms[$i]}: written" encodes\>=1 -- \
      with "out$i" pkey -in k$n.pem -outform DER -out out$i.$n.der
    if [ $native = 1 ]; then
      dwith "out$i" pkey -in k$n.pem -outform DER -out dout$i.$n.der
      same out$i.$n.der dout$i.$n.der "ML-DSA-$n ${forms[$i]}: the bytes the default provider writes"
    fi
  done
done
for i in "${!specs[@]}"; do
  [ "$i" -lt ${#forms[@]} ] && continue
  did "output_formats = \"${specs[$i]}\": written" encodes\>=1 -- \
    with "out$i" pkey -in k65.pem -outform DER -out out$i.65.der
  if [ $native = 1 ]; then
    dwith "out$i" pkey -in k65.pem -outform DER -out dout$i.65.der
    same out$i.65.der dout$i.65.der "output_formats = \"${specs[$i]}\": what the default provider writes"
  fi
done
# the PEM of a form libmldsa does not write, and the forms the lists chose
did "bare-seed written as PEM" encodes\>=1 -- with out5 pkey -in k65.pem -out out5.65.pem
if [ $native = 1 ]; then
  dwith out5 pkey -in k65.pem -out dout5.65.pem
  same out5.65.pem dout5.65.pem "bare-seed in PEM: what the default provider writes"
fi
same out6.65.der out4.65.der "\"bare\" is the first form it begins (bare-priv)"
same out7.65.der out3.65.der "names without case (SEED-ONLY)"
same out8.65.der out5.65.der "an unknown name in a list is passed over"
same out9.65.der out1.65.der "the first name of a list is the form written"
same out10.65.der out2.65.der "\"oqs\" is the form it begins (oqskeypair)"
for i in "${!forms[@]}"; do
  cmp -s out$i.65.der out$(((i + 1) % ${#forms[@]})).65.der && fail "${forms[$i]} is the next form's bytes"
done
ok "the six forms are six different encodings"
opt_confs outjunk "ml-dsa.output_formats = junk"
same_refusal "output_formats names no form" outjunk pkey -in k65.pem -out /dev/null
# a key without its seed: the seed forms are passed over, and a list of them only fails
with out1 pkey -in k65.pem -out noseed65.pem
did "a key without a seed, no list: written" encodes\>=1 -- \
  ours pkey -in noseed65.pem -outform DER -out noseed.der
same noseed.der out1.65.der "... as priv-only, the first form of the table it can fill"
if [ $native = 1 ]; then
  opt_confs plain ""
  dwith plain pkey -in noseed65.pem -outform DER -out dnoseed.der
  same noseed.der dnoseed.der "... as the default provider writes it"
fi
same_refusal "a key without a seed, seed-priv alone asked" out0 pkey -in noseed65.pem -out /dev/null
same_refusal "a key without a seed, seed-only alone asked" out3 pkey -in noseed65.pem -out /dev/null

# ---- ml-dsa.input_formats: each form read when enabled, refused when not ----
for i in "${!forms[@]}"; do
  opt_confs "in$i" "ml-dsa.input_formats = ${forms[$i]}"
done
opt_confs injunk "ml-dsa.input_formats = junk"
for i in "${!forms[@]}"; do
  did "input_formats = ${forms[$i]}: the form read" decodes\>=1 -- \
    with "in$i" pkey -inform DER -in out$i.65.der -pubout -out in$i.pub
  same in$i.pub pub65.pem "input_formats = ${forms[$i]}: the key read is the key"
  if [ $native = 1 ]; then
    dwith "in$i" pkey -inform DER -in out$i.65.der -pubout -out din$i.pub
    same din$i.pub pub65.pem "input_formats = ${forms[$i]}: the default provider reads the same"
  fi
  other=$(((i + 1) % ${#forms[@]}))
  same_refusal "input_formats = ${forms[$other]}, a ${forms[$i]} key" "in$other" \
    pkey -inform DER -in out$i.65.der -pubout
done
same_refusal "input_formats names no form" injunk pkey -in k65.pem -pubout

# ---- ml-dsa.retain_seed ----
opt_confs retain_no "ml-dsa.retain_seed = no"
opt_confs retain_off "ml-dsa.retain_seed = OFF"
opt_confs retain_odd "ml-dsa.retain_seed = maybe"
opt_confs retain_no_seed_only "ml-dsa.retain_seed = no
ml-dsa.output_formats = seed-only"
seed65=$(cat seed65.hex)
for name in retain_no retain_off; do
  did "$name: genpkey from a seed" keygens\>=1 encodes\>=1 -- \
    with $name genpkey -algorithm ML-DSA-65 -pkeyopt hexseed:$seed65 -outform DER -out gen.$name.der
  same gen.$name.der out1.65.der "$name: the generated key is written without its seed (priv-only)"
  did "$name: a seed-priv key read and written" decodes\>=1 encodes\>=1 -- \
    with $name pkey -in k65.pem -outform DER -out conv.$name.der
  same conv.$name.der out1.65.der "$name: the seed read is not kept"
  if [ $native = 1 ]; then
    dwith $name genpkey -algorithm ML-DSA-65 -pkeyopt hexseed:$seed65 -outform DER -out dgen.$name.der
    same gen.$name.der dgen.$name.der "$name: genpkey writes what the default provider writes"
    dwith $name pkey -in k65.pem -outform DER -out dconv.$name.der
    same conv.$name.der dconv.$name.der "$name: pkey writes what the default provider writes"
  fi
done
did "retain_seed = maybe (not a boolean: the default)" encodes\>=1 -- \
  with retain_odd pkey -in k65.pem -outform DER -out conv.retain_odd.der
same conv.retain_odd.der out0.65.der "retain_seed = maybe keeps the seed, as 3.5 does"
same_refusal "retain_seed = no with seed-only output" retain_no_seed_only \
  genpkey -algorithm ML-DSA-65 -out /dev/null

# ---- ml-dsa.prefer_seed: a seed-priv key whose seed is not its expanded key's ----
python3 - out0.65.der seedmix.der brokensk.der <<'PYEOF'
import sys
der = bytearray(open(sys.argv[1], 'rb').read())
at = der.index(bytes([0x04, 0x20]))
mixed = bytearray(der); mixed[at + 2] ^= 1
open(sys.argv[2], 'wb').write(mixed)
broken = bytearray(der); broken[-1] ^= 1
open(sys.argv[3], 'wb').write(broken)
PYEOF
opt_confs prefer_no "ml-dsa.prefer_seed = no"
opt_confs prefer_yes "ml-dsa.prefer_seed = yes"
same_refusal "prefer_seed = yes: a seed that is not the key's" prefer_yes pkey -inform DER -in seedmix.der -pubout
if [ $native = 1 ]; then
  grep -q 'explicit ML-DSA-65 private key does not match seed' refusal.ours ||
    fail "the reason is not 3.5's: $(cat refusal.ours)"
  ok "... with 3.5's reason"
fi
did "prefer_seed = no: the expanded key is taken" decodes\>=1 encodes\>=1 -- \
  with prefer_no pkey -inform DER -in seedmix.der -outform DER -out prefer_no.der
same prefer_no.der out1.65.der "prefer_seed = no: the seed is dropped (priv-only written)"
if [ $native = 1 ]; then
  dwith prefer_no pkey -inform DER -in seedmix.der -outform DER -out dprefer_no.der
  same prefer_no.der dprefer_no.der "prefer_seed = no: what the default provider writes"
fi
same_reason=0 same_refusal "prefer_seed = no: an expanded key that is not sound" prefer_no pkey -inform DER -in brokensk.der -pubout
same_reason=0 same_refusal "a seed-priv key whose expanded key is not sound" prefer_yes pkey -inform DER -in brokensk.der -pubout

# ---- the signature's deterministic: any integer, 1 alone is deterministic ----
for v in 1 2 -1 0; do
  for run in a b; do
    did "deterministic:$v ($run)" signs\>=1 -- \
      ours pkeyutl -sign -rawin -inkey k65.pem -in msg -out det$v$run -pkeyopt deterministic:$v
  done
  cmp -s det${v}a det${v}b && kind_ours=deterministic || kind_ours=hedged
  if [ $native = 1 ]; then
    for run in a b; do
      dflt pkeyutl -sign -rawin -inkey k65.pem -in msg -out ddet$v$run -pkeyopt deterministic:$v
    done
    cmp -s ddet${v}a ddet${v}b && kind_default=deterministic || kind_default=hedged
    [ $kind_ours = $kind_default ] ||
      fail "deterministic:$v: $kind_ours here, $kind_default with the default provider"
  fi
  ok "deterministic:$v gives a $kind_ours signature"
done
cmp -s det1a sig65.cli || fail "deterministic:1 is not mldsa sign --deterministic's signature"
refused "deterministic:yes (not an integer)" ours pkeyutl -sign -rawin -inkey k65.pem -in msg \
  -out /dev/null -pkeyopt deterministic:yes

# ---- context-string set once a message was given (OpenSSL 3.4+'s message calls) ----
# oneshot: the next signature is under the new context, as with the default provider.
# stream: 3.5's ML-DSA takes no message in parts; where the default provider does
# (later releases), this provider must do as it does, and otherwise what later releases
# do: the setting is taken and the message under way keeps the context it began with.
if [ $native = 1 ]; then
  loader=("${OPENSSL[@]:0:${#OPENSSL[@]}-1}") # the 3.5 root's loader and libraries
  for mode in oneshot stream; do
    : >"$counts"
    ctx_ours=$(OPENSSL_CONF=$work/ours.cnf "${loader[@]}" "$context_after_data" $mode k65.pem 2>&1) ||
      fail "context after data ($mode): $ctx_ours"
    [ "$(count signs)" -ge 1 ] || fail "context after data ($mode): this provider did not sign"
    ctx_default=$(OPENSSL_CONF=$work/default-seed-priv.cnf "${loader[@]}" "$context_after_data" $mode k65.pem 2>&1) ||
      fail "context after data ($mode), the default provider: $ctx_default"
    case "$ctx_default" in
      *"does not take the message this way"*)
        expected="$mode: set-after-data=accepted signed=yes verifies-under=first" ;;
      *) expected=$ctx_default ;;
    esac
    [ "$ctx_ours" = "$expected" ] ||
      fail "context after data: \"$ctx_ours\" here, expected \"$expected\" (the default provider: $ctx_default)"
    ok "context-string set after data, $ctx_ours (the default provider: ${ctx_default#*: })"
  done
fi

# ---- a key refused carries libmldsa's reason (the CLI prints the same library's words) ----
"$cli" pubkey --in brokensk.der >/dev/null 2>cli.err && fail "mldsa pubkey accepts brokensk.der"
lib_reason=$(sed -n 's/.*refused: \([^(]*\) (.*/\1/p' cli.err | sed 's/ *$//')
[ -n "$lib_reason" ] || fail "no reason in the CLI's message: $(cat cli.err)"
if [ $native = 1 ]; then
  rc=0
  ours pkey -inform DER -in brokensk.der -pubout >refusal.ours 2>&1 || rc=$?
  [ $rc -ne 0 ] && grep ':mldsa:' refusal.ours | grep -qF ":$lib_reason:" ||
    fail "a key that is not sound: libmldsa's reason \"$lib_reason\" is not on the error stack: $(cat refusal.ours)"
  ok "a key that is not sound: libmldsa's reason on the error stack ($lib_reason)"
fi
