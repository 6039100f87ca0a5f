#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Draw bench/scale.sh's results as SVG charts (no dependencies beyond Python 3).

usage: plot.py DATA.tsv OUTDIR

DATA.tsv has one line per measured point: chart, series, size, seconds, peak RSS (KiB), load
average during the point, UTC time, and a metric name for the time axis (seconds, or
us/command...). For each chart, OUTDIR/scale-CHART.svg gets two panels side by side: the time
metric and peak memory against size, both axes logarithmic, one line per series; the caption
names the machine (cores, kernel, file system of the data) and the load range of the run.
"""
import csv
import html
import math
import os
import platform
import subprocess
import sys
from collections import defaultdict

COLOURS = ['#d62728', '#1f77b4', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf']
W, H, PAD_L, PAD_R, PAD_T, PAD_B = 470, 330, 70, 20, 30, 50


def human(v):
    for unit, f in (('G', 1e9), ('M', 1e6), ('k', 1e3)):
        if v >= f:
            x = v / f
            return ('%.0f' % x if x >= 10 or x == int(x) else '%.1f' % x) + unit
    return '%g' % v


def ticks(lo, hi):
    out, e = [], math.floor(math.log10(lo))
    while 10 ** e <= hi * 1.0001:
        for m in (1, 2, 5):
            v = m * 10 ** e
            if lo / 1.0001 <= v <= hi * 1.0001:
                out.append(v)
        e += 1
    return out or [lo, hi]


def panel(x0, title, series, ylabel, fmt):
    xs = [p[0] for pts in series.values() for p in pts]
    ys = [p[1] for pts in series.values() for p in pts if p[1] > 0]
    if not xs or not ys:
        return ''
    xlo, xhi = min(xs), max(xs)
    ylo, yhi = min(ys) / 1.3, max(ys) * 1.3
    if xlo == xhi:
        xlo, xhi = xlo / 2, xhi * 2
    lx = lambda v: x0 + PAD_L + (math.log(v) - math.log(xlo)) / (math.log(xhi) - math.log(xlo)) * (W - PAD_L - PAD_R)
    ly = lambda v: PAD_T + (1 - (math.log(v) - math.log(ylo)) / (math.log(yhi) - math.log(ylo))) * (H - PAD_T - PAD_B)
    s = ['<text x="%d" y="18" font-size="13" font-weight="bold">%s</text>' % (x0 + PAD_L, html.escape(title))]
    s.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#999"/>'
             % (x0 + PAD_L, PAD_T, W - PAD_L - PAD_R, H - PAD_T - PAD_B))
    for v in sorted(set(xs)):
        s.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#eee"/>' % (lx(v), PAD_T, lx(v), H - PAD_B))
        s.append('<text x="%.1f" y="%d" font-size="11" text-anchor="middle">%s</text>' % (lx(v), H - PAD_B + 15, human(v)))
    for v in ticks(ylo, yhi):
        s.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#eee"/>' % (x0 + PAD_L, ly(v), x0 + W - PAD_R, ly(v)))
        s.append('<text x="%d" y="%.1f" font-size="11" text-anchor="end">%s</text>' % (x0 + PAD_L - 5, ly(v) + 4, fmt(v)))
    s.append('<text x="%d" y="%d" font-size="11" text-anchor="middle">size</text>' % (x0 + (W + PAD_L) // 2, H - 12))
    s.append('<text x="%d" y="%d" font-size="11" text-anchor="middle" transform="rotate(-90 %d %d)">%s</text>'
             % (x0 + 14, H // 2, x0 + 14, H // 2, html.escape(ylabel)))
    for i, (name, pts) in enumerate(series.items()):
        c = COLOURS[i % len(COLOURS)]
        pts = sorted(p for p in pts if p[1] > 0)
        if len(pts) > 1:
            s.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>'
                     % (c, ' '.join('%.1f,%.1f' % (lx(x), ly(y)) for x, y in pts)))
        for x, y in pts:
            s.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (lx(x), ly(y), c))
    return '\n'.join(s)


def machine(data_dir):
    fs = '?'
    try:
        fs = subprocess.run(['stat', '-f', '-c', '%T', data_dir], capture_output=True, text=True).stdout.strip() or '?'
    except OSError:
        pass
    return '%d cores, Linux %s, %s' % (os.cpu_count(), platform.release(), fs)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip())
    data, outdir = sys.argv[1], sys.argv[2]
    data_dir = os.environ.get('BRISK_BENCH_DIR', '/tmp')
    charts = defaultdict(lambda: {'time': defaultdict(list), 'rss': defaultdict(list), 'loads': [], 'dates': [], 'metric': 's'})
    latest = {}  # a point measured again (FORCE=1) replaces the earlier one: the last row wins
    with open(data) as f:
        for row in csv.reader(f, delimiter='\t'):
            if not row or row[0].startswith('#') or len(row) < 8:
                continue
            latest[(row[0], row[1], float(row[2]))] = row[:8]
    for row in latest.values():
        chart, series, size, secs, rss, load, when, metric = row
        c = charts[chart]
        c['time'][series].append((float(size), float(secs)))
        if float(rss) > 0:
            c['rss'][series].append((float(size), float(rss) / 1024))
        c['loads'].append(float(load))
        c['dates'].append(when)
        c['metric'] = metric
    os.makedirs(outdir, exist_ok=True)
    host = machine(data_dir)
    for name, c in sorted(charts.items()):
        unit = c['metric']
        tfmt = (lambda v: '%gs' % float('%.2g' % v)) if unit == 's' else (lambda v: '%g' % float('%.2g' % v))
        body = [panel(0, name + ': ' + ('time' if unit == 's' else unit), c['time'], unit, tfmt),
                panel(W, name + ': peak memory', c['rss'], 'MiB', lambda v: '%g' % float('%.2g' % v))]
        names = list(c['time'].keys())
        legend = ''.join('<rect x="%d" y="%d" width="12" height="12" fill="%s"/><text x="%d" y="%d" font-size="12">%s</text>'
                         % (PAD_L + 160 * (i % 5), H + 8 + 18 * (i // 5), COLOURS[i % len(COLOURS)], PAD_L + 160 * (i % 5) + 16,
                            H + 18 + 18 * (i // 5), html.escape(n)) for i, n in enumerate(names))
        rows = (len(names) + 4) // 5
        caption = '%s; load average %.1f-%.1f during the run; %s to %s UTC' % (
            host, min(c['loads']), max(c['loads']), min(c['dates']), max(c['dates']))
        height = H + 18 * rows + 30
        svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif">\n'
               '<rect width="100%%" height="100%%" fill="white"/>\n%s\n%s\n'
               '<text x="%d" y="%d" font-size="11" fill="#555">%s</text>\n</svg>\n'
               % (2 * W, height, '\n'.join(body), legend, PAD_L, height - 8, html.escape(caption)))
        with open(os.path.join(outdir, 'scale-%s.svg' % name), 'w') as f:
            f.write(svg)
        print(os.path.join(outdir, 'scale-%s.svg' % name))


if __name__ == '__main__':
    main()
