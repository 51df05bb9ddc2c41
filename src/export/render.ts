import type { MemorySnapshot } from '../schemas/memory.js';
import { formatMinute } from './time-format.js';

/** A message row as ms-swift reads it (ms-swift.md §4). */
export interface Message {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
}

/** Turn-like values found in a trace input. */
interface TurnLike {
  time?: string;
  speaker?: string;
  text?: string;
  images?: string[];
  index?: number;
}

const isTurn = (item: unknown): item is TurnLike =>
  item !== null && typeof item === 'object' && !Array.isArray(item) && 'text' in item && 'speaker' in item;

const isTurnList = (value: unknown): value is TurnLike[] => Array.isArray(value) && value.every(isTurn);

/** The literal image tag: only a rendered turn's own images may carry one (ms-swift fills tags in order). */
const IMAGE_TAG = '<image>';

/**
 * A turn's rendered line, by turn object: a decoded memory record quotes each turn as one
 * object in every trace that shows it (records are never mutated), so each is rendered once.
 */
const turnLines = new WeakMap<object, string>();

/**
 * Renders a memory-trace input as readable sections: turns (a list, or a single turn such as the
 * one being written to memory) as `[time] #i speaker: text` lines with one `<image>` per image at
 * the start, collected into `images`; other fields as JSON. A literal `<image>` anywhere else is
 * written `[image]`, so the row's tags are exactly its images.
 *
 * @example renderTraceInput({ turns: [...] }, (id) => `images/${id}.png`).text
 */
export function renderTraceInput(
  input: Record<string, unknown>,
  imagePath: (id: string) => string,
): { text: string; images: string[] } {
  const images: string[] = [];
  const sections: string[] = [];
  const line = (turn: TurnLike) => {
    const ids = turn.images ?? [];
    for (const id of ids) images.push(imagePath(id));
    let rendered = turnLines.get(turn);
    if (rendered === undefined) {
      const text = (turn.text ?? '').replaceAll(IMAGE_TAG, '').trim();
      const time = turn.time === undefined ? '' : `[${formatMinute(turn.time)}] `;
      const index = turn.index === undefined ? '' : `#${turn.index} `;
      rendered = `${time}${index}${turn.speaker}: ${IMAGE_TAG.repeat(ids.length)}${text}`;
      turnLines.set(turn, rendered);
    }
    return rendered;
  };
  for (const key of Object.keys(input).sort()) {
    const value = input[key];
    if (isTurnList(value)) sections.push(`## ${key}\n${value.map(line).join('\n')}`);
    else if (isTurn(value)) sections.push(`## ${key}\n${line(value)}`);
    else {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      sections.push(`## ${key}\n${text.replaceAll(IMAGE_TAG, '[image]')}`);
    }
  }
  return { text: sections.join('\n\n'), images };
}

/** The user's state at question time as the reasoning prompt shows it (core memory and personality). */
export function renderProfile(snapshot: MemorySnapshot | null): string {
  if (snapshot === null) return 'No profile yet.';
  let profile = profiles.get(snapshot);
  if (profile === undefined) {
    profile = profileText(snapshot);
    profiles.set(snapshot, profile);
  }
  return profile;
}

/** Rendered once per snapshot object: every question between two sessions shows the same one. */
const profiles = new WeakMap<object, string>();

function profileText(snapshot: MemorySnapshot): string {
  const human = Object.entries(snapshot.core.human).map(([key, value]) => `${key}: ${value}`);
  const persona = Object.entries(snapshot.core.persona).map(([key, value]) => `${key}: ${value}`);
  const traits = Object.entries(snapshot.personality.p).map(
    ([trait, value]) => `${trait} ${value.toFixed(1)}`,
  );
  return [
    `User profile:\n${human.join('\n')}`,
    `Your role:\n${persona.join('\n')}`,
    `User personality (1-5): ${traits.join(', ')}`,
  ].join('\n\n');
}

/** The last snapshot taken at or before `iso` (memory never sees the future), else null. */
export function snapshotAt(snapshots: readonly MemorySnapshot[], iso: string): MemorySnapshot | null {
  const time = Date.parse(iso);
  let times = snapshotTimes.get(snapshots);
  if (times === undefined || times.length !== snapshots.length) {
    times = snapshots.map((snapshot) => Date.parse(snapshot.time));
    snapshotTimes.set(snapshots, times);
  }
  let found: MemorySnapshot | null = null;
  for (let i = 0; i < snapshots.length; i++)
    if ((times[i] as number) <= time) found = snapshots[i] as MemorySnapshot;
  return found;
}

/** Parsed snapshot times per list (a record's list is asked once per question). */
const snapshotTimes = new WeakMap<readonly MemorySnapshot[], number[]>();
