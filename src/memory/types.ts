import type { TreeOp } from '../schemas/memory.js';

/** Memory entry types a PersonaVLM retrieval searches. */
export type MemoryEntryType = 'semantic' | 'episodic' | 'procedural';
export const MEMORY_ENTRY_TYPES: readonly MemoryEntryType[] = ['semantic', 'episodic', 'procedural'];

/** Texts → vectors (same length each). The llm layer's `embed(role, …)` fits through `embedderFromLlm`. */
export type Embedder = (texts: string[]) => Promise<number[][]>;

/** One entry returned by a retrieval. */
export interface RetrievedEntry {
  id: string;
  type: MemoryEntryType;
  /** The text shown to the model. */
  text: string;
  /** When the entry was written (semantic), its session span start (episodic) or last update (procedural). */
  time: string;
  keywords: string[];
  /** Fused score (RRF) or the single path's score. */
  score: number;
  /** Plan evidence slots the entry records (empty when unknown). */
  slotIds: string[];
}

/** Per-type k for one call. */
export interface TopK {
  semantic: number;
  episodic: number;
  procedural: number;
}

/** Arguments of `retrieve` (the `<retrieve>` block's fields plus call controls). */
export interface RetrieveOptions {
  /** Free text or a keyword list; tokenized the same way as entries. */
  keywords: string | string[];
  /** `YYYY-MM-DD HH:MM`, ISO time or null: entries at or after this instant (inclusive). */
  startTime?: string | null | undefined;
  /** `YYYY-MM-DD HH:MM`, ISO time or null: entries at or before this minute (inclusive, to the end of the minute). */
  endTime?: string | null | undefined;
  /** Per-type k; missing types take the memory's configured defaults. */
  topK?: Partial<TopK> | undefined;
  /** Entry ids never returned (ids already retrieved in this trajectory). */
  exclude?: Iterable<string> | undefined;
  /** Only entries that existed at this instant (memory state at the question time). */
  asOf?: string | null | undefined;
  /** Which paths to fuse. @default the memory's configured mode (hybrid) */
  mode?: 'hybrid' | 'bm25' | 'dense' | undefined;
}

export interface RetrieveResult {
  entries: RetrievedEntry[];
  byType: Record<MemoryEntryType, RetrievedEntry[]>;
}

/** A parsed op line, or why the line was rejected. */
export type ParsedOpLine =
  | { ok: true; line: number; text: string; op: TreeOp }
  | { ok: false; line: number; text: string; reason: string };

export interface ParsedOps {
  ops: TreeOp[];
  lines: ParsedOpLine[];
  rejected: Array<{ line: number; text: string; reason: string }>;
}
