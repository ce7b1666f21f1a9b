import { html } from "hono/html";
import type { UsageDay } from "../../accounts/accountSummary";
import type { Html, Page } from "./layout";
import { formatCount } from "./messages";

/**
 * The drawing's size and the plot area inside it (room for the axis labels around, and above it
 * the quota when off the scale). The left margin holds a six-digit tick label at the larger type a
 * phone's stylesheet gives the labels (the drawing shrinks there, the labels must not).
 */
const WIDTH = 640;
const HEIGHT = 256;
const PLOT = { left: 88, right: WIDTH - 16, top: 40, bottom: 208 };
/** Where the quota's line goes when it is far above the scale: over the plot, apart from it. */
const QUOTA_ABOVE_Y = 22;
/** The scale never ends below this (a month without calls still reads 0 to 10). */
const MIN_TOP = 10;
/** Days whose date is written under the axis (first, every tenth, last). */
const LABELLED_DAYS = [0, 10, 20, 29];

/** The smallest 1, 2 or 5 times a power of ten at or above `n`: round numbers on the axis, and at its middle. */
function roundCeiling(n: number): number {
  const power = 10 ** Math.floor(Math.log10(n));
  return ([1, 2, 5, 10].find((step) => step * power >= n) ?? 10) * power;
}

/**
 * The scale's top: the quota when the busiest day comes anywhere near it, so the bars read as
 * shares of the quota; else the busiest day's round number, so a few calls a day still show as
 * bars, and the quota is drawn above the plot, labelled as off the scale.
 */
function scaleOf(peak: number, quota: number): { top: number; quotaOnScale: boolean } {
  const byUsage = roundCeiling(Math.max(peak, MIN_TOP));
  return byUsage * 2 >= quota ? { top: roundCeiling(Math.max(quota, peak)), quotaOnScale: true } : { top: byUsage, quotaOnScale: false };
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * The last 30 days' calls as an inline SVG drawn here (no script, nothing loaded): one bar a day,
 * labelled ticks, the quota as a dashed, labelled line, dates under the axis. Every bar names its
 * day and count, and a table below gives the numbers, so nothing depends on seeing colour.
 */
export function usageChart(page: Page, days: readonly UsageDay[], quota: number): Html {
  const { t } = page;
  const peak = Math.max(0, ...days.map((day) => day.used));
  const { top, quotaOnScale } = scaleOf(peak, quota);
  const yOf = (n: number) => round1(PLOT.bottom - (n / top) * (PLOT.bottom - PLOT.top));
  const quotaY = quotaOnScale ? yOf(quota) : QUOTA_ABOVE_Y;
  const slot = (PLOT.right - PLOT.left) / Math.max(days.length, 1);
  const xOf = (i: number) => round1(PLOT.left + i * slot);
  const total = days.reduce((sum, day) => sum + day.used, 0);
  const bars = days.map((day, i) => {
    // A day with calls shows at least a sliver, however high the scale.
    const height = day.used > 0 ? Math.max(round1(PLOT.bottom - yOf(day.used)), 1) : 0;
    return html`<rect class="bar" x="${round1(xOf(i) + 1)}" y="${round1(PLOT.bottom - height)}" width="${round1(slot - 2)}" height="${height}"><title>${day.date}: ${formatCount(day.used)}</title></rect>`;
  });
  const ticks = [0, top / 2, top].map(
    (n) => html`<line class="tick" x1="${PLOT.left - 4}" x2="${PLOT.right}" y1="${yOf(n)}" y2="${yOf(n)}"></line>
<text x="${PLOT.left - 8}" y="${yOf(n) + 4}" text-anchor="end">${formatCount(n)}</text>`,
  );
  // The last date ends at the plot's edge, so that the larger type of a phone stays inside the drawing.
  const dateLabel = (i: number) =>
    i === days.length - 1
      ? html`<text x="${PLOT.right}" y="${PLOT.bottom + 16}" text-anchor="end">${days[i]!.date.slice(5)}</text>`
      : html`<text x="${round1(xOf(i) + slot / 2)}" y="${PLOT.bottom + 16}" text-anchor="middle">${days[i]!.date.slice(5)}</text>`;
  const dates = LABELLED_DAYS.filter((i) => i < days.length).map(dateLabel);
  return html`<figure class="chart">
<svg id="usage-chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="usage-chart-title usage-chart-desc">
<title id="usage-chart-title">${t.chartTitle}</title>
<desc id="usage-chart-desc">${t.chartSummary(formatCount(total), formatCount(peak), formatCount(quota))}</desc>
${ticks}
<line class="axis" x1="${PLOT.left}" x2="${PLOT.right}" y1="${PLOT.bottom}" y2="${PLOT.bottom}"></line>
${bars}
<line class="quota" x1="${PLOT.left}" x2="${PLOT.right}" y1="${quotaY}" y2="${quotaY}" stroke-dasharray="8 4"></line>
<text class="quota-label" x="${PLOT.right}" y="${quotaY - 6}" text-anchor="end">${(quotaOnScale ? t.chartQuota : t.chartQuotaAbove)(formatCount(quota))}</text>
<text x="${PLOT.left - 8}" y="${QUOTA_ABOVE_Y - 6}" text-anchor="end">${t.chartCalls}</text>
${dates}
<text x="${round1((PLOT.left + PLOT.right) / 2)}" y="${HEIGHT - 8}" text-anchor="middle">${t.chartDate}</text>
</svg>
<figcaption>${t.chartTitle}</figcaption>
</figure>
<details class="chart-numbers">
<summary>${t.chartNumbers}</summary>
<table>
<thead><tr><th scope="col">${t.chartDate}</th><th scope="col">${t.chartCalls}</th></tr></thead>
<tbody>${days.map((day) => html`<tr><td>${day.date}</td><td class="number">${formatCount(day.used)}</td></tr>`)}</tbody>
</table>
</details>`;
}
