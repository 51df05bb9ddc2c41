#!/usr/bin/env node
// Starts the CLI from one JavaScript module compiled from the TypeScript sources by esbuild
// (src/util/worker-code.ts) when a fresh one is cached: every source it was built from still has
// the content it had. That starts in ~0.3 s, against ~1.5 s when tsx's loader resolves and
// compiles each source file. Otherwise it goes through tsx, which builds that module for the
// next start, so a checkout works after `npm ci` with no build step.
// PERSONA_FORGE_SOURCES=1 always runs the sources through tsx.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, utimesSync } from 'node:fs';

const cache = new URL('../node_modules/.cache/persona-forge/workers/', import.meta.url);

/** The cached CLI module's URL when every source it was built from is unchanged, else null. */
function freshCli() {
  if (process.env.PERSONA_FORGE_SOURCES === '1') return null;
  try {
    const record = JSON.parse(readFileSync(new URL('cli.json', cache), 'utf8'));
    for (const [path, digest] of Object.entries(record.inputs))
      if (createHash('sha256').update(readFileSync(path, 'utf8')).digest('hex') !== digest) return null;
    const bundle = new URL(record.bundle, cache);
    if (!existsSync(bundle)) return null;
    // Marks the build in use: a build of newer sources removes only builds no process used lately.
    const now = new Date();
    utimesSync(new URL('.', bundle), now, now);
    return bundle.href;
  } catch {
    return null;
  }
}

let main;
const compiled = freshCli();
if (compiled !== null) {
  main = (await import(compiled)).handler;
} else {
  const { register } = await import('tsx/esm/api');
  register();
  const source = new URL('../src/cli/main.ts', import.meta.url).href;
  const built =
    process.env.PERSONA_FORGE_SOURCES === '1'
      ? null
      : await (await import('../src/util/worker-code.ts')).compiledWorker(
          { module: source, exportName: 'main' },
          undefined,
          'cli',
        );
  main = built === null ? (await import(source)).main : (await import(built)).handler;
}
await main(process.argv.slice(2));
