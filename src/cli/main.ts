#!/usr/bin/env node
import { once } from "node:events";
import { CoalescedWriter } from "./coalesced-writer.js";
import { wantsColour } from "./command.js";
import { runCli } from "./run-cli.js";

// A reader that stops early (`statefold replay big.jsonl | head`) is not an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  process.stderr.write(`statefold: cannot write the output: ${error.message}\n`);
  process.exit(2);
});

const stdout = new CoalescedWriter((text) => process.stdout.write(text));
// What goes to stderr follows what went to stdout before it, as a terminal shows both.
const stderr = (text: string) => {
  stdout.flush();
  return process.stderr.write(text);
};

try {
  process.exitCode = await runCli(process.argv.slice(2), {
    stdout: (text) => stdout.write(text),
    stderr,
    colour: wantsColour(process.stdout.isTTY, process.env),
    stdoutPaced: async (piece) => {
      stdout.flush();
      if (typeof piece !== "string") {
        // Bytes may be a view of a buffer their maker writes over next: done once written (or
        // failed, which the "error" listener above handles).
        await new Promise<void>((done) => process.stdout.write(piece, () => done()));
        return;
      }
      if (!process.stdout.write(piece)) await once(process.stdout, "drain");
    },
    stderrTerminal: process.stderr.isTTY
      ? { write: stderr, columns: () => process.stderr.columns || 80 }
      : undefined,
  });
} finally {
  stdout.flush();
}
