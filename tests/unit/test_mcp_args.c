/* test_mcp_args.c: what the MCP server builds from the command table: input schemas
 * (dispatch/schema.c), the tool list (mcp/tools.c) and the child's argv
 * (dispatch/argv_build.c), which the CLI parser must read back to the same given JSON. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "cli/parse.h"
#include "dispatch/argv_build.h"
#include "dispatch/schema.h"
#include "mcp/tools.h"

/* Builds the argv of cmd for given (a JSON text), parses it back with the CLI parser and
 * returns the parsed arguments (new reference), or NULL when the build failed. */
static json_t *round_trip(const char *cmd_name, const char *given_text, ad_argv *argv)
{
    const ad_command *cmd = ad_command_find(cmd_name);
    assert_non_null(cmd);
    json_t *given = json_loads(given_text, JSON_ALLOW_NUL, NULL);
    assert_non_null(given);
    ad_error err = AD_ERROR_INIT;
    ad_argv_init(argv);
    ad_argv_push(argv, "agent-desktop");
    int rc = ad_argv_add_command(argv, cmd, given, &err);
    json_decref(given);
    ad_error_clear(&err);
    if (rc < 0)
        return NULL;
    ad_cli_parsed p;
    assert_int_equal(ad_cli_parse((int)argv->count, argv->items, &p, &err), 0);
    assert_ptr_equal(p.command, cmd);
    json_t *args = json_incref(p.args);
    ad_cli_parsed_clear(&p);
    return args;
}

static void assert_json_equal(const json_t *got, const char *want_text)
{
    json_t *want = json_loads(want_text, JSON_DECODE_ANY, NULL);
    assert_non_null(want);
    if (!json_equal((json_t *)got, want)) {
        char *g = json_dumps(got, JSON_SORT_KEYS);
        print_error("got %s, want %s\n", g, want_text);
        free(g);
        fail();
    }
    json_decref(want);
}

static void test_a_value_is_never_a_flag(void **state)
{
    (void)state;
    ad_argv argv;
    /* "--help" as the text and "-i" as a flag's value stay values. */
    json_t *args = round_trip("type", "{\"ref_id\":\"--help\",\"text\":\"--version\","
                                      "\"timeout_ms\":5}", &argv);
    assert_json_equal(args, "{\"ref_id\":\"--help\",\"text\":\"--version\",\"timeout_ms\":5}");
    /* Flags are one --name=value token each, and positionals follow "--". */
    assert_string_equal(argv.items[1], "type");
    assert_string_equal(argv.items[2], "--timeout-ms=5");
    assert_string_equal(argv.items[3], "--");
    assert_string_equal(argv.items[4], "--help");
    json_decref(args);
    ad_argv_clear(&argv);
    args = round_trip("find", "{\"name\":\"-i\",\"role\":\"--exact\",\"exact\":true}", &argv);
    assert_json_equal(args, "{\"name\":\"-i\",\"role\":\"--exact\",\"exact\":true}");
    json_decref(args);
    ad_argv_clear(&argv);
}

static void test_lists_bools_and_nulls(void **state)
{
    (void)state;
    ad_argv argv;
    json_t *args = round_trip("launch", "{\"app\":\"gedit\",\"arg\":[\"--new-window\",\"a=b\"],"
                                        "\"no_attach\":true,\"activate\":false,\"cwd\":null}",
                              &argv);
    /* false and null are not given; a repeatable flag keeps its order. */
    assert_json_equal(args, "{\"app\":\"gedit\",\"arg\":[\"--new-window\",\"a=b\"],"
                            "\"no_attach\":true}");
    json_decref(args);
    ad_argv_clear(&argv);
    /* An integer positional, and a text positional that looks like a flag, after "--". */
    args = round_trip("notification-action",
                      "{\"index\":3,\"action\":\"-v\",\"expected_title\":\"T\"}", &argv);
    assert_json_equal(args, "{\"index\":3,\"action\":\"-v\",\"expected_title\":\"T\"}");
    json_decref(args);
    ad_argv_clear(&argv);
}

static void test_argv_refuses_what_it_cannot_pass(void **state)
{
    (void)state;
    ad_argv argv;
    /* A later positional without the earlier one would shift into its place. */
    assert_null(round_trip("skills", "{\"action\":\"get\",\"reference\":\"x\"}", &argv));
    ad_argv_clear(&argv);
    /* A NUL byte cannot travel in argv. */
    assert_null(round_trip("skills", "{\"action\":\"get\",\"name\":\"a\\u0000b\"}", &argv));
    ad_argv_clear(&argv);
    assert_null(round_trip("skills", "{\"bogus\":1}", &argv));
    ad_argv_clear(&argv);
}

static void test_globals_argv(void **state)
{
    (void)state;
    ad_argv argv;
    ad_argv_init(&argv);
    ad_error err = AD_ERROR_INIT;
    json_t *g = json_pack("{s:s, s:b, s:s}", "session", "--headed", "headed", 1, "agent_id", "a");
    assert_int_equal(ad_argv_add_globals(&argv, g, &err), 0);
    assert_int_equal(argv.count, 3);
    assert_string_equal(argv.items[0], "--headed");
    assert_string_equal(argv.items[1], "--session=--headed");
    assert_string_equal(argv.items[2], "--agent-id=a");
    json_decref(g);
    ad_argv_clear(&argv);
}

static void test_schema_from_the_table(void **state)
{
    (void)state;
    json_t *s = ad_command_input_schema(ad_command_find("snapshot"), NULL);
    assert_json_equal(json_object_get(s, "additionalProperties"), "false");
    json_t *props = json_object_get(s, "properties");
    json_t *depth = json_object_get(props, "max_depth");
    assert_string_equal(json_string_value(json_object_get(depth, "type")), "integer");
    assert_int_equal(json_integer_value(json_object_get(depth, "minimum")), 0);
    assert_int_equal(json_integer_value(json_object_get(depth, "maximum")), 50);
    assert_int_equal(json_integer_value(json_object_get(depth, "default")), 10);
    assert_non_null(json_string_value(json_object_get(depth, "description")));
    assert_string_equal(json_string_value(json_object_get(json_object_get(props,
                        "interactive_only"), "type")), "boolean");
    assert_null(json_object_get(s, "required"));
    json_decref(s);
    s = ad_command_input_schema(ad_command_find("click"), NULL);
    assert_json_equal(json_object_get(s, "required"), "[\"ref_id\"]");
    json_decref(s);
    /* A subcommand's tool has no action property; a command with subcommands needs one. */
    s = ad_command_input_schema(ad_command_find("skills"), "get");
    assert_null(json_object_get(json_object_get(s, "properties"), "action"));
    assert_non_null(json_object_get(json_object_get(s, "properties"), "name"));
    json_decref(s);
    assert_null(ad_command_input_schema(ad_command_find("skills"), NULL));
    assert_null(ad_command_input_schema(ad_command_find("skills"), "nope"));
    assert_null(ad_command_input_schema(ad_command_find("snapshot"), "get"));
    /* A repeatable flag is an array of strings; an enum lists its choices. */
    s = ad_command_input_schema(ad_command_find("launch"), NULL);
    assert_json_equal(json_object_get(json_object_get(json_object_get(s, "properties"), "arg"),
                                      "items"), "{\"type\":\"string\"}");
    json_decref(s);
}

/* Every flag of the table that is only_for or front_end stays out of the schemas. */
static void test_schema_leaves_out_front_end_and_other_subcommands(void **state)
{
    (void)state;
    for (size_t i = 0; i < ad_commands_count; i++) {
        const ad_command *cmd = &ad_commands[i];
        const ad_arg_spec *action = ad_command_action_spec(cmd);
        for (const ad_arg_spec *a = cmd->args; a && a->name; a++) {
            if (a->front_end)
                assert_false(ad_schema_includes(cmd, a, NULL));
            if (a == action)
                assert_false(ad_schema_includes(cmd, a, "x"));
        }
    }
}

static void test_tool_names(void **state)
{
    (void)state;
    size_t count;
    const ad_mcp_tool *tools = ad_mcp_tools(&count);
    assert_true(count > ad_commands_count);
    assert_non_null(ad_mcp_tool_find("desktop_list_windows"));
    assert_non_null(ad_mcp_tool_find("desktop_session_start"));
    assert_non_null(ad_mcp_tool_find("desktop_skills_get"));
    assert_non_null(ad_mcp_tool_find("desktop_trace_show"));
    assert_non_null(ad_mcp_tool_find("desktop_cursor_overlay_enable"));
    assert_null(ad_mcp_tool_find("desktop_session"));
    assert_null(ad_mcp_tool_find("desktop_list-windows"));
    for (size_t i = 0; i < count; i++) {
        assert_null(strchr(tools[i].name, '-'));
        json_t *t = ad_mcp_tool_json(&tools[i]);
        assert_non_null(json_object_get(t, "inputSchema"));
        json_decref(t);
    }
}

static void test_tool_given(void **state)
{
    (void)state;
    const ad_mcp_tool *t = ad_mcp_tool_find("desktop_skills_get");
    ad_error err = AD_ERROR_INIT;
    json_t *args = json_loads("{\"name\":\"desktop\",\"full\":null}", 0, NULL);
    json_t *given = ad_mcp_tool_given(t, args, &err);
    assert_json_equal(given, "{\"name\":\"desktop\",\"action\":\"get\"}");
    json_decref(given);
    json_decref(args);
    /* The action is the tool's: giving it is an unknown argument that names the others. */
    args = json_loads("{\"action\":\"list\"}", 0, NULL);
    assert_null(ad_mcp_tool_given(t, args, &err));
    assert_int_equal(err.code, AD_INVALID_ARGS);
    assert_non_null(strstr(err.message, "accepts: name, reference, full"));
    ad_error_clear(&err);
    json_decref(args);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_value_is_never_a_flag),
        cmocka_unit_test(test_lists_bools_and_nulls),
        cmocka_unit_test(test_argv_refuses_what_it_cannot_pass),
        cmocka_unit_test(test_globals_argv),
        cmocka_unit_test(test_schema_from_the_table),
        cmocka_unit_test(test_schema_leaves_out_front_end_and_other_subcommands),
        cmocka_unit_test(test_tool_names),
        cmocka_unit_test(test_tool_given),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
