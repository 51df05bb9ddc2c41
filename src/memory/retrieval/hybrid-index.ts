import type { Embedder } from '../types.js';
import { Bm25Index, type Bm25Options, type ScoredId } from './bm25.js';
import { DenseIndex, type DenseIndexOptions } from './dense.js';
import { fuseRrf } from './rrf.js';

export type RetrievalMode = 'hybrid' | 'bm25' | 'dense';

export interface HybridSearchOptions {
  k: number;
  filter?: ((id: string) => boolean) | undefined;
  /** @default 'hybrid' */
  mode?: RetrievalMode | undefined;
  /** Candidates per path before fusion (at least k). @default 10 */
  candidates?: number | undefined;
  /** @default 60 */
  rrfK?: number | undefined;
}

export interface HybridIndexOptions {
  /** Dense path embedder; null = lexical only (hybrid/dense searches fall back to BM25). */
  embedder?: Embedder | null;
  bm25?: Bm25Options;
  dense?: DenseIndexOptions;
}

/**
 * BM25 + dense index over one set of documents, fused by RRF. Embeddings are computed lazily in
 * one batch before a search (documents can be added synchronously).
 *
 * @example
 * const index = new HybridIndex({ embedder: createOfflineEmbedder() });
 * index.add('s1', 'likes spicy hotpot');
 * await index.search('hotpot', { k: 4 });
 */
export class HybridIndex {
  readonly bm25: Bm25Index;
  readonly dense: DenseIndex;
  private readonly embedder: Embedder | null;
  private readonly pending = new Map<string, string>();
  private flushing: Promise<void> | null = null;

  constructor(options: HybridIndexOptions = {}) {
    this.embedder = options.embedder ?? null;
    this.bm25 = new Bm25Index(options.bm25);
    this.dense = new DenseIndex(options.dense);
  }

  get size(): number {
    return this.bm25.size;
  }

  get hasDense(): boolean {
    return this.embedder !== null;
  }

  add(id: string, text: string): void {
    this.bm25.add(id, text);
    if (this.embedder !== null) {
      this.dense.remove(id);
      this.pending.set(id, text);
    }
  }

  /** Adds a document whose vector is already known (bulk loads, benchmarks). */
  addWithVector(id: string, text: string, vector: readonly number[]): void {
    this.bm25.add(id, text);
    this.pending.delete(id);
    this.dense.add(id, vector);
  }

  remove(id: string): void {
    this.bm25.remove(id);
    this.dense.remove(id);
    this.pending.delete(id);
  }

  /**
   * Embeds every document added since the last flush. Concurrent callers share one in-flight
   * batch (a search never runs against a half-embedded index).
   */
  async flush(): Promise<void> {
    while (this.flushing !== null) await this.flushing;
    if (this.embedder === null || this.pending.size === 0) return;
    const embedder = this.embedder;
    const batch = [...this.pending.entries()];
    this.pending.clear();
    this.flushing = (async () => {
      const vectors = await embedder(batch.map(([, text]) => text));
      batch.forEach(([id], index) => {
        const vector = vectors[index];
        if (vector !== undefined && this.bm25.has(id)) this.dense.add(id, vector);
      });
    })();
    try {
      await this.flushing;
    } finally {
      this.flushing = null;
    }
  }

  async search(query: string, options: HybridSearchOptions): Promise<ScoredId[]> {
    const mode = options.mode ?? 'hybrid';
    if (mode === 'bm25' || this.embedder === null) return this.searchWithVector(query, null, options);
    await this.flush();
    const [vector] = await this.embedder([query]);
    return this.searchWithVector(query, vector ?? null, options);
  }

  /** Synchronous search with a precomputed query vector (null = lexical only). */
  searchWithVector(
    query: string,
    vector: readonly number[] | null,
    options: HybridSearchOptions,
  ): ScoredId[] {
    const { k, filter } = options;
    if (k <= 0) return [];
    const mode = vector === null ? 'bm25' : (options.mode ?? 'hybrid');
    const candidates = Math.max(k, options.candidates ?? 10);
    if (mode === 'bm25') return this.bm25.search(query, k, filter);
    if (mode === 'dense') return this.dense.search(vector as readonly number[], k, filter);
    const lexical = this.bm25.search(query, candidates, filter);
    const semantic = this.dense.search(vector as readonly number[], candidates, filter);
    return fuseRrf([lexical, semantic], options.rrfK ?? 60).slice(0, k);
  }
}
