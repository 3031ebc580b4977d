/*
 * Test tool (not a test: run.sh runs test_* only): writes N fresh
 * satisfying witnesses of a generated circuit (gen-circuit's shape, see
 * test_engine.h), each with its own random public inputs, so that tests
 * driving the daemons can tell every partition's proof apart.
 *   tool_witnesses CIRCUIT.r1cs N PREFIX    -> PREFIX0.wtns .. PREFIX<N-1>.wtns
 * The seed is printed (SP_SEED replays it). Exit 0, or 1 with a message.
 */
#include "test_engine.h"

int main(int argc, char **argv)
{
    if (argc != 4 || atoi(argv[2]) < 1) {
        fprintf(stderr, "usage: tool_witnesses CIRCUIT.r1cs N PREFIX\n");
        return 1;
    }
    sp_rng rng;
    sp_test_begin("tool_witnesses", &rng);
    fx_circuit c;
    char err[SP_ERR_LEN] = "", path[4096];
    memset(&c, 0, sizeof c);
    if (sp_r1cs_read(&c.cs, argv[1], err) != SP_OK) {
        fprintf(stderr, "tool_witnesses: %s\n", err);
        return 1;
    }
    for (int k = 0; k < atoi(argv[2]); k++) {
        sp_fr *w = fx_witness(&c, &rng);
        snprintf(path, sizeof path, "%s%d.wtns", argv[3], k);
        sp_status st = sp_wtns_write(path, w, c.cs.h.n_wires, err);
        free(w);
        if (st != SP_OK) {
            fprintf(stderr, "tool_witnesses: %s\n", err);
            return 1;
        }
    }
    sp_r1cs_free(&c.cs);
    return sp_test_done();
}
