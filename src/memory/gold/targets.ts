import { BIG_FIVE_TRAITS, type BigFive } from '../../schemas/common.js';
import type { EpisodicEntry, ProceduralEntry } from '../../schemas/memory.js';
import type { CoreMemory } from '../../schemas/persona.js';

/**
 * The exact texts memory-task targets are emitted in, following PersonaVLM's prompt formats
 * (FORMATS.md §7): `"key": value` lines for semantic decisions, core and procedural memory, and
 * a JSON list for episodic segments. Parsers for the same formats live beside them so teacher
 * answers and model outputs are compared on values, not on spelling.
 */
export interface SemanticDecision {
  reason: string;
  decision: boolean;
  content: string | null;
  keywords: string[];
}

const quoteFree = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim();

/**
 * @example
 * formatSemanticDecision({ reason: 'r', decision: false, content: null, keywords: [] });
 * // '"reason": r\n"decision": False\n"content": None\n"keywords": None'
 */
export function formatSemanticDecision(value: SemanticDecision): string {
  return [
    `"reason": ${quoteFree(value.reason)}`,
    `"decision": ${value.decision ? 'True' : 'False'}`,
    `"content": ${value.decision && value.content !== null ? quoteFree(value.content) : 'None'}`,
    `"keywords": ${value.decision && value.keywords.length > 0 ? value.keywords.join(', ') : 'None'}`,
  ].join('\n');
}

/**
 * `"openness": 4` lines, traits in the Big Five order.
 *
 * @example
 * formatPersonalityScores(scores); // '"openness": 4\n"conscientiousness": 3…'
 */
export function formatPersonalityScores(scores: BigFive): string {
  return BIG_FIVE_TRAITS.map((trait) => `"${trait}": ${scores[trait]}`).join('\n');
}

/**
 * Core memory as `"human.key": value` / `"persona.key": value` lines (keys in stored order).
 *
 * @example
 * formatCoreMemory(core); // '"human.name": Ana\n…'
 */
export function formatCoreMemory(core: CoreMemory): string {
  const lines: string[] = [];
  for (const [block, values] of [
    ['human', core.human],
    ['persona', core.persona],
  ] as const) {
    for (const [key, value] of Object.entries(values))
      lines.push(`"${block}.${key}": ${quoteFree(String(value))}`);
  }
  return lines.join('\n');
}

/**
 * Procedural memory as `"unique key": sentence` lines.
 *
 * @example
 * formatProcedural(memory.procedural); // '"habit run": Ana runs every morning'
 */
export function formatProcedural(entries: readonly ProceduralEntry[]): string {
  // Nothing to keep is said explicitly: an empty target would train the model to say nothing.
  if (entries.length === 0) return NO_CHANGE;
  return entries.map((entry) => `"${entry.key}": ${quoteFree(entry.sentence)}`).join('\n');
}

/** The explicit answer of a memory update with nothing to write (never an empty target). */
export const NO_CHANGE = 'NO_CHANGE';

/**
 * Episodic segments as PersonaVLM's JSON list (`topic_summary`, `keywords`, `source_dialog_indices`).
 *
 * @example
 * formatEpisodes(episodes); // '[{"topic_summary":…,"keywords":[…],"source_dialog_indices":[0,1]}]'
 */
export function formatEpisodes(entries: readonly EpisodicEntry[]): string {
  return JSON.stringify(
    entries.map((entry) => ({
      topic_summary: entry.summary,
      keywords: entry.keywords,
      source_dialog_indices: entry.turnIndices,
    })),
  );
}

/**
 * Reads `"key": value` lines (the semantic, core and procedural formats) into a map; lines that
 * do not match are ignored.
 *
 * @example
 * parseKeyValueLines('"decision": True').decision; // 'True'
 */
export function parseKeyValueLines(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*"([^"]+)"\s*:\s*(.*?)\s*$/.exec(line);
    if (match !== null) out[match[1] as string] = match[2] as string;
  }
  return out;
}
