/* test_addr_map.c - GPGPU-Sim address mapping strings (mem/addr_map.h). */
#include <string.h>

#include "mem/addr_map.h"
#include "test.h"

#define GTX480_MAP "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS"
/* 4 channels named by D bits 8-9 */
#define DBITS_MAP "00000000.00000000.00000000.00000000.000RRRRR.RRRRRRRR.BBBBCCDD.CCCSSSSS"

static void loc_eq(const struct addr_map *m, uint64_t a, unsigned ch, unsigned sub, unsigned bank, unsigned row,
                   unsigned col)
{
    struct dram_loc l;
    addr_map_decode(m, a, &l);
    CHECK_EQ_INT(l.chan, ch);
    CHECK_EQ_INT(l.sub, sub);
    CHECK_EQ_INT(l.bank, bank);
    CHECK_EQ_INT(l.row, row);
    CHECK_EQ_INT(l.col, col);
}

TEST(addr_map_gtx480_known_addresses)
{
    struct addr_map m;
    char msg[256];
    unsigned col = 0;
    REQUIRE(addr_map_parse(&m, GTX480_MAP, 6, 1, 16, msg, sizeof msg, &col) == 0);
    CHECK_EQ_INT(m.dramid_bit, 8);
    CHECK_EQ_INT(m.nbits_bank, 4);
    CHECK_EQ_INT(m.nbits_chan, 3);
    CHECK_EQ_U64(m.mask_burst, 0x1f);
    CHECK_EQ_U64(m.mask_col, 0xf60);
    CHECK_EQ_U64(m.mask_bank, 0x7080);
    CHECK_EQ_U64(m.mask_row, 0xfff8000);
    /* 0x12345678: 256-byte chunk 0x123456 = 6 * 198841 -> channel 0, local
       chunk 198841; values below worked out by hand from the mask */
    loc_eq(&m, 0x12345678, 0, 0, 6, 1553, 39);
    loc_eq(&m, 0x12345778, 1, 0, 6, 1553, 39);   /* the next chunk: next channel, same place */
    loc_eq(&m, 0xfffff80, 3, 0, 5, 1365, 40);
    loc_eq(&m, 0x600, 0, 0, 0, 0, 4);             /* chunk 6 = channel 0's second chunk: column 4 */
    loc_eq(&m, 0x0, 0, 0, 0, 0, 0);
    loc_eq(&m, 0x80, 0, 0, 1, 0, 0);              /* bit 7 is the lowest bank bit */
}

TEST(addr_map_default_string)
{
    struct addr_map a, b;
    char msg[256];
    unsigned col = 0;
    REQUIRE(addr_map_parse(&a, NULL, 6, 2, 16, msg, sizeof msg, &col) == 0);
    REQUIRE(addr_map_parse(&b, GTX480_MAP, 6, 2, 16, msg, sizeof msg, &col) == 0);
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    REQUIRE(addr_map_parse(&a, "", 6, 2, 16, msg, sizeof msg, &col) == 0);
    CHECK(memcmp(&a, &b, sizeof a) == 0);
}

TEST(addr_map_sub_partition_from_low_bank_bit)
{
    struct addr_map m;
    char msg[256];
    unsigned col = 0;
    REQUIRE(addr_map_parse(&m, GTX480_MAP, 6, 2, 16, msg, sizeof msg, &col) == 0);
    loc_eq(&m, 0xfffff80, 3, 1, 5, 1365, 40);
    /* the two 128-byte lines of a 256-byte chunk: same channel, other slice */
    CHECK_EQ_INT(addr_map_subpart(&m, 0x1000), 4 * 2 + 0);   /* chunk 16 -> channel 4 */
    CHECK_EQ_INT(addr_map_subpart(&m, 0x1080), 4 * 2 + 1);
    CHECK_EQ_INT(addr_map_subpart(&m, 0x1100), 5 * 2 + 0);
}

TEST(addr_map_channel_spread)
{
    struct addr_map m;
    char msg[256];
    unsigned col = 0;
    REQUIRE(addr_map_parse(&m, GTX480_MAP, 6, 1, 16, msg, sizeof msg, &col) == 0);
    unsigned count[6] = {0};
    unsigned wrong = 0;
    for (uint64_t i = 0; i < 6000; i++) {
        struct dram_loc l;
        addr_map_decode(&m, 0x40000000 + i * 256 + (i % 8) * 32, &l);
        count[l.chan]++;
        /* consecutive chunks go round robin over all 6 channels */
        if (l.chan != (0x40000000 / 256 + i) % 6)
            wrong++;
    }
    CHECK_EQ_INT(wrong, 0);
    for (unsigned c = 0; c < 6; c++)
        CHECK_EQ_INT(count[c], 1000);
    /* a linear stream inside one channel uses every bank */
    unsigned banks = 0;
    for (uint64_t i = 0; i < 16 * 6 * 16; i++) {
        struct dram_loc l;
        addr_map_decode(&m, i * 128, &l);
        if (l.chan == 2)
            banks |= 1u << l.bank;
    }
    CHECK_EQ_INT(banks, 0xffff);
}

TEST(addr_map_d_bits)
{
    struct addr_map m;
    char msg[256];
    unsigned col = 0;
    REQUIRE(addr_map_parse(&m, DBITS_MAP, 4, 1, 16, msg, sizeof msg, &col) == 0);
    CHECK_EQ_INT(m.dramid_bit, -1);
    CHECK_EQ_U64(m.mask_chan, 0x300);
    loc_eq(&m, 0x0abcdef0, 2, 0, 13, 2748, 31);
    loc_eq(&m, 0x7fffffff, 3, 0, 15, 8191, 31);
    for (unsigned i = 0; i < 8; i++)
        CHECK_EQ_INT(addr_map_subpart(&m, (uint64_t)i * 256), i % 4);
}

TEST(addr_map_power_of_two_dramid_equals_bit_removal)
{
    /* dramid@8 with 4 channels takes bits 8-9 out; the bits above shift down */
    struct addr_map m;
    char msg[256];
    unsigned col = 0;
    REQUIRE(addr_map_parse(&m, GTX480_MAP, 4, 1, 16, msg, sizeof msg, &col) == 0);
    CHECK_EQ_INT(m.nbits_chan, 2);
    struct dram_loc a, b;
    uint64_t addr = 0x0123ab40;
    addr_map_decode(&m, addr, &a);
    CHECK_EQ_INT(a.chan, (addr >> 8) & 3);
    uint64_t local = ((addr >> 10) << 8) | (addr & 0xff);
    struct addr_map one;
    REQUIRE(addr_map_parse(&one, GTX480_MAP, 1, 1, 16, msg, sizeof msg, &col) == 0);
    addr_map_decode(&one, local, &b);
    CHECK_EQ_INT(b.chan, 0);
    CHECK_EQ_INT(a.bank, b.bank);
    CHECK_EQ_INT(a.row, b.row);
    CHECK_EQ_INT(a.col, b.col);
}

static void parse_fails(const char *s, unsigned nch, unsigned nsub, unsigned nbk, unsigned want_col,
                        const char *want_msg)
{
    struct addr_map m;
    char msg[256] = "";
    unsigned col = 0;
    CHECK_EQ_INT(addr_map_parse(&m, s, nch, nsub, nbk, msg, sizeof msg, &col), -1);
    CHECK_EQ_INT(col, want_col);
    if (!strstr(msg, want_msg))
        CHECK_EQ_STR(msg, want_msg);
}

TEST(addr_map_errors)
{
    parse_fails("dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSX", 6, 1, 16, 80,
                "unknown bit character 'X'");
    parse_fails("dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSS", 6, 1, 16, 80,
                "63 bit characters given");
    parse_fails("dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS0", 6, 1, 16, 81,
                "more than 64");
    parse_fails("dramid@x;0", 6, 1, 16, 8, "bit position");
    parse_fails("dramid@8:0", 6, 1, 16, 9, "expected ';'");
    parse_fails(DBITS_MAP, 6, 1, 16, 1, "non-power-of-two");
    parse_fails(DBITS_MAP, 8, 1, 16, 1, "2 D bits address 4 channels but there are 8");
    parse_fails("00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS", 6, 1, 16, 1,
                "neither D bits nor");
    parse_fails(GTX480_MAP, 6, 1, 8, 1, "4 B bits address 16 banks but the DRAM has 8");
    parse_fails(GTX480_MAP, 6, 3, 16, 1, "power of two");
    parse_fails("dramid@8;00000000.00000000.00000000.00000000.000RRRRR.RRRRRRRR.DBBBCCCC.BCCSSSSS", 2, 1, 16, 1,
                "both");
}

TEST(addr_map_single_channel_needs_no_channel_bits)
{
    struct addr_map m;
    char msg[256];
    unsigned col = 0;
    REQUIRE(addr_map_parse(&m, "00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS", 1, 1, 16,
                           msg, sizeof msg, &col) == 0);
    loc_eq(&m, 0x12345678, 0, 0, (0x12345678 >> 7 & 1) | (0x12345678 >> 12 & 7) << 1, 0x12345678 >> 15 & 0x1fff,
           (0x12345678 >> 5 & 3) | (0x12345678 >> 8 & 15) << 2);
}

/* The L2 slice's local address: a bijection per sub-partition that uses every
   set. Checked for the division mapping (6 channels, 2 slices each) and the D-bit mask form. */
static void check_local_addresses(const struct addr_map *m, unsigned nsub_total)
{
    unsigned used[16][64];
    memset(used, 0, sizeof used);
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (unsigned i = 0; i < 20000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t addr = (x >> 20) & ((1ull << 34) - 1);
        struct dram_loc l;
        addr_map_decode(m, addr, &l);
        uint64_t local = addr_map_local_addr(m, addr);
        CHECK_EQ_U64(addr_map_global_addr(m, local, l.chan, l.sub), addr);
        unsigned sp = l.chan * m->n_sub_per_chan + l.sub;
        REQUIRE(sp < nsub_total && sp < 16);
        used[sp][(local >> 7) & 63]++;   /* set index of a 64-set, 128-byte-line L2 */
    }
    for (unsigned sp = 0; sp < nsub_total; sp++)
        for (unsigned set = 0; set < 64; set++)
            CHECK(used[sp][set] > 0);   /* with raw addresses most sets stay empty */
}

TEST(addr_map_local_address_round_trip_uses_every_set)
{
    struct addr_map m;
    char msg[256];
    unsigned col = 0;
    REQUIRE(addr_map_parse(&m, GTX480_MAP, 6, 2, 16, msg, sizeof msg, &col) == 0);
    check_local_addresses(&m, 12);
    REQUIRE(addr_map_parse(&m, DBITS_MAP, 4, 1, 16, msg, sizeof msg, &col) == 0);
    check_local_addresses(&m, 4);
}

TEST_MAIN()
