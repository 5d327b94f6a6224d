/**
 * Writing a long stream of small pieces (a generated journal's lines): joined into batches of
 * about 64 KiB, each written and awaited before the next, so that a slow reader (`gen | audit -`)
 * holds the writer back instead of the pending output filling memory. Pieces that are bytes are
 * a generator's own batches, already encoded: they go as they are, each awaited the same way.
 */

/** About a pipe's capacity: large enough to amortise a write call, small enough to stay flat. */
const BATCH_CHARS = 64 * 1024;

export async function writeBatched<Piece extends string | Uint8Array>(
  pieces: Iterable<Piece>,
  write: (piece: NoInfer<Piece> | string) => Promise<void>,
): Promise<void> {
  let batch: string[] = [];
  let batchChars = 0;
  for (const piece of pieces) {
    if (typeof piece !== "string") {
      if (batch.length > 0) {
        await write(batch.join(""));
        batch = [];
        batchChars = 0;
      }
      await write(piece);
      continue;
    }
    batch.push(piece);
    batchChars += piece.length;
    if (batchChars >= BATCH_CHARS) {
      await write(batch.join(""));
      batch = [];
      batchChars = 0;
    }
  }
  if (batch.length > 0) await write(batch.join(""));
}
