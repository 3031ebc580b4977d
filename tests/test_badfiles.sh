#!/usr/bin/env bash
# Damaged inputs through the snarkpipe CLI: every row of the table below
# must exit 2 with a message matching its words (and name the file), write
# no output file, and never crash (under `make SAN=1 test` the sanitizers
# would report any bad access; their reports fail the row).
#
# The damaged files are made from tests/vectors by tests/damage.js (node):
# truncated at several offsets, wrong magic and version, section sizes that
# lie, duplicated sections, header counts that disagree with the sections,
# points off the curve, coordinates >= p, points on the curve but outside
# the subgroup (found by damage.js itself), bad flag bits, wires and
# coefficients out of range, witnesses of the wrong length; the vectors
# of the other curve stand for "wrong curve" (a KIND@CURVE row runs the
# command with --curve CURVE, so that the instance of that curve reads FILE
# whatever the files say).
# Usage: tests/test_badfiles.sh BUILD (the build dir holding snarkpipe; run.sh passes it).
set -u
build=${1:-build}
bin=$build/snarkpipe
here=$(cd "$(dirname "$0")" && pwd)
vec=$here/vectors
m=$vec/multiplier_bls12381
c=$vec/chain1021_bls12381
bn=$vec/multiplier_bn128
[ -x "$bin" ] || { echo "test_badfiles: $bin not found (build first)"; exit 1; }
command -v node >/dev/null || { echo "test_badfiles: node is required (tests/damage.js)"; exit 1; }

T=$(mktemp -d "${TMPDIR:-/tmp}/sp_test_badfiles.XXXXXX")
trap 'rm -rf "$T"' EXIT
D=$T/damaged
mkdir -p "$D"
"$bin" setup --quiet --bellperson --vk "$T/m.vk" "$m/circuit.r1cs" "$T/m.params" 2>/dev/null &&
    node "$here/damage.js" "$D" "$vec" "$T/m.params" "$T/m.vk" || { echo "test_badfiles: making the damaged files failed"; exit 1; }

# run KIND[@CURVE] FILE: the command that reads FILE as a KIND (with --curve CURVE).
run() {
    local f=$2 cv=()
    case $1 in *@*) cv=(--curve "${1#*@}") ;; esac
    case ${1%@*} in
    zkey) "$bin" "${cv[@]}" prove "$f" "$m/witness.wtns" "$T/out.json" "$T/pub.json" ;;
    export) "$bin" "${cv[@]}" export-vkey "$f" "$T/out.json" ;;
    r1cs) "$bin" "${cv[@]}" setup --quiet "$f" "$T/out.json" ;;
    r1csinfo) "$bin" "${cv[@]}" info "$f" ;;
    wtns) "$bin" "${cv[@]}" prove "$m/circuit_final.zkey" "$f" "$T/out.json" "$T/pub.json" ;;
    wtnscheck) "$bin" "${cv[@]}" prove --r1cs "$m/circuit.r1cs" --check "$m/circuit_final.zkey" "$f" "$T/out.json" "$T/pub.json" ;;
    params) "$bin" "${cv[@]}" prove --params "$f" --r1cs "$m/circuit.r1cs" "$m/witness.wtns" "$T/out.json" "$T/pub.json" ;;
    key) "$bin" "${cv[@]}" verify "$f" "$m/public.json" "$m/proof.json" ;;
    vkey) "$bin" "${cv[@]}" verify "$f" "$c/public.json" "$c/proof.json" ;;
    proof) "$bin" "${cv[@]}" verify "$c/verification_key.json" "$c/public.json" "$f" ;;
    public) "$bin" "${cv[@]}" verify "$c/verification_key.json" "$f" "$c/proof.json" ;;
    info) "$bin" "${cv[@]}" info --check "$f" ;;
    *) echo "test_badfiles: unknown kind $1"; return 99 ;;
    esac
}

export -f run
export bin m c T
pass=0
fail=0
# kind   file (in the damaged dir, or $m/$c/$bn/...)   words the message must contain (grep -E, ignoring case)
while read -r kind file words; do
    case $kind in '' | '#'*) continue ;; esac
    f=$(eval echo "$file")
    [ "${f#/}" != "$f" ] || f=$D/$f
    rm -f "$T/out.json" "$T/pub.json"
    rc=0
    timeout 120 bash -c 'run "$0" "$1"' "$kind" "$f" >"$T/log" 2>&1 || rc=$?
    why=
    [ "$rc" -eq 2 ] || why="exit $rc, expected 2"
    [ -n "$why" ] || grep -Eiq -- "$words" "$T/log" || why="message does not match /$words/"
    [ -n "$why" ] || grep -Fq -- "$f" "$T/log" || why="message does not name the file"
    [ -n "$why" ] || ! grep -q "Sanitizer\|runtime error:" "$T/log" || why="sanitizer report"
    [ -n "$why" ] || [ ! -e "$T/out.json" ] || why="an output file was written"
    if [ -z "$why" ]; then
        pass=$((pass + 1))
        [ -z "${SP_TEST_VERBOSE:-}" ] || echo "ok   $kind $(basename "$f"): $(head -c 200 "$T/log")"
    else
        fail=$((fail + 1))
        echo "FAIL $kind $(basename "$f"): $why"
        sed 's/^/     | /' "$T/log" | head -10
    fi
done <<'EOF'
# .zkey: container
zkey    zkey_cut0.zkey                        empty
zkey    zkey_cut3.zkey                        too short for the magic
zkey    zkey_cut11.zkey                       ends inside the header
zkey    zkey_cut30.zkey                       section count is larger than the file
zkey    zkey_cut100.zkey                      section count is larger than the file
zkey    zkey_cut2104.zkey                     a section is larger than the rest of the file
zkey    zkey_cut4111.zkey                     a section is larger than the rest of the file
zkey    zkey_cut4207.zkey                     a section is larger than the rest of the file
export  zkey_cut2104.zkey                     a section is larger than the rest of the file
zkey    zkey_magic.zkey                       wrong magic number
zkey    zkey_version.zkey                     version not supported
export  zkey_version.zkey                     version not supported
zkey    zkey_sec9_size_beyond_file.zkey       a section is larger than the rest of the file
zkey    zkey_sec9_one_point_short.zkey        section 9 \(H\): not the size of the points the header calls for
zkey    zkey_sec10_listed_as_9.zkey           section 9 .*more than once
# .zkey: header and contents
zkey    zkey_nvars_lie.zkey                   not the size of the points the header calls for
export  zkey_nvars_lie.zkey                   not the size of the points the header calls for
zkey    zkey_domain_not_pow2.zkey             the domain size is not a power of two
zkey    zkey_coef_wire_out_of_range.zkey      section 4.*row or wire outside
zkey    zkey_ic0_off_curve.zkey               section 3 \(IC\): point 0: not on the curve
export  zkey_ic0_off_curve.zkey               section 3 \(IC\): point 0: not on the curve
zkey    zkey_ic0_x_above_p.zkey               section 3 \(IC\): point 0: coordinate >= p
zkey    zkey_ic0_outside_subgroup.zkey        section 3 \(IC\): point 0: not in the prime-order subgroup
zkey    zkey_alpha1_outside_subgroup.zkey     alpha1: not in the prime-order subgroup
export  zkey_alpha1_outside_subgroup.zkey     alpha1: not in the prime-order subgroup
key     zkey_alpha1_outside_subgroup.zkey     alpha1: not in the prime-order subgroup
key     zkey_ic0_off_curve.zkey               section 3 \(IC\): point 0: not on the curve
key     zkey_ic0_x_above_p.zkey               section 3 \(IC\): point 0: coordinate >= p
key     zkey_version.zkey                     version not supported
key     zkey_cut2104.zkey                     a section is larger than the rest of the file
key@bls12-381 $bn/circuit_final.zkey          zkey is for bn254 \(bn128\) but this is the bls12-381 prover
zkey    zkey_b2_off_curve.zkey                section 7 \(B2\): point 1: not on the curve
info    zkey_b2_off_curve.zkey                section 7 \(B2\): point 1: not on the curve
zkey@bls12-381 $bn/circuit_final.zkey         zkey is for bn254 \(bn128\) but this is the bls12-381 prover
export@bls12-381 $bn/circuit_final.zkey       zkey is for bn254 \(bn128\) but this is the bls12-381 prover
zkey@bn254 $m/circuit_final.zkey              zkey is for bls12-381 but this is the bn254 \(bn128\) prover
# .r1cs
r1cs    r1cs_cut0.r1cs                        empty
r1cs    r1cs_cut3.r1cs                        too short for the magic
r1cs    r1cs_cut11.r1cs                       ends inside the header
r1cs    r1cs_cut30.r1cs                       section count is larger than the file
r1cs    r1cs_cut100.r1cs                      a section is larger than the rest of the file
r1cs    r1cs_cut132.r1cs                      a section is larger than the rest of the file
r1cs    r1cs_cut167.r1cs                      a section is larger than the rest of the file
r1cs    r1cs_cut263.r1cs                      a section is larger than the rest of the file
r1csinfo r1cs_cut167.r1cs                     a section is larger than the rest of the file
r1cs    r1cs_magic.r1cs                       wrong magic number
r1cs    r1cs_sec1_size_beyond_file.r1cs       a section is larger than the rest of the file
r1cs    r1cs_nconstraints_lie.r1cs            section 2: section ends inside constraint 1
r1cs    r1cs_wire_out_of_range.r1cs           refers to a wire past nWires
r1cs    r1cs_coef_above_r.r1cs                a coefficient is not below r
r1csinfo r1cs_coef_above_r.r1cs               a coefficient is not below r
r1cs@bls12-381 $bn/circuit.r1cs               r1cs is for bn254 \(bn128\) but this is the bls12-381 prover
r1csinfo@bls12-381 $bn/circuit.r1cs           r1cs is for bn254 \(bn128\) but this is the bls12-381 prover
r1cs@bn254 $m/circuit.r1cs                    r1cs is for bls12-381 but this is the bn254 \(bn128\) prover
# .wtns
wtns    wtns_cut0.wtns                        empty
wtns    wtns_cut3.wtns                        too short for the magic
wtns    wtns_cut11.wtns                       ends inside the header
wtns    wtns_cut30.wtns                       section count is larger than the file
wtns    wtns_cut100.wtns                      a section is larger than the rest of the file
wtns    wtns_cut203.wtns                      a section is larger than the rest of the file
wtns    wtns_magic.wtns                       wrong magic number
wtns    wtns_count_lie.wtns                   128 bytes, expected 5 values
wtns    wtns_value_above_r.wtns               value 2 is not below r
wtns    wtns_w0_not_one.wtns                  w\[0\] must be 1
wtns    wtns_of_another_circuit.wtns          expected 4 values.*holds 1024
wtnscheck wtns_of_another_circuit.wtns        expected 4 values.*1024
wtns    $bn/witness.wtns                      wtns is for bn254 \(bn128\) but this is the bls12-381 prover
# bellperson .params and .vk
params  params_cut0.params                    too short for the 864-byte verifying-key header
params  params_cut100.params                  too short for the 864-byte verifying-key header
params  params_cut1068.params                 h claims more points than the rest of the file holds
params  params_cut2039.params                 b_g2 claims more points than the rest of the file holds
params  params_cut2135.params                 b_g2 claims more points than the rest of the file holds
params  params_h_count_lie.params             h claims more points than the rest of the file holds
params  params_ic0_off_curve.params           ic point 0: not on the curve
params  params_ic0_outside_subgroup.params    ic point 0: not in the prime-order subgroup
params  params_ic0_compressed_flag.params     ic point 0: bad flag bits
key     bpvk_cut0.vk                          too short
key     bpvk_cut530.vk                        too short for the 864-byte verifying-key header
key     bpvk_cut963.vk                        ic claims more points than the rest of the file holds
key     bpvk_alpha_outside_subgroup.vk        alpha_g1: not in the prime-order subgroup
key     params_ic0_off_curve.params           ic point 0: not on the curve
key     params_ic0_outside_subgroup.params    ic point 0: not in the prime-order subgroup
# snarkjs JSON
proof   proof_cut.json                        ends inside a string
proof   proof_no_pi_c.json                    pi_c missing
proof   $bn/proof.json                        proof is for bn254 \(bn128\) but this is the bls12-381 prover
vkey    vkey_alpha_off_curve.json             vk_alpha_1.*not on the curve
vkey    vkey_alpha_outside_subgroup.json      vk_alpha_1.*not in the prime-order subgroup
vkey    vkey_ic_missing.json                  IC.*expected an array of 3
vkey@bls12-381 $bn/verification_key.json      verification key is for bn254 \(bn128\) but this is the bls12-381 prover
export  vkey_alpha_outside_subgroup.json      vk_alpha_1.*not in the prime-order subgroup
export@bls12-381 $bn/verification_key.json    verification key is for bn254 \(bn128\) but this is the bls12-381 prover
public  public_three_values.json              3 public signals, the verifying key expects 2
public  public_not_a_number.json              not a decimal or 0x-hex number
EOF

echo "test_badfiles.sh: $pass damaged inputs refused properly, $fail failed"
[ "$fail" -eq 0 ]
