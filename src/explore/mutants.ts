/**
 * Mutation sensitivity, for every model explore runs (docs/explore.md, "Mutants"): a mutant is
 * the model with one line of its meaning changed, carried by its states as their semantics. It is
 * explored beside the reference, to the same bound, over the journals the reference's actions
 * make and those the mutant's make, until one gets another answer from the mutant than from the
 * reference. A journal is folded by both machines at once — the product of the two — so two
 * journals are merged only when they bring both to the same states; and every step is compared,
 * not only every new state, since a record can be judged differently and still lead to states
 * already met. The first journal that tells them apart is shrunk while it stays one its maker's
 * actions could make and the same part of the answers differs.
 */
import { explore, type Subject } from "./explore.js";
import { shrink } from "./shrink.js";

/** A model as the hunt drives it; its states carry the semantics that made them. */
export interface HuntedModel<State, Semantics> {
  /** The configuration's initial states under the semantics (the reference's when undefined). */
  initialStates(semantics?: Semantics): Iterable<State>;
  /** The states the machine that made `state` steps to from it. */
  successors(state: State): Iterable<{ readonly state: State }>;
  key(state: State): string;
  /** `other` after the record the step to `next` journaled; null once its fold meets an integrity fault. */
  follow(other: State, next: State): State | null;
  journal(state: State): readonly unknown[];
  /**
   * The first part of the answers (report, final state) in which the two differ on a journal of
   * the configuration `from` is a state of (a DAG's, say), or null.
   */
  difference(from: State, journal: readonly unknown[], semantics: Semantics): string | null;
  /** Whether the machine of `semantics` (the reference when undefined) could make the journal. */
  makeable(from: State, journal: readonly unknown[], semantics?: Semantics): boolean;
}

export interface Hunted<State> {
  /** Distinct pairs of states explored until the mutant was told apart, or all of them. */
  readonly distinctStates: number;
  readonly found: {
    /** Whose actions made the journal. */
    readonly madeBy: "reference" | "mutant";
    /** The maker's state the journal reached, before shrinking. */
    readonly state: State;
    /** The journal, shrunk. */
    readonly journal: readonly unknown[];
    readonly differs: string;
  } | null;
}

interface Pair<State> {
  readonly maker: State;
  /** The other machine's state after the maker's journal; null once its fold faulted. */
  readonly other: State | null;
}

export async function hunt<State, Semantics>(
  model: HuntedModel<State, Semantics>,
  depth: number,
  semantics: Semantics,
): Promise<Hunted<State>> {
  const subject: Subject<Pair<State>> = {
    *initialStates() {
      const mutated = [...model.initialStates(semantics)];
      for (const [i, reference] of [...model.initialStates()].entries()) {
        const mutant = mutated[i] as State;
        yield { name: "reference", state: { maker: reference, other: mutant } };
        yield { name: "mutant", state: { maker: mutant, other: reference } };
      }
    },
    *successors({ maker, other }) {
      for (const { state } of model.successors(maker)) {
        const followed = other === null ? null : model.follow(other, state);
        yield { action: "", state: { maker: state, other: followed } };
      }
    },
    key: ({ maker, other }) =>
      `${model.key(maker)} | ${other === null ? "fault" : model.key(other)}`,
    checkStep: (_, { maker }) => model.difference(maker, model.journal(maker), semantics),
  };
  const exploration = explore(subject, depth, { stopAtFinding: true });
  const found = exploration.findings[0];
  if (found === undefined) return { distinctStates: exploration.distinctStates, found: null };
  const madeBy = found.from as "reference" | "mutant";
  const makerSemantics = madeBy === "mutant" ? semantics : undefined;
  const from = found.state.maker;
  const journal = await shrink(
    model.journal(from),
    (events) =>
      model.makeable(from, events, makerSemantics) &&
      model.difference(from, events, semantics) === found.rule,
  );
  return {
    distinctStates: exploration.distinctStates,
    found: { madeBy, state: from, journal, differs: found.rule },
  };
}
