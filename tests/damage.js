// Writes damaged copies of the test vectors for tests/test_badfiles.sh.
//   node tests/damage.js OUTDIR VECTORS PARAMS VK
// VECTORS is tests/vectors; PARAMS and VK a bellperson .params / .vk of the
// multiplier circuit (made by `snarkpipe setup --bellperson`). Every file is
// named after what is wrong with it. The point outside the subgroup is found
// here with plain BigInt arithmetic (independent of the C code): the first
// x >= 1 with x^3 + 4 a square, checked to satisfy [r]P != O.
"use strict";
const fs = require("fs");
const path = require("path");

const [out, vec, paramsPath, vkPath] = process.argv.slice(2);
const p = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaabn;
const r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;

const mod = (a) => ((a % p) + p) % p;
function pow(b, e) {
    let x = 1n;
    b = mod(b);
    for (; e > 0n; e >>= 1n) {
        if (e & 1n) x = (x * b) % p;
        b = (b * b) % p;
    }
    return x;
}
const inv = (a) => pow(a, p - 2n);
// Affine addition on y^2 = x^3 + 4; null is the point at infinity.
function add(P, Q) {
    if (!P) return Q;
    if (!Q) return P;
    const [x1, y1] = P, [x2, y2] = Q;
    let l;
    if (x1 === x2) {
        if (mod(y1 + y2) === 0n) return null;
        l = mod(3n * x1 * x1 * inv(2n * y1));
    } else {
        l = mod((y2 - y1) * inv(x2 - x1));
    }
    const x3 = mod(l * l - x1 - x2);
    return [x3, mod(l * (x1 - x3) - y1)];
}
function mul(P, k) {
    let R = null;
    for (; k > 0n; k >>= 1n, P = add(P, P)) if (k & 1n) R = add(R, P);
    return R;
}
function outsideSubgroup() {
    for (let x = 1n; ; x++) {
        const a = mod(x * x * x + 4n), y = pow(a, (p + 1n) / 4n);
        if ((y * y) % p !== a) continue;
        if (mul([x, y], r) !== null) return [x, y];
    }
}
const bad = outsideSubgroup();

// Field elements as bytes: zkey points are little-endian Montgomery form
// (x * 2^384 mod p), bellperson points big-endian canonical.
function le(v, n) {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++, v >>= 8n) b[i] = Number(v & 0xffn);
    return b;
}
const be = (v, n) => Buffer.from(le(v, n)).reverse();
const mont = (v) => le(mod(v << 384n), 48);
const zkeyG1 = (P) => Buffer.concat([mont(P[0]), mont(P[1])]);
const bpG1 = (P) => Buffer.concat([be(P[0], 48), be(P[1], 48)]);

// The iden3 binfile section table.
function sections(buf) {
    const list = [];
    for (let i = 0, pos = 12, n = buf.readUInt32LE(8); i < n; i++) {
        const size = Number(buf.readBigUInt64LE(pos + 4));
        list.push({ id: buf.readUInt32LE(pos), hdr: pos, off: pos + 12, size });
        pos += 12 + size;
    }
    return list;
}
const sec = (buf, id) => sections(buf).find((s) => s.id === id);
const save = (name, buf) => fs.writeFileSync(path.join(out, name), buf);
function edit(name, src, f) {
    const b = Buffer.from(src);
    f(b);
    save(name, b);
}
const read = (rel) => fs.readFileSync(path.join(vec, rel));

// Cut at several offsets: inside the magic, the header, the section table
// and the payloads, and one byte short of the end.
function truncations(prefix, ext, buf) {
    const cuts = [0, 3, 11, 30, 100, Math.floor(buf.length / 2), buf.length - 97, buf.length - 1];
    for (const c of new Set(cuts.filter((c) => c >= 0 && c < buf.length)))
        save(`${prefix}_cut${c}.${ext}`, buf.subarray(0, c));
}

// Replaces section `id` by `payload`, fixing its size in the table.
function replaceSection(buf, id, payload) {
    const s = sec(buf, id);
    const hdr = Buffer.from(buf.subarray(s.hdr, s.off));
    hdr.writeBigUInt64LE(BigInt(payload.length), 4);
    return Buffer.concat([buf.subarray(0, s.hdr), hdr, payload, buf.subarray(s.off + s.size)]);
}

function zkeys() {
    const z = read("multiplier_bls12381/circuit_final.zkey");
    truncations("zkey", "zkey", z);
    edit("zkey_magic.zkey", z, (b) => b.write("zkez", 0));
    edit("zkey_version.zkey", z, (b) => b.writeUInt32LE(7, 4));
    edit("zkey_sec9_size_beyond_file.zkey", z, (b) => b.writeBigUInt64LE(BigInt(z.length), sec(z, 9).hdr + 4));
    const h = sec(z, 9);
    save("zkey_sec9_one_point_short.zkey", replaceSection(z, 9, z.subarray(h.off, h.off + h.size - 96)));
    edit("zkey_sec10_listed_as_9.zkey", z, (b) => b.writeUInt32LE(9, sec(z, 10).hdr));
    const s2 = sec(z, 2).off;
    edit("zkey_nvars_lie.zkey", z, (b) => b.writeUInt32LE(1000, s2 + 88));
    edit("zkey_domain_not_pow2.zkey", z, (b) => b.writeUInt32LE(3, s2 + 96));
    const ic = sec(z, 3).off;
    edit("zkey_ic0_off_curve.zkey", z, (b) => (b[ic] ^= 1));
    edit("zkey_ic0_x_above_p.zkey", z, (b) => b.fill(0xff, ic, ic + 48));
    edit("zkey_ic0_outside_subgroup.zkey", z, (b) => zkeyG1(bad).copy(b, ic));
    edit("zkey_alpha1_outside_subgroup.zkey", z, (b) => zkeyG1(bad).copy(b, s2 + 100));
    edit("zkey_b2_off_curve.zkey", z, (b) => (b[sec(z, 7).off + 192 + 5] ^= 4));
    edit("zkey_coef_wire_out_of_range.zkey", z, (b) => b.writeUInt32LE(1000, sec(z, 4).off + 4 + 8));
}

function r1css() {
    const c = read("multiplier_bls12381/circuit.r1cs");
    truncations("r1cs", "r1cs", c);
    edit("r1cs_magic.r1cs", c, (b) => b.write("r1cz", 0));
    edit("r1cs_sec1_size_beyond_file.r1cs", c, (b) => b.writeBigUInt64LE(BigInt(c.length), sec(c, 1).hdr + 4));
    edit("r1cs_wire_out_of_range.r1cs", c, (b) => b.writeUInt32LE(99, sec(c, 2).off + 4));
    edit("r1cs_nconstraints_lie.r1cs", c, (b) => b.writeUInt32LE(5, sec(c, 1).off + 60));
    edit("r1cs_coef_above_r.r1cs", c, (b) => b.fill(0xff, sec(c, 2).off + 8, sec(c, 2).off + 40));
}

function wtnss() {
    const w = read("multiplier_bls12381/witness.wtns");
    truncations("wtns", "wtns", w);
    edit("wtns_magic.wtns", w, (b) => b.write("wtnz", 0));
    edit("wtns_count_lie.wtns", w, (b) => b.writeUInt32LE(5, sec(w, 1).off + 36));
    const v = sec(w, 2).off;
    edit("wtns_value_above_r.wtns", w, (b) => b.fill(0xff, v + 64, v + 96));
    edit("wtns_w0_not_one.wtns", w, (b) => (b[v] = 2));
    save("wtns_of_another_circuit.wtns", read("chain1021_bls12381/witness.wtns"));
}

function bellperson() {
    const prm = fs.readFileSync(paramsPath), vk = fs.readFileSync(vkPath);
    truncations("params", "params", prm);
    truncations("bpvk", "vk", vk);
    const ic = 864 + 4; // alpha_g1 beta_g1 beta_g2 gamma_g2 delta_g1 delta_g2, then the IC count
    edit("params_ic0_off_curve.params", prm, (b) => (b[ic + 47] ^= 1));
    edit("params_ic0_outside_subgroup.params", prm, (b) => bpG1(bad).copy(b, ic));
    edit("params_ic0_compressed_flag.params", prm, (b) => (b[ic] |= 0x80));
    const h = ic + 96 * prm.readUInt32BE(864);
    edit("params_h_count_lie.params", prm, (b) => b.writeUInt32BE(0x7fffffff, h));
    edit("bpvk_alpha_outside_subgroup.vk", vk, (b) => bpG1(bad).copy(b, 0));
}

function jsons() {
    const d = path.join(vec, "chain1021_bls12381");
    const proof = fs.readFileSync(path.join(d, "proof.json"), "utf8");
    const vkj = JSON.parse(fs.readFileSync(path.join(d, "verification_key.json"), "utf8"));
    save("proof_cut.json", proof.slice(0, proof.length / 2));
    save("proof_no_pi_c.json", JSON.stringify(Object.assign(JSON.parse(proof), { pi_c: undefined })));
    save("vkey_alpha_outside_subgroup.json",
        JSON.stringify(Object.assign({}, vkj, { vk_alpha_1: [bad[0].toString(), bad[1].toString(), "1"] })));
    save("vkey_alpha_off_curve.json",
        JSON.stringify(Object.assign({}, vkj, { vk_alpha_1: [bad[0].toString(), (bad[1] + 1n).toString(), "1"] })));
    save("vkey_ic_missing.json", JSON.stringify(Object.assign({}, vkj, { IC: vkj.IC.slice(0, 1) })));
    save("public_three_values.json", JSON.stringify(["1", "2", "3"]));
    save("public_not_a_number.json", JSON.stringify(["12", "x7"]));
}

zkeys();
r1css();
wtnss();
bellperson();
jsons();
