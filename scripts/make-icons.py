#!/usr/bin/env python3
"""Draws the app's icons into web/icons/: a Brandubh board at its start (the king on the throne,
his four defenders around him, eight attackers), as an SVG and as 192 and 512 pixel PNGs for the
web app manifest. Only the standard library: the PNGs are rasterised here, each pixel the colour
of the topmost shape under its centre, circle edges smoothed by their distance to the pixel.
Run by hand after changing the drawing: python3 scripts/make-icons.py"""
import pathlib
import struct
import zlib

OUT = pathlib.Path(__file__).resolve().parent.parent / "web" / "icons"
INK, BOARD, LINE, CORNER, THRONE = "#2b2118", "#e8d6b0", "#d4bc8c", "#8b5a2b", "#b98a4e"
KING, DEFENDER, ATTACKER = "#f1c232", "#fbf7ee", "#2b2118"

# In a 100 x 100 box: the board is 7 x 7 cells, from 15 to 85, inside the maskable safe zone.
N, LEFT, CELL = 7, 15.0, 10.0
ATTACKERS = [(3, 0), (3, 1), (0, 3), (1, 3), (5, 3), (6, 3), (3, 5), (3, 6)]
DEFENDERS = [(3, 2), (2, 3), (4, 3), (3, 4)]


def shapes():
    """(kind, colour, geometry) from the bottom up: rectangles (x, y, w, h), circles (cx, cy, r)."""
    yield "rect", INK, (0, 0, 100, 100)
    yield "rect", LINE, (LEFT - 1, LEFT - 1, N * CELL + 2, N * CELL + 2)
    for row in range(N):
        for col in range(N):
            corner = row in (0, N - 1) and col in (0, N - 1)
            colour = CORNER if corner else THRONE if (row, col) == (3, 3) else BOARD
            yield "rect", colour, (LEFT + col * CELL + 0.4, LEFT + row * CELL + 0.4, CELL - 0.8, CELL - 0.8)
    for colour, squares, radius in ((ATTACKER, ATTACKERS, 3.6), (DEFENDER, DEFENDERS, 3.6), (KING, [(3, 3)], 4.3)):
        for col, row in squares:
            cx, cy = LEFT + (col + 0.5) * CELL, LEFT + (row + 0.5) * CELL
            yield "circle", INK, (cx, cy, radius + 0.7)
            yield "circle", colour, (cx, cy, radius)


def rgb(colour):
    return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))


def svg():
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">']
    for kind, colour, g in shapes():
        if kind == "rect":
            parts.append(f'<rect x="{g[0]:g}" y="{g[1]:g}" width="{g[2]:g}" height="{g[3]:g}" fill="{colour}"/>')
        else:
            parts.append(f'<circle cx="{g[0]:g}" cy="{g[1]:g}" r="{g[2]:g}" fill="{colour}"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def png(size):
    scale = size / 100.0
    drawn = list(shapes())
    rows = []
    for py in range(size):
        row = bytearray([0])  # filter type: none
        y = (py + 0.5) / scale
        for px in range(size):
            x = (px + 0.5) / scale
            pixel = (0.0, 0.0, 0.0)
            for kind, colour, g in drawn:
                if kind == "rect":
                    cover = 1.0 if g[0] <= x < g[0] + g[2] and g[1] <= y < g[1] + g[3] else 0.0
                else:
                    distance = ((x - g[0]) ** 2 + (y - g[1]) ** 2) ** 0.5
                    cover = min(1.0, max(0.0, (g[2] - distance) * scale + 0.5))
                if cover:
                    c = rgb(colour)
                    pixel = tuple(p * (1 - cover) + v * cover for p, v in zip(pixel, c))
            row += bytes(round(v) for v in pixel)
        rows.append(bytes(row))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


OUT.mkdir(parents=True, exist_ok=True)
(OUT / "icon.svg").write_text(svg())
for size in (192, 512):
    (OUT / f"icon-{size}.png").write_bytes(png(size))
print("icons written to", OUT)
