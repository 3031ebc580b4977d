pragma circom 2.0.0;

// Templates for the witness tests and benchmarks of `snarkpipe wtns
// calculate` (tests/test_wtns.sh, bench/wtns-vs-snarkjs.sh): each script
// writes a small main file that includes this one and instantiates a
// template, so the circuits' sizes are chosen there.
include "circomlib/circuits/poseidon.circom";
include "circomlib/circuits/mimc.circom";
include "circomlib/circuits/pedersen.circom";
include "circomlib/circuits/sha256/sha256.circom";
include "circomlib/circuits/comparators.circom";

// Roots of k Poseidon Merkle paths of the given depth: index[i][j] says on
// which side the path element goes (a bit, enforced); leaf[i] < 2^64 is
// checked with an assert as well as a constraint, so a bad input fails in
// the witness generator, naming this template.
template PoseidonMerkle(k, depth) {
    signal input leaf[k];
    signal input path[k][depth];
    signal input index[k][depth];
    signal output root[k];

    component h[k][depth];
    component range[k];
    signal cur[k][depth + 1];
    signal left[k][depth];
    for (var i = 0; i < k; i++) {
        assert(leaf[i] < 18446744073709551616);
        range[i] = Num2Bits(64);
        range[i].in <== leaf[i];
        cur[i][0] <== leaf[i];
        for (var j = 0; j < depth; j++) {
            index[i][j] * (1 - index[i][j]) === 0;
            left[i][j] <== cur[i][j] + index[i][j] * (path[i][j] - cur[i][j]);
            h[i][j] = Poseidon(2);
            h[i][j].inputs[0] <== left[i][j];
            h[i][j].inputs[1] <== path[i][j] + cur[i][j] - left[i][j];
            cur[i][j + 1] <== h[i][j].out;
        }
        root[i] <== cur[i][depth];
    }
}

// SHA-256 of n bits (each input a bit).
template Sha256Bits(n) {
    signal input in[n];
    signal output out[256];
    component s = Sha256(n);
    for (var i = 0; i < n; i++) s.in[i] <== in[i];
    for (var i = 0; i < 256; i++) out[i] <== s.out[i];
}

// MiMC7 and Pedersen side by side: x, k field elements, bits[n] bits.
template MimcPedersen(n) {
    signal input x;
    signal input k;
    signal input bits[n];
    signal output mimc;
    signal output ped[2];
    component m = MiMC7(91);
    m.x_in <== x;
    m.k <== k;
    mimc <== m.out;
    component p = Pedersen(n);
    for (var i = 0; i < n; i++) p.in[i] <== bits[i];
    ped[0] <== p.out[0];
    ped[1] <== p.out[1];
}
