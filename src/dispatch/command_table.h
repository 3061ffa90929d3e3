/* command_table.h: the one declaration of every command.
 *
 * Each command is declared once with its flags, positionals, types and defaults. The CLI
 * parser, --help, batch argument decoding (flag names with '_') and the MCP tool list all
 * read this table, so they cannot drift apart.
 *
 * Parsed arguments live in a JSON object keyed by the flag's long name with '-' replaced by
 * '_' ("max-depth" -> "max_depth"); positionals are keyed by their name. Defaults are filled
 * in by the parser, so a handler finds every declared key that has a default.
 */
#ifndef AD_COMMAND_TABLE_H
#define AD_COMMAND_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

typedef enum {
    AD_ARG_BOOL,        /* a switch: present means true */
    AD_ARG_STRING,      /* one value */
    AD_ARG_INT,         /* a whole number in [min, max] */
    AD_ARG_ENUM,        /* one of `choices` ("a|b|c") */
    AD_ARG_STRING_LIST, /* repeatable flag, or a variadic last positional; a JSON array */
} ad_arg_type;

/* The longest duration any flag takes, in ms: 24 hours, the maximum the spec gives for
 * wait --timeout and batch --timeout-ms. Every timeout-like flag is bounded by it, so a
 * deadline in microseconds never overflows. */
#define AD_DURATION_MAX_MS 86400000

typedef struct {
    const char *name;          /* long flag without dashes ("max-depth"), or a positional's name */
    char short_name;           /* 'i' for -i, or 0 */
    ad_arg_type type;
    bool positional;           /* taken by position, in declaration order */
    bool required;             /* a missing required argument is a parse error (exit 2) */
    const char *default_value; /* textual default, or NULL for none */
    const char *choices;       /* AD_ARG_ENUM only: "text|value|title" */
    int64_t min, max;          /* AD_ARG_INT only: [min, max]; max 0 means no upper bound */
    const char *help;          /* one line for --help */
    size_t max_bytes;          /* AD_ARG_STRING: longest value in bytes; 0 means no limit */
    /* Subcommands this argument belongs to ("start|gc"), for commands whose first
     * positional is `action`; NULL means every one. Given with another: INVALID_ARGS. */
    const char *only_for;
    /* Defaults per subcommand ("show=500|export=5000"); wins over default_value. */
    const char *action_defaults;
    /* Read by a front end, never passed to the command: the CLI turns --stdin into the
     * positional it stands for. Batch, MCP and the C library pass the value itself. */
    bool front_end;
    const char *fills;         /* front_end: the positional it supplies ("text") */
    /* AD_ARG_INT only: the CLI also takes the flag without a value, meaning this one, and
     * takes the next word as the value only when it is a whole number (launch --cdp [PORT]).
     * Batch, MCP and the C library pass the integer. NULL: a value is required. */
    const char *bare_value;
} ad_arg_spec;

/* A rule over several arguments, checked on what the caller gave (before defaults), so a
 * flag with a default still counts as "not given" when it was not. Keys are '_' names; a
 * key may be written key=value to mean "given with this value" (action=start). */
typedef enum {
    AD_RULE_END = 0,       /* terminates a rule list */
    AD_RULE_AT_MOST_ONE,   /* no two of `args` together */
    AD_RULE_EXACTLY_ONE,   /* one of `args`, and only one */
    AD_RULE_AT_LEAST_ONE,  /* one or more of `args` */
    AD_RULE_REQUIRES,      /* each of `args` that is given needs `other` */
} ad_rule_kind;

typedef struct {
    ad_rule_kind kind;
    const char *args;       /* '|'-separated keys */
    const char *other;      /* AD_RULE_REQUIRES: the key the others need */
    bool parse_error;       /* exit 2 like a malformed argv, rather than 1 */
    const char *message;    /* the error message; NULL builds one from the names */
    const char *suggestion; /* a suggestion that works when followed; NULL builds one */
} ad_arg_rule;

/* Where a command takes the interaction lease (core/lease.h), the one lock through which
 * every mutation of one OS user takes turns (ffi/ownership-and-threading.md, "Concurrent
 * calls"). Every command that mutates declares one; test_lease_scope.c checks the table. */
typedef enum {
    AD_LEASE_NONE = 0,  /* an observation: never waits for it */
    /* Dispatch holds it around the whole handler (not the post-action wait): a short write
     * with no waiting of its own (clipboard-set, clipboard-clear). */
    AD_LEASE_COMMAND,
    /* The handler's delivery path holds it only while it delivers, so the waiting before
     * and after runs without it: the ref-action pipeline (core/action.c), physical input
     * (commands/input.c), the window write (core/window_op.c), launch's spawn and focus,
     * close-app's close request and signals. */
    AD_LEASE_DELIVERY,
} ad_lease_scope;

struct ad_ctx;
struct ad_error;

/* A handler reads its arguments from `args` (borrowed) and either sets *ret_data to a new
 * reference the caller owns and returns 0, or fills `err` and returns -1. It never prints. */
typedef int (*ad_command_fn)(struct ad_ctx *ctx, const json_t *args, json_t **ret_data,
                             struct ad_error *err);

typedef struct ad_command {
    const char *name;         /* "list-apps" */
    const char *group;        /* "App and window", "Observation", ... as in commands.md */
    const char *summary;      /* one line, as in commands.md */
    bool mutates;             /* may change the desktop (MCP: not read-only) */
    ad_lease_scope lease;     /* where it takes the interaction lease; NONE unless mutates */
    bool accepts_wait_flags;  /* --wait-for / --wait-for-gone / --wait-timeout are allowed */
    bool accepts_debug;       /* --debug --screenshot PATH.html are allowed (visual debug) */
    /* --max-bytes / --max-tokens are allowed (core/budget.h); a command that accepts the
     * wait flags also takes them with --wait-for, for the fresh snapshot it returns. */
    bool accepts_budget;
    bool stateless;           /* never opens the state root or a session (version, skills) */
    bool ref_action;          /* a ref action: resolve, actionability, act, verify */
    bool desktop_action;      /* acts on an app: needs an agent id in a multi-agent session */
    bool destructive;         /* may lose data or end a process (MCP destructiveHint) */
    /* Refused inside a batch, with this message (batch itself, cursor-overlay); NULL:
     * allowed. */
    const char *not_in_batch;
    /* An entry given this argument reads an event baseline, which a batch captures before
     * the entry that precedes it (wait: "event"); NULL: none. */
    const char *baseline_with;
    /* The subcommand that still runs in an ended session ("end": ending again succeeds). */
    const char *ended_session_action;
    /* The command whose output a satisfied --wait-for returns, run over the window the
     * command observed (snapshot; exactly one entry: ad_command_fresh_observation). */
    bool fresh_observation;
    /* Never reads the accessibility bus (batch's permission check skips it); or only when
     * the named argument is absent (wait: "ms" pauses without the bus). */
    bool no_accessibility;
    const char *no_accessibility_with;
    const ad_arg_spec *args;  /* terminated by an entry whose name is NULL */
    const ad_arg_rule *rules; /* cross-argument rules, AD_RULE_END-terminated; may be NULL */
    /* The rules data cannot express (wait's modes), run by the validator after `rules` on
     * the given arguments and on the defaults-filled ones; NULL: none. 0, or -1 with an
     * INVALID_ARGS in err. It reads arguments only: nothing of the desktop. */
    int (*check)(const json_t *given, const json_t *args, struct ad_error *err);
    ad_command_fn handler;    /* NULL: not available in this build; fails closed */
    const void *data;         /* the handler's per-command data (an action spec, ...) */
} ad_command;

/* True when cmd takes a ref: it declares a ref_id positional. */
bool ad_command_takes_ref(const ad_command *cmd);

/* The global flags every command accepts, before or after the command name. */
extern const ad_arg_spec ad_global_args[];
/* The rules over the global flags (AD_RULE_END-terminated), checked by the validator. */
extern const ad_arg_rule ad_global_rules[];

/* The command table in commands.md order, and its length (60). */
extern const ad_command ad_commands[];
extern const size_t ad_commands_count;

/* Looks a command up by name; NULL when unknown. */
const ad_command *ad_command_find(const char *name);

/* The one entry marked fresh_observation (snapshot): what post_wait.c runs after a
 * satisfied --wait-for. */
const ad_command *ad_command_fresh_observation(void);

/* Looks an argument up by long name (with '-' or '_') in a NULL-terminated spec array. */
const ad_arg_spec *ad_arg_spec_find(const ad_arg_spec *specs, const char *name);

/* True when cmd (NULL: none) declares the flag `name` (not a positional of that name), so
 * a suggestion may tell the user to pass it. */
bool ad_command_takes_flag(const ad_command *cmd, const char *name);

#endif
