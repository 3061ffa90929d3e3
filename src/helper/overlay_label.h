/* overlay_label.h: the text of a cursor's --label pill (commands/system.md "cursor-overlay").
 *
 * The pill is drawn with the X core font "fixed", which has glyphs for ASCII only here (the
 * server's built-in font; no ISO 10646 font is installed), and ImageText8 draws bytes as
 * Latin-1 glyphs, so UTF-8 text would show as mojibake. Every non-ASCII character (one UTF-8
 * sequence, or a stray byte of malformed text) and every control character becomes one '?':
 * the label stays visible, one cell per character, and never cuts a sequence in half.
 */
#ifndef AD_OVERLAY_LABEL_H
#define AD_OVERLAY_LABEL_H

#include <stddef.h>

/* The first max_words words of label (NULL: none), single-spaced, as printable ASCII into
 * buf (always terminated; cut at size - 1 bytes). */
void ad_overlay_label_text(const char *label, int max_words, char *buf, size_t size);

#endif
