/* test_mcp_protocol.c: the MCP server's framing (mcp/framing.c: newline-delimited messages,
 * the 4 MiB limit) and its choice of era per request (mcp/protocol.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>

#include "mcp/framing.h"
#include "mcp/protocol.h"
#include "mcp/result.h"
#include "dispatch/command_table.h"

static char *next_line(ad_line_reader *r, ad_line_kind want)
{
    char *line = NULL;
    size_t len = 0;
    assert_int_equal(ad_line_reader_next(r, &line, &len), want);
    if (line)
        assert_int_equal(strlen(line), len);
    return line;
}

static void test_lines_split_and_join(void **state)
{
    (void)state;
    ad_line_reader r;
    ad_line_reader_init(&r);
    assert_int_equal(ad_line_reader_feed(&r, "{\"a\":1}\n{\"b\"", 12), 0);
    char *l = next_line(&r, AD_LINE_OK);
    assert_string_equal(l, "{\"a\":1}");
    free(l);
    assert_null(next_line(&r, AD_LINE_NONE));
    assert_int_equal(ad_line_reader_feed(&r, ":2}\r\n", 5), 0);
    l = next_line(&r, AD_LINE_OK);
    assert_string_equal(l, "{\"b\":2}"); /* \r\n ends a line too */
    free(l);
    /* A last line without its newline counts at end of stream. */
    assert_int_equal(ad_line_reader_feed(&r, "{}", 2), 0);
    assert_null(next_line(&r, AD_LINE_NONE));
    r.eof = true;
    l = next_line(&r, AD_LINE_OK);
    assert_string_equal(l, "{}");
    free(l);
    assert_null(next_line(&r, AD_LINE_NONE));
    ad_line_reader_clear(&r);
}

/* A line over the limit is refused at its end, without holding it; the next line is read. */
static void test_a_line_over_4_mib_is_refused(void **state)
{
    (void)state;
    ad_line_reader r;
    ad_line_reader_init(&r);
    size_t chunk = 65536;
    char *x = malloc(chunk);
    memset(x, 'x', chunk);
    size_t fed = 0;
    while (fed <= AD_MCP_MESSAGE_MAX + chunk) {
        assert_int_equal(ad_line_reader_feed(&r, x, chunk), 0);
        fed += chunk;
        assert_null(next_line(&r, AD_LINE_NONE));
        /* Never more than the limit plus one chunk is held. */
        assert_true(r.len <= AD_MCP_MESSAGE_MAX + chunk);
    }
    assert_int_equal(ad_line_reader_feed(&r, "xx\n{\"ok\":1}\n", 12), 0);
    assert_null(next_line(&r, AD_LINE_TOO_LONG));
    char *l = next_line(&r, AD_LINE_OK);
    assert_string_equal(l, "{\"ok\":1}");
    free(l);
    /* A line of exactly the limit is still a message. */
    char *max = malloc(AD_MCP_MESSAGE_MAX + 1);
    memset(max, 'y', AD_MCP_MESSAGE_MAX);
    max[AD_MCP_MESSAGE_MAX] = '\n';
    assert_int_equal(ad_line_reader_feed(&r, max, AD_MCP_MESSAGE_MAX + 1), 0);
    l = next_line(&r, AD_LINE_OK);
    assert_int_equal(strlen(l), AD_MCP_MESSAGE_MAX);
    free(l);
    /* One byte more, fed at once, is refused. */
    char *over = malloc(AD_MCP_MESSAGE_MAX + 2);
    memset(over, 'z', AD_MCP_MESSAGE_MAX + 1);
    over[AD_MCP_MESSAGE_MAX + 1] = '\n';
    assert_int_equal(ad_line_reader_feed(&r, over, AD_MCP_MESSAGE_MAX + 2), 0);
    assert_null(next_line(&r, AD_LINE_TOO_LONG));
    assert_null(next_line(&r, AD_LINE_NONE));
    free(over);
    free(max);
    free(x);
    ad_line_reader_clear(&r);
}

/* A written message is one line: a newline inside a string is escaped. */
static void test_write_is_one_line(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    json_t *m = json_pack("{s:s}", "text", "a\nb");
    assert_int_equal(ad_mcp_write_message(fds[1], m), 0);
    json_decref(m);
    close(fds[1]);
    char buf[64] = {0};
    ssize_t n = read(fds[0], buf, sizeof(buf) - 1);
    close(fds[0]);
    assert_string_equal(buf, "{\"text\":\"a\\nb\"}\n");
    assert_int_equal(n, (ssize_t)strlen(buf));
}

static int era_of(const char *method, const char *params_text, bool initialized,
                  ad_mcp_era *era, int *code)
{
    json_t *params = params_text ? json_loads(params_text, 0, NULL) : NULL;
    json_t *error = NULL;
    int rc = ad_mcp_request_era(method, params, initialized, era, &error);
    *code = error ? (int)json_integer_value(json_object_get(error, "code")) : 0;
    json_decref(error);
    json_decref(params);
    return rc;
}

#define MODERN "{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"," \
               "\"io.modelcontextprotocol/clientCapabilities\":{}}}"

static void test_era_per_request(void **state)
{
    (void)state;
    ad_mcp_era era;
    int code;
    assert_int_equal(era_of("tools/list", MODERN, false, &era, &code), 0);
    assert_int_equal(era, AD_MCP_MODERN);
    assert_int_equal(era_of("initialize", "{\"protocolVersion\":\"2025-06-18\"}", false, &era,
                            &code), 0);
    assert_int_equal(era, AD_MCP_LEGACY);
    assert_int_equal(era_of("tools/list", NULL, true, &era, &code), 0);
    assert_int_equal(era, AD_MCP_LEGACY);
    assert_int_equal(era_of("ping", NULL, false, &era, &code), 0);
    /* Missing _meta before initialize, or on server/discover: -32602. */
    assert_int_equal(era_of("tools/list", "{}", false, &era, &code), -1);
    assert_int_equal(code, AD_RPC_INVALID_PARAMS);
    assert_int_equal(era_of("server/discover", NULL, true, &era, &code), -1);
    assert_int_equal(code, AD_RPC_INVALID_PARAMS);
    /* Modern without clientCapabilities: -32602; an unknown version: -32022. */
    assert_int_equal(era_of("tools/list", "{\"_meta\":{\"io.modelcontextprotocol/"
                            "protocolVersion\":\"2026-07-28\"}}", false, &era, &code), -1);
    assert_int_equal(code, AD_RPC_INVALID_PARAMS);
    assert_int_equal(era_of("tools/list", "{\"_meta\":{\"io.modelcontextprotocol/"
                            "protocolVersion\":\"1900-01-01\"}}", false, &era, &code), -1);
    assert_int_equal(code, AD_RPC_UNSUPPORTED_VERSION);
}

static void test_initialize_answers_a_supported_version(void **state)
{
    (void)state;
    json_t *p = json_pack("{s:s}", "protocolVersion", "2025-03-26");
    json_t *r = ad_mcp_initialize_result(p);
    assert_string_equal(json_string_value(json_object_get(r, "protocolVersion")), "2025-03-26");
    json_decref(r);
    json_object_set_new(p, "protocolVersion", json_string("2099-01-01"));
    r = ad_mcp_initialize_result(p);
    assert_string_equal(json_string_value(json_object_get(r, "protocolVersion")),
                        AD_MCP_LEGACY_LATEST);
    assert_non_null(strstr(json_string_value(json_object_get(r, "instructions")),
                           "desktop_skills_get"));
    json_decref(r);
    json_decref(p);
}

/* Paging covers every tool once, in order; a foreign cursor is -32602. */
static void test_tools_list_pages(void **state)
{
    (void)state;
    json_t *params = json_object();
    json_t *err = NULL;
    size_t total = 0, pages = 0;
    for (;;) {
        json_t *r = ad_mcp_tools_list_result(params, AD_MCP_MODERN, &err);
        assert_non_null(r);
        assert_string_equal(json_string_value(json_object_get(r, "cacheScope")), "public");
        total += json_array_size(json_object_get(r, "tools"));
        pages++;
        json_t *next = json_object_get(r, "nextCursor");
        if (!next) {
            json_decref(r);
            break;
        }
        json_object_set(params, "cursor", next);
        json_decref(r);
    }
    assert_true(pages >= 2);
    assert_true(total > 60);
    json_object_set_new(params, "cursor", json_string("abc"));
    assert_null(ad_mcp_tools_list_result(params, AD_MCP_LEGACY, &err));
    assert_int_equal(json_integer_value(json_object_get(err, "code")), AD_RPC_INVALID_PARAMS);
    json_decref(err);
    json_decref(params);
}

/* A child's output (text) and wait status as the server holds them when it exited. */
static json_t *result_of(const char *cmd_name, const char *text, int status)
{
    ad_mcp_child c;
    memset(&c, 0, sizeof(c));
    c.out_fd = -1;
    c.out = strdup(text);
    c.out_len = strlen(text);
    c.exited = true;
    c.status = status;
    json_t *r = ad_mcp_child_result(ad_command_find(cmd_name), &c);
    free(c.out);
    return r;
}

static void test_tool_results(void **state)
{
    (void)state;
    const char *ok = "{\"version\":\"2.6\",\"ok\":true,\"command\":\"version\",\"data\":{}}\n";
    json_t *r = result_of("version", ok, 0);
    assert_false(json_is_true(json_object_get(r, "isError")));
    json_t *text = json_array_get(json_object_get(r, "content"), 0);
    assert_string_equal(json_string_value(json_object_get(text, "type")), "text");
    json_t *parsed = json_loads(json_string_value(json_object_get(text, "text")), 0, NULL);
    assert_true(json_equal(parsed, json_object_get(r, "structuredContent")));
    json_decref(parsed);
    json_decref(r);
    /* A screenshot without a path: the PNG as an image block, not base64 text. */
    r = result_of("screenshot", "{\"version\":\"2.6\",\"ok\":true,\"command\":\"screenshot\","
                  "\"data\":{\"format\":\"png\",\"data\":\"iVBORw0K\",\"width\":1}}\n", 0);
    json_t *image = json_array_get(json_object_get(r, "content"), 0);
    assert_string_equal(json_string_value(json_object_get(image, "type")), "image");
    assert_string_equal(json_string_value(json_object_get(image, "data")), "iVBORw0K");
    assert_string_equal(json_string_value(json_object_get(image, "mimeType")), "image/png");
    assert_null(json_object_get(json_object_get(json_object_get(r, "structuredContent"), "data"),
                                "data"));
    json_decref(r);
    /* Killed before its envelope (Linux wait status of a signal: the signal number). */
    r = result_of("snapshot", "{\"vers", SIGSEGV);
    assert_true(json_is_true(json_object_get(r, "isError")));
    json_t *err = json_object_get(json_object_get(r, "structuredContent"), "error");
    assert_string_equal(json_string_value(json_object_get(err, "code")), "INTERNAL");
    assert_non_null(strstr(json_string_value(json_object_get(err, "message")), "signal 11"));
    json_decref(r);
    /* More output than a message may hold: refused, whatever it was. */
    ad_mcp_child big;
    memset(&big, 0, sizeof(big));
    big.out_fd = -1;
    big.exited = true;
    big.overflow = true;
    r = ad_mcp_child_result(ad_command_find("snapshot"), &big);
    assert_true(json_is_true(json_object_get(r, "isError")));
    err = json_object_get(json_object_get(r, "structuredContent"), "error");
    assert_non_null(strstr(json_string_value(json_object_get(err, "message")), "printed more"));
    json_decref(r);
    /* Exited without printing an envelope. */
    r = result_of("snapshot", "", 3 << 8);
    err = json_object_get(json_object_get(r, "structuredContent"), "error");
    assert_non_null(strstr(json_string_value(json_object_get(err, "message")), "status 3"));
    json_decref(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines_split_and_join),
        cmocka_unit_test(test_a_line_over_4_mib_is_refused),
        cmocka_unit_test(test_write_is_one_line),
        cmocka_unit_test(test_era_per_request),
        cmocka_unit_test(test_initialize_answers_a_supported_version),
        cmocka_unit_test(test_tools_list_pages),
        cmocka_unit_test(test_tool_results),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
