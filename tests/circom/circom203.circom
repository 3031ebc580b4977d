pragma circom 2.0.0;

// Compiled by circom 2.0.3 (npm circom2@0.2.0: `circom2 circom203.circom
// --wasm`) into circom203.wasm, kept here: modules of circom before 2.0.6
// export no getInputSignalSize, and snarkjs runs them without the size
// checks (tests/test_wtns.sh).
template Old() {
    signal input a;
    signal input b[2];
    signal output o;
    log(a);
    assert(a != 7);
    o <== a * b[1] + b[0];
}
component main {public [b]} = Old();
