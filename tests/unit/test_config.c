/* test_config.c - core/config (gpgpusim.config syntax, option tables) and core/stats. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/config.h"
#include "core/stats.h"
#include "test.h"

/* ---- helpers -------------------------------------------------------------- */

struct t_obj {
    int i;
    unsigned u;
    uint64_t big;
    double d;
    int b;
    const char *s;
    const char *cache;
};

static const struct cfg_opt t_opts[] = {
    CFG_OPT("gpgpu_n_clusters", CFG_UINT, struct t_obj, u, "15", 1, 256, "clusters"),
    CFG_OPT("signed_thing", CFG_INT, struct t_obj, i, "-3", -10, 10, "a signed value"),
    CFG_OPT("big", CFG_U64, struct t_obj, big, "1000000", 0, 1e15, "a 64-bit value"),
    CFG_OPT("ratio", CFG_DOUBLE, struct t_obj, d, "0.5", 0, 1, "a fraction"),
    CFG_OPT("flag", CFG_BOOL, struct t_obj, b, "false", 0, 0, "a switch"),
    CFG_OPT("name", CFG_STRING, struct t_obj, s, "lrr", 0, 0, "a policy name"),
    CFG_OPT("gpgpu_cache:dl1", CFG_STRING, struct t_obj, cache, "32:128:4,L:L:m:N:H,A:32:8,8", 0, 0, "L1D"),
};
#define T_NOPTS (sizeof t_opts / sizeof t_opts[0])

static const char *t_fmt(const struct cfg_error *e)
{
    static char buf[1024];
    cfg_error_format(e, buf, sizeof buf);
    return buf;
}

/* Load text; return the formatted error ("" on success). */
static const char *t_load(struct arena *a, struct cfg *c, const char *text)
{
    static char buf[1024];
    struct cfg_error err;
    cfg_init(c, a);
    buf[0] = '\0';
    if (cfg_load_text(c, text, strlen(text), "t.config", &err))
        snprintf(buf, sizeof buf, "%s", t_fmt(&err));
    return buf;
}

/* Load text and apply the test table; formatted error or "". */
static const char *t_apply(const char *text, struct t_obj *o)
{
    static char buf[1024];
    struct arena *a = arena_new(0);
    struct cfg c;
    struct cfg_error err;
    snprintf(buf, sizeof buf, "%s", t_load(a, &c, text));
    if (!buf[0] && cfg_apply(&c, t_opts, T_NOPTS, o, &err))
        snprintf(buf, sizeof buf, "%s", t_fmt(&err));
    arena_free(a);   /* strings in o dangle now: callers only look at numbers */
    return buf;
}

static char t_dir[64];

static void t_mkdir(void)
{
    if (!t_dir[0]) {
        snprintf(t_dir, sizeof t_dir, "/tmp/warpsim_cfgXXXXXX");
        if (!mkdtemp(t_dir))
            abort();
    }
}

/* Remove what t_file created (names recorded as they are written). */
static char t_made[32][128];
static int t_nmade;
__attribute__((destructor)) static void t_cleanup(void)
{
    char p[4400];   /* generous: gcc's truncation analysis cannot bound the names */
    for (int i = 0; i < t_nmade; i++) {
        snprintf(p, sizeof p, "%s/%s", t_dir, t_made[i]);
        unlink(p);
    }
    if (t_dir[0]) {
        snprintf(p, sizeof p, "%s/sub", t_dir);
        rmdir(p);
        rmdir(t_dir);
    }
}

/* Write file <t_dir>/<rel> (subdirectory "sub/" is created) and return its path. */
static const char *t_file(const char *rel, const char *text)
{
    static char path[4][256];
    static int k;
    t_mkdir();
    char sub[256];
    snprintf(sub, sizeof sub, "%s/sub", t_dir);
    (void)mkdir(sub, 0700);
    char *p = path[k++ & 3];
    snprintf(p, 256, "%s/%s", t_dir, rel);
    FILE *f = fopen(p, "w");
    if (!f)
        abort();
    fputs(text, f);
    fclose(f);
    if (t_nmade < 32)
        snprintf(t_made[t_nmade++], sizeof t_made[0], "%s", rel);
    return p;
}

/* ---- syntax --------------------------------------------------------------- */

TEST(syntax_entries_positions_and_quotes)
{
    struct arena *a = arena_new(0);
    struct cfg c;
    CHECK_EQ_STR(t_load(a, &c,
                        "# comment line\n"
                        "-gpgpu_n_clusters 15   # trailing comment\n"
                        "\t-a 1 -b two   -c \"x y # z\"\n"
                        "-gpgpu_cache:dl1 32:128:4,L:L:m:N:H,A:32:8,8\n"
                        "-gpgpu_cache:dl2 \"64:128:16,L:B:m:W:L,A:256:64,16\"\n"
                        "-neg -5 -dotted.param.x -0.25\n"
                        "-esc \"say \\\"hi\\\" \\\\\"\n"
                        "-gpgpu_n_clusters 30\n"),
                 "");
    REQUIRE(c.n == 10);
    CHECK_EQ_STR(c.e[0].name, "gpgpu_n_clusters");
    CHECK_EQ_STR(c.e[0].value, "15");
    CHECK_EQ_INT(c.e[0].line, 2);
    CHECK_EQ_INT(c.e[0].col, 1);
    CHECK_EQ_STR(c.e[1].name, "a");
    CHECK_EQ_INT(c.e[1].line, 3);
    CHECK_EQ_INT(c.e[1].col, 2);            /* after the tab */
    CHECK_EQ_STR(c.e[2].value, "two");
    CHECK_EQ_INT(c.e[2].col, 7);
    CHECK_EQ_STR(c.e[3].name, "c");
    CHECK_EQ_STR(c.e[3].value, "x y # z");  /* quoted: spaces and '#' kept */
    CHECK_EQ_STR(c.e[4].name, "gpgpu_cache:dl1");
    CHECK_EQ_STR(c.e[4].value, "32:128:4,L:L:m:N:H,A:32:8,8");
    CHECK_EQ_STR(c.e[5].value, "64:128:16,L:B:m:W:L,A:256:64,16");
    CHECK_EQ_STR(c.e[6].value, "-5");
    CHECK_EQ_STR(c.e[7].name, "dotted.param.x");
    CHECK_EQ_STR(c.e[7].value, "-0.25");
    CHECK_EQ_STR(c.e[8].value, "say \"hi\" \\");
    CHECK_EQ_STR(c.e[0].file, "t.config");
    /* last occurrence wins */
    const struct cfg_entry *e = cfg_find(&c, "gpgpu_n_clusters");
    REQUIRE(e != NULL);
    CHECK_EQ_STR(e->value, "30");
    CHECK_EQ_INT(e->line, 8);
    CHECK(cfg_find(&c, "nope") == NULL);
    arena_free(a);
}

TEST(syntax_crlf_and_empty_text)
{
    struct arena *a = arena_new(0);
    struct cfg c;
    CHECK_EQ_STR(t_load(a, &c, ""), "");
    CHECK_EQ_INT(c.n, 0);
    CHECK_EQ_STR(t_load(a, &c, "-x 1\r\n-y 2\r\n"), "");
    REQUIRE(c.n == 2);
    CHECK_EQ_STR(c.e[0].value, "1");
    CHECK_EQ_STR(c.e[1].value, "2");
    CHECK_EQ_INT(c.e[1].line, 2);
    arena_free(a);
}

TEST(syntax_error_messages)
{
    struct arena *a = arena_new(0);
    struct cfg c;
    CHECK_EQ_STR(t_load(a, &c, "-a 1\n  -gpgpu_n_clusters\n-b 2\n"),
                 "t.config:2:3: error: -gpgpu_n_clusters: value missing");
    CHECK_EQ_STR(t_load(a, &c, "-a 1\n-gpgpu_n_clusters   # no value\n"),
                 "t.config:2:1: error: -gpgpu_n_clusters: value missing");
    CHECK_EQ_STR(t_load(a, &c, "-a -b 2\n"), "t.config:1:1: error: -a: value missing");
    CHECK_EQ_STR(t_load(a, &c, "-a 1 -last"), "t.config:1:6: error: -last: value missing");
    CHECK_EQ_STR(t_load(a, &c, "-a 1\n-gpgpu_cache:dl1 \"32:128:4,L\n-b 2\n"),
                 "t.config:2:18: error: -gpgpu_cache:dl1: unterminated quoted value");
    CHECK_EQ_STR(t_load(a, &c, "-a 1 stray\n"), "t.config:1:6: error: expected an option ('-name'), got 'stray'");
    CHECK_EQ_STR(t_load(a, &c, "-a 1 2\n"), "t.config:1:6: error: expected an option ('-name'), got '2'");
    CHECK_EQ_STR(t_load(a, &c, "  - 1\n"), "t.config:1:3: error: expected an option ('-name'), got '-'");
    arena_free(a);
}

TEST(error_format_without_position)
{
    struct cfg_error e = {"command line", 0, 0, "boom"};
    char buf[64];
    CHECK_EQ_INT(cfg_error_format(&e, buf, sizeof buf), (int)strlen("command line: error: boom"));
    CHECK_EQ_STR(buf, "command line: error: boom");
}

/* ---- option tables ------------------------------------------------------- */

TEST(apply_defaults_and_overrides)
{
    struct t_obj o;
    memset(&o, 0xff, sizeof o);
    struct arena *a = arena_new(0);
    struct cfg c;
    struct cfg_error err;
    CHECK_EQ_STR(t_load(a, &c, ""), "");
    REQUIRE(cfg_apply(&c, t_opts, T_NOPTS, &o, &err) == 0);
    CHECK_EQ_INT(o.u, 15);
    CHECK_EQ_INT(o.i, -3);
    CHECK_EQ_U64(o.big, 1000000);
    CHECK_NEAR(o.d, 0.5, 0);
    CHECK_EQ_INT(o.b, 0);
    CHECK_EQ_STR(o.s, "lrr");

    CHECK_EQ_STR(t_load(a, &c,
                        "-gpgpu_n_clusters 10 -signed_thing -10 -big 0x10 -ratio 1 -flag true -name gto\n"
                        "-gpgpu_n_clusters 256 -flag 1 -big 1000000000000000\n"),
                 "");
    REQUIRE(cfg_set(&c, "-name", "two words", NULL) == 0);   /* command line overrides the file */
    REQUIRE(cfg_apply(&c, t_opts, T_NOPTS, &o, &err) == 0);
    CHECK_EQ_INT(o.u, 256);
    CHECK_EQ_INT(o.i, -10);
    CHECK_EQ_U64(o.big, 1000000000000000ull);
    CHECK_NEAR(o.d, 1.0, 0);
    CHECK_EQ_INT(o.b, 1);
    CHECK_EQ_STR(o.s, "two words");
    for (uint32_t i = 0; i < c.n; i++)
        CHECK_EQ_INT(c.e[i].used, 1);   /* overridden occurrences count as used */
    CHECK_EQ_INT(cfg_check_unused(&c, 0, NULL, &err), 0);
    arena_free(a);
}

TEST(apply_value_errors)
{
    struct t_obj o;
    CHECK_EQ_STR(t_apply("# x\n-gpgpu_n_clusters x\n", &o),
                 "t.config:2:1: error: -gpgpu_n_clusters: expected an integer in [1, 256], got 'x'");
    CHECK_EQ_STR(t_apply("  -gpgpu_n_clusters 0", &o),
                 "t.config:1:3: error: -gpgpu_n_clusters: expected an integer in [1, 256], got '0'");
    CHECK_EQ_STR(t_apply("-gpgpu_n_clusters 257", &o),
                 "t.config:1:1: error: -gpgpu_n_clusters: expected an integer in [1, 256], got '257'");
    CHECK_EQ_STR(t_apply("-gpgpu_n_clusters 15x", &o),
                 "t.config:1:1: error: -gpgpu_n_clusters: expected an integer in [1, 256], got '15x'");
    CHECK_EQ_STR(t_apply("-gpgpu_n_clusters -1", &o),
                 "t.config:1:1: error: -gpgpu_n_clusters: expected an integer in [1, 256], got '-1'");
    CHECK_EQ_STR(t_apply("-gpgpu_n_clusters 99999999999999999999999", &o),
                 "t.config:1:1: error: -gpgpu_n_clusters: expected an integer in [1, 256], got "
                 "'99999999999999999999999'");
    CHECK_EQ_STR(t_apply("-signed_thing 11", &o),
                 "t.config:1:1: error: -signed_thing: expected an integer in [-10, 10], got '11'");
    CHECK_EQ_STR(t_apply("-big 1.5", &o),
                 "t.config:1:1: error: -big: expected an integer in [0, 1000000000000000], got '1.5'");
    CHECK_EQ_STR(t_apply("-ratio 1.5", &o), "t.config:1:1: error: -ratio: expected a number in [0, 1], got '1.5'");
    CHECK_EQ_STR(t_apply("-ratio nan", &o), "t.config:1:1: error: -ratio: expected a number in [0, 1], got 'nan'");
    CHECK_EQ_STR(t_apply("-flag yes", &o), "t.config:1:1: error: -flag: expected 0, 1, true or false, got 'yes'");
    /* only the last occurrence is parsed: a bad earlier value is simply overridden */
    CHECK_EQ_STR(t_apply("-gpgpu_n_clusters x\n-gpgpu_n_clusters 3\n", &o), "");
    CHECK_EQ_INT(o.u, 3);
}

TEST(apply_command_line_error)
{
    struct arena *a = arena_new(0);
    struct cfg c;
    struct cfg_error err;
    struct t_obj o;
    cfg_init(&c, a);
    REQUIRE(cfg_set(&c, "gpgpu_n_clusters", "many", NULL) == 0);
    CHECK_EQ_INT(cfg_apply(&c, t_opts, T_NOPTS, &o, &err), -1);
    CHECK_EQ_STR(t_fmt(&err),
                 "command line: error: -gpgpu_n_clusters: expected an integer in [1, 256], got 'many'");
    CHECK_EQ_INT(cfg_set(&c, "", "1", NULL), -1);
    CHECK_EQ_INT(cfg_set(&c, "--", "1", NULL), -1);
    arena_free(a);
}

TEST(unknown_option_error_and_warning)
{
    struct arena *a = arena_new(0);
    struct cfg c;
    struct cfg_error err;
    struct t_obj o;
    CHECK_EQ_STR(t_load(a, &c, "-gpgpu_n_clusters 4\n\n   -gpgpu_n_clustres 5 -other x\n"), "");
    REQUIRE(cfg_apply(&c, t_opts, T_NOPTS, &o, &err) == 0);
    CHECK_EQ_INT(cfg_check_unused(&c, 0, NULL, &err), -1);
    CHECK_EQ_STR(t_fmt(&err), "t.config:3:4: error: unknown option '-gpgpu_n_clustres' (did you mean "
                              "'-gpgpu_n_clusters'?)");
    cfg_set(&c, "typo_cli", "1", NULL);

    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    REQUIRE(f != NULL);
    CHECK_EQ_INT(cfg_check_unused(&c, 1, f, &err), 0);
    fclose(f);
    CHECK_EQ_STR(buf, "t.config:3:4: warning: unknown option '-gpgpu_n_clustres' (did you mean "
                      "'-gpgpu_n_clusters'?) (ignored)\n"
                      "t.config:3:24: warning: unknown option '-other' (ignored)\n"
                      "command line: warning: unknown option '-typo_cli' (ignored)\n");
    free(buf);
    arena_free(a);
}

/* ---- includes ------------------------------------------------------------ */

TEST(include_relative_and_override_order)
{
    t_file("sub/base.config", "-gpgpu_n_clusters 15\n-name base\n-config inner.config\n");
    t_file("sub/inner.config", "-ratio 0.25\n");
    const char *top = t_file("top.config", "-name before\n-config sub/base.config\n-gpgpu_n_clusters 30\n");
    struct arena *a = arena_new(0);
    struct cfg c;
    struct cfg_error err;
    struct t_obj o;
    cfg_init(&c, a);
    REQUIRE(cfg_load_file(&c, top, &err) == 0);
    REQUIRE(cfg_apply(&c, t_opts, T_NOPTS, &o, &err) == 0);
    CHECK_EQ_INT(o.u, 30);            /* set after the include: wins */
    CHECK_EQ_STR(o.s, "base");        /* the include comes after "before": it wins */
    CHECK_NEAR(o.d, 0.25, 0);         /* nested include, relative to sub/ */
    const struct cfg_entry *e = cfg_find(&c, "ratio");
    REQUIRE(e != NULL);
    char want[256];
    snprintf(want, sizeof want, "%s/sub/inner.config", t_dir);
    CHECK_EQ_STR(e->file, want);
    CHECK_EQ_INT(e->line, 1);
    CHECK(cfg_find(&c, "config") == NULL);   /* includes are not options */
    arena_free(a);
}

TEST(include_errors)
{
    const char *missing = t_file("missing.config", "-a 1\n  -config nothere.config\n");
    const char *a1 = t_file("cyc_a.config", "-a 1\n-config sub/cyc_b.config\n");
    t_file("sub/cyc_b.config", "-b 1\n\n-config ../cyc_a.config\n");
    const char *self = t_file("self.config", "-config self.config\n");
    struct arena *a = arena_new(0);
    struct cfg c;
    struct cfg_error err;
    char want[1024];

    cfg_init(&c, a);
    CHECK_EQ_INT(cfg_load_file(&c, missing, &err), -1);
    snprintf(want, sizeof want, "%s:2:3: error: -config: cannot open '%s/nothere.config': No such file or directory",
             missing, t_dir);
    CHECK_EQ_STR(t_fmt(&err), want);

    cfg_init(&c, a);
    CHECK_EQ_INT(cfg_load_file(&c, a1, &err), -1);
    snprintf(want, sizeof want,
             "%s/sub/cyc_b.config:3:1: error: -config: include cycle: %s -> %s/sub/cyc_b.config -> "
             "%s/sub/../cyc_a.config",
             t_dir, a1, t_dir, t_dir);
    CHECK_EQ_STR(t_fmt(&err), want);

    cfg_init(&c, a);
    CHECK_EQ_INT(cfg_load_file(&c, self, &err), -1);
    snprintf(want, sizeof want, "%s:1:1: error: -config: include cycle: %s -> %s/self.config", self, self, t_dir);
    CHECK_EQ_STR(t_fmt(&err), want);

    cfg_init(&c, a);
    CHECK_EQ_INT(cfg_load_file(&c, "/nonexistent/x.config", &err), -1);
    CHECK_EQ_STR(t_fmt(&err), "/nonexistent/x.config: error: cannot open config file: No such file or directory");

    /* the same file included twice in sequence is not a cycle */
    const char *twice = t_file("twice.config", "-config sub/inner.config\n-config sub/inner.config\n");
    t_file("sub/inner.config", "-ratio 0.25\n");
    cfg_init(&c, a);
    CHECK_EQ_INT(cfg_load_file(&c, twice, &err), 0);
    CHECK_EQ_INT(c.n, 2);
    arena_free(a);
}

/* ---- writing ------------------------------------------------------------- */

TEST(write_round_trip)
{
    struct arena *a = arena_new(0);
    struct t_obj o = {-7, 200, 123456789012345ull, 0.1, 1, "a \"quoted\" # \\ value", "-starts-with-dash"};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    REQUIRE(f != NULL);
    cfg_write(f, t_opts, T_NOPTS, &o);
    fclose(f);
    CHECK(strstr(buf, "-gpgpu_n_clusters 200\n") != NULL);
    CHECK(strstr(buf, "-ratio            0.1\n") != NULL);
    CHECK(strstr(buf, "-name             \"a \\\"quoted\\\" # \\\\ value\"\n") != NULL);

    struct cfg c;
    struct cfg_error err;
    struct t_obj back;
    memset(&back, 0, sizeof back);
    cfg_init(&c, a);
    REQUIRE(cfg_load_text(&c, buf, len, "written", &err) == 0);
    REQUIRE(cfg_apply(&c, t_opts, T_NOPTS, &back, &err) == 0);
    CHECK_EQ_INT(cfg_check_unused(&c, 0, NULL, &err), 0);
    CHECK_EQ_INT(back.i, o.i);
    CHECK_EQ_INT(back.u, o.u);
    CHECK_EQ_U64(back.big, o.big);
    CHECK(back.d == o.d);   /* exact, not approximately */
    CHECK_EQ_INT(back.b, o.b);
    CHECK_EQ_STR(back.s, o.s);
    CHECK_EQ_STR(back.cache, o.cache);

    /* empty strings and doubles needing 17 digits */
    o.s = "";
    o.d = 1.0 / 3.0;
    free(buf);
    buf = NULL;
    f = open_memstream(&buf, &len);
    cfg_write(f, t_opts, T_NOPTS, &o);
    fclose(f);
    cfg_init(&c, a);
    REQUIRE(cfg_load_text(&c, buf, len, "written", &err) == 0);
    REQUIRE(cfg_apply(&c, t_opts, T_NOPTS, &back, &err) == 0);
    CHECK(back.d == 1.0 / 3.0);
    CHECK_EQ_STR(back.s, "");
    free(buf);
    arena_free(a);
}

TEST(list_documents_every_option)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    REQUIRE(f != NULL);
    cfg_list(f, t_opts, T_NOPTS);
    fclose(f);
    int lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += buf[i] == '\n';
    CHECK_EQ_INT(lines, (int)T_NOPTS + 1);
    CHECK(strncmp(buf, "option", 6) == 0);
    const char *row = strstr(buf, "-gpgpu_n_clusters ");
    REQUIRE(row != NULL);
    const char *eol = strchr(row, '\n');
    char line[256];
    snprintf(line, sizeof line, "%.*s", (int)(eol - row), row);
    CHECK(strstr(line, " uint ") != NULL);
    CHECK(strstr(line, " 15 ") != NULL);
    CHECK(strstr(line, "[1, 256]") != NULL);
    CHECK(strstr(line, "clusters") != NULL);
    CHECK(strstr(buf, "[-10, 10]") != NULL);
    CHECK(strstr(buf, "0/1") != NULL);
    free(buf);
}

/* ---- stats --------------------------------------------------------------- */

TEST(stats_registry_sums_and_snapshots)
{
    struct arena *a = arena_new(0);
    struct stats s;
    stats_init(&s, a);
    uint64_t ctr[600];
    for (int i = 0; i < 600; i++)
        ctr[i] = (uint64_t)i;
    /* 600 registrations: grows past the first block twice */
    for (int sm = 0; sm < 200; sm++) {
        stats_reg(&s, &ctr[3 * sm], "L1D misses", "sm%d.l1d.misses", sm);
        stats_reg(&s, &ctr[3 * sm + 1], NULL, "sm%d.l1d.hits", sm);
        stats_reg(&s, &ctr[3 * sm + 2], NULL, "part%d.dram.row_hits", sm);
    }
    REQUIRE(s.n == 600);
    CHECK_EQ_STR(s.e[0].name, "sm0.l1d.misses");
    CHECK_EQ_STR(s.e[0].doc, "L1D misses");
    CHECK_EQ_STR(s.e[599].name, "part199.dram.row_hits");
    CHECK(s.e[3].ctr == &ctr[3]);

    uint64_t want_miss = 0, want_all_sm = 0;
    for (int sm = 0; sm < 200; sm++) {
        want_miss += (uint64_t)(3 * sm);
        want_all_sm += (uint64_t)(3 * sm) + (uint64_t)(3 * sm + 1);
    }
    CHECK_EQ_U64(stats_sum(&s, "sm", ".l1d.misses"), want_miss);
    CHECK_EQ_U64(stats_sum(&s, "sm", ""), want_all_sm);
    CHECK_EQ_U64(stats_sum(&s, "sm1.", ".hits"), 4);
    uint64_t want_sm1 = 0;   /* sm1, sm10..sm19, sm100..sm199 */
    for (int sm = 0; sm < 200; sm++)
        if (sm == 1 || (sm >= 10 && sm <= 19) || sm >= 100)
            want_sm1 += (uint64_t)(3 * sm + 1);
    CHECK_EQ_U64(stats_sum(&s, "sm1", ".hits"), want_sm1);
    CHECK_EQ_U64(stats_sum(&s, "nothing", ""), 0);
    /* prefix and suffix may not overlap: "sm2.l1d.misses" is not "sm2.l1d.misses" + "*misses" */
    CHECK_EQ_U64(stats_sum(&s, "sm2.l1d.misses", "misses"), 0);
    CHECK_EQ_U64(stats_sum(&s, "sm2.l1d.misses", ""), 6);
    CHECK_EQ_U64(stats_sum(&s, "sm0.l1d.", "misses"), 0);   /* ctr[0] == 0 */
    CHECK_EQ_U64(stats_sum(&s, "sm2.l1d.", "misses"), 6);

    uint64_t *start = arena_alloc(a, sizeof(uint64_t) * s.n);
    uint64_t *end = arena_alloc(a, sizeof(uint64_t) * s.n);
    stats_snapshot(&s, start);
    CHECK_EQ_U64(start[5], 5);
    ctr[3] += 10;     /* sm1.l1d.misses */
    ctr[4] += 100;    /* sm1.l1d.hits */
    ctr[599] += 7;
    stats_snapshot(&s, end);
    CHECK_EQ_U64(stats_sum_delta(&s, start, end, "sm", ".l1d.misses"), 10);
    CHECK_EQ_U64(stats_sum_delta(&s, start, end, "sm", ""), 110);
    CHECK_EQ_U64(stats_sum_delta(&s, start, end, "part", ".row_hits"), 7);
    CHECK_EQ_U64(stats_sum_delta(&s, start, end, "", ""), 117);
    arena_free(a);
}

/* ---- GPGPU-Sim's own configs ---------------------------------------------- */

TEST(quoted_value_spanning_lines)
{
    struct arena *a = arena_new(0);
    struct cfg c;
    /* GPGPU-Sim wraps long DRAM timing strings: the line break and the spaces around it go */
    CHECK_EQ_STR(t_load(a, &c,
                        "-a 1\n-gpgpu_dram_timing_opt \"nbk=16:CCD=2:RC=40:  \n"
                        "                        CL=12:WL=4\"   # comment\n  -b 2\n"),
                 "");
    REQUIRE(c.n == 3);
    CHECK_EQ_STR(c.e[1].name, "gpgpu_dram_timing_opt");
    CHECK_EQ_STR(c.e[1].value, "nbk=16:CCD=2:RC=40:CL=12:WL=4");
    CHECK_EQ_INT(c.e[1].line, 2);
    CHECK_EQ_INT(c.e[1].col, 1);
    /* positions after the value count the lines inside it */
    CHECK_EQ_STR(c.e[2].name, "b");
    CHECK_EQ_INT(c.e[2].line, 4);
    CHECK_EQ_INT(c.e[2].col, 3);
    /* three lines, tabs and CRLF, an escaped quote inside */
    CHECK_EQ_STR(t_load(a, &c, "-x \"a:\r\n\tb:\\\"c\r\n   d\" -y 1\n"), "");
    REQUIRE(c.n == 2);
    CHECK_EQ_STR(c.e[0].value, "a:b:\"cd");
    CHECK_EQ_INT(c.e[1].line, 3);
    CHECK_EQ_INT(c.e[1].col, 7);
    /* never closed: reported at the opening quote, whatever follows */
    CHECK_EQ_STR(t_load(a, &c, "-a 1\n -t \"x:\n y\n-b 2\n"), "t.config:2:5: error: -t: unterminated quoted value");
    arena_free(a);
}

static const char *const t_ign[] = {"gpgpu_ptx_sim_mode", "power_simulation_enabled", "gpgpu_stack_size_limit"};

TEST(ignored_options_one_summary_line)
{
    struct arena *a = arena_new(0);
    struct cfg c;
    struct cfg_error err;
    struct t_obj o;
    CHECK_EQ_STR(t_load(a, &c,
                        "-gpgpu_ptx_sim_mode 0\n-gpgpu_n_clusters 4\n-power_simulation_enabled 1\n"
                        "-gpgpu_ptx_sim_mode 1\n"),
                 "");
    REQUIRE(cfg_apply(&c, t_opts, T_NOPTS, &o, &err) == 0);
    CHECK_EQ_INT(cfg_mark_ignored(&c, t_ign, 3), 3);
    CHECK_EQ_INT(cfg_mark_ignored(&c, t_ign, 3), 0);    /* once is enough */
    CHECK_EQ_INT(c.e[1].used, CFG_USED);
    CHECK_EQ_INT(c.e[0].used, CFG_IGNORED);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    REQUIRE(f != NULL);
    CHECK_EQ_INT(cfg_check_unused(&c, 0, f, &err), 0);
    CHECK_EQ_INT(cfg_check_unused(&c, 0, f, &err), 0);   /* a second check prints nothing more */
    fclose(f);
    CHECK_EQ_STR(buf, "warning: 2 GPGPU-Sim options that warpsim does not model were ignored: "
                      "-gpgpu_ptx_sim_mode, -power_simulation_enabled\n");
    free(buf);
    /* a misspelled ignored option is still an error, with the ignored name as the hint */
    CHECK_EQ_STR(t_load(a, &c, "-gpgpu_n_clusters 4\n  -power_simulaton_enabled 1\n"), "");
    REQUIRE(cfg_apply(&c, t_opts, T_NOPTS, &o, &err) == 0);
    CHECK_EQ_INT(cfg_mark_ignored(&c, t_ign, 3), 0);
    CHECK_EQ_INT(cfg_check_unused(&c, 0, NULL, &err), -1);
    CHECK_EQ_STR(t_fmt(&err), "t.config:2:3: error: unknown option '-power_simulaton_enabled' (did you mean "
                              "'-power_simulation_enabled'?)");
    /* a known name with a prefix wins over a nearer spelling */
    CHECK_EQ_STR(cfg_suggest(&c, "clusters") ? cfg_suggest(&c, "clusters") : "", "gpgpu_n_clusters");
    /* nothing close: no hint */
    CHECK(cfg_suggest(&c, "zzzz") == NULL);
    CHECK_EQ_STR(cfg_suggest(&c, "gpgpu_cache:dl") ? cfg_suggest(&c, "gpgpu_cache:dl") : "", "gpgpu_cache:dl1");
    arena_free(a);
}

TEST(insert_after_keeps_later_overrides)
{
    struct arena *a = arena_new(0);
    struct cfg c;
    CHECK_EQ_STR(t_load(a, &c, "-s x\n-p 1\n-q 2\n"), "");
    REQUIRE(cfg_insert_after(&c, &c.e[0], "derived", "7") == 0);
    REQUIRE(c.n == 4);
    CHECK_EQ_STR(c.e[1].name, "derived");
    CHECK_EQ_STR(c.e[1].value, "7");
    CHECK_EQ_INT(c.e[1].line, 1);
    CHECK_EQ_STR(c.e[2].name, "p");
    CHECK_EQ_STR(c.e[3].name, "q");
    /* an explicit value written later wins */
    cfg_set(&c, "derived", "9", NULL);
    CHECK_EQ_STR(cfg_find(&c, "derived")->value, "9");
    CHECK_EQ_INT(cfg_insert_after(&c, NULL, "n", "1"), -1);
    arena_free(a);
}

TEST_MAIN()
