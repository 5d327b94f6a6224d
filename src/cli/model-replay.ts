/**
 * What `statefold replay` asks of a model (the model's `replay`): the words of its help for the
 * model's output, whether the kernel can print it, and the printer itself, loaded when a journal
 * of the model comes (a process replaying a dag journal loads no other model's machine).
 */
import type { EngineName } from "../engine.js";
import type { AnyJournalFile } from "../journal/index.js";
import type { CliOutput } from "./command.js";

/** A journal as replay reads it, of any model. */
export type ReplayedJournal = AnyJournalFile;

/** What stopped a fold: the entry's index, the integrity reason and its message. */
export interface FoldStop {
  readonly index: number;
  readonly reason: string;
  readonly message: string;
}

export interface ModelReplay<Journal extends ReplayedJournal = ReplayedJournal> {
  /**
   * What replay prints for a journal of this model: its sentences of the help's paragraph, with
   * the paragraph's line breaks where they fall (it follows the previous model's, after a space).
   */
  readonly output: string;
  /** Whether the kernel can print the state (and is then the default), or the reference alone. */
  readonly onKernel: boolean;
  /**
   * Prints the state the journal folds to, or, at a log-integrity error, the state before it,
   * and says what stopped the fold.
   */
  print(journal: Journal, engine: EngineName, output: CliOutput): Promise<FoldStop | null>;
}
