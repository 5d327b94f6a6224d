/** `node parse-only-command.js FILE`: the parse-only floor (parse-only.ts) as a command of its own. */
import { parseOnly } from "./parse-only.js";

const [path] = process.argv.slice(2);
if (path === undefined) throw new Error("usage: parse-only-command.js <journal>");
console.log(await parseOnly(path));
