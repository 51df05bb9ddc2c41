import type { z } from 'zod';
import { MemoryOpError } from '../../errors/index.js';
import type { BigFive } from '../../schemas/common.js';
import type {
  EpisodicEntry,
  MemorySnapshot,
  PersonalityState,
  ProceduralEntry,
  SemanticEntry,
} from '../../schemas/memory.js';
import { MemoryConfig } from '../../schemas/memory-config.js';
import type { CoreMemory } from '../../schemas/persona.js';
import { clonePlain } from '../../util/clone.js';
import { HybridIndex } from '../retrieval/hybrid-index.js';
import type { Embedder, MemoryEntryType } from '../types.js';
import { type PemUpdate, updatePersonality } from './pem.js';

export type MemoryConfigInput = z.input<typeof MemoryConfig>;

/** Where an entry sits in time: `from`/`to` span (equal for point entries) and when it was written. */
export interface EntryTimes {
  from: number;
  to: number;
  createdAt: number;
}

export type AnyEntry =
  | { type: 'semantic'; entry: SemanticEntry }
  | { type: 'episodic'; entry: EpisodicEntry }
  | { type: 'procedural'; entry: ProceduralEntry };

export interface PersonaMemoryOptions {
  config?: MemoryConfigInput;
  /** Dense-path embedder; null or absent = BM25 only. */
  embedder?: Embedder | null;
  /** Start from this state (e.g. a session-end snapshot). */
  snapshot?: MemorySnapshot;
}

/**
 * PersonaVLM's memory (SPEC.md §1): core (latest), semantic (append-only), episodic
 * (append-only, per session), procedural (≤ 5, latest), personality P with PEM, plus one
 * hybrid index per searchable type. Writers decide *what* to store; this object enforces the
 * invariants (append-only, procedural cap, session boundary at t_s).
 *
 * @example
 * const memory = createPersonaMemory({ embedder: createOfflineEmbedder() });
 * memory.observeTurn('2024-03-05T14:07:00.000Z'); // { newSession: true }
 */
export class PersonaMemory {
  readonly config: MemoryConfig;
  core: CoreMemory;
  readonly semantic: SemanticEntry[] = [];
  readonly episodic: EpisodicEntry[] = [];
  procedural: ProceduralEntry[] = [];
  personality: PersonalityState;
  sessionIndex: number;
  private lastTurnTime: number | null = null;
  readonly indexes: Record<MemoryEntryType, HybridIndex>;
  private readonly entries = new Map<string, AnyEntry & { times: EntryTimes }>();

  constructor(options: PersonaMemoryOptions = {}) {
    this.config = MemoryConfig.parse(options.config ?? {});
    const make = () =>
      new HybridIndex({ embedder: options.embedder ?? null, bm25: this.config.retrieval.bm25 });
    this.indexes = { semantic: make(), episodic: make(), procedural: make() };
    const snapshot = options.snapshot;
    this.core = snapshot?.core ?? {
      human: { name: 'unknown' },
      persona: { identity: '', roles: '', interactionStyle: '' },
    };
    const neutral = this.config.pem.neutral;
    this.personality = snapshot?.personality ?? {
      p: {
        openness: neutral,
        conscientiousness: neutral,
        extraversion: neutral,
        agreeableness: neutral,
        neuroticism: neutral,
      },
      turns: 0,
    };
    this.sessionIndex = snapshot?.sessionIndex ?? -1;
    if (snapshot !== undefined) {
      for (const entry of snapshot.semantic) this.addSemantic(entry);
      this.addEpisodes(snapshot.episodic);
      this.setProcedural(snapshot.procedural);
      this.lastTurnTime = Date.parse(snapshot.time);
    }
  }

  /**
   * Registers a turn's time; a gap ≥ t_s (`sessionGapMinutes`) since the last turn — or the
   * first turn — opens a new session.
   */
  observeTurn(time: string): { newSession: boolean } {
    const at = Date.parse(time);
    const gap = this.config.sessionGapMinutes * 60_000;
    const newSession = this.lastTurnTime === null || at - this.lastTurnTime >= gap;
    if (newSession) this.sessionIndex++;
    this.lastTurnTime = at;
    return { newSession };
  }

  setPersonality(p: BigFive): void {
    this.personality = { p: { ...p }, turns: this.personality.turns };
  }

  /** One PEM step with the scores inferred from the latest user turn. */
  inferPersonality(scores: BigFive): PemUpdate {
    const update = updatePersonality(this.personality, scores, this.config.pem);
    this.personality = update.state;
    return update;
  }

  /** Appends a positive semantic write (append-only: an existing id is rejected). */
  addSemantic(entry: SemanticEntry): void {
    const at = Date.parse(entry.timestamp);
    this.register({ type: 'semantic', entry }, { from: at, to: at, createdAt: at });
    this.semantic.push(entry);
    this.indexes.semantic.add(entry.id, `${entry.content} ${entry.keywords.join(' ')}`);
  }

  /** Appends a session's episodes (created at their end time). */
  addEpisodes(entries: readonly EpisodicEntry[]): void {
    for (const entry of entries) {
      const end = Date.parse(entry.end);
      this.register({ type: 'episodic', entry }, { from: Date.parse(entry.start), to: end, createdAt: end });
      this.episodic.push(entry);
      this.indexes.episodic.add(entry.id, `${entry.summary} ${entry.keywords.join(' ')}`);
    }
  }

  /**
   * Replaces procedural memory with the latest entries: same key → the newer one wins; then at
   * most `proceduralMaxEntries` remain, newest first (ties by key). Keys in `drop` (a goal
   * achieved or given up) are removed.
   */
  setProcedural(entries: readonly ProceduralEntry[], drop: readonly string[] = []): void {
    const byKey = new Map<string, ProceduralEntry>();
    const dropped = new Set(drop);
    for (const entry of [...this.procedural, ...entries]) {
      if (dropped.has(entry.key)) continue;
      const current = byKey.get(entry.key);
      if (current === undefined || Date.parse(entry.updatedAt) >= Date.parse(current.updatedAt))
        byKey.set(entry.key, entry);
    }
    const kept = [...byKey.values()]
      .sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt) || (a.key < b.key ? -1 : 1))
      .slice(0, this.config.proceduralMaxEntries);
    for (const old of this.procedural) {
      this.indexes.procedural.remove(old.id);
      this.entries.delete(old.id);
    }
    this.procedural = kept;
    for (const entry of kept) {
      const at = Date.parse(entry.updatedAt);
      this.entries.set(entry.id, { type: 'procedural', entry, times: { from: at, to: at, createdAt: at } });
      this.indexes.procedural.add(entry.id, `${entry.key} ${entry.sentence}`);
    }
  }

  setCore(core: CoreMemory): void {
    this.core = structuredClone(core);
  }

  lookup(id: string): (AnyEntry & { times: EntryTimes }) | undefined {
    return this.entries.get(id);
  }

  /** The memory state as a session-end snapshot record. */
  snapshot(time: string): MemorySnapshot {
    return clonePlain({
      time,
      sessionIndex: this.sessionIndex,
      core: this.core,
      semantic: this.semantic,
      episodic: this.episodic,
      procedural: this.procedural,
      personality: this.personality,
    });
  }

  private register(value: AnyEntry, times: EntryTimes): void {
    if (this.entries.has(value.entry.id)) {
      throw new MemoryOpError(`memory entry id "${value.entry.id}" already exists (memory is append-only)`);
    }
    this.entries.set(value.entry.id, { ...value, times });
  }
}

/**
 * Creates a PersonaVLM memory (empty, or from a snapshot).
 *
 * @example
 * const memory = createPersonaMemory({ snapshot, embedder: embedderFromLlm(llm) });
 */
export function createPersonaMemory(options: PersonaMemoryOptions = {}): PersonaMemory {
  return new PersonaMemory(options);
}
