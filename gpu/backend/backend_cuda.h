/*
 * The CUDA backend (backend_cuda.c) as a C interface: its opener, for the
 * programs that want one device explicitly (gpu_check, gpu_bench).
 * Everything else opens it by name through sp_backend_open ("cuda",
 * "cuda:N"), which works in any program that links backend_cuda.o: the
 * object registers its provider (groth16/backend.h) when the program
 * starts. Plain C; no .cu file includes this header.
 */
#ifndef SP_GPU_BACKEND_CUDA_H
#define SP_GPU_BACKEND_CUDA_H

#include "groth16/backend.h"

/* Opens device `device`. Returns SP_OK, SP_ERR_GPU (no such device, err
 * says why), SP_ERR_INVALID_ARG (a bad SP_CUDA_MEM_LIMIT), SP_ERR_NOMEM. */
sp_status sp_backend_cuda_open(sp_backend **be, int device, int threads, char err[SP_ERR_LEN]) SP_WARN_UNUSED;

/* For the checks (gpu/backend/backend_proof.c): on = 1 makes every proof's
 * witness MSM scalars on the host and copies them after the H MSM, the
 * path a device without room for the witness takes; 0 (the default) goes
 * back to uploading the witness through a pinned ring during the H step
 * and converting it on the device. Both give the same result. */
void sp_backend_cuda_witness_on_host(sp_backend *be, int on);

#endif
