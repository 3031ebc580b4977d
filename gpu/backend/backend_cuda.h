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

/* The variants of the proof path, for measurement and checks
 * (gpu/backend/backend_proof.c): c_from_ab 1 makes c = a * b on the device instead
 * of copying c; wit_overlap 1 uploads the witness through a pinned ring
 * during the H step and turns it into MSM scalars on the device, 0 makes
 * them on the host and copies them after the H MSM. Each 0 or 1 (other
 * values leave it). Both 1 by default, or SP_CUDA_C_FROM_AB=0|1 and
 * SP_CUDA_WIT_OVERLAP=0|1 when the backend is opened. Every variant gives
 * the same result for a satisfying witness. */
void sp_backend_cuda_set_variants(sp_backend *be, int c_from_ab, int wit_overlap);

#endif
