/**
 * A log-log line chart as SVG text, for BENCHMARKS.md: throughput against journal size, one line
 * per engine. Written by hand (no charting dependency): axes at powers of ten, a polyline and
 * markers per series, hollow markers for points measured on a prefix, a legend on the right.
 */

export interface Point {
  readonly x: number;
  readonly y: number;
  /** Measured on a prefix of the journal (drawn hollow). */
  readonly partial: boolean;
}

export interface Series {
  readonly name: string;
  readonly color: string;
  readonly points: readonly Point[];
}

export interface ChartText {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly note: string;
}

const WIDTH = 860;
const HEIGHT = 460;
const PLOT = { left: 80, top: 50, right: 560, bottom: 390 };

export function lineChartSvg(series: readonly Series[], text: ChartText): string {
  const points = series.flatMap((s) => s.points);
  const xRange = decades(points.map((p) => p.x));
  const yRange = decades(points.map((p) => p.y));
  // A fifth of a decade of room on each side, so that no point sits on the frame.
  const xPadded: [number, number] = [xRange[0] - 0.2, xRange[1] + 0.2];
  const px = (x: number) => scale(Math.log10(x), xPadded, PLOT.left, PLOT.right);
  const py = (y: number) => scale(Math.log10(y), yRange, PLOT.bottom, PLOT.top);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<title>${escapeXml(text.title)}</title>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${PLOT.left}" y="28" font-size="15" font-weight="bold">${escapeXml(text.title)}</text>`,
  ];
  for (let d = xRange[0]; d <= xRange[1]; d++) {
    const x = px(10 ** d).toFixed(1);
    parts.push(gridLine(x, PLOT.top, x, PLOT.bottom));
    parts.push(`<text x="${x}" y="${PLOT.bottom + 18}" text-anchor="middle">${power(d)}</text>`);
  }
  for (let d = yRange[0]; d <= yRange[1]; d++) {
    const y = py(10 ** d).toFixed(1);
    parts.push(gridLine(PLOT.left, y, PLOT.right, y));
    parts.push(`<text x="${PLOT.left - 8}" y="${y}" text-anchor="end" dy="4">${power(d)}</text>`);
  }
  parts.push(
    `<rect x="${PLOT.left}" y="${PLOT.top}" width="${PLOT.right - PLOT.left}" height="${PLOT.bottom - PLOT.top}" fill="none" stroke="#333"/>`,
    `<text x="${(PLOT.left + PLOT.right) / 2}" y="${PLOT.bottom + 40}" text-anchor="middle">${escapeXml(text.xLabel)}</text>`,
    `<text transform="translate(22 ${(PLOT.top + PLOT.bottom) / 2}) rotate(-90)" text-anchor="middle">${escapeXml(text.yLabel)}</text>`,
    `<text x="${PLOT.left}" y="${HEIGHT - 12}" font-size="11" fill="#555">${escapeXml(text.note)}</text>`,
  );
  for (const [i, s] of series.entries()) parts.push(...seriesSvg(s, i, px, py));
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}

function seriesSvg(
  s: Series,
  index: number,
  px: (x: number) => number,
  py: (y: number) => number,
): string[] {
  const coordinates = s.points.map((p) => `${px(p.x).toFixed(1)},${py(p.y).toFixed(1)}`);
  const legendY = PLOT.top + 10 + index * 22;
  return [
    `<polyline points="${coordinates.join(" ")}" fill="none" stroke="${s.color}" stroke-width="2"/>`,
    ...s.points.map(
      (p) =>
        `<circle cx="${px(p.x).toFixed(1)}" cy="${py(p.y).toFixed(1)}" r="4.5" stroke="${s.color}" stroke-width="2" fill="${p.partial ? "white" : s.color}"/>`,
    ),
    `<line x1="${PLOT.right + 20}" y1="${legendY}" x2="${PLOT.right + 44}" y2="${legendY}" stroke="${s.color}" stroke-width="2"/>`,
    `<circle cx="${PLOT.right + 32}" cy="${legendY}" r="4" fill="${s.color}"/>`,
    `<text x="${PLOT.right + 52}" y="${legendY + 4}">${escapeXml(s.name)}</text>`,
  ];
}

/** The powers of ten that enclose the values: [lowest, highest] exponents. */
function decades(values: readonly number[]): [number, number] {
  const logs = values.filter((v) => v > 0).map((v) => Math.log10(v));
  const low = Math.floor(Math.min(...logs) + 1e-9);
  const high = Math.ceil(Math.max(...logs) - 1e-9);
  return [low, high === low ? low + 1 : high];
}

function scale(value: number, [low, high]: [number, number], from: number, to: number): number {
  return from + ((value - low) / (high - low)) * (to - from);
}

function gridLine(
  x1: number | string,
  y1: number | string,
  x2: number | string,
  y2: number | string,
) {
  return `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#ddd"/>`;
}

const SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹";

function power(exponent: number): string {
  const digits = [...String(exponent)].map((d) => SUPERSCRIPTS[Number(d)] ?? "⁻").join("");
  return `10${digits}`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
