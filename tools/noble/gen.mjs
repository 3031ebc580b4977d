// Writes the known-answer files tests/vectors/noble_bls12381.txt and
// tests/vectors/noble_bn254.txt: known answers computed by @noble/curves,
// an implementation independent of ours.
//
//   cd tools/noble && npm ci && node gen.mjs ../../tests/vectors/noble_bls12381.txt
//   node gen.mjs --curve bn254 ../../tests/vectors/noble_bn254.txt
//   (no file argument: writes to stdout; the default curve is bls12-381)
//
// Deterministic: every input is a fixed constant or SHA-512 of a fixed label,
// so the output changes only when this script or the pinned library changes.
// .ci/run regenerates both files and fails when either differs from the
// committed copy.
// @noble/curves 2.4.0 declares node >= 20.19; Debian 12 ships node 18.20.4,
// on which this script gives byte-identical output (npm ci only warns
// EBADENGINE), and the CI comparison would expose any difference.
//
// Format (read by tests/test_noble.c through src/cli/kat.c): one vector per
// line, fields separated by one space, '#' starts a comment line. All hex is
// lowercase, no "0x".
//   fp, fr      big-endian canonical, 2 * (bytes of the field) hex digits
//               (BLS12-381: 96 / 64; BN254: 64 / 64)
//   fp2         two fp fields: c0 c1
//   scalar k    big-endian, 64 hex digits, 0 < k < r
//   point       the curve's two byte forms, "comp" and "uncomp":
//     BLS12-381 the zcash encoding (flags in the top 3 bits of byte 0:
//               0x80 compressed, 0x40 infinity, 0x20 y is the larger root;
//               G2 coordinates are written c1 then c0)
//     BN254     comp: arkworks compressed (x little-endian, G2 as c0 then
//               c1; flags in the top 2 bits of the LAST byte: 0x80 y is the
//               larger root (arkworks' "y is negative"), 0x40 infinity with
//               x = 0); uncomp: the EVM form of EIP-196/197 (big-endian
//               x | y, G2 coordinates c1 then c0, infinity all zero). noble
//               has no byte encoding for bn254, so these are written here
//               from affine coordinates, and a decoder written here (curve
//               checks by noble) must read every one back.
//   fp12        12 fp fields in the order
//               c0.c0.c0 c0.c0.c1 c0.c1.c0 c0.c1.c1 c0.c2.c0 c0.c2.c1
//               c1.c0.c0 c1.c0.c1 c1.c1.c0 c1.c1.c1 c1.c2.c0 c1.c2.c1
//               for Fp12 = Fp6[w]/(w^2 - v), Fp6 = Fp2[v]/(v^3 - xi),
//               Fp2 = Fp[u]/(u^2 + 1), xi = 1+u (BLS12-381) or 9+u (BN254):
//               x = c0 + c1*w, ci = ci.c0 + ci.c1*v + ci.c2*v^2,
//               and each Fp2 is c0 + c1*u.
// Kinds (fields after the kind):
//   fp_add a b r | fp_sub a b r | fp_mul a b r | fp_inv a r
//   fp_sqrt a s          s^2 = a; s is noble's root (the other root is -s)
//   fp_nosqrt a          a is not a square
//   fr_add a b r | fr_sub a b r | fr_mul a b r | fr_inv a r
//   fp2_mul a0 a1 b0 b1 r0 r1 | fp2_inv a0 a1 r0 r1 | fp2_sqrt a0 a1 s0 s1
//   g1_gen comp uncomp | g2_gen comp uncomp       the standard generators
//   g1_inf comp uncomp | g2_inf comp uncomp       the point at infinity
//   g1_mul k comp uncomp | g2_mul k comp uncomp   [k]G
//   g1_add a b comp | g2_add a b comp             [a]G + [b]G
//   g1_dec k x y | g2_dec k x0 x1 y0 y1           affine coordinates of [k]G in decimal
//   pairing a b fp12                              e([a]G1, [b]G2), final exponentiation included
//   g1_invalid reason hex | g2_invalid reason hex  encodings every decoder must reject;
//       reason: not_in_subgroup (valid curve point of the wrong order: accepted
//       when the subgroup check is off), not_on_curve, no_sqrt, not_canonical,
//       bad_flags, bad_length. noble rejects every one of them (asserted below;
//       for BN254 through the decoder written here, with noble's curve and
//       subgroup checks). BN254's G1 has cofactor 1: no not_in_subgroup lines.
import { readFileSync, writeFileSync } from 'node:fs';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { bn254 } from '@noble/curves/bn254.js';
import { sha512 } from '@noble/hashes/sha2.js';

const args = process.argv.slice(2);
let curveName = 'bls12-381';
if (args[0] === '--curve') {
  curveName = args[1];
  args.splice(0, 2);
}
if (curveName !== 'bls12-381' && curveName !== 'bn254') throw new Error(`unknown curve ${curveName}`);
const BN = curveName === 'bn254';
const bls = BN ? bn254 : bls12_381;
const { Fp, Fp2, Fr, Fp12 } = bls.fields;
const G1 = bls.G1.Point;
const G2 = bls.G2.Point;
const P = Fp.ORDER;
const R = Fr.ORDER;
const FP_BYTES = BN ? 32 : 48;
// b of G1 and of G2 (BN254: 3 and 3 / (9 + u); BLS12-381: 4 and 4 (1 + u)).
const B1 = BN ? 3n : 4n;
const B2 = BN ? Fp2.div(Fp2.create({ c0: 3n, c1: 0n }), Fp2.create({ c0: 9n, c1: 1n }))
  : Fp2.create({ c0: 4n, c1: 4n });
const version = JSON.parse(
  readFileSync(new URL('./node_modules/@noble/curves/package.json', import.meta.url))).version;

const out = [];
const emit = (...f) => out.push(f.join(' '));
const fail = (msg) => { throw new Error(msg); };

// ---- encodings -------------------------------------------------------------
const hexN = (v, bytes) => {
  if (v < 0n || v >= 1n << BigInt(8 * bytes)) fail(`value does not fit in ${bytes} bytes`);
  return v.toString(16).padStart(2 * bytes, '0');
};
const fpHex = (v) => hexN(v, FP_BYTES);
const frHex = (v) => hexN(v, 32);
const fp2Hex = (v) => `${fpHex(v.c0)} ${fpHex(v.c1)}`;
const bytesHex = (b) => Buffer.from(b).toString('hex');
const firstByte = (hex, f) => f(parseInt(hex.slice(0, 2), 16)).toString(16).padStart(2, '0') + hex.slice(2);
const setFlags = (hex, flags) => firstByte(hex, (b) => b | flags);
const clearFlags = (hex, flags) => firstByte(hex, (b) => b & ~flags);

// Our own zcash encoder, only for points noble refuses to encode (outside the
// subgroup) and for deliberately broken inputs; checked against noble's
// encoder on every valid point below.
const largest = (v) => v > (P - 1n) / 2n;
const largest2 = (v) => (v.c1 !== 0n ? largest(v.c1) : largest(v.c0));
const encG1 = (x, y, comp) =>
  comp ? setFlags(fpHex(x), 0x80 | (largest(y) ? 0x20 : 0)) : fpHex(x) + fpHex(y);
const encFp2 = (v) => fpHex(v.c1) + fpHex(v.c0);
const encG2 = (x, y, comp) =>
  comp ? setFlags(encFp2(x), 0x80 | (largest2(y) ? 0x20 : 0)) : encFp2(x) + encFp2(y);

// BN254's forms (noble has none): arkworks compressed and EVM. The arkworks
// "y is negative" flag is set when y > -y in arkworks' order, which for Fp2
// compares c1 first: the same test as `largest2`.
const leHex = (v, bytes) => hexN(v, bytes).match(/../g).reverse().join('');
const fpLe = (v) => leHex(v, FP_BYTES);
const setLastByte = (hex, flags) =>
  hex.slice(0, -2) + (parseInt(hex.slice(-2), 16) | flags).toString(16).padStart(2, '0');
const arkFe = (v, isG2) => (isG2 ? fpLe(v.c0) + fpLe(v.c1) : fpLe(v));
const encArk = (x, y, isG2) => setLastByte(arkFe(x, isG2), (isG2 ? largest2(y) : largest(y)) ? 0x80 : 0);
const encEvm = (x, y, isG2) => (isG2 ? encFp2(x) + encFp2(y) : fpHex(x) + fpHex(y));
const arkInf = (isG2) => setLastByte('00'.repeat(isG2 ? 2 * FP_BYTES : FP_BYTES), 0x40);
const evmInf = (isG2) => '00'.repeat(isG2 ? 4 * FP_BYTES : 2 * FP_BYTES);

// A decoder of both BN254 forms, as strict as src/curve/encode.h says; the
// curve and subgroup checks are noble's. Returns the noble point or throws.
const leVal = (hex) => BigInt('0x' + hex.match(/../g).reverse().join(''));
function decodeBn(hex, isG2) {
  const F = isG2 ? Fp2 : Fp, Pt = isG2 ? G2 : G1, n = isG2 ? 2 : 1, W = 2 * FP_BYTES;
  const fe = (vals) => (isG2 ? Fp2.create({ c0: vals[0], c1: vals[1] }) : vals[0]);
  const canon = (v) => { if (v >= P) throw new Error('not canonical'); return v; };
  const checked = (x, y) => {
    const pt = Pt.fromAffine({ x, y });
    pt.assertValidity(); // on the curve and in the subgroup
    return pt;
  };
  if (hex.length === W * n) { // arkworks compressed
    const last = parseInt(hex.slice(-2), 16), flags = last & 0xc0;
    const body = hex.slice(0, -2) + (last & 0x3f).toString(16).padStart(2, '0');
    if (flags === 0xc0) throw new Error('bad flags');
    if (flags === 0x40) {
      if (/[^0]/.test(body)) throw new Error('bad flags');
      return Pt.ZERO;
    }
    const vals = [];
    for (let i = 0; i < n; i++) vals.push(canon(leVal(body.slice(i * W, (i + 1) * W))));
    const x = fe(vals);
    let y = F.sqrt(F.add(F.mul(F.sqr(x), x), isG2 ? B2 : B1)); // throws: no root
    if ((isG2 ? largest2(y) : largest(y)) !== (flags === 0x80)) y = F.neg(y);
    return checked(x, y);
  }
  if (hex.length === 2 * W * n) { // EVM
    const vals = [];
    for (let i = 0; i < 2 * n; i++) vals.push(canon(BigInt('0x' + hex.slice(i * W, (i + 1) * W))));
    if (vals.every((v) => v === 0n)) return Pt.ZERO;
    const pick = isG2 ? [[vals[1], vals[0]], [vals[3], vals[2]]] : [[vals[0]], [vals[1]]];
    return checked(fe(pick[0]), fe(pick[1]));
  }
  throw new Error('bad length');
}

const ptHex = (pt, comp) => bytesHex(pt.toBytes(comp));
function checkedEncBn(pt, isG2) {
  if (pt.is0()) return [arkInf(isG2), evmInf(isG2)];
  const a = pt.toAffine();
  const res = [encArk(a.x, a.y, isG2), encEvm(a.x, a.y, isG2)];
  for (const h of res) if (!decodeBn(h, isG2).equals(pt)) fail('bn254 encoding does not decode back');
  return res;
}
function checkedEnc(pt, isG2) {
  if (BN) return checkedEncBn(pt, isG2);
  // noble encodes infinity only in its normal form (0 : 1 : 0).
  if (pt.is0()) pt = isG2 ? G2.ZERO : G1.ZERO;

  const c = ptHex(pt, true), u = ptHex(pt, false);
  if (!pt.is0()) {
    const a = pt.toAffine();
    const enc = isG2 ? encG2 : encG1;
    if (enc(a.x, a.y, true) !== c || enc(a.x, a.y, false) !== u) fail('encoder disagrees with noble');
  }
  return [c, u];
}

// ---- deterministic inputs --------------------------------------------------
// SHA-512 of a label, as a 512-bit integer, reduced mod m (bias is irrelevant here).
const hashInt = (label, m) => BigInt('0x' + bytesHex(sha512(new TextEncoder().encode(label)))) % m;
const fpVal = (label) => hashInt('snarkpipe fp ' + label, P);
const frVal = (label) => hashInt('snarkpipe fr ' + label, R);
const fp2Val = (label) => Fp2.create({ c0: fpVal(label + '.c0'), c1: fpVal(label + '.c1') });
const scalar = (label) => { const k = frVal(label); return k === 0n ? 1n : k; };

const SCALARS = [
  1n, 2n, 3n, 5n, 7n, 255n, 256n, (1n << 64n) - 1n, 1n << 64n, (1n << 128n) + 1n,
  BN ? 4965661367192848881n : 0xd201000000010000n, // |x|, the curve's parameter
  1n << (BN ? 253n : 254n), (R - 1n) / 2n, (R + 1n) / 2n, R - 2n, R - 1n,
  scalar('k0'), scalar('k1'), scalar('k2'), scalar('k3'), scalar('k4'), scalar('k5'),
];

// ---- fields ----------------------------------------------------------------
function fieldVectors() {
  const fpEdge = [0n, 1n, 2n, P - 1n, P - 2n, (P - 1n) / 2n, 1n << (BN ? 253n : 380n)];
  const fps = [...fpEdge, ...[0, 1, 2, 3, 4, 5].map((i) => fpVal('a' + i))];
  for (let i = 0; i < fps.length; i++) {
    const a = fps[i], b = fps[(i * 5 + 3) % fps.length];
    emit('fp_add', fpHex(a), fpHex(b), fpHex(Fp.add(a, b)));
    emit('fp_sub', fpHex(a), fpHex(b), fpHex(Fp.sub(a, b)));
    emit('fp_mul', fpHex(a), fpHex(b), fpHex(Fp.mul(a, b)));
    if (a !== 0n) emit('fp_inv', fpHex(a), fpHex(Fp.inv(a)));
  }
  // Every edge value, then hashed values until there are 6 of each kind.
  const sqrtLine = (a, want) => {
    let s;
    try { s = Fp.sqrt(a); } catch { s = undefined; }
    if (s !== undefined && Fp.sqr(s) !== a) fail('noble sqrt');
    const kind = s === undefined ? 'nosqrt' : 'sqrt';
    if (want && want[kind]-- <= 0) return;
    if (s === undefined) emit('fp_nosqrt', fpHex(a));
    else emit('fp_sqrt', fpHex(a), fpHex(s));
  };
  for (const a of fpEdge) sqrtLine(a, null);
  const want = { sqrt: 6, nosqrt: 6 };
  for (let i = 0; want.sqrt > 0 || want.nosqrt > 0; i++) sqrtLine(fpVal('sqrt' + i), want);
  const frs = [0n, 1n, 2n, R - 1n, R - 2n, (R - 1n) / 2n, ...[0, 1, 2, 3, 4, 5].map((i) => frVal('a' + i))];
  for (let i = 0; i < frs.length; i++) {
    const a = frs[i], b = frs[(i * 5 + 3) % frs.length];
    emit('fr_add', frHex(a), frHex(b), frHex(Fr.add(a, b)));
    emit('fr_sub', frHex(a), frHex(b), frHex(Fr.sub(a, b)));
    emit('fr_mul', frHex(a), frHex(b), frHex(Fr.mul(a, b)));
    if (a !== 0n) emit('fr_inv', frHex(a), frHex(Fr.inv(a)));
  }
  const fp2s = [Fp2.ONE, Fp2.create({ c0: 0n, c1: 1n }), Fp2.create({ c0: P - 1n, c1: P - 1n }),
    ...[0, 1, 2, 3, 4].map((i) => fp2Val('b' + i))];
  for (let i = 0; i < fp2s.length; i++) {
    const a = fp2s[i], b = fp2s[(i * 3 + 1) % fp2s.length];
    emit('fp2_mul', fp2Hex(a), fp2Hex(b), fp2Hex(Fp2.mul(a, b)));
    emit('fp2_inv', fp2Hex(a), fp2Hex(Fp2.inv(a)));
    // Squares by construction, so every line has a root to find.
    const sq = Fp2.sqr(Fp2.add(a, fp2Val('sq' + i)));
    const s = Fp2.sqrt(sq);
    if (!Fp2.eql(Fp2.sqr(s), sq)) fail('noble fp2 sqrt');
    emit('fp2_sqrt', fp2Hex(sq), fp2Hex(s));
  }
}

// ---- groups ----------------------------------------------------------------
function groupVectors(tag, Pt, isG2) {
  const enc = (pt) => checkedEnc(pt, isG2);
  emit(`${tag}_gen`, ...enc(Pt.BASE));
  emit(`${tag}_inf`, ...enc(Pt.ZERO));
  for (const k of SCALARS) emit(`${tag}_mul`, frHex(k), ...enc(Pt.BASE.multiply(k)));
  const pairs = [[1n, 1n], [1n, 2n], [2n, 2n], [R - 1n, 2n], [R - 1n, R - 1n], [5n, R - 5n],
    [scalar('k0'), scalar('k1')], [scalar('k2'), scalar('k2')], [scalar('k3'), R - scalar('k3')],
    [scalar('k4'), scalar('k5')]];
  for (const [a, b] of pairs) {
    const s = Pt.BASE.multiply(a).add(Pt.BASE.multiply(b));
    emit(`${tag}_add`, frHex(a), frHex(b), enc(s)[0]);
  }
  for (const k of [1n, 2n, scalar('k0')]) {
    const a = Pt.BASE.multiply(k).toAffine();
    const dec = isG2 ? [a.x.c0, a.x.c1, a.y.c0, a.y.c1] : [a.x, a.y];
    emit(`${tag}_dec`, frHex(k), ...dec.map((v) => v.toString(10)));
  }
}

// Curve points of the wrong order: walk x from a fixed start until
// x^3 + b is a square. The cofactors are large, so such points lie outside
// the subgroup; noble's isTorsionFree confirms each one.
function offSubgroup(isG2, label, count) {
  const F = isG2 ? Fp2 : Fp;
  const b = isG2 ? B2 : B1;
  const Pt = isG2 ? G2 : G1;
  const res = [];
  let x = isG2 ? fp2Val(label) : fpVal(label);
  while (res.length < count) {
    x = F.add(x, F.ONE);
    let y;
    try { y = F.sqrt(F.add(F.mul(F.sqr(x), x), b)); } catch { continue; }
    if (res.length % 2) y = F.neg(y); // both sort-flag values
    const pt = Pt.fromAffine({ x, y });
    if (pt.isTorsionFree()) continue;
    res.push({ x, y });
  }
  return res;
}

// An x whose x^3 + b is not a square (compressed decoding must fail).
function noSqrtX(isG2, label) {
  const F = isG2 ? Fp2 : Fp;
  const b = isG2 ? B2 : B1;
  let x = isG2 ? fp2Val(label) : fpVal(label);
  for (;;) {
    x = F.add(x, F.ONE);
    try { F.sqrt(F.add(F.mul(F.sqr(x), x), b)); } catch { return x; }
  }
}

function invalidVectors(tag, isG2) {
  const enc = isG2 ? encG2 : encG1;
  const Pt = isG2 ? G2 : G1;
  const F = isG2 ? Fp2 : Fp;
  const cases = [];
  const add = (reason, hex) => cases.push([reason, hex]);

  for (const { x, y } of offSubgroup(isG2, tag + ' off-subgroup', 4)) {
    add('not_in_subgroup', enc(x, y, true));
    add('not_in_subgroup', enc(x, y, false));
  }
  for (const i of [0, 1, 2]) {
    const x = noSqrtX(isG2, `${tag} nosqrt ${i}`);
    add('no_sqrt', setFlags(enc(x, F.ONE, true), i === 1 ? 0x20 : 0));
  }
  const g = Pt.BASE.multiply(scalar('k1')).toAffine();
  add('not_on_curve', enc(g.x, F.add(g.y, F.ONE), false));
  add('not_on_curve', enc(F.add(g.x, F.ONE), g.y, false));
  add('not_on_curve', enc(F.ZERO, F.ZERO, false)); // (0,0): our internal infinity, not an encoding

  // Non-canonical coordinates: a value v + p in place of v. That leaves the
  // flag bits alone only when v + p < 2^381, so the points are chosen with
  // small coordinates where needed. idx counts 48-byte fields of the
  // encoding: 0 is x (x.c1 for G2), the last is y (y.c0 for G2).
  const fpLen = 96, nFp = isG2 ? 4 : 2, room = (1n << 381n) - P;
  const field = (hex, idx) => BigInt('0x' + hex.slice(idx * fpLen, (idx + 1) * fpLen)) & ((1n << 381n) - 1n);
  const bump = (hex, idx) => {
    const seg = hex.slice(idx * fpLen, (idx + 1) * fpLen);
    const v = field(hex, idx);
    if (v >= room) fail('v + p does not fit in 381 bits');
    const nv = setFlags(fpHex(v + P), parseInt(seg.slice(0, 2), 16) & 0xe0);
    return hex.slice(0, idx * fpLen) + nv + hex.slice((idx + 1) * fpLen);
  };
  // The first multiple [k]G, k from label, whose fields idxs are all < room.
  const smallAt = (label, idxs) => {
    for (let i = 0; ; i++) {
      const a = Pt.BASE.multiply(scalar(`${label} ${i}`)).toAffine();
      const u = enc(a.x, a.y, false);
      if (idxs.every((j) => field(u, j) < room)) return a;
    }
  };
  const encodings = (a) => [enc(a.x, a.y, true), enc(a.x, a.y, false)];
  const [c0, u0] = encodings(smallAt(tag + ' small x', [0]));
  add('not_canonical', bump(c0, 0));
  add('not_canonical', bump(u0, 0));
  add('not_canonical', bump(encodings(smallAt(tag + ' small y', [nFp - 1]))[1], nFp - 1));
  if (isG2) add('not_canonical', bump(encodings(smallAt(tag + ' small x.c0', [1]))[0], 1));
  // x = p exactly: reduces to 0, and (0, +-2) is a point of E (not of G1).
  add('not_canonical', setFlags(fpHex(P) + (isG2 ? fpHex(0n) : ''), 0x80));

  // Flag misuse.
  const [gc, gu] = encodings(g);
  const zeros = (n) => '00'.repeat(n);
  const L = isG2 ? 96 : 48;
  add('bad_flags', clearFlags(gc, 0x80)); // compressed length, C flag clear
  add('bad_flags', setFlags(gu, 0x80)); // uncompressed length, C flag set
  add('bad_flags', setFlags(gu, 0x20)); // sort flag on an uncompressed point
  add('bad_flags', 'c0' + zeros(L - 2) + '01'); // infinity with a nonzero x
  add('bad_flags', 'e0' + zeros(L - 1)); // infinity with the sort flag
  add('bad_flags', '40' + zeros(2 * L - 2) + '01'); // uncompressed infinity, nonzero y
  add('bad_length', gc.slice(0, -2));
  add('bad_length', gc + '00');
  add('bad_length', gu.slice(0, -2));
  add('bad_length', '');

  for (const [reason, hex] of cases) {
    let accepted = true;
    try { Pt.fromBytes(Uint8Array.from(Buffer.from(hex, 'hex'))); } catch { accepted = false; }
    if (accepted || hex.length % 2) fail(`noble accepts ${tag} ${reason} ${hex}`);
    emit(`${tag}_invalid`, reason, hex === '' ? '-' : hex);
  }
}

// BN254: the invalid cases of the arkworks and EVM forms. decodeBn refuses
// each one (noble's checks behind it) and accepts every valid encoding above.
function invalidVectorsBn(tag, isG2) {
  const Pt = isG2 ? G2 : G1;
  const F = isG2 ? Fp2 : Fp;
  const n = isG2 ? 2 : 1, L = FP_BYTES * n; // bytes of one coordinate
  const cases = [];
  const add = (reason, hex) => cases.push([reason, hex]);

  if (isG2) { // G1 has cofactor 1: every curve point is in it
    for (const { x, y } of offSubgroup(isG2, tag + ' off-subgroup', 4)) {
      add('not_in_subgroup', encArk(x, y, isG2));
      add('not_in_subgroup', encEvm(x, y, isG2));
    }
  }
  for (const i of [0, 1, 2]) {
    const x = noSqrtX(isG2, `${tag} nosqrt ${i}`);
    add('no_sqrt', setLastByte(arkFe(x, isG2), i === 1 ? 0x80 : 0));
  }
  const g = Pt.BASE.multiply(scalar('k1')).toAffine();
  add('not_on_curve', encEvm(g.x, F.add(g.y, F.ONE), isG2));
  add('not_on_curve', encEvm(F.add(g.x, F.ONE), g.y, isG2));
  add('not_on_curve', encEvm(F.ZERO, F.ONE, isG2)); // (0, 1); (0, 0) is infinity

  // Non-canonical values: v + p in place of a coordinate v. In the EVM form
  // every 32-byte field has room (p < 2^254); in the arkworks form the last
  // component shares its top byte with the flags, so it needs v + p < 2^254.
  const room = (1n << 254n) - P;
  const gu = encEvm(g.x, g.y, isG2), W = 2 * FP_BYTES;
  for (let i = 0; i < 2 * n; i++) {
    const v = BigInt('0x' + gu.slice(W * i, W * (i + 1)));
    add('not_canonical', gu.slice(0, W * i) + fpHex(v + P) + gu.slice(W * (i + 1)));
  }
  const comp = (x, i) => (isG2 ? (i ? x.c1 : x.c0) : x);
  const bumpArk = (a, i) => {
    const vals = [];
    for (let j = 0; j < n; j++) vals.push(comp(a.x, j) + (j === i ? P : 0n));
    const flag = (isG2 ? largest2(a.y) : largest(a.y)) ? 0x80 : 0;
    return setLastByte(vals.map((v) => leHex(v, FP_BYTES)).join(''), flag);
  };
  const smallLast = (label) => { // the first [k]G whose last x component is < 2^254 - p
    for (let i = 0; ; i++) {
      const a = Pt.BASE.multiply(scalar(`${label} ${i}`)).toAffine();
      if (comp(a.x, n - 1) < room) return a;
    }
  };
  add('not_canonical', bumpArk(smallLast(tag + ' small x'), n - 1));
  if (isG2) add('not_canonical', bumpArk(g, 0)); // x.c0: its top byte has no flags
  add('not_canonical', leHex(P, FP_BYTES) + '00'.repeat(L - FP_BYTES)); // x (x.c0) = p

  // Flag misuse (arkworks only; the EVM form has no flags).
  const gc = encArk(g.x, g.y, isG2);
  add('bad_flags', setLastByte(gc, 0xc0)); // both flags
  add('bad_flags', setLastByte('00'.repeat(L), 0xc0)); // infinity with the y flag
  add('bad_flags', '01' + '00'.repeat(L - 2) + '40'); // infinity with a nonzero x
  add('bad_length', gc.slice(0, -2));
  add('bad_length', gc + '00');
  add('bad_length', gu.slice(0, -2));
  add('bad_length', gu + '00');
  add('bad_length', '');

  for (const [reason, hex] of cases) {
    let accepted = true;
    try { decodeBn(hex, isG2); } catch { accepted = false; }
    if (accepted || hex.length % 2) fail(`decoder accepts ${tag} ${reason} ${hex}`);
    emit(`${tag}_invalid`, reason, hex === '' ? '-' : hex);
  }
}

// ---- pairing ---------------------------------------------------------------
const fp12Fields = (x) => [x.c0, x.c1].flatMap((c) => [c.c0, c.c1, c.c2]).flatMap((e) => [e.c0, e.c1]).map(fpHex);

function pairingVectors() {
  const pairs = [[1n, 1n], [2n, 3n], [R - 1n, 1n], [scalar('k0'), scalar('k1')], [scalar('k2'), scalar('k3')]];
  for (const [a, b] of pairs) {
    const e = bls.pairing(G1.BASE.multiply(a), G2.BASE.multiply(b));
    // Bilinearity as a sanity check of the library and of our reading of it.
    const ab = Fr.mul(a, b);
    if (!Fp12.eql(e, Fp12.pow(bls.pairing(G1.BASE, G2.BASE), ab))) fail('noble pairing not bilinear');
    emit('pairing', frHex(a), frHex(b), ...fp12Fields(e));
  }
}

if (BN) {
  emit(`# BN254 known answers from @noble/curves ${version}.`);
  emit('# Generated by tools/noble/gen.mjs --curve bn254; do not edit. Format: see gen.mjs.');
} else {
  emit(`# BLS12-381 known answers from @noble/curves ${version}.`);
  emit('# Generated by tools/noble/gen.mjs; do not edit. Format: see gen.mjs.');
}
fieldVectors();
groupVectors('g1', G1, false);
groupVectors('g2', G2, true);
(BN ? invalidVectorsBn : invalidVectors)('g1', false);
(BN ? invalidVectorsBn : invalidVectors)('g2', true);
pairingVectors();

const text = out.join('\n') + '\n';
if (args[0]) writeFileSync(args[0], text);
else process.stdout.write(text);
