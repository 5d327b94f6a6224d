/** The HTML report's view of a journal of any model; `report.model` tells which. */

import type { ExecutiveJournalView } from "./executive-view.js";
import type { DagJournalView } from "./journal-view.js";
import type { OperationsJournalView } from "./operations-view.js";

export type JournalView = DagJournalView | OperationsJournalView | ExecutiveJournalView;
