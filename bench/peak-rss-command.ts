/** `node peak-rss-command.js`: prints the peak resident set of a Node process that does nothing. */
import { peakRssBytes } from "./peak-rss.js";

console.log(peakRssBytes());
