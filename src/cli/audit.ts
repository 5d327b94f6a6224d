import { JournalError } from "../journal/errors.js";
import { writeAuditHtml } from "./audit-html.js";
import {
  type CliOutput,
  type Command,
  ExitCode,
  oneOf,
  parseCommandLine,
  UsageError,
} from "./command.js";
import { type AuditedJournal, auditJournalFile, DEFAULT_ENGINE, ENGINE_NAMES } from "./engine.js";
import { renderJson } from "./render-json.js";
import { passes, renderAuditText, renderSummary } from "./render-text.js";

const FORMATS = ["text", "json"] as const;

const HELP = `Usage: statefold audit <journal>... [--dag FILE] [--format text|json] [--strict] [--engine NAME] [--html FILE]

Audits each journal against the reference state machine: log integrity, the six seed
invariants, and whether the public API could have logged every event (legality).
A journal is JSONL, or the librecode runtime's S-expressions when it ends in .lisp-expr.

Options:
  --dag FILE          the DAG ({"nodes":[{"id","deps"}]}) for journals without a header line;
                      .lisp-expr journals always need it
  --format text|json  text for people (default); json prints the report itself, or an array
                      of {"file","report"} when several journals are given
  --strict            pass only journals that are strictly conformant (no illegal event)
  --engine NAME       wasm (default: the WebAssembly kernel) or reference (the plain
                      TypeScript model; same reports, slower)
  --html FILE         also write one self-contained HTML report of every journal: verdicts,
                      each violating event in context, the DAG coloured by final status
  -h, --help          show this help

Exit status: 0 every journal conformant (strictly, with --strict), 1 some journal is not,
2 bad usage or an unreadable journal.
`;

export const auditCommand: Command = {
  name: "audit",
  summary: "check journals: integrity, the six invariants, legality",
  help: HELP,
  run: runAudit,
};

async function runAudit(args: readonly string[], output: CliOutput): Promise<number> {
  const { values, positionals: journals } = parseCommandLine("audit", {
    args: [...args],
    options: {
      dag: { type: "string" },
      format: { type: "string", default: "text" },
      strict: { type: "boolean", default: false },
      engine: { type: "string", default: DEFAULT_ENGINE },
      html: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    output.stdout(HELP);
    return ExitCode.conformant;
  }
  const format = oneOf("audit", "--format", values.format, FORMATS);
  const engine = oneOf("audit", "--engine", values.engine, ENGINE_NAMES);
  if (journals.length === 0) throw new UsageError("audit needs at least one journal", "audit");

  const audited: AuditedJournal[] = [];
  for (const journal of journals) {
    try {
      audited.push(await auditJournalFile(journal, { dagPath: values.dag, engine }));
    } catch (error) {
      // One unreadable journal must not hide the verdicts on the others.
      if (!(error instanceof JournalError)) throw error;
      output.stderr(`statefold: ${error.message}\n`);
    }
  }
  output.stdout(render(audited, journals.length, format, values.strict, output.colour));
  if (values.html !== undefined) {
    const { dag: dagPath, strict } = values;
    await writeAuditHtml(values.html, audited, { dagPath, strict, inputs: journals });
  }
  if (audited.length < journals.length) return ExitCode.badInput;
  const allPass = audited.every((journal) => passes(journal.report, values.strict));
  return allPass ? ExitCode.conformant : ExitCode.notConformant;
}

function render(
  audited: readonly AuditedJournal[],
  given: number,
  format: (typeof FORMATS)[number],
  strict: boolean,
  colour: boolean,
): string {
  switch (format) {
    case "json":
      if (given === 1) return audited.length === 0 ? "" : renderJson(audited[0]?.report);
      return renderJson(audited);
    case "text": {
      if (audited.length === 0) return "";
      const text = renderAuditText(audited, { strict, colour });
      return given === 1 ? text : text + renderSummary(given, audited, strict);
    }
    default: {
      const unreachable: never = format;
      return unreachable;
    }
  }
}
