/**
 * Numbers as people read them, for every message and report statefold writes: counts with their
 * digits grouped by a space, as the docs write them (12 345), and with their noun agreeing
 * (1 event, 2 events); byte counts, rates and durations in decimal units, as disks and
 * `ls -h --si`. Pure, so the HTML report can use it in a browser too.
 */

const BYTE_UNITS = ["B", "kB", "MB", "GB", "TB"] as const;

/** The unit a byte count reads best in, as its exponent of 1000. */
export function byteScale(bytes: number): number {
  let scale = 0;
  while (scale < BYTE_UNITS.length - 1 && Math.abs(bytes) >= 1000 ** (scale + 1)) scale += 1;
  return scale;
}

export function formatBytes(bytes: number, scale = byteScale(bytes)): string {
  return `${formatNumber(bytes / 1000 ** scale)} ${BYTE_UNITS[scale]}`;
}

/** Three significant digits at most, never an exponent: 0.512, 5.12, 51.2, 512, 5120. */
export function formatNumber(value: number): string {
  if (value === 0 || !Number.isFinite(value)) return "0";
  const digits = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(value))));
  return value.toFixed(Math.min(digits, 3));
}

/** A count per second: 950, 12.3 k, 4.56 M. */
export function formatRate(perSecond: number): string {
  if (perSecond >= 1e6) return `${formatNumber(perSecond / 1e6)} M`;
  if (perSecond >= 1e3) return `${formatNumber(perSecond / 1e3)} k`;
  return formatNumber(perSecond);
}

/** h:mm:ss or m:ss. */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const secs = String(whole % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${secs}` : `${minutes}:${secs}`;
}

/** A whole count, its digits grouped in threes by a space: 950, 12 345, 1 234 567. */
export function formatCount(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+$)/g, " ");
}

/** A count and its noun: `1 event`, `12 345 events`; `nounPlural` for a noun not made plural by an "s". */
export function plural(count: number, noun: string, nounPlural = `${noun}s`): string {
  return `${formatCount(count)} ${nounFor(count, noun, nounPlural)}`;
}

/** The noun alone, agreeing with the count: `node` for one, `nodes` otherwise. */
export function nounFor(count: number, noun: string, nounPlural = `${noun}s`): string {
  return count === 1 ? noun : nounPlural;
}
