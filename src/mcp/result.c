/* result.c: CallToolResult from an envelope (result.h). */
#include "mcp/result.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "dispatch/dispatch.h"

/* {content: [text], structuredContent, isError} for envelope (stolen) and its text. */
static json_t *envelope_result(json_t *envelope, const char *text)
{
    bool ok = json_is_true(json_object_get(envelope, "ok"));
    char *dumped = text ? NULL : json_dumps(envelope, JSON_COMPACT);
    json_t *content = json_array();
    json_array_append_new(content, json_pack("{s:s, s:s}", "type", "text", "text",
                                             text ? text : dumped ? dumped : "{}"));
    free(dumped);
    return json_pack("{s:o, s:o, s:b}", "content", content, "structuredContent", envelope,
                     "isError", !ok);
}

json_t *ad_mcp_error_result(const ad_command *cmd, const ad_error *err)
{
    return envelope_result(ad_envelope_error(cmd ? cmd->name : NULL, err), NULL);
}

/* A screenshot's PNG as an image block ahead of the envelope, which loses data.data. */
static json_t *image_result(json_t *envelope)
{
    json_t *data = json_object_get(envelope, "data");
    json_t *png = json_incref(json_object_get(data, "data"));
    json_object_del(data, "data");
    json_t *result = envelope_result(envelope, NULL);
    json_array_insert_new(json_object_get(result, "content"), 0,
                          json_pack("{s:s, s:o, s:s}", "type", "image", "data", png,
                                    "mimeType", "image/png"));
    return result;
}

json_t *ad_mcp_child_result(const ad_command *cmd, const ad_mcp_child *c)
{
    ad_error err = AD_ERROR_INIT;
    json_t *result = NULL;
    if (c->overflow) {
        ad_error_set(&err, AD_INTERNAL, "%s printed more than %u bytes; its output was dropped",
                     cmd->name, (unsigned)AD_MCP_CHILD_OUTPUT_MAX);
        goto error;
    }
    /* The envelope is the child's one line of stdout. */
    size_t len = c->out_len;
    while (len > 0 && (c->out[len - 1] == '\n' || c->out[len - 1] == '\r'))
        len--;
    json_error_t jerr;
    json_t *envelope = len ? json_loadb(c->out, len, JSON_REJECT_DUPLICATES, &jerr) : NULL;
    if (json_is_object(envelope) && json_is_boolean(json_object_get(envelope, "ok")) &&
        !memchr(c->out, '\n', len)) {
        json_t *data = json_object_get(envelope, "data");
        if (strcmp(cmd->name, "screenshot") == 0 && json_is_true(json_object_get(envelope, "ok")) &&
            json_is_string(json_object_get(data, "data")) && !json_object_get(data, "path"))
            return image_result(envelope);
        char *text = strndup(c->out, len);
        result = envelope_result(envelope, text);
        free(text);
        return result;
    }
    json_decref(envelope);
    if (WIFSIGNALED(c->status))
        ad_error_set(&err, AD_INTERNAL, "%s was ended by signal %d (%s) before it printed its "
                     "envelope", cmd->name, WTERMSIG(c->status), strsignal(WTERMSIG(c->status)));
    else
        ad_error_set(&err, AD_INTERNAL, "%s exited with status %d without printing an envelope",
                     cmd->name, WIFEXITED(c->status) ? WEXITSTATUS(c->status) : -1);
error:
    ad_error_detail(&err, "exit_status", WIFEXITED(c->status) ? json_integer(WEXITSTATUS(c->status))
                                                              : json_null());
    if (WIFSIGNALED(c->status))
        ad_error_detail(&err, "signal", json_integer(WTERMSIG(c->status)));
    result = ad_mcp_error_result(cmd, &err);
    ad_error_clear(&err);
    return result;
}
