/* test_validate.c: the validator every door uses (dispatch/validate.c), step by step as
 * validate.h numbers them, and the same error from the CLI and from given JSON. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "cli/parse.h"
#include "dispatch/validate.h"
#include "test_util.h"

typedef struct {
    int rc;
    json_t *args;
    ad_error err;
} outcome;

static outcome validate_json(const char *command, const char *given_json)
{
    outcome o = {.err = AD_ERROR_INIT};
    json_t *given = json_loads(given_json, 0, NULL);
    assert_non_null(given);
    o.rc = ad_args_validate(ad_command_find(command), given, &o.args, &o.err);
    json_decref(given);
    return o;
}

static void outcome_clear(outcome *o)
{
    json_decref(o->args);
    ad_error_clear(&o->err);
}

static void expect_error(const char *command, const char *given_json, const char *message_part,
                         const char *argument, bool parse_error)
{
    outcome o = validate_json(command, given_json);
    if (o.rc != -1)
        fail_msg("%s %s was accepted", command, given_json);
    assert_int_equal(o.err.code, AD_INVALID_ARGS);
    if (!strstr(o.err.message, message_part))
        fail_msg("message '%s' lacks '%s'", o.err.message, message_part);
    if (argument)
        assert_string_equal(tu_str(o.err.details, "argument"), argument);
    assert_int_equal(o.err.parse_error, parse_error);
    assert_null(o.args); /* nothing half-made */
    outcome_clear(&o);
}

/* 1. An unknown key names the accepted ones; a '-' key is not its '_' twin. */
static void test_unknown_keys_name_the_accepted_ones(void **state)
{
    (void)state;
    expect_error("get", "{\"ref_id\":\"@s1:e1\",\"colour\":\"red\"}",
                 "get has no argument 'colour'; it accepts: ref_id, property", "colour", true);
    expect_error("snapshot", "{\"max-depth\":3}", "no argument 'max-depth'", "max-depth", true);
    /* A front-end flag is not offered to a JSON caller. */
    outcome o = validate_json("type", "{\"ref_id\":\"@s1:e1\",\"x\":1}");
    assert_int_equal(o.rc, -1);
    assert_null(strstr(o.err.message, "stdin"));
    outcome_clear(&o);
}

/* 2. A wrong type names the argument, the same words for each type. */
static void test_wrong_types_name_the_argument(void **state)
{
    (void)state;
    expect_error("snapshot", "{\"max_depth\":\"deep\"}",
                 "Invalid value for --max-depth: expected a whole number", "max_depth", true);
    expect_error("snapshot", "{\"max_depth\":2.5}", "expected a whole number", "max_depth",
                 true);
    expect_error("snapshot", "{\"compact\":\"yes\"}", "--compact is a switch", "compact", true);
    expect_error("snapshot", "{\"app\":7}", "--app must be a string", "app", true);
    expect_error("find", "{\"state\":\"focused\"}", "--state must be a list of strings",
                 "state", true);
    expect_error("find", "{\"state\":[\"focused\",3]}", "list of strings", "state", true);
}

/* 3. Enums, ranges and byte limits. */
static void test_enums_ranges_and_lengths(void **state)
{
    (void)state;
    expect_error("get", "{\"ref_id\":\"@s1:e1\",\"property\":\"colour\"}",
                 "expected one of text|value|title|bounds|role|states", "property", true);
    expect_error("snapshot", "{\"max_depth\":51}", "out of range", "max_depth", true);
    expect_error("wait", "{\"ms\":-1}", "out of range", "ms", true);
    char big[10100 + 64];
    memset(big, 'a', sizeof(big));
    memcpy(big, "{\"ref_id\":\"@s1:e1\",\"text\":\"", 27);
    memcpy(big + sizeof(big) - 3, "\"}", 3);
    expect_error("type", big, "more than the 10000 allowed", "text", false);
}

/* 4. Subcommand-only flags, and front-end flags without their text. */
static void test_subcommand_and_front_end_flags(void **state)
{
    (void)state;
    expect_error("skills", "{\"action\":\"list\",\"full\":true}", "skills list does not take "
                                                                  "--full", "full", true);
    expect_error("trace", "{\"action\":\"show\",\"out\":\"/tmp/x.html\"}",
                 "trace show does not take --out", "out", true);
    expect_error("type", "{\"ref_id\":\"@s1:e1\",\"stdin\":true}",
                 "--stdin is read by the command line only", "stdin", true);
    /* With its text (what the CLI passes after reading the pipe) it only marks it piped. */
    outcome o = validate_json("type", "{\"ref_id\":\"@s1:e1\",\"stdin\":true,\"text\":\"hi\"}");
    assert_int_equal(o.rc, 0);
    assert_true(json_is_true(json_object_get(o.args, "stdin")));
    outcome_clear(&o);
}

/* 5. Required arguments. */
static void test_required_arguments(void **state)
{
    (void)state;
    expect_error("click", "{}", "Missing required argument ref_id", "ref_id", true);
    expect_error("session", "{}", "Missing required argument action", "action", true);
}

/* 6. Rules over what was given: a default never counts as given. */
static void test_rules_see_what_was_given(void **state)
{
    (void)state;
    expect_error("find", "{\"first\":true,\"limit\":3}", "mutually exclusive", "first", false);
    outcome o = validate_json("find", "{\"first\":true}"); /* --limit's default 50 */
    assert_int_equal(o.rc, 0);
    assert_int_equal(tu_int(o.args, "limit"), 50);
    outcome_clear(&o);
    expect_error("snapshot", "{\"root\":\"@s1:e1\",\"surface\":\"menu\"}",
                 "--root cannot be combined with --surface", "root", false);
    o = validate_json("snapshot", "{\"root\":\"@s1:e1\",\"surface\":\"window\"}");
    assert_int_equal(o.rc, 0);
    outcome_clear(&o);
    expect_error("hover", "{}", "hover needs a ref or --xy X,Y", NULL, false);
    expect_error("skills", "{\"action\":\"get\"}", "skills get needs a skill name", "action",
                 false);
    expect_error("type", "{\"ref_id\":\"@s1:e1\"}", "Provide either --stdin or a text argument",
                 NULL, false);
    /* wait's check function: one mode, and the flags of each mode. */
    expect_error("wait", "{}", "wait needs a mode", NULL, false);
    expect_error("wait", "{\"ms\":5,\"menu\":true}", "wait takes one mode, got 2", NULL, false);
    expect_error("wait", "{\"text\":\"a\",\"predicate\":\"visible\"}",
                 "--predicate needs --element", NULL, false);
    o = validate_json("wait", "{\"text\":\"a\"}"); /* --predicate's default is not "given" */
    assert_int_equal(o.rc, 0);
    outcome_clear(&o);
    expect_error("drag", "{\"from_xy\":\"1,1\",\"to_xy\":\"5,5\",\"duration\":5000}",
                 "--duration plus --drop-delay must be below --timeout-ms", NULL, false);
}

/* Defaults: typed, per subcommand, switches absent; null counts as omitted. */
static void test_defaults_and_null(void **state)
{
    (void)state;
    outcome o = validate_json("snapshot", "{\"app\":null,\"compact\":null}");
    assert_int_equal(o.rc, 0);
    assert_null(json_object_get(o.args, "app"));
    assert_null(json_object_get(o.args, "compact"));
    assert_int_equal(tu_int(o.args, "max_depth"), 10);
    assert_string_equal(tu_str(o.args, "surface"), "window");
    outcome_clear(&o);
    o = validate_json("trace", "{\"action\":\"show\"}");
    assert_int_equal(tu_int(o.args, "limit"), 500);
    outcome_clear(&o);
    o = validate_json("trace", "{\"action\":\"export\"}");
    assert_int_equal(tu_int(o.args, "limit"), 5000);
    outcome_clear(&o);
    o = validate_json("skills", "{}");
    assert_string_equal(tu_str(o.args, "action"), "list");
    outcome_clear(&o);
}

/* Same input, same error, same exit code, whichever door: argv through the CLI parser and
 * the same arguments as JSON. */
static void test_cli_and_json_give_the_same_error(void **state)
{
    (void)state;
    static const struct {
        const char *argv[6];
        const char *json;
    } cases[] = {
        {{"snapshot", "--max-depth", "deep"}, "{\"max_depth\":\"deep\"}"},
        {{"snapshot", "--max-depth", "99"}, "{\"max_depth\":99}"},
        {{"get", "@s1:e1", "--property", "colour"}, "{\"ref_id\":\"@s1:e1\",\"property\":\"colour\"}"},
        {{"find", "--first", "--nth", "2"}, "{\"first\":true,\"nth\":2}"},
        {{"wait", "--text", "a", "--count", "x"}, "{\"text\":\"a\",\"count\":\"x\"}"},
        {{"skills", "get"}, "{\"action\":\"get\"}"},
        {{"click"}, "{}"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *argv[8] = {"agent-desktop"};
        int argc = 1;
        for (; cases[i].argv[argc - 1]; argc++)
            argv[argc] = (char *)cases[i].argv[argc - 1];
        ad_cli_parsed p;
        ad_error cli_err = AD_ERROR_INIT;
        assert_int_equal(ad_cli_parse(argc, argv, &p, &cli_err), -1);
        outcome o = validate_json(cases[i].argv[0], cases[i].json);
        assert_int_equal(o.rc, -1);
        assert_string_equal(cli_err.message, o.err.message);
        assert_int_equal(cli_err.parse_error, o.err.parse_error);
        outcome_clear(&o);
        ad_error_clear(&cli_err);
        ad_cli_parsed_clear(&p);
    }
}

/* The globals: types and ranges; an unknown global is named. */
static void test_globals(void **state)
{
    (void)state;
    ad_error err = AD_ERROR_INIT;
    json_t *out = NULL, *given = json_pack("{s:i}", "wait_timeout", -5);
    assert_int_equal(ad_globals_validate(given, &out, &err), -1);
    assert_true(err.parse_error);
    ad_error_clear(&err);
    json_decref(given);
    given = json_pack("{s:b}", "sudo", 1);
    assert_int_equal(ad_globals_validate(given, &out, &err), -1);
    assert_non_null(strstr(err.message, "no global flag 'sudo'"));
    ad_error_clear(&err);
    json_decref(given);
    given = json_pack("{s:b, s:s}", "headed", 0, "session", "s1");
    assert_int_equal(ad_globals_validate(given, &out, &err), 0);
    assert_null(json_object_get(out, "headed")); /* false is not given */
    assert_string_equal(tu_str(out, "session"), "s1");
    json_decref(out);
    json_decref(given);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unknown_keys_name_the_accepted_ones),
        cmocka_unit_test(test_wrong_types_name_the_argument),
        cmocka_unit_test(test_enums_ranges_and_lengths),
        cmocka_unit_test(test_subcommand_and_front_end_flags),
        cmocka_unit_test(test_required_arguments),
        cmocka_unit_test(test_rules_see_what_was_given),
        cmocka_unit_test(test_defaults_and_null),
        cmocka_unit_test(test_cli_and_json_give_the_same_error),
        cmocka_unit_test(test_globals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
