/**
 * A file of `size` bytes in `folder` whose bytes differ from mebibyte to mebibyte, so a reader
 * that hands over a chunk from the wrong buffer or slot shows it.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export function patternedFile(folder: string, size: number): { path: string; content: Uint8Array } {
  const bytes = Math.floor(size);
  const content = new Uint8Array(bytes);
  for (let at = 0; at < bytes; at++) content[at] = (at * 7 + (at >> 20) * 13) & 0xff;
  const path = join(folder, `bytes-${bytes}`);
  writeFileSync(path, content);
  return { path, content };
}
