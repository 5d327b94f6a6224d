// The driver of statefold explore's refinement check (docs/explore.md, "Refinement"): one JSON
// request a line on stdin, one answer a line on stdout.
//   {"reset": {"nodes": [{"id","deps"}, …]}}  →  {"ok": true}
//   {"action": {"call", "id", "arg"?}}        →  {"journal": [lines appended]} or {"refused": reason}
// Usage: node driver.mjs [--with-defect]   (the runner with its planted defect)
import { createInterface } from "node:readline";
import { CampaignRunner } from "./campaign-runner.mjs";
import { CampaignRunnerWithDefect } from "./campaign-runner-with-defect.mjs";

const Runner = process.argv.includes("--with-defect") ? CampaignRunnerWithDefect : CampaignRunner;
let runner = null;

for await (const line of createInterface({ input: process.stdin })) {
  const request = JSON.parse(line);
  if ("reset" in request) {
    runner = new Runner(request.reset.nodes);
    process.stdout.write(`${JSON.stringify({ ok: true })}\n`);
  } else {
    const { call, id, arg } = request.action;
    process.stdout.write(`${JSON.stringify(runner[call](id, arg))}\n`);
  }
}
