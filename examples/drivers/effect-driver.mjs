// The driver of statefold explore's refinement check of an effect runtime (docs/explore.md,
// "Refinement of an effect runtime"): one JSON request a line on stdin, one answer a line on
// stdout.
//   {"reset": {"strands": [...], "policy": {...}}}  →  {"ok": true}
//   {"env": {EVENT: {...}}}  →  {"journal": [lines committed], "calls": [outstanding], "wake": t | null}
// Usage: node effect-driver.mjs [--defect NAME]   (NAME one of effect-runtime-defects.mjs's)
import { createInterface } from "node:readline";
import { DEFECTS } from "./effect-runtime-defects.mjs";
import { EffectRuntime } from "./effect-runtime.mjs";

const named = process.argv.indexOf("--defect");
const defect = named === -1 ? undefined : process.argv[named + 1];
if (defect !== undefined && !(defect in DEFECTS)) {
  process.stderr.write(`no defect ${defect}: one of ${Object.keys(DEFECTS).join(", ")}\n`);
  process.exit(2);
}
const parts = defect === undefined ? {} : DEFECTS[defect];
let runtime = null;

for await (const line of createInterface({ input: process.stdin })) {
  const request = JSON.parse(line);
  if ("reset" in request) {
    runtime = new EffectRuntime(request.reset, parts);
    process.stdout.write(`${JSON.stringify({ ok: true })}\n`);
    continue;
  }
  const [[event, argument]] = Object.entries(request.env);
  const committed = runtime.store.lines.length;
  runtime[event](argument);
  const answer = {
    journal: runtime.store.lines.slice(committed),
    calls: runtime.outstanding(),
    wake: runtime.wake(),
  };
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
