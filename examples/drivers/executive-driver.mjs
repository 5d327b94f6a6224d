// The driver of statefold explore's refinement check of an executive host (docs/explore.md,
// "Refinement of an executive"): one JSON request a line on stdin, one answer a line on stdout.
//   {"reset": {"spec", "budget"}}        →  {"ok": true}
//   {"action": {"observation": {…}}}     →  {"journal": [the line of the observation and its decision]}
//   {"action": {"restart": true}}        →  {"journal": []}
// Usage: node executive-driver.mjs [--with-defect]   (the host with its planted defect)
import { createInterface } from "node:readline";
import { ExecutiveHost, ExecutiveHostWithDefect } from "./executive-host.mjs";

const Host = process.argv.includes("--with-defect") ? ExecutiveHostWithDefect : ExecutiveHost;
let host = null;

for await (const line of createInterface({ input: process.stdin })) {
  const request = JSON.parse(line);
  if ("reset" in request) {
    host = new Host(request.reset.spec, request.reset.budget);
    process.stdout.write(`${JSON.stringify({ ok: true })}\n`);
  } else if (request.action.restart === true) {
    process.stdout.write(`${JSON.stringify(host.restart())}\n`);
  } else {
    process.stdout.write(`${JSON.stringify(host.observe(request.action.observation))}\n`);
  }
}
