// Progress of a master import, on stderr so that stdout keeps only the JSON result: a bar (rows,
// rows/s, ETA) on a terminal, else one plain line per request (CI logs, `2> file`).
import cliProgress from "cli-progress";

const number = (n) => Math.round(n).toLocaleString("en-US");

function duration(seconds) {
  if (!Number.isFinite(seconds)) return "--";
  const s = Math.max(0, Math.round(seconds));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
}

/** Rate and ETA from the rows done so far: the rate is steady, as every request is the same size. */
function measure({ done, total, elapsedMs }) {
  const rate = elapsedMs > 0 ? (done * 1000) / elapsedMs : 0;
  return {
    rate: number(rate),
    eta: done >= total ? "0 s" : rate > 0 ? duration((total - done) / rate) : "--",
    percent: total > 0 ? Math.floor((done * 100) / total) : 100,
  };
}

/** An `onProgress` for importNdjsonFile, plus `stop()` to end the bar's line. */
export function importProgress(stream = process.stderr) {
  let bar;
  const onProgress = (progress) => {
    const { rate, eta, percent } = measure(progress);
    const rows = `${number(progress.done)}/${number(progress.total)} rows`;
    if (!stream.isTTY) {
      if (progress.done > 0 || progress.total === 0) {
        stream.write(`${progress.dataset}: ${rows} (${percent}%), ${rate} rows/s, ETA ${eta}\n`);
      }
      return;
    }
    const payload = { rowsText: rows, rateText: rate, etaText: eta }; // not {eta}: cli-progress has its own
    if (!bar) {
      bar = new cliProgress.SingleBar(
        {
          stream,
          // What matters most first: a narrow terminal cuts the line's end.
          format: `${progress.dataset} {bar} {percentage}% ETA {etaText} | {rowsText} | {rateText} rows/s`,
          hideCursor: false, // nothing to restore should the import be interrupted (Ctrl-C)
          barsize: 20,
        },
        cliProgress.Presets.shades_classic,
      );
      bar.start(progress.total, progress.done, payload);
    } else {
      bar.update(progress.done, payload);
    }
  };
  return { onProgress, stop: () => bar?.stop() };
}
