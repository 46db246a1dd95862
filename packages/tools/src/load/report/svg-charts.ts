// Inline SVG charts for the HTML report: a line chart (values over time) and a grouped bar chart. Plain
// strings, no script and no external asset, so the page opens anywhere (an archived CI artefact included).
import { xmlEscape } from "@plumbline-kit/contract/report/junit";

/** The shared XML escaper: SVG is XML, so the characters XML forbids are dropped too. */
export const esc = xmlEscape;

export const PALETTE = ["#2563eb", "#f59e0b", "#dc2626", "#059669", "#7c3aed", "#db2777", "#0891b2", "#65a30d"];

const W = 720;
const H = 280;
const M = { top: 34, right: 16, bottom: 46, left: 58 };
const PW = W - M.left - M.right;
const PH = H - M.top - M.bottom;

function niceStep(max: number, ticks = 5): number {
  const raw = max / ticks;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / mag;
  return (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * mag;
}

const fmt = (n: number) => (Math.abs(n) >= 1000 ? `${Math.round(n / 100) / 10}k` : String(Math.round(n * 100) / 100));

function frame(
  name: string,
  title: string,
  yLabel: string,
  xLabel: string,
  yMax: number,
  body: string,
  legend: string,
) {
  const step = niceStep(yMax || 1);
  const top = Math.ceil((yMax || 1) / step) * step;
  const y = (v: number) => M.top + PH - (v / top) * PH;
  let grid = "";
  for (let v = 0; v <= top + step / 2; v += step)
    grid += `<line class="grid" x1="${M.left}" x2="${M.left + PW}" y1="${y(v)}" y2="${y(v)}"/><text class="tick" x="${M.left - 6}" y="${y(v) + 4}" text-anchor="end">${fmt(v)}</text>`;
  return {
    top,
    svg: (inner: string) =>
      `<svg class="chart" data-chart="${esc(name)}" role="img" aria-label="${esc(title)}" viewBox="0 0 ${W} ${H}" xmlns="http://www.w3.org/2000/svg"><title>${esc(title)}</title>
<text class="chart-title" x="${M.left}" y="18">${esc(title)}</text>${grid}
<line class="axis" x1="${M.left}" x2="${M.left}" y1="${M.top}" y2="${M.top + PH}"/><line class="axis" x1="${M.left}" x2="${M.left + PW}" y1="${M.top + PH}" y2="${M.top + PH}"/>
<text class="label" transform="translate(14 ${M.top + PH / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text>
<text class="label" x="${M.left + PW / 2}" y="${H - 6}" text-anchor="middle">${esc(xLabel)}</text>${body}${inner}${legend}</svg>`,
  };
}

function legendOf(names: string[], colors: string[]): string {
  let x = M.left + PW;
  let out = "";
  for (let i = names.length - 1; i >= 0; i--) {
    x -= names[i].length * 7 + 26;
    out += `<rect x="${x}" y="8" width="12" height="12" fill="${colors[i]}"/><text class="legend" x="${x + 16}" y="18">${esc(names[i])}</text>`;
  }
  return out;
}

export interface LineSeries {
  name: string;
  points: Array<[number, number | null]>;
}

export function lineChart(o: {
  name: string;
  title: string;
  xLabel: string;
  yLabel: string;
  series: LineSeries[];
}): string {
  const all = o.series.flatMap((s) => s.points);
  const xMax = Math.max(1, ...all.map((p) => p[0]));
  const yMax = Math.max(0, ...all.map((p) => p[1] ?? 0));
  const colors = o.series.map((_, i) => PALETTE[i % PALETTE.length]);
  const f = frame(
    o.name,
    o.title,
    o.yLabel,
    o.xLabel,
    yMax,
    "",
    legendOf(
      o.series.map((s) => s.name),
      colors,
    ),
  );
  const x = (v: number) => M.left + (v / xMax) * PW;
  const y = (v: number) => M.top + PH - (v / f.top) * PH;
  let xticks = "";
  const xs = niceStep(xMax, 8);
  for (let v = 0; v <= xMax; v += xs)
    xticks += `<text class="tick" x="${x(v)}" y="${M.top + PH + 16}" text-anchor="middle">${fmt(v)}</text>`;
  const paths = o.series
    .map((s, i) => {
      // a gap (null) breaks the line instead of drawing it down to zero
      let d = "";
      let pen = "M";
      for (const [px, py] of s.points) {
        if (py === null) {
          pen = "M";
          continue;
        }
        d += `${pen}${x(px).toFixed(1)},${y(py).toFixed(1)}`;
        pen = "L";
      }
      const dots =
        s.points.length === 1 && s.points[0][1] !== null
          ? `<circle cx="${x(s.points[0][0])}" cy="${y(s.points[0][1])}" r="3" fill="${colors[i]}"/>`
          : "";
      return `<path class="series" data-series="${esc(s.name)}" d="${d}" fill="none" stroke="${colors[i]}" stroke-width="2"/>${dots}`;
    })
    .join("");
  return f.svg(xticks + paths);
}

export function barChart(o: {
  name: string;
  title: string;
  yLabel: string;
  seriesNames: string[];
  groups: Array<{ category: string; values: number[] }>;
}): string {
  const yMax = Math.max(0, ...o.groups.flatMap((g) => g.values));
  const colors = o.seriesNames.map((_, i) => PALETTE[i % PALETTE.length]);
  const f = frame(o.name, o.title, o.yLabel, "", yMax, "", legendOf(o.seriesNames, colors));
  const groupW = PW / Math.max(1, o.groups.length);
  const barW = Math.min(28, (groupW * 0.8) / Math.max(1, o.seriesNames.length));
  let bars = "";
  o.groups.forEach((g, gi) => {
    const x0 = M.left + gi * groupW + (groupW - barW * g.values.length) / 2;
    g.values.forEach((v, i) => {
      const h = (v / f.top) * PH;
      bars += `<rect class="bar" x="${(x0 + i * barW).toFixed(1)}" y="${(M.top + PH - h).toFixed(1)}" width="${(barW - 2).toFixed(1)}" height="${Math.max(0, h).toFixed(1)}" fill="${colors[i]}"><title>${esc(`${g.category} ${o.seriesNames[i]}: ${fmt(v)}`)}</title></rect>`;
    });
    bars += `<text class="tick" x="${(M.left + gi * groupW + groupW / 2).toFixed(1)}" y="${M.top + PH + 16}" text-anchor="middle">${esc(g.category)}</text>`;
  });
  return f.svg(bars);
}
