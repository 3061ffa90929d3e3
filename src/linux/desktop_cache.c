/* desktop_cache.c: the desktop entry records in one private file, keyed by what stat says. */
#include "linux/desktop_cache.h"

#include "core/error.h"
#include "core/private_file.h"
#include "core/text_buf.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CACHE_MAGIC "agent-desktop desktop-entries 1\n"
#define MAX_CACHE_BYTES (8u << 20)
#define MAX_LIST_WORDS 4096

/* A token: "-\n" for NULL, else "<len>:<bytes>\n" (bytes may hold any byte but NUL). */
static void put_token(ad_buf *b, const char *s, size_t n)
{
    char head[32];
    int h = s ? snprintf(head, sizeof(head), "%zu:", n) : snprintf(head, sizeof(head), "-");
    ad_buf_put_n(b, head, (size_t)h);
    if (s)
        ad_buf_put_n(b, s, n);
    ad_buf_put_n(b, "\n", 1);
}

static void put_string(ad_buf *b, const char *s)
{
    put_token(b, s, s ? strlen(s) : 0);
}

static void put_count(ad_buf *b, size_t n)
{
    char num[32];
    put_string(b, (snprintf(num, sizeof(num), "%zu", n), num));
}

static void put_list(ad_buf *b, char **list)
{
    size_t n = 0;
    while (list && list[n])
        n++;
    put_count(b, list ? n : (size_t)-1);
    for (size_t i = 0; i < n; i++)
        put_string(b, list[i]);
}

int ad_desktop_cache_key(char *const *dirs, size_t n_dirs, char **ret_key, size_t *ret_len)
{
    ad_buf b = {0};
    ad_buf_put_n(&b, "", 0);
    for (size_t i = 0; i < n_dirs; i++) {
        struct stat st;
        char line[96];
        put_string(&b, dirs[i]);
        if (stat(dirs[i], &st) != 0) {
            put_string(&b, "absent");
            continue;
        }
        snprintf(line, sizeof(line), "%lld.%09ld", (long long)st.st_mtim.tv_sec,
                 st.st_mtim.tv_nsec);
        put_string(&b, line);
        int dfd = open(dirs[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        DIR *dir = dfd >= 0 ? fdopendir(dfd) : NULL;
        if (!dir) {
            if (dfd >= 0)
                close(dfd);
            put_string(&b, "unreadable");
            continue;
        }
        struct dirent *e;
        while ((e = readdir(dir))) {
            size_t len = strlen(e->d_name);
            if (len < 9 || strcmp(e->d_name + len - 8, ".desktop") != 0)
                continue;
            put_string(&b, e->d_name);
            if (fstatat(dfd, e->d_name, &st, 0) != 0)
                snprintf(line, sizeof(line), "gone");
            else
                snprintf(line, sizeof(line), "%lld.%09ld %lld %llu", (long long)st.st_mtim.tv_sec,
                         st.st_mtim.tv_nsec, (long long)st.st_size,
                         (unsigned long long)st.st_ino);
            put_string(&b, line);
        }
        closedir(dir);
        put_string(&b, NULL);
    }
    if (b.failed || !b.buf) {
        free(b.buf);
        return -1;
    }
    *ret_key = b.buf;
    *ret_len = b.len;
    return 0;
}

int ad_desktop_cache_save(const char *path, const char *key, size_t key_len,
                          const ad_desktop_record *records, size_t n)
{
    ad_buf b = {0};
    ad_buf_put(&b, CACHE_MAGIC);
    put_token(&b, key, key_len);
    put_count(&b, n);
    for (size_t i = 0; i < n; i++) {
        const ad_desktop_record *r = &records[i];
        put_string(&b, r->id);
        put_string(&b, r->name);
        put_string(&b, r->exec);
        put_string(&b, r->run.program);
        put_list(&b, r->run.env);
        put_list(&b, r->run.args);
    }
    int rc = -1;
    if (!b.failed && b.buf) {
        ad_error err = {0};
        rc = ad_private_file_write_hint(path, b.buf, b.len, "desktop cache", &err) < 0
                 ? -1
                 : 0;
        ad_error_clear(&err);
    }
    free(b.buf);
    return rc;
}

/* A reader over the file's bytes; ok turns false on the first malformed token. */
typedef struct {
    const char *p, *end;
    bool ok;
} in_buf;

/* The next token: *s points into the buffer (not NUL-terminated), NULL for "-". */
static void take_token(in_buf *in, const char **s, size_t *n)
{
    *s = NULL;
    *n = 0;
    if (!in->ok || in->p >= in->end) {
        in->ok = false;
        return;
    }
    if (*in->p == '-') {
        in->p++;
    } else {
        size_t len = 0;
        const char *q = in->p;
        while (q < in->end && *q >= '0' && *q <= '9' && q - in->p < 12)
            len = len * 10 + (size_t)(*q++ - '0');
        if (q == in->p || q >= in->end || *q != ':' || (size_t)(in->end - q - 1) < len) {
            in->ok = false;
            return;
        }
        *s = q + 1;
        *n = len;
        if (memchr(*s, '\0', len))
            in->ok = false;
        in->p = q + 1 + len;
    }
    if (in->p >= in->end || *in->p != '\n')
        in->ok = false;
    else
        in->p++;
}

static char *take_string(in_buf *in)
{
    const char *s;
    size_t n;
    take_token(in, &s, &n);
    if (!in->ok || !s)
        return NULL;
    char *copy = strndup(s, n);
    if (!copy)
        in->ok = false;
    return copy;
}

static size_t take_count(in_buf *in, size_t most)
{
    const char *s;
    size_t n, v = 0;
    take_token(in, &s, &n);
    if (!in->ok || !s || n == 0 || n > 12) {
        in->ok = false;
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') {
            in->ok = false;
            return 0;
        }
        v = v * 10 + (size_t)(s[i] - '0');
    }
    if (v > most)
        in->ok = false;
    return in->ok ? v : 0;
}

/* A list written by put_list: NULL for its "absent" count, else NULL-terminated. */
static char **take_list(in_buf *in)
{
    const char *s;
    size_t n;
    const char *save = in->p;
    take_token(in, &s, &n);
    char absent[32];
    int a = snprintf(absent, sizeof(absent), "%zu", (size_t)-1);
    if (in->ok && s && n == (size_t)a && memcmp(s, absent, n) == 0)
        return NULL;
    in->p = save;
    size_t count = take_count(in, MAX_LIST_WORDS);
    char **list = in->ok ? calloc(count + 1, sizeof(char *)) : NULL;
    if (!list) {
        in->ok = false;
        return NULL;
    }
    for (size_t i = 0; i < count && in->ok; i++)
        if (!(list[i] = take_string(in)))
            in->ok = false;
    return list;
}

static void free_list(char **list)
{
    for (size_t i = 0; list && list[i]; i++)
        free(list[i]);
    free(list);
}

/* The whole file at path when it is a regular file of ours, private, of a sane size. */
static char *read_cache_file(const char *path, size_t *ret_len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return NULL;
    struct stat st;
    char *data = NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
        (st.st_mode & 077) == 0 && st.st_size > 0 && (size_t)st.st_size <= MAX_CACHE_BYTES &&
        (data = malloc((size_t)st.st_size + 1))) {
        size_t got = 0;
        while (got < (size_t)st.st_size) {
            ssize_t r = read(fd, data + got, (size_t)st.st_size - got);
            if (r <= 0)
                break;
            got += (size_t)r;
        }
        if (got != (size_t)st.st_size) {
            free(data);
            data = NULL;
        } else {
            data[got] = '\0';
            *ret_len = got;
        }
    }
    close(fd);
    return data;
}

int ad_desktop_cache_load(const char *path, const char *key, size_t key_len,
                          ad_desktop_record **ret, size_t *ret_n)
{
    size_t len = 0;
    char *data = read_cache_file(path, &len);
    if (!data)
        return -1;
    size_t magic = strlen(CACHE_MAGIC);
    in_buf in = {data + magic, data + len, len >= magic && memcmp(data, CACHE_MAGIC, magic) == 0};
    const char *stored_key;
    size_t stored_len;
    take_token(&in, &stored_key, &stored_len);
    if (!in.ok || !stored_key || stored_len != key_len || memcmp(stored_key, key, key_len) != 0)
        in.ok = false;
    size_t n = take_count(&in, 1u << 16);
    ad_desktop_record *records = in.ok ? calloc(n ? n : 1, sizeof(*records)) : NULL;
    size_t filled = 0;
    for (; records && in.ok && filled < n; filled++) {
        ad_desktop_record *r = &records[filled];
        r->id = take_string(&in);
        r->name = take_string(&in);
        r->exec = take_string(&in);
        r->run.program = take_string(&in);
        r->run.env = take_list(&in);
        r->run.args = take_list(&in);
        if (!r->id || !r->exec || !r->run.program)
            in.ok = false;
    }
    if (in.p != in.end)
        in.ok = false;
    free(data);
    if (!records || !in.ok) {
        ad_desktop_records_free(records, filled);
        return -1;
    }
    *ret = records;
    *ret_n = n;
    return 0;
}

void ad_desktop_records_free(ad_desktop_record *records, size_t n)
{
    if (!records)
        return;
    for (size_t i = 0; i < n; i++) {
        free(records[i].id);
        free(records[i].name);
        free(records[i].exec);
        free(records[i].run.program);
        free_list(records[i].run.env);
        free_list(records[i].run.args);
    }
    free(records);
}
