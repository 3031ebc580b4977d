pragma circom 2.0.0;

// A test circuit built from circomlib's gadgets, compiled for bn128 by
// tests/test_bn254.sh: the hashes circom users prove most (Poseidon,
// MiMCSponge), a 64-bit range check and a strict 254-bit decomposition
// (Num2Bits_strict checks the bits against BN254's r, so the circuit only
// makes sense on that curve).
include "circomlib/circuits/poseidon.circom";
include "circomlib/circuits/mimcsponge.circom";
include "circomlib/circuits/comparators.circom";
include "circomlib/circuits/bitify.circom";

template Preimage() {
    signal input secret;
    signal input nonce;
    signal input limit;
    signal output hash;
    signal output commitment;

    component h = Poseidon(2);
    h.inputs[0] <== secret;
    h.inputs[1] <== nonce;
    hash <== h.out;

    component m = MiMCSponge(2, 220, 1);
    m.ins[0] <== secret;
    m.ins[1] <== nonce;
    m.k <== 0;
    commitment <== m.outs[0];

    component lt = LessThan(64);
    lt.in[0] <== secret;
    lt.in[1] <== limit;
    lt.out === 1;

    component bits = Num2Bits_strict();
    bits.in <== h.out;
}

component main {public [limit]} = Preimage();
