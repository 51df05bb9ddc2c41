import { z } from 'zod';
import { MemoryOpError } from '../../errors/index.js';
import { DualLayerConfig } from '../../schemas/memory-config.js';
import { HybridIndex } from '../retrieval/hybrid-index.js';
import { fuseRrf } from '../retrieval/rrf.js';
import { createTimeWindow, inWindow } from '../retrieval/time-window.js';
import type { Embedder } from '../types.js';

/** One raw message (append-only, ids 1, 2, 3, … in arrival order). */
export interface RawMessage {
  id: number;
  time: string;
  speaker: string;
  text: string;
  images: string[];
}

/** An inclusive range of raw message ids, `[first, last]` (M²A `evidence_ids="[[1,3],[5,5]]"`). */
export type EvidenceRange = [number, number];

export interface DualLayerEntry {
  id: string;
  /** `memory` for a fact, `update` for the record of a contradiction resolved by replacement. */
  kind: 'memory' | 'update';
  text: string;
  caption: string | null;
  image: string | null;
  evidenceIds: EvidenceRange[];
  time: string;
}

export interface UpdateRecord {
  id: string;
  time: string;
  deletedId: string;
  addedId: string;
  reason: string;
}

export interface DualLayerHit {
  entry: DualLayerEntry;
  score: number;
  /** 1-based rank per path (null when the path did not return it). */
  ranks: { dense: number | null; bm25: number | null; caption: number | null };
}

export const AddMemoryInput = z
  .object({
    text: z.string().min(1),
    caption: z.string().nullish(),
    image: z.string().nullish(),
    evidenceIds: z.array(z.tuple([z.number().int().min(1), z.number().int().min(1)])).min(1),
    time: z.string(),
  })
  .strict();
export type AddMemoryInput = z.input<typeof AddMemoryInput>;

/**
 * M²A's dual-layer memory (SPEC.md §3): an append-only raw message store and a semantic store
 * whose entries carry text, image caption, image reference and `evidence_ids` ranges into the
 * raw store. Search is tri-path — dense text similarity, BM25, and caption similarity (the
 * image path; captions stand in for image embeddings offline) — top `perPathTopK` each, fused
 * by RRF. A contradiction is resolved by deleting the old entry, adding the new one and adding
 * an update record (itself searchable).
 *
 * @example
 * const memory = createDualLayerMemory({ embedder });
 * const m = memory.appendMessage({ time, speaker: 'user', text: 'This is <Bobo>, my cat', images: ['img-1'] });
 * memory.addMemory({ text: 'Bobo is the user’s cat', caption: 'a grey cat', image: 'img-1', evidenceIds: [[m.id, m.id]], time });
 */
export class DualLayerMemory {
  readonly config: DualLayerConfig;
  private readonly messages: RawMessage[] = [];
  private readonly entries = new Map<string, DualLayerEntry>();
  readonly updates: UpdateRecord[] = [];
  private readonly textIndex: HybridIndex;
  private readonly captionIndex: HybridIndex;
  private nextEntry = 1;

  constructor(options: { config?: z.input<typeof DualLayerConfig>; embedder?: Embedder | null } = {}) {
    this.config = DualLayerConfig.parse(options.config ?? {});
    this.textIndex = new HybridIndex({ embedder: options.embedder ?? null });
    this.captionIndex = new HybridIndex({ embedder: options.embedder ?? null });
  }

  appendMessage(message: Omit<RawMessage, 'id' | 'images'> & { images?: string[] }): RawMessage {
    const last = this.messages[this.messages.length - 1];
    if (last !== undefined && Date.parse(message.time) < Date.parse(last.time)) {
      throw new MemoryOpError(
        `raw message at ${message.time} is earlier than the last one (${last.time}); the raw store is append-only`,
      );
    }
    const stored: RawMessage = { id: this.messages.length + 1, images: [], ...message };
    this.messages.push(stored);
    return stored;
  }

  get messageCount(): number {
    return this.messages.length;
  }

  /** Raw messages inside the given inclusive id ranges (M²A `fetch_raw_messages`). */
  fetchRawMessages(ranges: readonly EvidenceRange[]): RawMessage[] {
    const ids = new Set<number>();
    for (const [first, last] of ranges) for (let id = first; id <= last; id++) ids.add(id);
    return [...ids].sort((a, b) => a - b).flatMap((id) => this.messages[id - 1] ?? []);
  }

  /** Raw messages in a time window (boundaries as in `<retrieve>` blocks, both inclusive). */
  fetchRawMessagesByTime(start: string | null, end: string | null): RawMessage[] {
    const window = createTimeWindow(start, end);
    return this.messages.filter((message) => inWindow(window, Date.parse(message.time)));
  }

  entry(id: string): DualLayerEntry | undefined {
    return this.entries.get(id);
  }

  list(): DualLayerEntry[] {
    return [...this.entries.values()];
  }

  /** Adds a semantic entry; every evidence range must point at stored raw messages. */
  addMemory(input: AddMemoryInput, kind: DualLayerEntry['kind'] = 'memory'): DualLayerEntry {
    const parsed = AddMemoryInput.parse(input);
    for (const [first, last] of parsed.evidenceIds) {
      if (first > last || last > this.messages.length) {
        throw new MemoryOpError(
          `evidence range [${first}, ${last}] is not inside the raw store (1…${this.messages.length}, first ≤ last)`,
        );
      }
    }
    const entry: DualLayerEntry = {
      id: `mem-${this.nextEntry++}`,
      kind,
      text: parsed.text,
      caption: parsed.caption ?? null,
      image: parsed.image ?? null,
      evidenceIds: parsed.evidenceIds,
      time: parsed.time,
    };
    this.entries.set(entry.id, entry);
    this.textIndex.add(entry.id, entry.text);
    if (entry.caption !== null) this.captionIndex.add(entry.id, entry.caption);
    return entry;
  }

  deleteMemory(id: string): DualLayerEntry {
    const entry = this.entries.get(id);
    if (entry === undefined) throw new MemoryOpError(`no semantic memory "${id}" to delete`);
    this.entries.delete(id);
    this.textIndex.remove(id);
    this.captionIndex.remove(id);
    return entry;
  }

  /** Contradiction handling (M²A): delete the old entry, add the new one, add an update record. */
  replaceMemory(
    oldId: string,
    input: AddMemoryInput,
    reason: string,
  ): { deleted: DualLayerEntry; added: DualLayerEntry; record: UpdateRecord } {
    const deleted = this.deleteMemory(oldId);
    const added = this.addMemory(input);
    const note = this.addMemory(
      {
        text: `Update: "${deleted.text}" was replaced by "${added.text}" (${reason})`,
        evidenceIds: [...deleted.evidenceIds, ...added.evidenceIds],
        time: added.time,
      },
      'update',
    );
    const record: UpdateRecord = {
      id: note.id,
      time: added.time,
      deletedId: deleted.id,
      addedId: added.id,
      reason,
    };
    this.updates.push(record);
    return { deleted, added, record };
  }

  /** Tri-path search fused by RRF; `caption` queries the caption path (defaults to `text`). */
  async search(
    query: { text: string; caption?: string | null },
    options: { topK?: number } = {},
  ): Promise<DualLayerHit[]> {
    const perPath = this.config.perPathTopK;
    const hasDense = this.textIndex.hasDense;
    const [dense, bm25, caption] = await Promise.all([
      hasDense ? this.textIndex.search(query.text, { k: perPath, mode: 'dense' }) : Promise.resolve([]),
      this.textIndex.search(query.text, { k: perPath, mode: 'bm25' }),
      this.captionIndex.search(query.caption ?? query.text, {
        k: perPath,
        mode: hasDense ? 'dense' : 'bm25',
      }),
    ]);
    const rankOf = (list: Array<{ id: string }>, id: string) => {
      const at = list.findIndex((item) => item.id === id);
      return at < 0 ? null : at + 1;
    };
    return fuseRrf([dense, bm25, caption], this.config.rrfK)
      .slice(0, options.topK ?? this.config.topK)
      .map((hit) => ({
        entry: this.entries.get(hit.id) as DualLayerEntry,
        score: hit.score,
        ranks: { dense: rankOf(dense, hit.id), bm25: rankOf(bm25, hit.id), caption: rankOf(caption, hit.id) },
      }));
  }
}

/**
 * Creates an empty M²A dual-layer memory.
 *
 * @example
 * const memory = createDualLayerMemory({ embedder: embedderFromLlm(llm) });
 */
export function createDualLayerMemory(
  options: { config?: z.input<typeof DualLayerConfig>; embedder?: Embedder | null } = {},
): DualLayerMemory {
  return new DualLayerMemory(options);
}
