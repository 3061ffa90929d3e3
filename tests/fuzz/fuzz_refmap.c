/* fuzz_refmap.c: a saved refmap is untrusted input (issue: a malformed refmap must never
 * weaken a check). The input is written as the refmap.json of a snapshot in a private state
 * root, in either format (refmap_codec.h); a format-2 input gets its checksum resealed first,
 * so mutations reach the decoder behind it. Then `get @<id>:e1` and `@<id>:e2` run through
 * dispatch against the in-memory fake adapter, whose only app is pid 42, process instance
 * "boot:1", window "w-fake-1".
 *
 * Invariants: every run ends in one whole envelope; and a get that succeeds was resolved
 * against a refmap whose source names exactly that process (an integer pid 42 and instance
 * "boot:1"): no malformed or foreign source may pass as a match.
 *
 * With AD_FUZZ_WRITE_SEED=PATH set, the first run saves a real snapshot's refmap (format 2,
 * byte for byte) of the fake window to PATH (how the seed corpus was made) before fuzzing. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/parse.h"
#include "dispatch/dispatch.h"
#include "core/refmap_codec.h"
#include "core/refs.h"
#include "fake_adapter.h"
#include "fuzz_util.h"

static fake_adapter *fake;

static json_t *run(char **argv, int argc)
{
    ad_cli_parsed parsed;
    ad_error err = AD_ERROR_INIT;
    if (ad_cli_parse(argc, argv, &parsed, &err) < 0)
        abort(); /* our own argv: always valid */
    int exit_code = 0;
    json_t *env = ad_dispatch(fake_base(fake), parsed.command, parsed.args, parsed.globals,
                              &exit_code);
    ad_cli_parsed_clear(&parsed);
    ad_error_clear(&err);
    return env;
}

static void write_seed(const char *path)
{
    char *argv[] = {"agent-desktop", "snapshot", "--app", "calc", NULL};
    json_t *env = run(argv, 4);
    const char *id = json_string_value(json_object_get(json_object_get(env, "data"),
                                                       "snapshot_id"));
    char *src = NULL;
    if (!id || asprintf(&src, "%s/snapshots/%s/refmap.json", fz_state_home(), id) < 0)
        abort();
    FILE *in = fopen(src, "rb"), *out = fopen(path, "wb");
    char buf[65536];
    size_t n;
    if (!in || !out)
        abort();
    while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
        if (fwrite(buf, 1, n, out) != n)
            abort();
    if (fclose(in) != 0 || fclose(out) != 0)
        abort();
    json_decref(env);
    free(src);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    setenv("AGENT_DESKTOP_HOME", fz_state_home(), 1);
    unsetenv("AGENT_DESKTOP_SESSION");
    fake = fake_new();
    fake_add_app(fake, "calc", 42);
    fake_add_window(fake, "calc", "Calc",
                    fk("window|n=Calc",
                       fk("group|n=Keys", fk("button|n=7|id=calc_7|a=Click", NULL),
                          fk("button|n=OK|a=Click", NULL),
                          fk("textfield|n=Display|v=0", NULL), NULL),
                       fk("statictext|n=Status", NULL), NULL));
    const char *seed = getenv("AD_FUZZ_WRITE_SEED");
    if (seed && *seed)
        write_seed(seed);
    return 0;
}

/* The snapshot id the input names, when it is a valid one; else a fixed id. */
static void input_id(const json_t *refmap, char id[AD_SNAPSHOT_ID_MAX + 1])
{
    const char *s = json_string_value(json_object_get(refmap, "snapshot_id"));
    snprintf(id, AD_SNAPSHOT_ID_MAX + 1, "%s", s && ad_snapshot_id_valid(s) ? s : "sfuzz0");
}

static bool names_the_fake_process(const json_t *refmap)
{
    const json_t *src = json_object_get(refmap, "source");
    const json_t *pid = json_object_get(src, "pid");
    const char *inst = json_string_value(json_object_get(src, "process_instance"));
    return json_is_integer(pid) && json_integer_value(pid) == 42 && inst &&
           strcmp(inst, "boot:1") == 0;
}

/* The refmap the input decodes to in either format, or NULL. A format-2 input is resealed
 * in place (its last 4 bytes become the checksum of the rest). */
static json_t *decode_input(uint8_t *data, size_t size)
{
    if (!ad_refmap_is_compact(data, size))
        return json_loadb((const char *)data, size, 0, NULL);
    if (size >= 9) {
        unsigned sum = ad_refmap_checksum(data, size - 4);
        for (int i = 0; i < 4; i++)
            data[size - 4 + i] = (uint8_t)(sum >> (8 * i));
    }
    json_t *map = NULL;
    const char *why;
    return ad_refmap_decode(data, size, &map, &why) == 0 ? map : NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *input, size_t size)
{
    uint8_t *data = malloc(size ? size : 1);
    if (!data)
        abort();
    memcpy(data, input, size);
    json_t *parsed = decode_input(data, size);
    char id[AD_SNAPSHOT_ID_MAX + 1], *dir = NULL, *file = NULL;
    input_id(parsed, id);
    if (asprintf(&dir, "%s/snapshots/%s", fz_state_home(), id) < 0 ||
        asprintf(&file, "%s/refmap.json", dir) < 0)
        abort();
    char *snaps = NULL;
    if (asprintf(&snaps, "%s/snapshots", fz_state_home()) < 0)
        abort();
    mkdir(fz_state_home(), 0700);
    mkdir(snaps, 0700);
    mkdir(dir, 0700);
    FILE *f = fopen(file, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
    chmod(file, 0600);

    for (int n = 1; n <= 2; n++) {
        char ref[96];
        snprintf(ref, sizeof ref, "@%s:e%d", id, n);
        char *argv[] = {"agent-desktop", "get", ref, "--property", "text", NULL};
        json_t *env = run(argv, 5);
        fz_check_envelope(env);
        if (json_is_true(json_object_get(env, "ok")) && !names_the_fake_process(parsed)) {
            fprintf(stderr, "fuzz: get resolved through a refmap that does not name pid 42 "
                            "instance boot:1\n");
            abort();
        }
        json_decref(env);
    }
    unlink(file);
    json_decref(parsed);
    free(data);
    free(snaps);
    free(dir);
    free(file);
    return 0;
}
