/* x11_keynames.c: key names without Xlib for x11_input.h: the built-in table of key and
 * modifier names, their keysyms, ad_x11_modifier_mask, ad_x11_codepoint_keysym, UTF-8
 * decoding and the nearest-name suggestion for an unknown key. Pure: no connection. */
#include "linux/x11_private.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct { const char *name; uint32_t keysym; } key_names[] = {
    {"return", KS_RETURN}, {"enter", KS_RETURN}, {"escape", 0xff1b}, {"esc", 0xff1b},
    {"tab", KS_TAB}, {"space", ' '}, {"backspace", 0xff08}, {"delete", 0xffff},
    {"del", 0xffff}, {"insert", 0xff63}, {"home", 0xff50}, {"end", 0xff57},
    {"page_up", 0xff55}, {"pageup", 0xff55}, {"prior", 0xff55}, {"page_down", 0xff56},
    {"pagedown", 0xff56}, {"next", 0xff56}, {"up", 0xff52}, {"down", 0xff54},
    {"left", 0xff51}, {"right", 0xff53}, {"menu", 0xff67}, {"print", 0xff61},
    {"pause", 0xff13}, {"scroll_lock", 0xff14}, {"num_lock", 0xff7f}, {"caps_lock", KS_CAPS},
    {"iso_left_tab", 0xfe20}, {"kp_enter", 0xff8d}, {"kp_add", 0xffab},
    {"kp_subtract", 0xffad}, {"kp_multiply", 0xffaa}, {"kp_divide", 0xffaf},
    {"kp_decimal", 0xffae}, {"shift_l", KS_SHIFT_L}, {"shift_r", KS_SHIFT_R},
    {"control_l", KS_CONTROL_L}, {"control_r", KS_CONTROL_R}, {"alt_l", KS_ALT_L},
    {"alt_r", KS_ALT_R}, {"meta_l", KS_META_L}, {"meta_r", KS_META_R},
    {"super_l", KS_SUPER_L}, {"super_r", KS_SUPER_R}, {"exclam", '!'}, {"quotedbl", '"'},
    {"numbersign", '#'}, {"dollar", '$'}, {"percent", '%'}, {"ampersand", '&'},
    {"apostrophe", '\''}, {"parenleft", '('}, {"parenright", ')'}, {"asterisk", '*'},
    {"plus", '+'}, {"comma", ','}, {"minus", '-'}, {"period", '.'}, {"slash", '/'},
    {"colon", ':'}, {"semicolon", ';'}, {"less", '<'}, {"equal", '='}, {"greater", '>'},
    {"question", '?'}, {"at", '@'}, {"bracketleft", '['}, {"backslash", '\\'},
    {"bracketright", ']'}, {"asciicircum", '^'}, {"underscore", '_'}, {"grave", '`'},
    {"braceleft", '{'}, {"bar", '|'}, {"braceright", '}'}, {"asciitilde", '~'},
    {"xf86audiomute", 0x1008ff12}, {"xf86audiolowervolume", 0x1008ff11},
    {"xf86audioraisevolume", 0x1008ff13}, {"xf86audioplay", 0x1008ff14},
    {"xf86audiostop", 0x1008ff15}, {"xf86audioprev", 0x1008ff16},
    {"xf86audionext", 0x1008ff17},
};
#define N_KEY_NAMES (sizeof(key_names) / sizeof(key_names[0]))

/* Modifier names; the keysym pressed for each mask bit is the first alternative below. */
static const struct { const char *name; unsigned mask; } mod_names[] = {
    {"ctrl", AD_X11_MOD_CTRL}, {"control", AD_X11_MOD_CTRL}, {"shift", AD_X11_MOD_SHIFT},
    {"alt", AD_X11_MOD_ALT}, {"option", AD_X11_MOD_ALT}, {"super", AD_X11_MOD_SUPER},
    {"meta", AD_X11_MOD_SUPER}, {"cmd", AD_X11_MOD_SUPER}, {"command", AD_X11_MOD_SUPER},
    {"win", AD_X11_MOD_SUPER},
};
#define N_MOD_NAMES (sizeof(mod_names) / sizeof(mod_names[0]))

const struct ad_x11_mod_key ad_x11_mod_keys[4] = {
    {AD_X11_MOD_CTRL, {KS_CONTROL_L, KS_CONTROL_R, 0}},
    {AD_X11_MOD_SHIFT, {KS_SHIFT_L, KS_SHIFT_R, 0}},
    {AD_X11_MOD_ALT, {KS_ALT_L, KS_ALT_R, KS_META_L}},
    {AD_X11_MOD_SUPER, {KS_SUPER_L, KS_SUPER_R, 0}},
};

/* The keysym sent for one modifier bit, 0 for anything else. */
uint32_t ad_x11_mod_keysym(unsigned mask)
{
    for (size_t i = 0; i < 4; i++)
        if (ad_x11_mod_keys[i].mask == mask)
            return ad_x11_mod_keys[i].alt[0];
    return 0;
}

/* The modifier bit a keysym stands for, 0 when it is not a modifier. */
unsigned ad_x11_keysym_mod(uint32_t ks)
{
    for (size_t i = 0; i < 4; i++)
        for (size_t j = 0; j < 3 && ad_x11_mod_keys[i].alt[j]; j++)
            if (ad_x11_mod_keys[i].alt[j] == ks)
                return ad_x11_mod_keys[i].mask;
    return 0;
}

static unsigned mod_lookup(const char *name)
{
    for (size_t i = 0; name && i < N_MOD_NAMES; i++)
        if (strcasecmp(name, mod_names[i].name) == 0)
            return mod_names[i].mask;
    return 0;
}

int ad_x11_modifier_mask(const char *name, unsigned *ret_mask, ad_error *err)
{
    unsigned m = mod_lookup(name);
    if (m && ret_mask) {
        *ret_mask = m;
        return 0;
    }
    ad_error_set(err, AD_INVALID_ARGS, "Unknown modifier '%s'", name ? name : "");
    ad_error_suggest(err, "Modifiers are ctrl, shift, alt and super (also meta or cmd)");
    return -1;
}

uint32_t ad_x11_codepoint_keysym(uint32_t cp)
{
    if ((cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff))
        return cp;
    return 0x1000000u + cp;
}

/* Decodes one UTF-8 code point at s; returns its length, 0 when invalid. */
int ad_x11_utf8_decode(const unsigned char *s, uint32_t *cp)
{
    static const uint32_t min[] = {0, 0, 0x80, 0x800, 0x10000};
    int len = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : (s[0] & 0xf0) == 0xe0 ? 3
            : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
    if (len == 0)
        return 0;
    uint32_t v = len == 1 ? s[0] : s[0] & (0x7f >> len);
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        v = v << 6 | (s[i] & 0x3f);
    }
    if (v < min[len] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
        return 0;
    *cp = v;
    return len;
}

/* Parses "0x<hex>" or "u<hex>" (the keysym or code point written out), 0 otherwise. */
static uint32_t hex_keysym(const char *s)
{
    bool unicode = (s[0] == 'u' || s[0] == 'U') && s[1];
    const char *h = unicode ? s + 1 : (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? s + 2 : 0;
    if (!h || !*h || strlen(h) > 8 || h[strspn(h, "0123456789abcdefABCDEF")])
        return 0;
    uint32_t v = (uint32_t)strtoul(h, NULL, 16);
    if (unicode)
        return v >= 0x20 && v <= 0x10ffff ? ad_x11_codepoint_keysym(v) : 0;
    return v;
}

/* The keysym of one key part (already known not to be empty), or 0. */
uint32_t ad_x11_key_keysym(const char *k)
{
    uint32_t cp;
    int len = ad_x11_utf8_decode((const unsigned char *)k, &cp);
    if (len > 0 && k[len] == '\0')
        return cp >= 0x20 && cp != 0x7f && (cp < 0x80 || cp >= 0xa0)
                   ? ad_x11_codepoint_keysym(cp) : 0;
    for (size_t i = 0; i < N_KEY_NAMES; i++)
        if (strcasecmp(k, key_names[i].name) == 0)
            return key_names[i].keysym;
    if (mod_lookup(k))
        return ad_x11_mod_keysym(mod_lookup(k));
    char *end;
    if ((k[0] == 'f' || k[0] == 'F') && k[1] >= '1' && k[1] <= '9') {
        long n = strtol(k + 1, &end, 10);
        return *end == '\0' && n >= 1 && n <= 24 ? KS_F1 + (uint32_t)n - 1 : 0;
    }
    if (strncasecmp(k, "kp_", 3) == 0 && k[3] >= '0' && k[3] <= '9' && k[4] == '\0')
        return KS_KP_0 + (uint32_t)(k[3] - '0');
    return hex_keysym(k);
}

static int edit_distance(const char *a, const char *b)
{
    int prev[24], cur[24], lb = (int)strlen(b), la = (int)strlen(a);
    if (la > 22 || lb > 22)
        return 99;
    for (int j = 0; j <= lb; j++)
        prev[j] = j;
    for (int i = 1; i <= la; i++) {
        cur[0] = i;
        for (int j = 1; j <= lb; j++) {
            int sub = prev[j - 1] + ((a[i - 1] | 32) != (b[j - 1] | 32));
            int del = prev[j] + 1 < cur[j - 1] + 1 ? prev[j] + 1 : cur[j - 1] + 1;
            cur[j] = sub < del ? sub : del;
        }
        memcpy(prev, cur, sizeof(int) * (size_t)(lb + 1));
    }
    return prev[lb];
}

/* INVALID_ARGS for an unknown key name, suggesting the nearest known name within edit
 * distance 2. */
int ad_x11_unknown_key(ad_error *err, const char *k)
{
    const char *best = NULL;
    int best_d = 3;
    for (size_t i = 0; i < N_KEY_NAMES; i++) {
        int d = edit_distance(k, key_names[i].name);
        if (d < best_d) {
            best_d = d;
            best = key_names[i].name;
        }
    }
    ad_error_set(err, AD_INVALID_ARGS, "Unknown key name '%s'", k);
    if (best)
        ad_error_suggest(err, "Did you mean '%s'? Keys are names such as return, escape, tab, "
                              "space, up or f5, or a single character", best);
    else
        ad_error_suggest(err, "Use a key name such as return, escape, tab, space, backspace, "
                              "delete, up, down, left, right, home, end, page_up, page_down "
                              "or f1 to f24, or a single character");
    ad_error_detail_text(err, "key", k);
    return -1;
}
