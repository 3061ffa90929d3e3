/* x11_keys.c: the keyboard for x11_input.h: combo parsing, the core keyboard mapping and
 * the spare keycodes remapped for keysyms it lacks, key combos and typing text. */
#include "linux/x11_private.h"

#include <stdlib.h>
#include <string.h>

/* How long a remapped spare keycode keeps its keysym before it is reused or restored. An app
 * translates a key with the keymap it holds when it processes the event, so a restore that
 * lands first drops the character; 100 ms lost characters under load (two test runs at
 * once), 250 ms gives a busy GTK main loop time. A heuristic, not a guarantee: the readback
 * of `type` catches what is still lost. */
#define REMAP_SETTLE_MS 250
#define SYNC_EVERY 64      /* keystrokes between round trips while typing */
/* How long newly mapped keycodes settle before their first key event. GTK handles the
 * MappingNotify in event order, but Chromium (156) refreshes its layout on its own time: the
 * first é of "été" typed right after the remap was seen lost under load (CI, ASan run),
 * the second one, on the same keycode, arrived. */
#define PREMAP_SETTLE_MS 100

/* ---- combos ------------------------------------------------------------------------------ */

static int combo_error(ad_error *err, const char *combo, const char *msg, const char *hint)
{
    ad_error_set(err, AD_INVALID_ARGS, "%s in key combo '%s'", msg, combo);
    ad_error_suggest(err, "%s", hint);
    return -1;
}

#define TOO_MANY "A combo is at most 8 keys: each modifier once, then the key"

int ad_x11_parse_combo(const char *combo, uint32_t *ret_keysyms, int *ret_n, ad_error *err)
{
    if (!combo || !ret_keysyms || !ret_n)
        return ad_x11_bad_arg(err, "ad_x11_parse_combo needs a combo and outputs");
    char buf[257];
    size_t len = 0;
    for (const char *p = combo; *p; p++) {
        if (*p == ' ' || *p == '\t')
            continue;
        if (len == sizeof(buf) - 1)
            return combo_error(err, combo, "Too long", "A combo is at most 256 bytes");
        buf[len++] = *p;
    }
    buf[len] = '\0';
    if (len == 0)
        return combo_error(err, combo, "No key", "Name a key, for example return or ctrl+s");
    char *parts[AD_X11_COMBO_MAX + 2];
    int np = 0;
    for (char *s = buf, *plus; s; s = plus ? plus + 1 : NULL) {
        if (np == AD_X11_COMBO_MAX + 2)
            return combo_error(err, combo, "Too many parts", TOO_MANY);
        plus = strchr(s, '+');
        if (plus)
            *plus = '\0';
        parts[np++] = s;
    }
    const char *key = parts[np - 1];
    int nmods = np - 1;
    if (np >= 2 && !*parts[np - 1] && !*parts[np - 2]) { /* "ctrl++" or "+": the plus key */
        key = "+";
        nmods = np - 2;
    }
    if (nmods + 1 > AD_X11_COMBO_MAX)
        return combo_error(err, combo, "Too many parts", TOO_MANY);
    uint32_t out[AD_X11_COMBO_MAX];
    unsigned seen = 0;
    int n = 0;
    for (int i = 0; i < nmods; i++) {
        unsigned m;
        if (!*parts[i])
            return combo_error(err, combo, "An empty part",
                               "Join keys with a single '+', as in ctrl+s");
        if (ad_x11_modifier_mask(parts[i], &m, err) < 0)
            return -1;
        if (seen & m)
            return combo_error(err, combo, "A modifier given twice", "Name each modifier once");
        seen |= m;
        out[n++] = ad_x11_mod_keysym(m);
    }
    if (!*key)
        return combo_error(err, combo, "No key after the last '+'",
                           "Name the key after the last '+', as in ctrl+s; the plus key is "
                           "'plus'");
    char lower[2] = {key[0], '\0'};
    if (key[0] >= 'A' && key[0] <= 'Z' && key[1] == '\0') {
        lower[0] = (char)(key[0] + 32);
        if (nmods == 0)
            out[n++] = KS_SHIFT_L, seen |= AD_X11_MOD_SHIFT;
        key = lower;
    }
    uint32_t ks = ad_x11_key_keysym(key);
    if (ks == 0)
        return ad_x11_unknown_key(err, key);
    if (seen & ad_x11_keysym_mod(ks))
        return combo_error(err, combo, "A modifier given twice", "Name each modifier once");
    out[n++] = ks;
    memcpy(ret_keysyms, out, sizeof(uint32_t) * (size_t)n);
    *ret_n = n;
    return 0;
}

/* ---- keymap ------------------------------------------------------------------------------ */

static int keymap_load(ad_x11 *x, ad_error *err)
{
    int count = x->max_kc - x->min_kc + 1;
    xcb_get_keyboard_mapping_reply_t *r = xcb_get_keyboard_mapping_reply(
        x->c, xcb_get_keyboard_mapping(x->c, x->min_kc, (uint8_t)count), NULL);
    if (!r)
        return ad_error_set(err, AD_ACTION_FAILED, "Cannot read the keyboard mapping");
    int len = xcb_get_keyboard_mapping_keysyms_length(r);
    xcb_keysym_t *ks = malloc(sizeof(xcb_keysym_t) * (size_t)(len ? len : 1));
    if (!ks || r->keysyms_per_keycode == 0) {
        free(ks);
        free(r);
        return ad_error_set(err, AD_ACTION_FAILED, "The keyboard mapping is empty");
    }
    memcpy(ks, xcb_get_keyboard_mapping_keysyms(r), sizeof(xcb_keysym_t) * (size_t)len);
    free(x->keysyms);
    x->keysyms = ks;
    x->kpk = r->keysyms_per_keycode;
    x->n_kc = len / x->kpk;
    free(r);
    if (!x->dirty) { /* empty keycodes, highest first; ours are put back, so still empty */
        x->n_spare = x->n_used = x->n_touched = 0;
        for (int k = x->n_kc - 1; k >= 0 && x->n_spare < MAX_SPARES; k--) {
            bool empty = true;
            for (int j = 0; j < x->kpk; j++)
                empty = empty && ks[k * x->kpk + j] == 0;
            if (empty)
                x->spare[x->n_spare++] = (xcb_keycode_t)(x->min_kc + k);
        }
    }
    return 0;
}

/* Finds keysym ks on the plain (level 0) or shifted (level 1) column of some keycode. */
static bool keymap_find(ad_x11 *x, uint32_t ks, xcb_keycode_t *kc, int *level)
{
    for (int lv = 0; lv < 2; lv++) {
        for (int k = 0; k < x->n_kc; k++) {
            uint32_t c0 = x->keysyms[k * x->kpk];
            uint32_t c1 = x->kpk > 1 ? x->keysyms[k * x->kpk + 1] : 0;
            bool hit = lv == 0 ? c0 == ks
                               : c1 == ks || (c1 == 0 && c0 >= 'a' && c0 <= 'z' && ks == c0 - 32);
            if (hit) {
                *kc = (xcb_keycode_t)(x->min_kc + k);
                *level = lv;
                return true;
            }
        }
    }
    return false;
}

static void set_mapping(ad_x11 *x, xcb_keycode_t kc, uint32_t ks)
{
    xcb_keysym_t row[2] = {ks, ks};
    xcb_change_keyboard_mapping(x->c, 1, kc, 2, row);
    for (int j = 0; j < x->kpk; j++)
        x->keysyms[(kc - x->min_kc) * x->kpk + j] = j < 2 ? ks : 0;
}

/* The keycode and level that type ks, remapping a spare keycode when the keymap lacks it. */
static int resolve(ad_x11 *x, uint32_t ks, xcb_keycode_t *kc, int *level, ad_error *err)
{
    if (keymap_find(x, ks, kc, level))
        return 0;
    if (x->n_spare == 0) {
        ad_error_set(err, AD_ACTION_FAILED, "Keysym 0x%x is not in the keymap and no keycode "
                                            "is free to map it", ks);
        if (x->sent > 0)
            err->delivery = AD_DELIVERY_UNCERTAIN;
        return -1;
    }
    if (x->n_used == x->n_spare) { /* all spares hold keysyms whose events may be pending */
        xcb_flush(x->c);
        ad_x11_pause_ms(REMAP_SETTLE_MS);
        x->n_used = 0;
    }
    *kc = x->spare[x->n_used++];
    if (x->n_used > x->n_touched)
        x->n_touched = x->n_used;
    *level = 0;
    set_mapping(x, *kc, ks);
    x->dirty = true;
    return 0;
}

void ad_x11_hold_spares(ad_x11 *x, bool hold)
{
    if (x)
        x->hold = hold;
}

bool ad_x11_spares_held(const ad_x11 *x)
{
    return x && x->dirty;
}

/* Puts every spare back to NoSymbol. Without `seen`, after the settle delay. Best effort:
 * errors surface in the caller's next sync. */
void ad_x11_release_spares(ad_x11 *x, bool seen)
{
    if (!x || !x->dirty)
        return;
    xcb_flush(x->c);
    if (!seen)
        ad_x11_pause_ms(REMAP_SETTLE_MS);
    for (int i = 0; i < x->n_touched; i++) {
        xcb_keysym_t none[1] = {0};
        xcb_change_keyboard_mapping(x->c, 1, x->spare[i], 1, none);
        for (int j = 0; x->keysyms && j < x->kpk; j++)
            x->keysyms[(x->spare[i] - x->min_kc) * x->kpk + j] = 0;
    }
    x->dirty = false;
    x->n_used = x->n_touched = 0;
    /* A round trip, not just a flush: the handle is often closed right after this, and a
     * restore flushed just before the disconnect was seen to be lost (the keycode kept its
     * keysym on the server). */
    ad_x11_sync_quiet(x);
}

void ad_x11_restore_spares(ad_x11 *x)
{
    ad_x11_release_spares(x, false);
}

static int finish_keys(ad_x11 *x, ad_error *err)
{
    int rc = ad_x11_sync(x, err);
    if (!x->hold || rc < 0)
        ad_x11_restore_spares(x);
    if (rc < 0) {
        ad_x11_sync_quiet(x);
        return -1;
    }
    return ad_x11_sync(x, err);
}

/* Keycodes for the modifier bits in `mods` (keymap loaded), in ctrl, shift, alt, super
 * order; the first alternative keysym the keymap holds wins. */
static int mod_codes(ad_x11 *x, unsigned mods, xcb_keycode_t *kcs, int *n, ad_error *err)
{
    static const char *const names[] = {"Control", "Shift", "Alt", "Super"};
    *n = 0;
    for (size_t i = 0; i < 4; i++) {
        if (!(mods & ad_x11_mod_keys[i].mask))
            continue;
        int level;
        bool found = false;
        for (size_t j = 0; j < 3 && ad_x11_mod_keys[i].alt[j] && !found; j++)
            found = keymap_find(x, ad_x11_mod_keys[i].alt[j], &kcs[*n], &level);
        if (!found) {
            ad_error_set(err, AD_ACTION_FAILED, "The keymap has no %s key", names[i]);
            ad_error_suggest(err, "Load a keymap with a %s key (setxkbmap us)", names[i]);
            return -1;
        }
        (*n)++;
    }
    return 0;
}

/* Pointer gestures: validates the mask and finds its keycodes (none for 0). */
int ad_x11_mod_keycodes(ad_x11 *x, unsigned mods, xcb_keycode_t *kcs, int *n, ad_error *err)
{
    *n = 0;
    if (mods & ~0xfu)
        return ad_x11_bad_arg(err, "Unknown modifier bits");
    if (mods == 0)
        return 0;
    return keymap_load(x, err) < 0 ? -1 : mod_codes(x, mods, kcs, n, err);
}

int ad_x11_key_combo(ad_x11 *x, const char *combo, ad_error *err)
{
    uint32_t ks[AD_X11_COMBO_MAX];
    int n, level = 0, nm = 0;
    if (ad_x11_start(x, err, "ad_x11_key_combo") < 0 ||
        ad_x11_parse_combo(combo, ks, &n, err) < 0 || keymap_load(x, err) < 0)
        return -1;
    unsigned mods = 0, key_mod = ad_x11_keysym_mod(ks[n - 1]);
    for (int i = 0; i < n - 1; i++)
        mods |= ad_x11_keysym_mod(ks[i]);
    xcb_keycode_t kc, mk[4];
    int rc = key_mod ? mod_codes(x, key_mod, &kc, &nm, err) : resolve(x, ks[n - 1], &kc,
                                                                        &level, err);
    if (rc == 0 && level == 1)
        mods |= AD_X11_MOD_SHIFT; /* the key's keysym is on the shifted level */
    if (rc == 0)
        rc = mod_codes(x, mods, mk, &nm, err);
    if (rc < 0) {
        ad_x11_restore_spares(x);
        return -1;
    }
    ad_x11_fake_keys(x, mk, nm, true);
    ad_x11_fake(x, XCB_KEY_PRESS, kc, 0, 0);
    ad_x11_fake(x, XCB_KEY_RELEASE, kc, 0, 0);
    ad_x11_fake_keys(x, mk, nm, false);
    return finish_keys(x, err);
}

int ad_x11_text_keysyms(const char *s, uint32_t **ret, int *ret_n, ad_error *err)
{
    size_t len = strlen(s);
    if (len > AD_X11_TYPE_MAX_BYTES)
        return ad_error_set(err, AD_INVALID_ARGS, "Text is %zu bytes; the limit is %d", len,
                            AD_X11_TYPE_MAX_BYTES);
    uint32_t *ks = malloc(sizeof(uint32_t) * (len + 1));
    if (!ks)
        return ad_error_set(err, AD_INTERNAL, "Out of memory");
    int n = 0;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        int l = ad_x11_utf8_decode((const unsigned char *)s + i, &cp);
        if (l == 0 || ((cp < 0x20 && cp != '\n' && cp != '\r' && cp != '\t') ||
                       (cp >= 0x7f && cp < 0xa0))) {
            free(ks);
            if (l == 0)
                return ad_error_set(err, AD_INVALID_ARGS, "Text is not valid UTF-8 at byte %zu",
                                    i);
            return ad_error_set(err, AD_INVALID_ARGS, "Text holds control character U+%04X at "
                                "byte %zu", cp, i);
        }
        i += (size_t)l;
        if (cp == '\r' && s[i] == '\n')
            i++;
        ks[n++] = cp == '\r' || cp == '\n' ? KS_RETURN : cp == '\t' ? KS_TAB
                                                             : ad_x11_codepoint_keysym(cp);
    }
    *ret = ks;
    *ret_n = n;
    return 0;
}

/* Letters whose level Caps Lock flips: ASCII and Latin-1 letters. */
static bool cased(uint32_t ks)
{
    return (ks >= 'a' && ks <= 'z') || (ks >= 'A' && ks <= 'Z') ||
           (ks >= 0xc0 && ks <= 0xfe && ks != 0xd7 && ks != 0xf7 && ks != 0xdf);
}

static bool caps_locked(ad_x11 *x)
{
    xcb_query_pointer_reply_t *p = xcb_query_pointer_reply(x->c, xcb_query_pointer(x->c,
                                                            x->root), NULL);
    bool lock = p && (p->mask & XCB_MOD_MASK_LOCK);
    free(p);
    return lock;
}

static void tap(ad_x11 *x, xcb_keycode_t kc)
{
    ad_x11_fake(x, XCB_KEY_PRESS, kc, 0, 0);
    ad_x11_fake(x, XCB_KEY_RELEASE, kc, 0, 0);
}

/* Maps every character of ks[0..n) that the keymap lacks onto spare keycodes before the
 * first key event, as far as the spares go (the rest are mapped while typing), then lets
 * the clients catch up once. */
static int premap(ad_x11 *x, const uint32_t *ks, int n, ad_error *err)
{
    bool mapped = false;
    for (int i = 0; i < n && x->n_used < x->n_spare; i++) {
        xcb_keycode_t kc;
        int level;
        if (keymap_find(x, ks[i], &kc, &level))
            continue;
        if (resolve(x, ks[i], &kc, &level, err) < 0)
            return -1;
        mapped = true;
    }
    if (mapped) {
        xcb_flush(x->c);
        ad_x11_pause_ms(PREMAP_SETTLE_MS);
    }
    return 0;
}

/* Sends the keystrokes; *typed counts the characters sent. `flip`: Caps Lock is on and
 * could not be switched off, so ASCII and Latin-1 letters take the other level. */
static int type_keys(ad_x11 *x, const uint32_t *ks, int n, bool flip, int *typed,
                     ad_error *err)
{
    xcb_keycode_t shift;
    int nsh;
    if (mod_codes(x, AD_X11_MOD_SHIFT, &shift, &nsh, err) < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        xcb_keycode_t kc;
        int level;
        bool spare = !keymap_find(x, ks[i], &kc, &level);
        if (spare && resolve(x, ks[i], &kc, &level, err) < 0)
            return -1;
        if (flip && !spare && cased(ks[i]))
            level ^= 1;
        if (level)
            ad_x11_fake(x, XCB_KEY_PRESS, shift, 0, 0);
        tap(x, kc);
        if (level)
            ad_x11_fake(x, XCB_KEY_RELEASE, shift, 0, 0);
        *typed = i + 1;
        if ((i + 1) % SYNC_EVERY == 0 && ad_x11_sync(x, err) < 0)
            return -1;
    }
    return 0;
}

/* How many keymap changes typing ks[0..n) takes: the remaps resolve() will make, plus one
 * restore per spare keycode used. Each change makes every client, the window manager
 * included, reload the keymap (openbox also re-grabs its key bindings: ~40 ms of its time
 * each), so the count is bounded. */
static int keymap_changes(ad_x11 *x, const uint32_t *ks, int n, uint32_t *ret_unmappable)
{
    uint32_t held[MAX_SPARES];
    int used = 0, touched = 0, changes = 0, level;
    xcb_keycode_t kc;
    *ret_unmappable = 0;
    for (int i = 0; i < n; i++) {
        bool have = keymap_find(x, ks[i], &kc, &level);
        for (int j = 0; j < touched && !have; j++)
            have = held[j] == ks[i];
        if (have)
            continue;
        if (x->n_spare == 0) { /* a keymap without an empty keycode */
            *ret_unmappable = ks[i];
            return 0;
        }
        if (used == x->n_spare)
            used = 0;
        held[used++] = ks[i];
        touched = used > touched ? used : touched;
        changes++;
    }
    return changes + touched;
}

/* Caps Lock would turn every cased character, remapped ones included, into the other case
 * in the client, so it is switched off for the text and on again afterwards. */
int ad_x11_type_text(ad_x11 *x, const char *utf8, ad_error *err)
{
    uint32_t *ks = NULL;
    int n = 0, typed = 0, level;
    if (ad_x11_start(x, err, "ad_x11_type_text") < 0)
        return -1;
    if (!utf8)
        return ad_x11_bad_arg(err, "ad_x11_type_text needs text");
    if (ad_x11_text_keysyms(utf8, &ks, &n, err) < 0)
        return -1;
    if (n == 0 || keymap_load(x, err) < 0) {
        free(ks);
        return n == 0 ? 0 : -1;
    }
    uint32_t unmappable;
    int changes = keymap_changes(x, ks, n, &unmappable);
    if (unmappable) {
        free(ks);
        return ad_error_set(err, AD_ACTION_FAILED, "Keysym 0x%x is not in the keymap and no "
                            "keycode is free to map it", unmappable);
    }
    if (changes > AD_X11_TYPE_MAX_REMAPS) {
        free(ks);
        ad_error_set(err, AD_INVALID_ARGS, "The text needs %d keyboard mapping changes for "
                     "characters outside the keymap; the limit is %d", changes,
                     AD_X11_TYPE_MAX_REMAPS);
        ad_error_suggest(err, "Type it in shorter parts, or write it with set-value");
        ad_error_detail(err, "keymap_changes", json_integer(changes));
        return -1;
    }
    xcb_keycode_t caps = 0;
    bool lock = caps_locked(x), unlock = lock && keymap_find(x, KS_CAPS, &caps, &level);
    if (unlock)
        tap(x, caps);
    int rc = premap(x, ks, n, err);
    if (rc == 0)
        rc = type_keys(x, ks, n, lock && !unlock, &typed, err);
    free(ks);
    if (unlock)
        tap(x, caps);
    if (rc < 0) {
        ad_x11_restore_spares(x);
    } else if ((rc = finish_keys(x, err)) < 0) {
        typed = n;
    }
    if (rc < 0 && x->sent > 0) {
        err->delivery = AD_DELIVERY_UNCERTAIN;
        ad_error_detail(err, "keystrokes_sent", json_integer(typed));
    }
    return rc;
}
