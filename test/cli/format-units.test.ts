import { describe, expect, it } from "vitest";
import {
  formatBytes,
  formatDuration,
  formatNumber,
  formatRate,
} from "../../src/cli/format-units.js";

describe("format-units", () => {
  it.each([
    [0, "0 B"],
    [999, "999 B"],
    [1000, "1.00 kB"],
    [2_255_238_112, "2.26 GB"],
    [51_234_567, "51.2 MB"],
  ])("formatBytes(%d) = %s", (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });

  it("keeps three significant digits, without exponents", () => {
    expect([0.0004, 0.512, 5.123, 51.23, 512.3, 5123].map(formatNumber)).toEqual([
      "0.000",
      "0.512",
      "5.12",
      "51.2",
      "512",
      "5123",
    ]);
  });

  it("formats rates and durations", () => {
    expect([950, 12_345, 4_560_000].map(formatRate)).toEqual(["950", "12.3 k", "4.56 M"]);
    expect([0, 59.6, 61, 3725].map(formatDuration)).toEqual(["0:00", "1:00", "1:01", "1:02:05"]);
  });
});
