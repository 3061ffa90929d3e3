/* test_cli_parse.c: the table-driven argv parser (src/cli/parse.c). A parse error sets
 * err.parse_error, which main.c turns into exit code 2. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "cli/parse.h"
#include "dispatch/validate.h"
#include "test_util.h"

typedef struct {
    ad_cli_parsed p;
    ad_error err;
    int rc;
} parsed;

/* Parses the NULL-terminated words after argv[0]. */
static parsed parse_words(const char *const *words)
{
    char *argv[32] = {"agent-desktop"};
    int argc = 1;
    for (; words[argc - 1]; argc++)
        argv[argc] = (char *)words[argc - 1];
    parsed r = {0};
    r.rc = ad_cli_parse(argc, argv, &r.p, &r.err);
    return r;
}

#define PARSE(...) parse_words((const char *const[]){__VA_ARGS__, NULL})

static void done(parsed *r)
{
    ad_cli_parsed_clear(&r->p);
    ad_error_clear(&r->err);
}

static void expect_parse_error(parsed r, const char *message_part)
{
    assert_int_equal(r.rc, -1);
    assert_true(r.err.parse_error);
    assert_int_equal(r.err.code, AD_INVALID_ARGS);
    if (message_part && !strstr(r.err.message, message_part))
        fail_msg("message '%s' lacks '%s'", r.err.message, message_part);
    done(&r);
}

static void test_global_flags_before_and_after_the_command(void **state)
{
    (void)state;
    parsed r = PARSE("--session", "run-1", "snapshot", "--app", "calc", "-v");
    assert_int_equal(r.rc, 0);
    assert_int_equal(r.p.action, AD_CLI_RUN);
    assert_string_equal(r.p.command->name, "snapshot");
    assert_string_equal(tu_str(r.p.globals, "session"), "run-1");
    assert_true(json_is_true(tu_at(r.p.globals, "verbose")));
    assert_string_equal(tu_str(r.p.args, "app"), "calc");
    assert_null(tu_at(r.p.args, "session")); /* globals never leak into args */
    done(&r);
    r = PARSE("snapshot", "--app", "calc", "--session", "run-2");
    assert_int_equal(r.rc, 0);
    assert_string_equal(tu_str(r.p.globals, "session"), "run-2");
    done(&r);
}

static void test_flag_forms(void **state)
{
    (void)state;
    parsed r = PARSE("snapshot", "--max-depth=5", "-i", "--compact", "--app=My App");
    assert_int_equal(r.rc, 0);
    assert_int_equal(tu_int(r.p.args, "max_depth"), 5);
    assert_true(json_is_true(tu_at(r.p.args, "interactive_only")));
    assert_true(json_is_true(tu_at(r.p.args, "compact")));
    assert_string_equal(tu_str(r.p.args, "app"), "My App");
    done(&r);
    /* A repeatable flag gathers an array; positionals fill in order. */
    r = PARSE("find", "--state", "checked", "--state=focused", "--nth", "0");
    assert_int_equal(r.rc, 0);
    assert_int_equal(json_array_size(tu_at(r.p.args, "state")), 2);
    assert_string_equal(tu_str(r.p.args, "state.1"), "focused");
    assert_int_equal(tu_int(r.p.args, "nth"), 0);
    done(&r);
    r = PARSE("get", "@s1abc:e4", "--property", "bounds");
    assert_int_equal(r.rc, 0);
    assert_string_equal(tu_str(r.p.args, "ref_id"), "@s1abc:e4");
    assert_string_equal(tu_str(r.p.args, "property"), "bounds");
    done(&r);
    /* After --, a dash-led word is a positional. */
    r = PARSE("get", "--", "-odd");
    assert_int_equal(r.rc, 0);
    assert_string_equal(tu_str(r.p.args, "ref_id"), "-odd");
    done(&r);
    /* A negative number needs the = form, and is accepted where the range allows it. */
    r = PARSE("move-window", "--x=-100", "--y", "20");
    assert_int_equal(r.rc, 0);
    assert_int_equal(tu_int(r.p.args, "x"), -100);
    done(&r);
}

/* What the validator every door shares makes of the parsed (given) arguments. */
static void fill(parsed *r)
{
    json_t *filled = NULL;
    assert_int_equal(ad_args_validate(r->p.command, r->p.args, &filled, &r->err), 0);
    json_decref(r->p.args);
    r->p.args = filled;
}

static void test_defaults_are_filled(void **state)
{
    (void)state;
    /* The CLI passes what was typed; the validator adds the defaults. */
    parsed r = PARSE("snapshot");
    assert_int_equal(r.rc, 0);
    assert_null(tu_at(r.p.args, "max_depth"));
    fill(&r);
    assert_int_equal(tu_int(r.p.args, "max_depth"), 10);
    assert_int_equal(tu_int(r.p.args, "timeout_ms"), 3000);
    assert_string_equal(tu_str(r.p.args, "surface"), "window");
    assert_null(tu_at(r.p.args, "skeleton")); /* switches are absent, not false */
    assert_null(tu_at(r.p.args, "app"));
    done(&r);
    r = PARSE("find");
    fill(&r);
    /* The rules see what was given, so find's --limit default (50) does not conflict with
     * --first. */
    assert_int_equal(tu_int(r.p.args, "limit"), 50);
    assert_int_equal(tu_int(r.p.args, "timeout_ms"), 5000);
    assert_null(tu_at(r.p.args, "nth"));
    done(&r);
    r = PARSE("is", "@s1:e1");
    fill(&r);
    assert_string_equal(tu_str(r.p.args, "property"), "visible");
    done(&r);
}

static void test_parse_errors(void **state)
{
    (void)state;
    expect_parse_error(PARSE("snapshot", "--bogus"), "Unknown flag '--bogus'");
    expect_parse_error(PARSE("--bogus", "snapshot"), "before the command");
    expect_parse_error(PARSE("snapshot", "-z"), "Unknown flag");
    expect_parse_error(PARSE("frobnicate"), "Unknown command 'frobnicate'");
    expect_parse_error(PARSE("get"), "Missing required argument ref_id");
    expect_parse_error(PARSE("resize-window", "--width", "10"), "--height");
    expect_parse_error(PARSE("snapshot", "--max-depth", "abc"), "whole number");
    expect_parse_error(PARSE("snapshot", "--max-depth", "5x"), "whole number");
    expect_parse_error(PARSE("snapshot", "--max-depth=-1"), "out of range");
    expect_parse_error(PARSE("snapshot", "--app"), "needs a value");
    expect_parse_error(PARSE("snapshot", "--compact=yes"), "takes no value");
    expect_parse_error(PARSE("snapshot", "--app", "a", "--app", "b"), "more than once");
    expect_parse_error(PARSE("get", "@s1:e1", "extra"), "Unexpected argument 'extra'");
    expect_parse_error(PARSE("get", "@s1:e1", "--property", "colour"), "expected one of");
}

static void test_unknown_command_keeps_its_name(void **state)
{
    (void)state;
    parsed r = PARSE("frobnicate", "--app", "x");
    assert_int_equal(r.rc, -1);
    assert_string_equal(r.p.command_name, "frobnicate");
    assert_null(r.p.command);
    assert_non_null(r.err.suggestion);
    done(&r);
}

static void test_help_and_version(void **state)
{
    (void)state;
    parsed r = PARSE("--help");
    assert_int_equal(r.rc, 0);
    assert_int_equal(r.p.action, AD_CLI_HELP);
    assert_null(r.p.command);
    done(&r);
    /* Help for one command wins over its missing required argument. */
    r = PARSE("get", "--help");
    assert_int_equal(r.rc, 0);
    assert_int_equal(r.p.action, AD_CLI_HELP);
    assert_string_equal(r.p.command->name, "get");
    done(&r);
    r = PARSE("-h", "snapshot");
    assert_int_equal(r.p.action, AD_CLI_HELP);
    assert_string_equal(r.p.command->name, "snapshot");
    done(&r);
    r = PARSE("--version");
    assert_int_equal(r.rc, 0);
    assert_int_equal(r.p.action, AD_CLI_VERSION_TEXT);
    done(&r);
    r = PARSE("-V");
    assert_int_equal(r.p.action, AD_CLI_VERSION_TEXT);
    done(&r);
    /* A bare agent-desktop prints help. */
    char *argv[] = {"agent-desktop", NULL};
    r = (parsed){0};
    assert_int_equal(ad_cli_parse(1, argv, &r.p, &r.err), 0);
    assert_int_equal(r.p.action, AD_CLI_HELP);
    done(&r);
}

/* Global flags without a command, or a lone --, are not a bare agent-desktop: json-output.md
 * lets only --help, --version and a bare call print text, so they are a parse error. */
static void test_no_command_is_a_parse_error(void **state)
{
    (void)state;
    expect_parse_error(PARSE("--headed"), "No command");
    expect_parse_error(PARSE("--"), "No command");
    expect_parse_error(PARSE("--session", "run-1", "-v"), "No command");
}

/* Runs argv words for one INT argument of `cmd` set to `value` and expects the one rule: a
 * parse error (exit 2) with INVALID_ARGS. Required positionals before it get a ref. */
static void expect_range_error(const ad_command *cmd, const ad_arg_spec *s, long long value)
{
    char text[32];
    snprintf(text, sizeof(text), "%lld", value);
    const char *words[24] = {0};
    size_t n = 0;
    if (cmd)
        words[n++] = cmd->name;
    for (const ad_arg_spec *o = cmd ? cmd->args : NULL; o && o->name && o != s; o++)
        if (o->positional)
            words[n++] = o->type == AD_ARG_ENUM ? "list" : "@s1:e1";
    char flag[80], flag_eq[120];
    snprintf(flag, sizeof(flag), "--%s", s->name);
    snprintf(flag_eq, sizeof(flag_eq), "--%s=%s", s->name, text);
    if (s->positional) {
        words[n++] = "--"; /* a negative value after -- is a positional, not a flag */
        words[n++] = text;
    } else {
        words[n++] = flag_eq;
    }
    if (!cmd)
        words[n++] = "status";
    parsed r = parse_words(words);
    if (r.rc != -1 || !r.err.parse_error || r.err.code != AD_INVALID_ARGS)
        fail_msg("%s %s=%s: rc %d parse_error %d", cmd ? cmd->name : "(global)", s->name, text,
                 r.rc, r.err.parse_error);
    done(&r);
}

/* Item 13: every whole-number argument of the table, flag or positional, global or not,
 * below its minimum and above its maximum fails the same way: INVALID_ARGS, exit 2. */
static void test_every_int_argument_range_is_a_parse_error(void **state)
{
    (void)state;
    size_t checked = 0;
    for (size_t c = 0; c <= ad_commands_count; c++) {
        const ad_command *cmd = c < ad_commands_count ? &ad_commands[c] : NULL;
        const ad_arg_spec *specs = cmd ? cmd->args : ad_global_args;
        for (const ad_arg_spec *s = specs; s->name; s++) {
            if (s->type != AD_ARG_INT)
                continue;
            int64_t min, max;
            ad_arg_int_bounds(s, &min, &max);
            if (min > INT64_MIN)
                expect_range_error(cmd, s, (long long)min - 1);
            if (max < INT64_MAX)
                expect_range_error(cmd, s, (long long)max + 1);
            checked++;
        }
    }
    assert_true(checked > 30);
    /* The spec's own limits are in the table, so they too exit 2. */
    expect_parse_error(PARSE("snapshot", "--max-depth", "51"), "--max-depth 51");
    expect_parse_error(PARSE("snapshot", "--max-depth", "-1"), "--max-depth -1");
    expect_parse_error(PARSE("wait", "86400001"), "86400001");
    expect_parse_error(PARSE("wait", "--timeout", "86400001"), "86400001");
    expect_parse_error(PARSE("scroll", "@s1:e1", "--amount", "0"), "--amount 0");
    /* A number too large for 64 bits is not a whole number the parser can read. */
    expect_parse_error(PARSE("snapshot", "--max-depth", "99999999999999999999"), "whole number");
}

/* The whole-number hint of a positional names no flag that does not exist. */
static void test_positional_number_hint_names_no_flag(void **state)
{
    (void)state;
    parsed r = PARSE("wait", "soon");
    assert_int_equal(r.rc, -1);
    assert_true(r.err.parse_error);
    assert_null(strstr(r.err.suggestion, "--ms"));
    done(&r);
}

static void test_value_conversion(void **state)
{
    (void)state;
    const ad_arg_spec *depth = ad_arg_spec_find(ad_command_find("snapshot")->args, "max_depth");
    assert_non_null(depth);
    json_t *v = NULL;
    ad_error err = AD_ERROR_INIT;
    assert_int_equal(ad_arg_value_from_text(depth, "50", &v, &err), 0);
    assert_int_equal(json_integer_value(v), 50);
    json_decref(v);
    /* Text that is not a whole number stays text: the validator reports it, the same way
     * for every door. */
    assert_int_equal(ad_arg_value_from_text(depth, "", &v, &err), 0);
    assert_true(json_is_string(v));
    json_decref(v);
    char key[32];
    ad_arg_key("wait-for-gone", key, sizeof(key));
    assert_string_equal(key, "wait_for_gone");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_global_flags_before_and_after_the_command),
        cmocka_unit_test(test_flag_forms),
        cmocka_unit_test(test_defaults_are_filled),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_unknown_command_keeps_its_name),
        cmocka_unit_test(test_help_and_version),
        cmocka_unit_test(test_value_conversion),
        cmocka_unit_test(test_no_command_is_a_parse_error),
        cmocka_unit_test(test_every_int_argument_range_is_a_parse_error),
        cmocka_unit_test(test_positional_number_hint_names_no_flag),
    };
    return cmocka_run_group_tests_name("cli_parse", tests, NULL, NULL);
}
