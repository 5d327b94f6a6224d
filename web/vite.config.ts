/** The in-browser auditor: `npm run web` serves it, `npm run web:build` writes it to dist-web/. */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  build: {
    outDir: fileURLToPath(new URL("../dist-web", import.meta.url)),
    emptyOutDir: true,
    target: "es2022",
  },
  worker: { format: "es" },
});
