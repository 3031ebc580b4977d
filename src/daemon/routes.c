/*
 * The API's route table (api.h): the transport (http.c) is started
 * with it, so it dispatches without naming a handler.
 */
#include "daemon/api.h"

const sp_dmn_route sp_dmn_routes[] = {
    {"GET", "/", sp_dmn_api_page, 1, NULL},
    {"GET", "/index.html", sp_dmn_api_page, 1, NULL},
    {"GET", "/healthz", sp_dmn_api_healthz, 1, NULL},
    {"GET", "/readyz", sp_dmn_api_readyz, 1, NULL},
    {"GET", "/metrics", sp_dmn_api_metrics, 0, NULL},
    {"GET", "/v1/status", sp_dmn_api_status, 0, NULL},
    {"GET", "/v1/circuits", sp_dmn_api_circuits_list, 0, NULL},
    {"POST", "/v1/circuits", sp_dmn_api_circuits_add, 0, NULL},
    {"DELETE", "/v1/circuits/*", sp_dmn_api_circuits_delete, 0, NULL},
    {"POST", "/v1/jobs", sp_dmn_api_jobs_submit, 0, sp_dmn_api_jobs_early},
    {"GET", "/v1/jobs/*", sp_dmn_api_jobs_get, 0, NULL},
    {"DELETE", "/v1/jobs/*", sp_dmn_api_jobs_cancel, 0, NULL},
    {"POST", "/v1/prove", sp_dmn_api_prove, 0, sp_dmn_api_jobs_early},
    {"POST", "/v1/pause", sp_dmn_api_pause, 0, NULL},
    {"POST", "/v1/resume", sp_dmn_api_resume, 0, NULL},
};
const size_t sp_dmn_n_routes = sizeof sp_dmn_routes / sizeof sp_dmn_routes[0];
