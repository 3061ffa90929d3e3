"""ad-qt-fixture: a small Qt 5 window for the end-to-end tests (tests/e2e/test_qt.py).

A plain top-level QWidget (Qt exposes it as a `filler`), a QComboBox whose choice is mirrored
in a label ("fruit: Apple"), and a button that counts its clicks in another label
("clicks: 0"). A QLabel's accessible name is its text, which is how the tests read them. Run with
QT_ACCESSIBILITY=1 so Qt registers on the AT-SPI bus."""
import sys

from PyQt5.QtWidgets import QApplication, QComboBox, QLabel, QPushButton, QVBoxLayout, QWidget


def main():
    app = QApplication(sys.argv)
    app.setApplicationName("ad-qt-fixture")
    window = QWidget()
    window.setWindowTitle("AD Qt Fixture")
    layout = QVBoxLayout(window)
    combo = QComboBox()
    combo.setAccessibleName("Fruit")
    combo.addItems(["Apple", "Banana", "Cherry"])
    fruit = QLabel("fruit: Apple")
    combo.currentTextChanged.connect(lambda text: fruit.setText("fruit: " + text))
    clicks = QLabel("clicks: 0")
    button = QPushButton("Press me")
    count = [0]

    def pressed():
        count[0] += 1
        clicks.setText("clicks: %d" % count[0])

    button.clicked.connect(pressed)
    for w in (combo, fruit, button, clicks):
        layout.addWidget(w)
    window.resize(240, 160)
    window.show()
    sys.exit(app.exec_())


if __name__ == "__main__":
    main()
