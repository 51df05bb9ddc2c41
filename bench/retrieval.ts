/**
 * Retrieval latency and index build rate of the memory layer's hybrid index (BM25 + dense,
 * fused by RRF) over synthetic memories. Prints one JSON object.
 *
 *   npx --no-install tsx bench/retrieval.ts [--sizes 10000,100000] [--queries 300]
 *
 * Documents are 8–24 words drawn from a Zipf(1.0) vocabulary of 20,000 words, embedded with the
 * llm layer's offline embedding (384 dims, the all-MiniLM-L6-v2 width). Query embedding is
 * timed separately (it is the embedder's cost, not the index's). Latency = one hybrid top-k
 * search (k = 4 semantic + 10 candidates per path) with a filter callback, as `retrieve` runs it.
 */
import { performance } from 'node:perf_hooks';
import { offlineEmbedding } from '../src/llm/offline-backend.js';
import { HybridIndex } from '../src/memory/retrieval/hybrid-index.js';
import { createRng } from '../src/util/rng.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? (args[at + 1] ?? fallback) : fallback;
};
const sizes = option('sizes', '10000,100000').split(',').map(Number);
const queryCount = Number(option('queries', '300'));
const DIM = 384;
const VOCAB = 20_000;

const rng = createRng(42, 'bench-retrieval');
const vocab = Array.from({ length: VOCAB }, (_, i) => `w${i.toString(36)}x`);
const weights = vocab.map((_, i) => 1 / (i + 1));
const cumulative: number[] = [];
weights.reduce((sum, w, i) => (cumulative[i] = sum + w), 0);
const total = cumulative[cumulative.length - 1] as number;
const word = () => {
  const r = rng.next() * total;
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((cumulative[mid] as number) < r) lo = mid + 1;
    else hi = mid;
  }
  return vocab[lo] as string;
};
const doc = () => Array.from({ length: rng.int(8, 24) }, word).join(' ');

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number;
}
const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

const results: Record<string, unknown> = {};
for (const size of sizes) {
  const texts = Array.from({ length: size }, doc);
  const embedStart = performance.now();
  const vectors = texts.map((text) => offlineEmbedding(text, DIM));
  const embedMs = performance.now() - embedStart;
  const index = new HybridIndex();
  const buildStart = performance.now();
  texts.forEach((text, i) => {
    index.addWithVector(`m${i}`, text, vectors[i] as number[]);
  });
  const buildMs = performance.now() - buildStart;

  const queries = Array.from({ length: queryCount }, () => {
    const source = texts[rng.int(0, size - 1)] as string;
    const words = source.split(' ');
    return rng.sample(words, rng.int(2, 4)).join(' ');
  });
  const queryEmbedStart = performance.now();
  const queryVectors = queries.map((query) => offlineEmbedding(query, DIM));
  const queryEmbedMs = (performance.now() - queryEmbedStart) / queryCount;
  const excluded = new Set(['m1', 'm2', 'm3']);
  const filter = (id: string) => !excluded.has(id);
  const timings: Record<'hybrid' | 'bm25' | 'dense', number[]> = { hybrid: [], bm25: [], dense: [] };
  // Warm-up so the JIT has compiled the hot loops before timing.
  for (let i = 0; i < 50; i++)
    index.searchWithVector(queries[i % queryCount] as string, queryVectors[i % queryCount] as number[], {
      k: 4,
      filter,
    });
  // Modes interleaved per query so machine load and GC fall on all three alike.
  for (let i = 0; i < queryCount; i++) {
    for (const mode of ['hybrid', 'bm25', 'dense'] as const) {
      const start = performance.now();
      index.searchWithVector(queries[i] as string, queryVectors[i] as number[], {
        k: 4,
        filter,
        mode,
        candidates: 10,
      });
      timings[mode].push(performance.now() - start);
    }
  }
  // Recall of the coarse (SimHash) dense pass against exact cosine, top-10.
  const exact = new HybridIndex({ dense: { exactLimit: Number.POSITIVE_INFINITY } });
  let recall = 0;
  const recallQueries = Math.min(50, queryCount);
  if (size > 4096) {
    texts.forEach((text, i) => {
      exact.addWithVector(`m${i}`, text, vectors[i] as number[]);
    });
    for (let i = 0; i < recallQueries; i++) {
      const truth = new Set(exact.dense.search(queryVectors[i] as number[], 10).map((hit) => hit.id));
      const got = index.dense.search(queryVectors[i] as number[], 10);
      recall += got.filter((hit) => truth.has(hit.id)).length / Math.max(1, truth.size);
    }
    recall /= recallQueries;
  } else recall = 1;
  results[String(size)] = {
    memories: size,
    buildMs: round(buildMs, 1),
    buildRatePerSec: Math.round(size / (buildMs / 1000)),
    offlineEmbedRatePerSec: Math.round(size / (embedMs / 1000)),
    queryEmbedMs: round(queryEmbedMs),
    hybridP50Ms: round(percentile(timings.hybrid, 0.5)),
    hybridP95Ms: round(percentile(timings.hybrid, 0.95)),
    bm25P50Ms: round(percentile(timings.bm25, 0.5)),
    denseP50Ms: round(percentile(timings.dense, 0.5)),
    denseRecallAt10VsExact: round(recall),
  };
}
const { loadavg, cpus } = await import('node:os');
console.log(
  JSON.stringify(
    {
      bench: 'retrieval',
      dims: DIM,
      queries: queryCount,
      cpus: cpus().length,
      loadAverage1m: round(loadavg()[0] ?? 0, 2),
      results,
    },
    null,
    2,
  ),
);
