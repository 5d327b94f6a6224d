import type { TornTail } from "../models/journal-source.js";
import type { ModelName } from "../models/registry.js";
import type { MissingHeader } from "./missing-header.js";

/** What a journal's header line says (docs/journals.md, "The header"). */
export interface JournalHeader {
  /**
   * The model it names; null when it names none, and its fields are then read as the model
   * chosen for the journal (`--model`, the API), the default model when nothing chose one.
   */
  readonly model: ModelName | null;
  /** The model's own fields, as its `readHeaderFields` read them (a dag's DAG, say). */
  readonly fields: unknown;
}

/** What a journal reader returns: the events of one journal file, each with its line. */
export interface Journal {
  /** The journal's header, or null when it has none. */
  readonly header: JournalHeader | null;
  /** Each parsed entry, or an `UnparseableLine` standing in for one; the fold judges them. */
  readonly events: unknown[];
  /** `events[i]` came from the 1-based line `lines[i]`. */
  readonly lines: number[];
  readonly tornTail: TornTail | null;
  /** Why the journal has no header (what line 1 is instead); null when it has one. */
  readonly missingHeader: MissingHeader | null;
}
