/**
 * The dag model's part of the commands that audit: `--dag FILE`, the DAG of journals whose header
 * gives none, and the librecode runtime's `.lisp-expr` journals (docs/journals.md), which carry
 * no DAG and are read whole by their own reader. The readers touch `node:fs` and are imported
 * when first used: a browser page that loads the registry never fetches them.
 */

import type { AuditBytesOptions, Engine } from "../../models/dag/engine.js";
import type { Report } from "../../models/dag/report.js";
import type { ModelCommandLine, ModelFlagValues } from "../model-command-line.js";

export const dagCommandLine: ModelCommandLine<Report, AuditBytesOptions> = {
  flags: [
    {
      name: "dag",
      value: "FILE",
      help: 'the DAG ({"nodes":[{"id","deps"}]}) for dag journals without a header line',
      helpWithOwnFormats: "; .lisp-expr journals always need it",
    },
  ],
  async engineOptions(given) {
    const dagPath = given.dag;
    if (dagPath === undefined) return {};
    const { readDagFile } = await import("./files.js");
    return { dag: readDagFile(dagPath), dagName: dagPath };
  },
  async journalFields(journal, file, given) {
    const [{ readDagFile }, { chooseDag }, { dagOfHeader }] = await Promise.all([
      import("./files.js"),
      import("./choose-dag.js"),
      import("./header.js"),
    ]);
    const dagPath = given.dag;
    const dag = dagPath === undefined ? null : { dag: readDagFile(dagPath), name: dagPath };
    return chooseDag(file, dagOfHeader(journal.header), dag, journal.missingHeader);
  },
  ownFormats: [
    {
      extension: ".lisp-expr",
      read: async (bytes, path) =>
        (await import("./lisp-expr.js")).readLispExprJournal(bytes, path),
      async audit(path, engine, given: ModelFlagValues) {
        const { readJournalFile } = await import("./files.js");
        const { file, dag, events, lines, tornTail } = readJournalFile(path, {
          dagPath: given.dag,
        });
        // Both dag engines (the reference and the kernel) audit a log of events as well as bytes.
        return { file, report: (engine as Engine).audit(dag, events, { lines, tornTail }) };
      },
    },
  ],
};
