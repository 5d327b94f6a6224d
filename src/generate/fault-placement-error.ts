/** A fault plan that a journal cannot hold: more faults of a kind than places for them. */
export class FaultPlacementError extends Error {
  override readonly name = "FaultPlacementError";
}
