/**
 * How the benchmarks write a journal that is a JSON document (bench/temporal/journals.ts): a
 * `.json` file, one record a line between the line that opens its records array and the line
 * that closes it. The parse-only floor (./parse-only.ts) and the prefixes (./prefix.ts) read it
 * by this layout.
 */

/** A journal file of this extension is a document; any other is JSONL. */
export const DOCUMENT_EXTENSION = ".json";
/** The lines that open and close a document's array of records. */
export const DOCUMENT_OPEN = '{"events":[';
export const DOCUMENT_CLOSE = "]}";
