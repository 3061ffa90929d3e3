#!/usr/bin/python3
"""A window of known pixels for the GNOME capture tests (test_gnome_capture.py).

An undecorated GTK3 window of CARD_W x CARD_H pixels painted MAGENTA, with a MARKER x MARKER
CYAN square in its top-left corner (so a picture of it shows orientation and scale, not only
a colour). Its AT-SPI application name and title are "ad-colour-card". It runs until
killed (SIGTERM)."""
import signal

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

NAME = "ad-colour-card"
CARD_W, CARD_H = 320, 200
MARKER = 40
MAGENTA = (255, 0, 255)
CYAN = (0, 255, 255)


CSS = b"""
#card { background-color: rgb(255, 0, 255); }
#marker { background-color: rgb(0, 255, 255); }
"""


def _block(name, w, h):
    box = Gtk.EventBox()
    box.set_name(name)
    box.set_size_request(w, h)
    return box


def main():
    GLib.set_prgname(NAME)
    GLib.set_application_name(NAME)
    win = Gtk.Window(title=NAME)
    win.set_decorated(False)
    win.set_resizable(False)
    css = Gtk.CssProvider()
    css.load_from_data(CSS)
    Gtk.StyleContext.add_provider_for_screen(win.get_screen(), css,
                                             Gtk.STYLE_PROVIDER_PRIORITY_APPLICATION + 1)
    # painted by CSS (no cairo from Python needed): the card, and the marker over its corner
    fixed = Gtk.Fixed()
    fixed.put(_block("card", CARD_W, CARD_H), 0, 0)
    fixed.put(_block("marker", MARKER, MARKER), 0, 0)
    win.add(fixed)
    win.connect("destroy", Gtk.main_quit)
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, Gtk.main_quit)
    win.show_all()
    Gtk.main()


if __name__ == "__main__":
    main()
