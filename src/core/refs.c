/* refs.c: parsing and minting ref tokens. */
#include "core/refs.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

bool ad_snapshot_id_valid(const char *id)
{
    size_t n = strlen(id);
    if (n < 2 || n > AD_SNAPSHOT_ID_MAX || id[0] != 's')
        return false;
    for (size_t i = 1; i < n; i++)
        if (!(islower((unsigned char)id[i]) || isdigit((unsigned char)id[i])))
            return false;
    return true;
}

static int invalid_ref(const char *token, ad_error *err)
{
    bool printable = strlen(token) <= 80;
    for (const char *p = token; printable && *p; p++)
        printable = isprint((unsigned char)*p);
    if (printable)
        ad_error_set(err, AD_INVALID_ARGS, "Invalid ref_id '%s': expected @<snapshot_id>:e<N>",
                     token);
    else
        ad_error_set(err, AD_INVALID_ARGS, "Invalid ref_id: expected @<snapshot_id>:e<N>");
    ad_error_suggest(err, "Use the snapshot-qualified ref that snapshot prints, for example "
                          "@s8f3k2p9:e1. A bare @eN ref is not accepted.");
    return -1;
}

int ad_ref_parse(const char *token, ad_ref *ret, ad_error *err)
{
    if (!token || token[0] != '@')
        return invalid_ref(token ? token : "", err);
    const char *colon = strchr(token, ':');
    if (!colon)
        return invalid_ref(token, err);
    size_t id_len = (size_t)(colon - token - 1);
    if (id_len == 0 || id_len > AD_SNAPSHOT_ID_MAX)
        return invalid_ref(token, err);
    char id[AD_SNAPSHOT_ID_MAX + 1];
    memcpy(id, token + 1, id_len);
    id[id_len] = '\0';
    if (!ad_snapshot_id_valid(id))
        return invalid_ref(token, err);
    const char *e = colon + 1;
    if (e[0] != 'e' || e[1] < '1' || e[1] > '9')
        return invalid_ref(token, err);
    size_t digits = strlen(e + 1);
    if (digits > 10)
        return invalid_ref(token, err);
    uint64_t n = 0;
    for (const char *p = e + 1; *p; p++) {
        if (!isdigit((unsigned char)*p))
            return invalid_ref(token, err);
        n = n * 10 + (uint64_t)(*p - '0');
    }
    memcpy(ret->snapshot_id, id, id_len + 1);
    ret->number = n;
    return 0;
}

void ad_ref_format(const ad_ref *ref, char *buf, size_t size)
{
    snprintf(buf, size, "@%s:e%llu", ref->snapshot_id, (unsigned long long)ref->number);
}

void ad_ref_key(uint64_t number, char *buf, size_t size)
{
    snprintf(buf, size, "@e%llu", (unsigned long long)number);
}

int ad_snapshot_id_new(char buf[AD_SNAPSHOT_ID_MAX + 1])
{
    static const char alphabet[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    unsigned char rnd[13];
    if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
        return -1;
    buf[0] = 's';
    for (size_t i = 0; i < sizeof(rnd); i++)
        buf[i + 1] = alphabet[rnd[i] % 36];
    buf[sizeof(rnd) + 1] = '\0';
    return 0;
}
