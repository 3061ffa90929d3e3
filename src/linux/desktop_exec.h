/* desktop_exec.h: a desktop entry's Exec= command line as the program, the environment and
 * the arguments it starts (the Desktop Entry Specification, "The Exec key"). */
#ifndef AD_DESKTOP_EXEC_H
#define AD_DESKTOP_EXEC_H

typedef struct {
    char *program; /* the executable as written: a path or a command for $PATH; owned */
    char **env;    /* the "KEY=VALUE" assignments of a leading `env`, NULL-terminated; owned */
    char **args;   /* the arguments after program, field codes removed, NULL-terminated; owned */
} ad_desktop_exec;

/* Splits the Exec= value (as read from the file, string escapes not yet undone) into words:
 * the \s \n \t \r \\ escapes of a string value, then double-quoted words with \" \` \$ \\
 * inside. A leading `env` (a program whose base name is env) and its NAME=VALUE words are
 * unwrapped: the assignments go to env and the next word is the program; several `env`s in a
 * row are unwrapped in turn. Field codes expand to nothing (launch opens no files): %f %F %u
 * %U %i %c %k and the deprecated ones; %% is a percent sign; a word left empty by a removed
 * code is dropped. 0 and *out filled (the caller clears it), or -1 with *out empty when the
 * line is malformed (an unterminated quote), names no program, or runs env with an option
 * (-i, -u, -S, ...), which is not unwrapped: such an entry names no verified executable. */
int ad_desktop_exec_parse(const char *exec, ad_desktop_exec *out);

/* A deep copy of src into *dst (the caller clears it); -1 when out of memory. */
int ad_desktop_exec_copy(ad_desktop_exec *dst, const ad_desktop_exec *src);

/* Frees what e holds and zeroes it. */
void ad_desktop_exec_clear(ad_desktop_exec *e);

#endif
