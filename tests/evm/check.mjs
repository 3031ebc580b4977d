// Runs Groth16 verifier contracts on a real EVM (tests/test_solidity.sh).
//
//   node check.mjs MODULES CONTRACT.sol... -- VALID_CALLDATA...
//
// MODULES: the node_modules folder of tests/evm/package.json (tests/lib.sh
// need_evm). Every contract is compiled with solc (the contract's own
// errors and warnings are printed; an error fails) and deployed; then each
// calldata file (the text `snarkjs zkey export soliditycalldata` prints
// for a valid proof) is sent to every contract's verifyProof, as is and
// changed in ways that must make it fail:
//   signal+1    a public signal changed
//   signal+r    a public signal replaced by the same value plus r (equal mod r,
//               so only the range check can refuse it)
//   signal=max  a public signal 2^256 - 1
//   -A          A negated (still a valid point)
//   C=A         C replaced by A
//   A.y+p       A's y plus p (the same field element, written out of range)
//   A.x+1       A moved off the curve
//   B.x swap    B's x with its two halves swapped (not on the twist)
//   B.x.c1+p    a B coordinate out of range
// The valid call must return true and every changed one false, from every
// contract alike (none may revert). Prints one line per call (with its gas)
// and FAIL lines; exits 1 on any failure.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const [modules, ...rest] = process.argv.slice(2);
const sep = rest.indexOf("--");
if (!modules || sep < 1 || sep === rest.length - 1) {
    console.error("usage: node check.mjs MODULES CONTRACT.sol... -- VALID_CALLDATA...");
    process.exit(64);
}
const contracts = rest.slice(0, sep);
const calldataFiles = rest.slice(sep + 1);

const require = createRequire(path.join(path.resolve(modules), "noop.js"));
const solc = require("solc");
// ethereumjs through its ES module build: its CommonJS build requires
// @noble/curves, which is ES modules only, and node before 20.19 cannot
// require those (Debian 12's node is 18).
async function importModule(name) {
    const dir = path.join(path.resolve(modules), name);
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
    let entry = pkg.exports?.["."]?.import ?? pkg.module ?? pkg.main;
    if (entry && typeof entry === "object") entry = entry.default;
    if (typeof entry !== "string") throw new Error(`${name}: no ES module entry in its package.json`);
    return import(pathToFileURL(path.join(dir, entry)).href);
}
const { createEVM } = await importModule("@ethereumjs/evm");
const { Common, Mainnet, Hardfork } = await importModule("@ethereumjs/common");
const { hexToBytes, bytesToHex } = await importModule("@ethereumjs/util");

// BN254: base field prime p, group order r.
const P = 0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47n;
const R = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001n;
const HARDFORK = "prague"; // the EVM's rules and solc's target, named once
const GAS = 30_000_000n;

let failures = 0;
function fail(msg) {
    failures++;
    console.log("FAIL " + msg);
}

// Compiles one file; returns { name, bytecode, selector } of its only contract.
function compile(file) {
    const input = {
        language: "Solidity",
        sources: { [path.basename(file)]: { content: fs.readFileSync(file, "utf8") } },
        settings: {
            optimizer: { enabled: true, runs: 200 },
            evmVersion: HARDFORK,
            outputSelection: { "*": { "*": ["evm.bytecode.object", "evm.deployedBytecode.object", "evm.methodIdentifiers"] } },
        },
    };
    const out = JSON.parse(solc.compile(JSON.stringify(input)));
    for (const e of out.errors || []) {
        console.log(`${file}: solc ${e.severity}: ${e.formattedMessage.trim()}`);
        if (e.severity === "error") fail(`${file} does not compile`);
    }
    const units = Object.values(out.contracts?.[path.basename(file)] || {});
    const names = Object.keys(out.contracts?.[path.basename(file)] || {});
    if (units.length !== 1) throw new Error(`${file}: expected one contract, got ${names.join(", ") || "none"}`);
    const sigs = Object.entries(units[0].evm.methodIdentifiers).filter(([s]) => s.startsWith("verifyProof("));
    if (sigs.length !== 1) throw new Error(`${file}: no single verifyProof`);
    return {
        name: names[0],
        signature: sigs[0][0],
        selector: sigs[0][1],
        bytecode: units[0].evm.bytecode.object,
        runtimeBytes: units[0].evm.deployedBytecode.object.length / 2,
    };
}

// The snarkjs calldata text "[a],[[b]],[c],[signals]" as four arrays of BigInt.
function parseCalldata(text) {
    const v = JSON.parse("[" + text + "]");
    const big = (x) => (Array.isArray(x) ? x.map(big) : BigInt(x));
    if (v.length !== 4) throw new Error("calldata: expected four arrays");
    return v.map(big);
}

// ABI encoding: all arguments are static arrays of uint256, so the call is
// the selector and then every word in order.
function encode(selector, [a, b, c, pub]) {
    const words = [...a, ...b.flat(), ...c, ...pub];
    for (const w of words) if (w < 0n || w >= 1n << 256n) throw new Error("word out of range");
    return hexToBytes("0x" + selector + words.map((w) => w.toString(16).padStart(64, "0")).join(""));
}

function variants([a, b, c, pub]) {
    const copy = () => [[...a], b.map((r) => [...r]), [...c], [...pub]];
    const out = [];
    const add = (name, f) => {
        const v = copy();
        f(v);
        out.push([name, v]);
    };
    add("signal+1", (v) => (v[3][0] = (v[3][0] + 1n) % R));
    add("signal+r", (v) => (v[3][0] = v[3][0] + R));
    add("signal=max", (v) => (v[3][v[3].length - 1] = (1n << 256n) - 1n));
    add("-A", (v) => (v[0][1] = (P - v[0][1]) % P));
    add("C=A", (v) => (v[2] = [...v[0]]));
    add("A.y+p", (v) => (v[0][1] = v[0][1] + P));
    add("A.x+1", (v) => (v[0][0] = (v[0][0] + 1n) % P));
    add("B.x swap", (v) => (v[1][0] = [v[1][0][1], v[1][0][0]]));
    add("B.x.c1+p", (v) => (v[1][0][0] = v[1][0][0] + P));
    return out;
}

async function main() {
    const common = new Common({ chain: Mainnet, hardfork: HARDFORK });
    const evm = await createEVM({ common });
    const deployed = [];
    for (const file of contracts) {
        const k = compile(file);
        const res = await evm.runCall({ data: hexToBytes("0x" + k.bytecode), gasLimit: GAS });
        if (res.execResult.exceptionError || !res.createdAddress)
            throw new Error(`${file}: deployment failed: ${res.execResult.exceptionError?.error}`);
        console.log(`${file}: ${k.name}.${k.signature}, ${k.runtimeBytes} bytes of code`);
        deployed.push({ file, ...k, address: res.createdAddress });
    }
    const call = async (k, args) => {
        const res = await evm.runCall({ to: k.address, data: encode(k.selector, args), gasLimit: GAS });
        if (res.execResult.exceptionError) return { answer: "revert", gas: res.execResult.executionGasUsed };
        const ret = bytesToHex(res.execResult.returnValue);
        const answer = ret === "0x" + "0".repeat(63) + "1" ? "true" : ret === "0x" + "0".repeat(64) ? "false" : ret;
        return { answer, gas: res.execResult.executionGasUsed };
    };
    // A transaction starts with the precompiles warm (EIP-2929); runCall
    // warms them at their first use only, so one call first, not reported,
    // makes every reported gas figure that of a real call.
    for (const k of deployed) await call(k, parseCalldata(fs.readFileSync(calldataFiles[0], "utf8")));
    for (const cf of calldataFiles) {
        const valid = parseCalldata(fs.readFileSync(cf, "utf8"));
        for (const [name, args] of [["valid", valid], ...variants(valid)]) {
            const want = name === "valid" ? "true" : "false";
            const got = [];
            for (const k of deployed) {
                const r = await call(k, args);
                got.push(r.answer);
                console.log(`${path.basename(cf)} ${name}: ${path.basename(k.file)} -> ${r.answer} (gas ${r.gas})`);
                if (r.answer !== want) fail(`${cf} ${name}: ${k.file} answered ${r.answer}, expected ${want}`);
            }
            if (new Set(got).size > 1) fail(`${cf} ${name}: the contracts disagree (${got.join(", ")})`);
        }
    }
    console.log(failures ? `${failures} failed` : "all calls answered as expected");
    process.exit(failures ? 1 : 0);
}

main().catch((e) => {
    console.error("check.mjs: " + (e.stack || e));
    process.exit(2);
});
