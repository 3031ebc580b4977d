/*
 * The proving daemon: a long-lived HTTP/JSON service in front of one
 * engine (engine/engine.h). Not part of the library: it is linked into
 * the `snarkpipe` tool when libmicrohttpd and libinih are present
 * (Makefile). config.h and snarkpipe.conf.example describe the options;
 * types.h how the parts fit; `snarkpipe client` speaks this API;
 * docs/api.md describes it for its users, with examples a test runs.
 *
 * API. Bodies and answers are JSON unless said otherwise. Every request
 * but GET / and GET /healthz carries "Authorization: Bearer <token>" when
 * server.token_file is set (else 401). Errors are {"error": CODE,
 * "detail": TEXT}: 400 bad_request / malformed_json / bad_witness /
 * bad_input (a native job's input) (also two Content-Length headers, or
 * one with Transfer-Encoding; witnesses for a native circuit, inputs for
 * another), 401
 * unauthorized, 403 forbidden_path (registration by path outside
 * keys.key_dirs) / forbidden_host / cross_origin (no token: a Host that is
 * not a loopback name on a loopback listener, an Origin or Sec-Fetch-Site
 * of another site), 404 not_found / unknown_circuit / unknown_job, 405
 * method_not_allowed, 409 circuit_exists / in_use / duplicate_request_id
 * (the request id of a job still held, finished or not: the detail names
 * it), 413 body_too_large (bodies over server.max_body, or over what the
 * named circuit's witnesses can take; refused before they are read when
 * announced) / too_many_partitions (more than engine.max_partitions), 415
 * unsupported_media_type (also text/plain and form-urlencoded state
 * changes), 422 bad_key (also a key of another native shape, or of the other
 * curve: the detail says to start a daemon with --curve) / bad_params
 * (native parameters the circuit refuses) / job_too_large (a partition
 * over the whole engine budget), 500 state_write_failed (the state directory cannot record the
 * change: nothing changed), 503 busy / shutting_down (with Retry-After:
 * only for what a retry can cure), 507 too_many_circuits
 * (keys.max_circuits).
 *
 * Durability (server.state_dir). A 201 for a circuit and a 202 for a job
 * are given only once they are on disk (fsync'ed): after a crash or power
 * loss the circuit is registered again, and a job that had not finished
 * runs again under the same id (its result is kept for result_ttl too).
 * A client whose submit got no answer sends it again with the same
 * request_id: 409 then says which job it is, so it never runs twice.
 *
 *   POST   /v1/circuits        {"id", "zkey" | "params", "r1cs"?, "preload"?: true}: register files
 *                              in keys.key_dirs in place; or multipart/form-data with fields id,
 *                              preload and files zkey | params (+ r1cs): upload. A native circuit
 *                              (daemon/native.h): a zkey only, with "native": "porep-like",
 *                              "native_params": {"preset", "nodes", "layers", ...} (multipart:
 *                              fields native, preset, nodes, ...). 201 + the circuit: {id, kind
 *                              (file | porep-like; native: native_params resolved, constraints),
 *                              tier (hot|warm|cold), size_bytes, ref_count, ...}.
 *   GET    /v1/circuits        {"circuits": [...], keys_hot_bytes, keys_hot_budget, ...}
 *   DELETE /v1/circuits/ID     evict: 200 {id, evicted, freed_bytes}; 409 while a job uses it.
 *   POST   /v1/jobs            submit. Body: one .wtns (application/octet-stream; circuit,
 *                              priority, request_id as query arguments), multipart/form-data
 *                              (fields circuit, priority, request_id; one file part "witness"
 *                              per partition, in order) or {"circuit", "priority",
 *                              "request_id", "witnesses": [base64 .wtns, ...]}. A native
 *                              circuit's job: {"circuit", "priority", "request_id", "inputs":
 *                              [{"seed": 0..2^64-1 (or its digits as a string), "partition":
 *                              0..2^32-1}, ...]}, one per partition (the daemon makes the witness).
 *                              202 {job_id, request_id, circuit, partitions, queue_position},
 *                              Location: /v1/jobs/ID.
 *   GET    /v1/jobs/ID?wait_ms=N   await (ID = job id or request id; N capped by
 *                              server.max_wait): 200 with the result, or {status: "pending",
 *                              partition_states: [...], progress: {partitions, partitions_done,
 *                              stage, percent, per_partition: [{stage, percent}]}} when it is
 *                              not done yet (jobs.c: how progress is estimated).
 *   DELETE /v1/jobs/ID         cancel: 200 {job_id, cancelled, was_running, status}.
 *   POST   /v1/prove?wait_ms=N submit (same bodies) and wait: 200 completed, 422 unsatisfied
 *                              witness, 409 cancelled, 500 other failures (each with the
 *                              result), 202 {job_id, ...} when the wait ran out.
 *   POST   /v1/pause, /v1/resume   stop / restart dispatching queued partitions (a farm node
 *                              also stops / restarts claiming: other nodes take the work).
 *   GET    /v1/status          devices, memory, keys with tiers, queues, workers, totals,
 *                              unfinished jobs with partition states, "waterfall" (lanes and
 *                              the partition bars of the last minute).
 *   GET    /metrics            Prometheus text (snarkpipe_* counters, gauges, histograms).
 *   GET    /healthz            200 {"status":"ok"}; 503 while shutting down.
 *   GET    /                   the live status page (HTML; token as #token=... in the URL).
 *
 * A farm node (farm.queue set; daemon/farm/queue.h, ARCHITECTURE.md "The farm")
 * answers the same routes from the shared database: job ids are
 * "f<number>" (a request id names a job too), any node reads, awaits and
 * cancels any job, a job may name its circuit by the digest shown in GET
 * /v1/status ("farm": {..., "circuits": [{id, digest}]}) on a node that
 * lacks it, each proof of a result has the "node" that made it, pending
 * answers list "partition_nodes", and 503 queue_unavailable (with
 * Retry-After) means the database cannot be reached now.
 *
 * A result: {job_id, request_id?, circuit, status: completed | failed |
 * cancelled, error?, detail?, partitions, verified, proofs: [{partition,
 * proof: <snarkjs proof.json>, public: <snarkjs public.json>, bellperson:
 * <base64 of the 192-byte proof> (BLS12-381 daemons only)}], timings_ms:
 * {queue_wait, synthesis, device, finish, total}} (stage times are sums over
 * partitions; device: the device lock held, whatever the backend;
 * queue_wait is submission to the first synthesis).
 */
#ifndef SP_DAEMON_DAEMON_H
#define SP_DAEMON_DAEMON_H

#include "daemon/ops.h"

/*
 * `snarkpipe daemon [--config FILE] [--listen ADDR]... [OPTIONS]`;
 * argv[0] is "daemon". Runs until SIGTERM or SIGINT (drain or cancel, as
 * configured), reloading on SIGHUP.
 * Returns the exit status: 0 after a clean shutdown or --help /
 * --print-config / --check-config, 2 when it cannot start (a socket, a
 * token file, the engine), 64 for a bad option, file or listener
 * policy (a non-loopback TCP address without a token).
 * ops is the curve it proves: the table (daemon/ops.h) of the instance
 * whose command line runs it.
 */
int sp_dmn_main(int argc, char **argv, const sp_dmn_ops *ops);

#endif
