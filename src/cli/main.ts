#!/usr/bin/env node
import { once } from "node:events";
import { wantsColour } from "./command.js";
import { runCli } from "./run-cli.js";

// A reader that stops early (`statefold replay big.jsonl | head`) is not an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  process.stderr.write(`statefold: cannot write the output: ${error.message}\n`);
  process.exit(2);
});

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  colour: wantsColour(process.stdout.isTTY, process.env),
  stdoutPaced: async (text) => {
    if (!process.stdout.write(text)) await once(process.stdout, "drain");
  },
  stderrTerminal: process.stderr.isTTY
    ? { write: (text) => process.stderr.write(text), columns: () => process.stderr.columns || 80 }
    : undefined,
});
