/*
 * Writes the seed corpora of the fuzz targets (tests/fuzz/corpus/<target>/)
 * from the snarkjs vectors in tests/vectors and from files our own writers
 * produce (bellperson formats, generated circuits, point encodings), plus
 * hand-made edge cases (empty, truncated). Built by `make fuzz`; run from
 * the repository root:
 *     build-fuzz/fuzz/make_seeds tests/fuzz/corpus
 * The setups draw fresh toxic waste, so a new run gives other (equally
 * valid) bytes for the generated seeds; the committed corpus is one run.
 */
#include "fuzz.h"
#include "seeds.h"
#include "curve/encode.h"
#include "groth16/json_io.h"
#include "groth16/params.h"
#include "groth16/pointio.h"
#include "groth16/setup.h"
#include "groth16/zkey.h"
#include "r1cs/r1cs.h"
#include "synth/gen.h"

#define VEC "tests/vectors/"
#define MUL VEC "multiplier_bls12381/"
#define BN VEC "multiplier_bn128/"

/* The file, whole and cut at each of the given lengths (those below its size). */
static void put_file_and_cuts(const char *target, const char *name, const char *path, const size_t *cuts,
                              size_t n_cuts)
{
    size_t len;
    uint8_t *d = fuzz_slurp(path, &len);
    put(target, name, d, len);
    for (size_t i = 0; i < n_cuts; i++) {
        if (cuts[i] >= len)
            continue;
        char cut_name[200];
        snprintf(cut_name, sizeof cut_name, "cut%zu-%s", cuts[i], name);
        put(target, cut_name, d, cuts[i]);
    }
    free(d);
}

static void copy_file(const char *target, const char *name, const char *path)
{
    put_file_and_cuts(target, name, path, NULL, 0);
}

static void snarkjs_files(void)
{
    static const size_t bin_cuts[] = {0, 3, 11, 40, 100};
    put_file_and_cuts("r1cs", "multiplier.r1cs", MUL "circuit.r1cs", bin_cuts, 5);
    copy_file("r1cs", "multiplier-bn128.r1cs", BN "circuit.r1cs");
    put_file_and_cuts("wtns", "multiplier.wtns", MUL "witness.wtns", bin_cuts, 5);
    copy_file("wtns", "multiplier-bn128.wtns", BN "witness.wtns");
    static const size_t wasm_cuts[] = {0, 8, 100, 1000};
    put_file_and_cuts("wasm", "multiplier.wasm", MUL "circuit.wasm", wasm_cuts, 4);
    copy_file("wasm", "multiplier-bn128.wasm", BN "circuit.wasm");
    static const size_t zkey_cuts[] = {0, 60, 1000, 4000};
    put_file_and_cuts("zkey", "multiplier-final.zkey", MUL "circuit_final.zkey", zkey_cuts, 4);
    copy_file("zkey", "multiplier-0000.zkey", MUL "circuit_0000.zkey");
    copy_file("zkey", "multiplier-bn128.zkey", BN "circuit_final.zkey");
    static const size_t ptau_cuts[] = {0, 11, 30, 200, 3000};
    put_file_and_cuts("ptau", "pot2.ptau", VEC "ptau/pot2_bls12381.ptau", ptau_cuts, 5);
    copy_file("ptau", "pot2-raw.ptau", VEC "ptau/pot2_bls12381_raw.ptau");
    copy_file("ptau", "pot2-bn128.ptau", VEC "ptau/pot2_bn128.ptau");
    copy_file("ptau", "pot2-bn128-raw.ptau", VEC "ptau/pot2_bn128_raw.ptau");

    static const size_t json_cuts[] = {0, 1, 30, 300};
    put_file_and_cuts("proof_json", "multiplier-proof.json", MUL "proof.json", json_cuts, 4);
    copy_file("proof_json", "multiplier-proof-fixed-rs.json", MUL "proof_fixed_rs.json");
    copy_file("proof_json", "multiplier-bn128-proof.json", BN "proof.json");
    put_file_and_cuts("public_json", "multiplier-public.json", MUL "public.json", json_cuts, 2);
    copy_file("public_json", "chain-public.json", VEC "chain1021_bls12381/public.json");
    put_file_and_cuts("vk_json", "multiplier-vk.json", MUL "verification_key.json", json_cuts, 4);
    copy_file("vk_json", "multiplier-bn128-vk.json", BN "verification_key.json");
    copy_file("json", "proof.json", MUL "proof.json");
    copy_file("json", "public.json", MUL "public.json");
    copy_file("json", "inspect.json", MUL "inspect.json");
}

static void json_edge_cases(void)
{
    static const char *const cases[] = {
        "", "[]", "{}", "null", "-0.5e+10", "[1,[2,[3,{\"a\":[true,false,null]}]]]",
        "{\"k\":\"\\u00e9\\ud83d\\ude00\\n\\\"\\\\\\/\"}", "[\"\xc3\xa9\xf0\x9f\x98\x80\"]", "{\"a\":1,\"a\":2}",
        "[01]", "[1,]", "\"\\ud800\"", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]",
        "{\"pi_a\":[\"0x1\",\"2\",\"1\"]}"};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char name[32];
        snprintf(name, sizeof name, "edge%02zu.json", i);
        put("json", name, cases[i], strlen(cases[i]));
    }
    put("public_json", "empty-array.json", "[]", 2);
    put("public_json", "mixed.json", "[\"0x21\", 7, \"0\"]", 16);
}

static void field_strings(void)
{
    static const char *const cases[] = {
        "0", "1", "0x0", "0X1f", "",  "0x", "-1", "00000000000000000000000000000000000012", " 1",
        /* r - 1, r, p - 1, p */
        "52435875175126190479447740508185965837690552500527637822603658699938581184512",
        "52435875175126190479447740508185965837690552500527637822603658699938581184513",
        "4002409555221667393417789825735904156556882819939007885332058136124031650490837864442687629129015664037"
        "894272559786",
        "4002409555221667393417789825735904156556882819939007885332058136124031650490837864442687629129015664037"
        "894272559787",
        "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab",
        "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001"};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char name[32];
        snprintf(name, sizeof name, "str%02zu", i);
        put("field_str", name, cases[i], strlen(cases[i]));
    }
}

/* Seeds for fuzz_point: selector byte (bit 0 G2, bits 1-2 form, bit 3
 * check the subgroup) then the encoding. */
static void put_point(const char *name, const void *p, int g2, int form, int chk, int tweak_last)
{
    static const sp_pt_format formats[3] = {SP_PTF_ZCASH_C, SP_PTF_ZCASH_U, SP_PTF_LEM};
    uint8_t buf[1 + 2 * 192];
    size_t n = sp_pt_size(formats[form], g2);
    buf[0] = (uint8_t)(g2 | form << 1 | chk << 3);
    sp_pt_encode(buf + 1, p, formats[form], g2);
    if (tweak_last)
        buf[n] ^= 1;
    put("point", name, buf, 1 + n);
}

/* A G1 / G2 point on the curve outside the subgroup: the first x = k
 * (G2: k + u) with a square x^3 + b, k = 1, 2, ... */
static void off_subgroup_points(sp_g1_affine *p1, sp_g2_affine *p2)
{
    for (uint64_t k = 1;; k++) {
        sp_fp_set_u64(&p1->x, k);
        sp_fp rhs;
        sp_g1_curve_rhs(&rhs, &p1->x);
        if (sp_fp_sqrt(&p1->y, &rhs) && !sp_g1_in_subgroup_slow(p1))
            break;
    }
    for (uint64_t k = 1;; k++) {
        sp_fp_set_u64(&p2->x.c0, k);
        sp_fp_set_one(&p2->x.c1);
        sp_fp2 rhs;
        sp_g2_curve_rhs(&rhs, &p2->x);
        if (sp_fp2_sqrt(&p2->y, &rhs) && !sp_g2_in_subgroup_slow(p2))
            break;
    }
}

static void point_seeds(const sp_g16_vk *vk)
{
    sp_g1_affine inf1, bad1;
    sp_g2_affine inf2, bad2;
    sp_g1_affine_set_inf(&inf1);
    sp_g2_affine_set_inf(&inf2);
    off_subgroup_points(&bad1, &bad2);
    for (int form = 0; form < 3; form++) {
        char name[64];
        snprintf(name, sizeof name, "g1-alpha-f%d", form);
        put_point(name, &vk->alpha1, 0, form, 1, 0);
        snprintf(name, sizeof name, "g2-beta-f%d", form);
        put_point(name, &vk->beta2, 1, form, 1, 0);
        snprintf(name, sizeof name, "g1-inf-f%d", form);
        put_point(name, &inf1, 0, form, 1, 0);
        snprintf(name, sizeof name, "g2-inf-f%d", form);
        put_point(name, &inf2, 1, form, 0, 0);
        snprintf(name, sizeof name, "g1-cofactor-f%d", form);
        put_point(name, &bad1, 0, form, form & 1, 0);
        snprintf(name, sizeof name, "g2-cofactor-f%d", form);
        put_point(name, &bad2, 1, form, form & 1, 0);
        snprintf(name, sizeof name, "g1-tweaked-f%d", form);
        put_point(name, &vk->ic[0], 0, form, 0, 1);
    }
    static const uint8_t zeros[1 + 192] = {1 << 1}; /* G1 uncompressed, all zero: no point */
    put("point", "g1-zero-uncompressed", zeros, 1 + 96);
    /* several points in one input, for the array decoder */
    uint8_t arr[1 + 3 * 96] = {1 << 1 | 1 << 3};
    sp_pt_encode_array(arr + 1, vk->ic, 2, SP_PTF_ZCASH_U, 0);
    sp_pt_encode(arr + 1 + 2 * 96, &bad1, SP_PTF_ZCASH_U, 0);
    put("point", "g1-array3", arr, sizeof arr);

    /* fuzz_point_dec: byte 0 = G2 bit | check bit << 1, then '\n'-separated strings */
    char text[1 + 6 * SP_FP_DEC_MAX + 8], dec[6][SP_FP_DEC_MAX];
    struct { const void *p; int g2; const char *name; } dp[] = {
        {&vk->alpha1, 0, "g1-alpha"}, {&vk->beta2, 1, "g2-beta"}, {&inf1, 0, "g1-inf"},
        {&inf2, 1, "g2-inf"},          {&bad1, 0, "g1-cofactor"}, {&bad2, 1, "g2-cofactor"}};
    for (size_t i = 0; i < sizeof dp / sizeof *dp; i++) {
        if (dp[i].g2)
            sp_g2_to_dec(dec, dp[i].p);
        else
            sp_g1_to_dec(dec, dp[i].p);
        size_t len = 0;
        text[len++] = (char)(dp[i].g2 | 2);
        for (int k = 0; k < (dp[i].g2 ? 6 : 3); k++)
            len += (size_t)sprintf(text + len, "%s%s", k ? "\n" : "", dec[k]);
        put("point_dec", dp[i].name, text, len);
    }
    put("point_dec", "g1-zero-zero-one", "\0" "0\n0\n1", 6);
    put("point_dec", "g1-hex", "\2" "0x0\n0x1\n0x0", 12);
}

/* A proving key of the bellperson kind for cs, written as .params and
 * .vk (sparse a / b as bellperson drops infinity), and once more with
 * every absent point replaced by the generator (dense: no density needed). */
static void bellperson_seeds(const sp_r1cs *cs, const char *tag, int with_points)
{
    char err[SP_ERR_LEN], name[64];
    const char *tmp = fuzz_tmp_path();
    sp_g16_pk pk;
    if (sp_g16_setup(&pk, cs, SP_G16_H_BELLPERSON, 1, err) != SP_OK)
        die("setup", err);
    size_t len;
    uint8_t *d;
    if (sp_bp_params_write(tmp, &pk, err) != SP_OK)
        die("params write", err);
    d = fuzz_slurp(tmp, &len);
    snprintf(name, sizeof name, "%s-sparse.params", tag);
    put("bp_params", name, d, len);
    free(d);
    sp_g1_affine g1;
    sp_g2_affine g2;
    sp_g1_generator(&g1);
    sp_g2_generator(&g2);
    for (size_t i = 0; i < pk.n_vars; i++) {
        if (sp_g1_affine_is_inf(&pk.a[i]))
            pk.a[i] = g1;
        if (sp_g1_affine_is_inf(&pk.b1[i]))
            pk.b1[i] = g1, pk.b2[i] = g2;
    }
    if (sp_bp_params_write(tmp, &pk, err) != SP_OK)
        die("params write", err);
    d = fuzz_slurp(tmp, &len);
    snprintf(name, sizeof name, "%s-dense.params", tag);
    put("bp_params", name, d, len);
    static const size_t cuts[] = {0, 500, 868, 2000};
    for (size_t i = 0; i < 4 && with_points; i++) {
        snprintf(name, sizeof name, "cut%zu-%s-dense.params", cuts[i], tag);
        put("bp_params", name, d, cuts[i] < len ? cuts[i] : len - 1);
    }
    free(d);
    if (sp_bp_vk_write(tmp, &pk.vk, err) != SP_OK)
        die("vk write", err);
    d = fuzz_slurp(tmp, &len);
    snprintf(name, sizeof name, "%s.vk", tag);
    put("bp_vk", name, d, len);
    if (with_points)
        put("bp_vk", "cut900.vk", d, 900);
    free(d);
    if (with_points) {
        sp_g16_proof proof = {pk.vk.alpha1, pk.vk.beta2, pk.vk.delta1};
        uint8_t enc[SP_BP_PROOF_BYTES + 1];
        sp_bp_proof_encode(enc, &proof);
        put("bp_proof", "valid-points.bin", enc, SP_BP_PROOF_BYTES);
        enc[SP_BP_PROOF_BYTES] = 1; /* the extra byte asks to skip the subgroup check */
        put("bp_proof", "valid-points-skip.bin", enc, sizeof enc);
        enc[0] ^= 0x20;
        put("bp_proof", "flipped-sign.bin", enc, SP_BP_PROOF_BYTES);
        memset(enc, 0, sizeof enc);
        enc[0] = 0xc0;
        put("bp_proof", "a-infinity.bin", enc, SP_BP_PROOF_BYTES);
        point_seeds(&pk.vk);
    }
    sp_g16_pk_free(&pk);
}

/* A small generated circuit and witness, and its snarkjs-kind key. */
static void generated_seeds(void)
{
    char err[SP_ERR_LEN], r1cs_path[80], wtns_path[80];
    snprintf(r1cs_path, sizeof r1cs_path, "%s.r1cs", fuzz_tmp_path());
    snprintf(wtns_path, sizeof wtns_path, "%s.wtns", fuzz_tmp_path());
    sp_gen_params gp = {.n_constraints = 12, .n_public = 2, .bool_fraction = 0.5, .seed = 7};
    if (sp_gen_circuit(r1cs_path, wtns_path, &gp, NULL, err) != SP_OK)
        die("gen-circuit", err);
    copy_file("r1cs", "gen12.r1cs", r1cs_path);
    copy_file("wtns", "gen12.wtns", wtns_path);
    sp_r1cs cs;
    if (sp_r1cs_read(&cs, r1cs_path, err) != SP_OK)
        die("r1cs read", err);
    sp_g16_pk pk;
    if (sp_g16_setup(&pk, &cs, SP_G16_H_SNARKJS, 1, err) != SP_OK || sp_zkey_write(fuzz_tmp_path(), &pk, err))
        die("zkey", err);
    copy_file("zkey", "gen12.zkey", fuzz_tmp_path());
    sp_g16_pk_free(&pk);
    bellperson_seeds(&cs, "gen12", 0);
    sp_r1cs_free(&cs);
    unlink(r1cs_path);
    unlink(wtns_path);
}

int main(int argc, char **argv)
{
    if (seeds_start(argc, argv))
        return 2;
    snarkjs_files();
    json_edge_cases();
    field_strings();
    char err[SP_ERR_LEN];
    sp_r1cs cs;
    if (sp_r1cs_read(&cs, MUL "circuit.r1cs", err) != SP_OK)
        die("r1cs read", err);
    bellperson_seeds(&cs, "multiplier", 1);
    sp_r1cs_free(&cs);
    generated_seeds();
    return 0;
}
