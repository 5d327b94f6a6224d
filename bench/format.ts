/** How BENCHMARKS.md and the bench logs write figures. */

export function count(value: number): string {
  return value.toLocaleString("en-US").replace(/,/g, " ");
}

export function percent(share: number): string {
  return share >= 0.01 ? `${(share * 100).toFixed(0)} %` : `${(share * 100).toPrecision(1)} %`;
}

export function seconds(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
}

export function mib(bytes: number): string {
  return `${Math.round(bytes / 2 ** 20)} MiB`;
}

export function ratio(value: number): string {
  return value >= 10
    ? `${value.toFixed(0)}×`
    : value >= 0.1
      ? `${value.toFixed(2)}×`
      : `${value.toPrecision(2)}×`;
}
