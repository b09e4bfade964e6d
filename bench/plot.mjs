// Plots in-process latency (p50) against dataset size, one panel per operation and one line
// per storage, from a results file of run.mjs; writes an SVG and rasterises it to PNG (resvg).
//   node bench/plot.mjs [bench/results/full.json] [docs/performance.png]
import { Resvg } from '@resvg/resvg-js';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const input = process.argv[2] ?? join(HERE, 'results', 'full.json');
const output = process.argv[3] ?? join(HERE, '..', 'docs', 'performance.png');
const results = JSON.parse(readFileSync(input, 'utf8'));

const OPS = [
  ['list-default', 'GET /events (default window)'], ['list-week', 'one-week window'], ['list-category', 'category filter'],
  ['list-week-category', 'week + category'], ['list-search', 'search'], ['read', 'single read'], ['create', 'create'], ['update', 'update'],
];
const STORAGES = [['memory', '#1b9e77'], ['file-json', '#d95f02'], ['sqlite', '#7570b3'], ['postgres', '#e7298a']];
const COLS = 4;
const PW = 300;
const PH = 230;
const M = { l: 58, r: 14, t: 34, b: 42 };
const W = COLS * PW;
const H = Math.ceil(OPS.length / COLS) * PH + 70;

const sizes = [...new Set(results.inprocess.map((r) => r.n))].sort((a, b) => a - b);
const xMin = Math.log10(sizes[0] ?? 1e4) - 0.15;
const xMax = Math.log10(sizes.at(-1) ?? 1e6) + 0.15;
const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;');
const fmt = (ms) => (ms >= 1000 ? `${ms / 1000} s` : ms >= 1 ? `${ms} ms` : `${ms * 1000} µs`);
const label = (n) => (n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n));

let svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="DejaVu Sans, sans-serif">`;
svg += `<rect width="100%" height="100%" fill="white"/>`;
svg += `<text x="${W / 2}" y="22" text-anchor="middle" font-size="16" font-weight="bold">evcal in-process latency (p50) against dataset size</text>`;
OPS.forEach(([op, title], k) => {
  const ox = (k % COLS) * PW;
  const oy = 30 + Math.floor(k / COLS) * PH;
  const pts = results.inprocess.filter((r) => r.results[op]).map((r) => ({ storage: r.storage, n: r.n, v: r.results[op].p50 }));
  const values = pts.map((p) => p.v).filter((v) => v > 0);
  const yMin = Math.floor(Math.log10(Math.min(...values, 0.1)));
  const yMax = Math.ceil(Math.log10(Math.max(...values, 1)));
  const x = (n) => ox + M.l + ((Math.log10(n) - xMin) / (xMax - xMin)) * (PW - M.l - M.r);
  const y = (v) => oy + PH - M.b - ((Math.log10(v) - yMin) / (yMax - yMin || 1)) * (PH - M.t - M.b);
  svg += `<text x="${ox + M.l + (PW - M.l - M.r) / 2}" y="${oy + M.t - 12}" text-anchor="middle" font-size="13" font-weight="bold">${esc(title)}</text>`;
  svg += `<rect x="${ox + M.l}" y="${oy + M.t}" width="${PW - M.l - M.r}" height="${PH - M.t - M.b}" fill="none" stroke="#999"/>`;
  for (let e = yMin; e <= yMax; e++) {
    const v = 10 ** e;
    svg += `<line x1="${ox + M.l}" x2="${ox + PW - M.r}" y1="${y(v)}" y2="${y(v)}" stroke="#e5e5e5"/>`;
    svg += `<text x="${ox + M.l - 4}" y="${y(v) + 4}" text-anchor="end" font-size="10">${esc(fmt(Number(v.toPrecision(1))))}</text>`;
  }
  for (const n of sizes) {
    svg += `<line x1="${x(n)}" x2="${x(n)}" y1="${oy + M.t}" y2="${oy + PH - M.b}" stroke="#eee"/>`;
    svg += `<text x="${x(n)}" y="${oy + PH - M.b + 14}" text-anchor="middle" font-size="10">${label(n)}</text>`;
  }
  svg += `<text x="${ox + M.l + (PW - M.l - M.r) / 2}" y="${oy + PH - M.b + 30}" text-anchor="middle" font-size="10" fill="#555">events</text>`;
  for (const [storage, color] of STORAGES) {
    const line = pts.filter((p) => p.storage === storage).sort((a, b) => a.n - b.n);
    if (!line.length) continue;
    svg += `<polyline fill="none" stroke="${color}" stroke-width="2" points="${line.map((p) => `${x(p.n).toFixed(1)},${y(p.v).toFixed(1)}`).join(' ')}"/>`;
    for (const p of line) svg += `<circle cx="${x(p.n).toFixed(1)}" cy="${y(p.v).toFixed(1)}" r="3" fill="${color}"/>`;
  }
});
const ly = H - 22;
STORAGES.forEach(([storage, color], i) => {
  const lx = W / 2 - 260 + i * 140;
  svg += `<line x1="${lx}" x2="${lx + 24}" y1="${ly}" y2="${ly}" stroke="${color}" stroke-width="3"/>`;
  svg += `<text x="${lx + 30}" y="${ly + 4}" font-size="12">${storage}</text>`;
});
svg += `<text x="${W - 8}" y="${H - 6}" text-anchor="end" font-size="9" fill="#777">${esc(`${results.machine.cpu} × ${results.machine.cores}, node ${results.machine.node}, ${results.startedAt.slice(0, 10)}`)}</text>`;
svg += '</svg>';

writeFileSync(output.replace(/\.png$/, '.svg'), svg);
const png = new Resvg(svg, { font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' }, fitTo: { mode: 'width', value: W } }).render().asPng();
writeFileSync(output, png);
process.stdout.write(`wrote ${output}\n`);
