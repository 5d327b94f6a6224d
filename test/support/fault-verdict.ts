/**
 * The report an audit must give on a generated journal, from the faults injected into it
 * (src/generate/dag/faults.ts): a campaign is strictly conformant, and each fault is the only thing
 * wrong at its line. The first unknown node or malformed line stops the fold, so the faults after
 * it are not judged; a torn tail is reported whatever came before.
 */
import { expect } from "vitest";
import type { InjectedFault } from "../../src/generate/dag/faults.js";
import type { Report } from "../../src/models/dag/report.js";

const STOPS = new Set(["unknown-node", "malformed-event"]);

/** A generated journal has one header line and no blank lines: event `index` is on line index + 2. */
const indexOf = (fault: InjectedFault) => fault.line - 2;

export function expectedReport(
  faults: readonly InjectedFault[],
  events: number,
): Omit<Report, "final"> {
  const stop = faults.find((fault) => STOPS.has(fault.reason));
  const judged = faults.filter((fault) => stop === undefined || fault.line < stop.line);
  const illegal = judged.filter((fault) => fault.event !== null && !STOPS.has(fault.reason));
  const first = (kind: InjectedFault["kind"]) => {
    const fault = judged.find((candidate) => candidate.kind === kind);
    return fault === undefined
      ? { holds: true as const }
      : {
          holds: false as const,
          index: indexOf(fault),
          line: fault.line,
          node: fault.node as string,
        };
  };
  const torn = faults.find((fault) => fault.kind === "torn-tail");
  const scheduleCorrect = first("unproven-dispatch");
  const surfaceMonotonic = first("surface-shrink");
  const conformant = stop === undefined && scheduleCorrect.holds && surfaceMonotonic.holds;
  return {
    model: "dag",
    conformant,
    strictlyConformant: conformant && illegal.length === 0,
    events,
    integrity:
      stop === undefined
        ? null
        : ({
            index: indexOf(stop),
            line: stop.line,
            reason: stop.reason,
            message: expect.any(String),
          } as Report["integrity"]),
    tornTail: torn === undefined ? null : { line: torn.line, offset: torn.offset as number },
    invariants: {
      phaseMonotonic: { holds: true },
      noPendingProven: { holds: true },
      tamperEvident: { holds: true },
      dagPreserved: { holds: true },
      scheduleCorrect,
      surfaceMonotonic,
    },
    legality: {
      illegal: illegal.length,
      first: illegal.slice(0, 10).map((fault) => ({
        index: indexOf(fault),
        line: fault.line,
        kind: fault.event as string,
        node: fault.node as string,
        reason: fault.reason as Report["legality"]["first"][number]["reason"],
      })),
    },
  };
}

/** Events in a generated journal's text: every terminated line but the header. */
export function eventsIn(text: string): number {
  let lines = 0;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) lines += 1;
  return lines - 1;
}

export function expectReportOfFaults(
  report: Report,
  faults: readonly InjectedFault[],
  events: number,
): void {
  const { final: _, ...judged } = report;
  expect(judged).toEqual(expectedReport(faults, events));
}
