/*
 * Binary SHA-256 Merkle trees as Filecoin's tree_d builds them
 * (rust-fil-proofs, filecoin-hashers' Sha256Function and
 * storage-proofs-core's por gadget): a node is a 32-byte Sha256Domain,
 * the little-endian bytes of a BLS12-381 Fr element, and
 *   node(l, r) = SHA-256(l || r) with the digest's last byte & 0x3f
 * (the top two bits cleared, so the node is again below 2^254 < r).
 *
 * The circuit does per level what bellperson's does, so its constraint
 * count is Filecoin's: the current node and the sibling are swapped by
 * the position bit (2 constraints, conditionally_reverse), each is
 * unpacked into 255 bits (255 booleanity + 1 packing; the non-strict
 * to_bits_le), the bits feed SHA-256 (512 message bits, each byte in
 * SHA's bit order: 2 compressions, the second all padding), and the
 * digest's first 254 bits in little-endian order are packed back into a
 * field element (1 constraint).
 *
 * Position bits: bit i of the leaf's index is level i's (0 = the node is
 * the left child). Gadget paths: "merkle/level N/{swap,unpack l,unpack
 * r,sha256/...,pack}".
 */
#ifndef SP_CIRCUIT_MERKLE_SHA256_H
#define SP_CIRCUIT_MERKLE_SHA256_H

#include <stddef.h>
#include <stdint.h>
#include "circuit/bits.h"
#include "circuit/cs.h"

/* ---- native ---- */

/* out = node(l, r); out may alias l or r. */
void sp_merkle_sha256_node(uint8_t out[32], const uint8_t l[32], const uint8_t r[32]);
/*
 * The root over a leaf and its path.
 * On input: path[0..depth) the siblings from the leaf's level up; index
 *   the leaf's position (bit i: level i's side).
 * On output: root (may alias leaf).
 */
void sp_merkle_sha256_root(uint8_t root[32], const uint8_t leaf[32], const uint8_t (*path)[32], size_t depth,
                           uint64_t index);

/* ---- circuit ---- */

/* The bridge between Filecoin's 32-byte domain values and SHA-256's bits,
 * shared by the tree_d gadget and the PoRep labels:
 * msg_bits: the 256 message bits of a field element's 32 little-endian
 *   bytes, each byte most significant bit first, from its bits le[0..255)
 *   (bit 255, above Fr's 255 bits, is the constant 0);
 * pack_digest: *out = a new variable holding the digest's bytes read as a
 *   little-endian number, its low 254 bits (the top two cleared): 1
 *   constraint. */
void sp_merkle_sha256_msg_bits(sp_bit msg[256], const sp_bit le[255]);
void sp_merkle_sha256_pack_digest(sp_cs *cs, sp_num *out, const sp_bit digest[256]);

/* *out = node(*l, *r) (a new variable); l, r must be below 2^255 to
 * unpack (any Fr element is). */
void sp_merkle_sha256_gadget_node(sp_cs *cs, sp_num *out, const sp_num *l, const sp_num *r);
/*
 * *root = the root over *leaf, the siblings path[0..depth) and the
 * position bits index[0..depth) (boolean variables or constants, made by
 * the caller). The caller enforces it equal to the expected root
 * (sp_num_enforce_eq).
 */
void sp_merkle_sha256_gadget_root(sp_cs *cs, sp_num *root, const sp_num *leaf, const sp_num *path,
                                  const sp_bit *index, size_t depth);

#endif
