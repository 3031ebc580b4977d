/*
 * `snarkpipe export-solidity` and `snarkpipe calldata` (cmds.h): a Groth16
 * verifier contract for Ethereum, and the arguments that call it.
 *
 * The EVM verifies pairings on BN254 only (the precompiles 0x06 G1
 * addition, 0x07 G1 scalar multiplication and 0x08 pairing check of
 * EIP-196 and EIP-197), so only the BN254 instance writes anything. Both
 * instances read and check their inputs the same way (every point on the
 * curve and in the subgroup, every public signal below r); the BLS12-381
 * one then refuses with a message naming the curve.
 *
 * Interface (docs/formats.md §8): the contract is named Groth16Verifier and
 * has snarkjs 0.7.6's verifyProof(uint[2] _pA, uint[2][2] _pB, uint[2] _pC,
 * uint[N] _pubSignals) view returns (bool), so the contracts, the calldata
 * and the tools around them are interchangeable; `calldata` prints the
 * text `snarkjs zkey export soliditycalldata` prints for the same files.
 * The contract's code is ours: Solidity, with the precompile calls in small
 * assembly blocks (plain abi.encode calls cost 2-3% more gas).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli/cli.h"
#include "cli/cmds.h"
#include "curve/encode.h"
#include "groth16/json_io.h"
#include "util/buf.h"
#include "util/file.h"

static const char SOL_USAGE[] =
    "usage: snarkpipe export-solidity <verification_key.json|key.zkey> <Verifier.sol>\n"
    "Writes a Solidity contract that verifies Groth16 proofs of this key on Ethereum, with the\n"
    "interface of snarkjs' verifier (contract Groth16Verifier, verifyProof(uint[2] _pA,\n"
    "uint[2][2] _pB, uint[2] _pC, uint[N] _pubSignals) view returns (bool)); `snarkpipe calldata`\n"
    "prints its arguments. BN254 keys only (snarkjs \"bn128\"): Ethereum's pairing precompiles\n"
    "support no other curve. The key is checked in full first; <Verifier.sol> is replaced\n"
    "atomically (a failure leaves it as it was).\n";

static const char CALL_USAGE[] =
    "usage: snarkpipe calldata <public.json> <proof.json>\n"
    "Prints the arguments of the verifier contract's verifyProof for this proof, the text\n"
    "`snarkjs zkey export soliditycalldata` prints: [A],[[B]],[C],[signals] as 0x-hex words, B's\n"
    "coordinates imaginary part first. The proof and the signals are checked first (points on\n"
    "the curve and in the subgroup, signals below r); a point at infinity is written (0, 0), the\n"
    "precompiles' encoding. BN254 proofs only (snarkjs \"bn128\").\n";

#if SP_CURVE_BN254
/* Every number the EVM sees is one 256-bit word. */
_Static_assert(SP_FP_BYTES == 32 && SP_FR_BYTES == 32, "BN254 elements are 32-byte words");

typedef char word_hex[67]; /* "0x" + 64 hex digits + NUL */

static void hex_of_be(word_hex out, const uint8_t be[32])
{
    static const char digits[] = "0123456789abcdef";
    out[0] = '0';
    out[1] = 'x';
    for (int i = 0; i < 32; i++) {
        out[2 + 2 * i] = digits[be[i] >> 4];
        out[3 + 2 * i] = digits[be[i] & 15];
    }
    out[66] = 0;
}

/* The n words of an EVM encoding (curve/encode.h: sp_g1_to_evm, sp_g2_to_evm). */
static void hex_words(word_hex *out, const uint8_t *be, size_t n)
{
    for (size_t i = 0; i < n; i++)
        hex_of_be(out[i], be + 32 * i);
}

static void hex_fr(word_hex out, const sp_fr *a)
{
    uint8_t be[32];
    sp_fr_to_bytes_be(be, a);
    hex_of_be(out, be);
}

static void hex_limbs(word_hex out, const uint64_t l[4])
{
    uint8_t be[32];
    for (int i = 0; i < 32; i++)
        be[i] = (uint8_t)(l[3 - i / 8] >> (56 - 8 * (i % 8)));
    hex_of_be(out, be);
}

/* ---- the contract ---- */

typedef struct {
    char *b;
    size_t len, cap;
} text;

#define OUT(t, ...) sp_buf_printf(&(t)->b, &(t)->len, &(t)->cap, __VA_ARGS__)

/* A G1 point as two constants NAME_X, NAME_Y (infinity: 0, 0). */
static void const_g1(text *t, const char *name, const sp_g1_affine *p)
{
    uint8_t be[SP_G1_EVM_BYTES];
    word_hex h[2];
    sp_g1_to_evm(be, p);
    hex_words(h, be, 2);
    OUT(t, "    uint256 constant %s_X = %s;\n    uint256 constant %s_Y = %s;\n", name, h[0], name, h[1]);
}

/* A G2 point as NAME_X1, NAME_X0, NAME_Y1, NAME_Y0: each coordinate
 * c0 + c1*u with c1 first, the order precompile 0x08 reads. */
static void const_g2(text *t, const char *name, const sp_g2_affine *p)
{
    uint8_t be[SP_G2_EVM_BYTES];
    word_hex h[4];
    sp_g2_to_evm(be, p);
    hex_words(h, be, 4);
    OUT(t,
        "    uint256 constant %s_X1 = %s;\n    uint256 constant %s_X0 = %s;\n"
        "    uint256 constant %s_Y1 = %s;\n    uint256 constant %s_Y0 = %s;\n",
        name, h[0], name, h[1], name, h[2], name, h[3]);
}

static void contract_head(text *t, const sp_g16_vk *vk)
{
    word_hex r, p;
    hex_limbs(r, SP_FR_MODULUS);
    hex_limbs(p, SP_FP_MODULUS);
    OUT(t, "// SPDX-License-Identifier: MIT\n"
           "// Groth16 verifier for one BN254 verifying key (snarkjs \"bn128\"), %u public signal%s,\n"
           "// written by snarkpipe export-solidity. The interface is that of the verifier snarkjs\n"
           "// writes: `snarkpipe calldata public.json proof.json` (or `snarkjs zkey export\n"
           "// soliditycalldata`) prints the arguments of verifyProof. The check runs on the EVM's\n"
           "// BN254 precompiles: 0x06 (G1 addition), 0x07 (G1 scalar multiplication) and 0x08\n"
           "// (pairing product check).\n"
           "pragma solidity >=0.7.0 <0.9.0;\n\n"
           "contract Groth16Verifier {\n"
           "    // The group order r. Public signals must be below it: s and s + r give the same\n"
           "    // multiple of a point of order r, so without the check both would verify.\n"
           "    uint256 constant R = %s;\n"
           "    // The base field prime p.\n"
           "    uint256 constant P = %s;\n\n"
           "    // The verifying key.\n",
        vk->n_public, vk->n_public == 1 ? "" : "s", r, p);
    const_g1(t, "ALPHA", &vk->alpha1);
    const_g2(t, "BETA", &vk->beta2);
    const_g2(t, "GAMMA", &vk->gamma2);
    const_g2(t, "DELTA", &vk->delta2);
    OUT(t, "    // vk_x = IC0 + the sum of _pubSignals[i] * IC(i+1): the public part of the statement.\n");
    for (uint32_t i = 0; i <= vk->n_public; i++) {
        char name[24];
        snprintf(name, sizeof name, "IC%u", i);
        const_g1(t, name, &vk->ic[i]);
    }
}

static void contract_verify(text *t, uint32_t n)
{
    OUT(t, "\n"
           "    /// True when (_pA, _pB, _pC) is a valid proof of the statement _pubSignals under this\n"
           "    /// contract's key; false otherwise, including for numbers out of range and points that\n"
           "    /// are not on the curve.\n"
           "    function verifyProof(uint[2] calldata _pA, uint[2][2] calldata _pB, uint[2] calldata _pC,\n"
           "                         uint[%u] calldata _pubSignals) public view returns (bool) {\n"
           "        for (uint256 i = 0; i < _pubSignals.length; i++) {\n"
           "            if (_pubSignals[i] >= R) return false;\n"
           "        }\n"
           "        // -A is formed here; the precompile checks every other coordinate itself.\n"
           "        if (_pA[1] >= P) return false;\n"
           "        bool ok = true;\n"
           "        uint256 x = IC0_X;\n"
           "        uint256 y = IC0_Y;\n",
        n);
    for (uint32_t i = 1; i <= n; i++)
        OUT(t, "        (ok, x, y) = mulAdd(ok, x, y, IC%u_X, IC%u_Y, _pubSignals[%u]);\n", i, i, i - 1);
    OUT(t, "        if (!ok) return false;\n"
           "        // e(-A, B) * e(alpha, beta) * e(vk_x, gamma) * e(C, delta) == 1\n"
           "        uint256[24] memory pairs = [\n"
           "            _pA[0], (P - _pA[1]) %% P, _pB[0][0], _pB[0][1], _pB[1][0], _pB[1][1],\n"
           "            ALPHA_X, ALPHA_Y, BETA_X1, BETA_X0, BETA_Y1, BETA_Y0,\n"
           "            x, y, GAMMA_X1, GAMMA_X0, GAMMA_Y1, GAMMA_Y0,\n"
           "            _pC[0], _pC[1], DELTA_X1, DELTA_X0, DELTA_Y1, DELTA_Y0\n"
           "        ];\n"
           "        return pairingIsOne(pairs);\n"
           "    }\n\n"
           "    // (x, y) + s * (px, py) in G1, on the precompiles 0x07 and 0x06; ok becomes false when\n"
           "    // one refuses its input.\n"
           "    function mulAdd(bool ok, uint256 x, uint256 y, uint256 px, uint256 py, uint256 s)\n"
           "        private view returns (bool, uint256, uint256)\n"
           "    {\n"
           "        if (!ok) return (false, x, y);\n"
           "        uint256[4] memory buf = [px, py, s, 0];\n"
           "        assembly {\n"
           "            // s * (px, py) into buf[2..3], then (x, y) + that into buf[0..1]\n"
           "            ok := staticcall(gas(), 0x07, buf, 96, add(buf, 64), 64)\n"
           "            mstore(buf, x)\n"
           "            mstore(add(buf, 32), y)\n"
           "            ok := and(ok, staticcall(gas(), 0x06, buf, 128, buf, 64))\n"
           "            x := mload(buf)\n"
           "            y := mload(add(buf, 32))\n"
           "        }\n"
           "        return (ok, x, y);\n"
           "    }\n\n"
           "    // Whether the product of the four pairings is 1 (precompile 0x08); false when the\n"
           "    // precompile refuses its input.\n"
           "    function pairingIsOne(uint256[24] memory pairs) private view returns (bool) {\n"
           "        bool success;\n"
           "        uint256 result;\n"
           "        assembly {\n"
           "            success := staticcall(gas(), 0x08, pairs, 768, pairs, 32)\n"
           "            result := mload(pairs)\n"
           "        }\n"
           "        return success && result == 1;\n"
           "    }\n"
           "}\n");
}

/* The whole contract for vk (n_public >= 1): *out malloc'ed, or NULL when
 * memory ran out. */
static char *contract_text(size_t *len, const sp_g16_vk *vk)
{
    text t = {NULL, 0, 0};
    contract_head(&t, vk);
    contract_verify(&t, vk->n_public);
    *len = t.len;
    return t.b;
}

/* snarkjs' soliditycalldata line: "0x.." words, quoted, ", " inside a point,
 * "," between the parts and between signals, then a newline. */
static char *calldata_text(const sp_g16_proof *pf, const sp_fr *pub, size_t n)
{
    text t = {NULL, 0, 0};
    uint8_t be[SP_G1_EVM_BYTES + SP_G2_EVM_BYTES + SP_G1_EVM_BYTES];
    word_hex h[8];
    sp_g1_to_evm(be, &pf->a);
    sp_g2_to_evm(be + SP_G1_EVM_BYTES, &pf->b);
    sp_g1_to_evm(be + SP_G1_EVM_BYTES + SP_G2_EVM_BYTES, &pf->c);
    hex_words(h, be, 8);
    OUT(&t, "[\"%s\", \"%s\"],[[\"%s\", \"%s\"],[\"%s\", \"%s\"]],[\"%s\", \"%s\"],[", h[0], h[1], h[2], h[3], h[4],
        h[5], h[6], h[7]);
    for (size_t i = 0; i < n; i++) {
        word_hex s;
        hex_fr(s, &pub[i]);
        OUT(&t, "%s\"%s\"", i ? "," : "", s);
    }
    OUT(&t, "]\n");
    return t.b;
}
#else
/* The message of the BLS12-381 instance, once the input has been read. */
static int refuse_curve(const char *cmd, const char *path, const char *what)
{
    fprintf(stderr,
            "snarkpipe %s: %s: this %s is on BLS12-381; Ethereum verifies pairings on BN254 only (snarkjs "
            "\"bn128\"; the precompiles 0x06-0x08), so there is nothing to write for it\n",
            cmd, path, what);
    return SP_EXIT_RUNTIME;
}
#endif

/* ---- the commands ---- */

/* 1 when a and b name the same existing file. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int sp_cli_export_solidity(int argc, char **argv)
{
    char *pos[2];
    int rc = sp_cli_files("export-solidity", SOL_USAGE, argc, argv, pos, 2);
    if (rc != SP_CLI_NEXT)
        return rc;
    if (same_file(pos[0], pos[1]))
        return sp_cli_usage("export-solidity", SOL_USAGE, "%s is the key itself; name another output file", pos[1]);
    sp_g16_vk vk;
    memset(&vk, 0, sizeof vk);
    if ((rc = sp_cli_read_vk(&vk, NULL, "export-solidity", pos[0])) != SP_EXIT_OK)
        return rc;
#if SP_CURVE_BN254
    char err[SP_ERR_LEN] = "";
    size_t len = 0;
    char *sol = NULL;
    if (vk.n_public == 0) {
        /* Solidity has no uint[0]: snarkjs' interface cannot take such a key. */
        snprintf(err, sizeof err, "the key has no public signals; verifyProof's uint[N] _pubSignals needs N >= 1");
        rc = sp_cli_fail_file("export-solidity", pos[0], SP_ERR_UNSUPPORTED, err);
    } else if (!(sol = contract_text(&len, &vk))) {
        rc = sp_cli_fail("export-solidity", SP_ERR_NOMEM, "out of memory");
    } else {
        sp_status st = sp_file_write_atomic(pos[1], sol, len, "output", err);
        rc = st == SP_OK ? SP_EXIT_OK : sp_cli_fail("export-solidity", st, err);
    }
    if (rc == SP_EXIT_OK && !sp_cli_g.quiet && !sp_cli_g.json)
        printf("Groth16Verifier (BN254, %u public signal%s) written to %s\n", vk.n_public,
               vk.n_public == 1 ? "" : "s", pos[1]);
    free(sol);
#else
    rc = refuse_curve("export-solidity", pos[0], "verifying key");
#endif
    sp_g16_vk_free(&vk);
    return rc;
}

int sp_cli_calldata(int argc, char **argv)
{
    char *pos[2];
    int rc = sp_cli_files("calldata", CALL_USAGE, argc, argv, pos, 2);
    if (rc != SP_CLI_NEXT)
        return rc;
    char err[SP_ERR_LEN] = "";
    sp_g16_proof proof;
    sp_status st = sp_g16_proof_json_read(&proof, pos[1], 0, err);
    if (st != SP_OK)
        return sp_cli_fail_file("calldata", pos[1], st, err);
    sp_fr *pub = NULL;
    size_t n = 0;
    if ((st = sp_g16_public_json_read(&pub, &n, pos[0], err)) != SP_OK)
        return sp_cli_fail_file("calldata", pos[0], st, err);
#if SP_CURVE_BN254
    char *line = calldata_text(&proof, pub, n);
    if (!line)
        rc = sp_cli_fail("calldata", SP_ERR_NOMEM, "out of memory");
    else if (fputs(line, stdout) == EOF || fflush(stdout) != 0)
        rc = sp_cli_fail("calldata", SP_ERR_IO, "cannot write to stdout");
    else
        rc = SP_EXIT_OK;
    free(line);
#else
    rc = refuse_curve("calldata", pos[1], "proof");
#endif
    free(pub);
    return rc;
}
