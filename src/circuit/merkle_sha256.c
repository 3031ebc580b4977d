/* Filecoin tree_d Merkle paths, native and in the circuit (merkle_sha256.h). */
#include <string.h>
#include "circuit/merkle_sha256.h"
#include "circuit/sha256_gadget.h"
#include "util/sha256.h"

void sp_merkle_sha256_node(uint8_t out[32], const uint8_t l[32], const uint8_t r[32])
{
    uint8_t buf[64];
    memcpy(buf, l, 32);
    memcpy(buf + 32, r, 32);
    sp_sha256(out, buf, sizeof buf);
    out[31] &= 0x3f;
}

void sp_merkle_sha256_root(uint8_t root[32], const uint8_t leaf[32], const uint8_t (*path)[32], size_t depth,
                           uint64_t index)
{
    uint8_t cur[32];
    memcpy(cur, leaf, 32);
    for (size_t i = 0; i < depth; i++) {
        if ((index >> i) & 1)
            sp_merkle_sha256_node(cur, path[i], cur);
        else
            sp_merkle_sha256_node(cur, cur, path[i]);
    }
    memcpy(root, cur, 32);
}

void sp_merkle_sha256_msg_bits(sp_bit msg[256], const sp_bit le[255])
{
    for (int j = 0; j < 32; j++)
        for (int k = 0; k < 8; k++) {
            int i = 8 * j + 7 - k;
            msg[8 * j + k] = i < 255 ? le[i] : sp_bit_const(0);
        }
}

void sp_merkle_sha256_pack_digest(sp_cs *cs, sp_num *out, const sp_bit digest[256])
{
    sp_bit packed[254];
    for (int i = 0; i < 254; i++)
        packed[i] = digest[8 * (i / 8) + 7 - i % 8];
    sp_bits_pack_le(cs, out, packed, 254);
}

void sp_merkle_sha256_gadget_node(sp_cs *cs, sp_num *out, const sp_num *l, const sp_num *r)
{
    sp_bit le[255], msg[512], dig[256];
    sp_cs_push(cs, "unpack l");
    sp_num_to_bits_le(cs, le, l, 255);
    sp_cs_pop(cs);
    sp_merkle_sha256_msg_bits(msg, le);
    sp_cs_push(cs, "unpack r");
    sp_num_to_bits_le(cs, le, r, 255);
    sp_cs_pop(cs);
    sp_merkle_sha256_msg_bits(msg + 256, le);
    sp_sha256_gadget(cs, dig, msg, 512);
    sp_cs_push(cs, "pack");
    sp_merkle_sha256_pack_digest(cs, out, dig);
    sp_cs_pop(cs);
}

void sp_merkle_sha256_gadget_root(sp_cs *cs, sp_num *root, const sp_num *leaf, const sp_num *path,
                                  const sp_bit *index, size_t depth)
{
    sp_num cur = *leaf;
    sp_cs_push(cs, "merkle");
    for (size_t i = 0; i < depth; i++) {
        sp_cs_pushf(cs, "level %zu", i);
        sp_num l, r;
        sp_cs_push(cs, "swap");
        sp_num_cond_swap(cs, &l, &r, &index[i], &cur, &path[i]);
        sp_cs_pop(cs);
        sp_merkle_sha256_gadget_node(cs, &cur, &l, &r);
        sp_cs_pop(cs);
    }
    sp_cs_pop(cs);
    *root = cur;
}
