import { goldPersonalityScores } from '../../../memory/gold/session-targets.js';
import { PERSONALITY_CONTEXT_TURNS } from '../../../memory/gold/teacher-span.js';
import { BIG_FIVE_TRAITS } from '../../../schemas/common.js';
import type { FakeChatRequest } from '../server.js';
import { ownTraits } from './labels.js';
import { contentWords, promptContent } from './text.js';
import { writtenIn } from './written.js';

const PREFERENCE =
  /\b(i (?:really )?(?:like|love|enjoy|prefer|hate|dislike|can't stand|avoid)|i'm (?:into|allergic)|i (?:no longer|don't) (?:like|eat|drink|enjoy)|my (?:favou?rite|goal|plan|friend|partner|sister|brother|mother|father|wife|husband))\b/i;

function parseInput(request: FakeChatRequest): unknown {
  for (const message of request.messages) {
    if (message.role !== 'user') continue;
    try {
      return JSON.parse(message.content);
    } catch {
      // not the JSON input: a re-ask message
    }
  }
  return {};
}

/** The first object (depth first) that has all `keys`. */
function findObject(value: unknown, keys: string[]): Record<string, unknown> | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (!Array.isArray(value) && keys.every((k) => k in value)) return value as Record<string, unknown>;
  for (const v of Object.values(value)) {
    const found = findObject(v, keys);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Every whole number found under keys named like turn indices. */
function turnIndices(value: unknown, out = new Set<number>()): Set<number> {
  if (Array.isArray(value)) for (const v of value) turnIndices(v, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if ((k === 'index' || k === 'turnIndex') && typeof v === 'number' && Number.isInteger(v)) out.add(v);
      else turnIndices(v, out);
    }
  }
  return out;
}

/** The text of the turn a per-turn task is about (the first `{speaker, text}` object: `turn`). */
function turnText(input: unknown): string {
  const turn = findObject(input, ['speaker', 'text']);
  return typeof turn?.text === 'string' ? turn.text : '';
}

/** `semantic_write`: writes when the turn itself states a lasting preference, relation or goal. */
function semanticWrite(input: unknown): unknown {
  const text = turnText(input);
  const decision = PREFERENCE.test(text);
  const sentence = text.split(/(?<=[.!?])\s+/).find((s) => PREFERENCE.test(s)) ?? text;
  return {
    reason: decision ? 'the user states something lasting about themselves' : 'small talk, nothing lasting',
    decision,
    content: decision ? `The user said: ${sentence.trim()}` : null,
    keywords: decision ? contentWords(sentence).slice(0, 3) : [],
  };
}

/** The user messages of a per-turn input's context (`context: [{speaker, text}]`), oldest first. */
function contextUserTexts(input: unknown): string[] {
  const context = (input as { context?: unknown } | null)?.context;
  if (!Array.isArray(context)) return [];
  return context.flatMap((item: { speaker?: unknown; text?: unknown }) =>
    item?.speaker === 'user' && typeof item.text === 'string' ? [item.text] : [],
  );
}

/**
 * `personality_inference`: a message the fake wrote is graded from what it let show (its own
 * trait lines, as its personality-evidence/1 judge grades them: ./labels.ts), 3 for the rest. A
 * message it did not write (offline text sent to an online memory stage) is read as a reader of
 * several messages reads it (src/memory/gold/personality-reading.ts): the latest and the user
 * messages of its context. No cue list shared with a writer decides.
 */
function personality(input: unknown): unknown {
  const text = turnText(input);
  const own = ownTraits(text);
  if (own.size > 0 || writtenIn(text) !== null)
    return Object.fromEntries(BIG_FIVE_TRAITS.map((trait) => [trait, own.get(trait) ?? 3]));
  return goldPersonalityScores([...contextUserTexts(input), text]);
}

/** `core_update`: the current core memory kept as it is (the fake adds nothing it cannot read). */
function coreUpdate(input: unknown): unknown {
  const core = findObject(input, ['human']);
  const asStrings = (value: unknown) =>
    Object.fromEntries(
      Object.entries((value ?? {}) as Record<string, unknown>).map(([k, v]) => [
        k,
        Array.isArray(v) ? v.join(', ') : String(v ?? ''),
      ]),
    );
  return { human: asStrings(core?.human ?? { name: 'the user' }), persona: asStrings(core?.persona) };
}

/** The texts of every `{speaker, text}` turn in a JSON value. */
function turnTexts(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) turnTexts(v, out);
  else if (value !== null && typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (typeof v.speaker === 'string' && typeof v.text === 'string') out.push(v.text);
    else for (const child of Object.values(v)) turnTexts(child, out);
  }
  return out;
}

/** `episodic_summary`: one episode covering every turn of the session, named by what was said. */
function episodes(input: unknown): unknown {
  const indices = [...turnIndices(input)].sort((a, b) => a - b);
  const text = turnTexts(input).join(' ');
  return {
    episodes: [
      {
        topic_summary: `The user and the assistant talked about ${contentWords(text).slice(0, 3).join(', ') || 'everyday plans'}.`,
        keywords: contentWords(text).slice(0, 3),
        source_dialog_indices: indices,
      },
    ],
  };
}

/** `procedural_update`: the current entries, kept. */
function procedural(input: unknown): unknown {
  const entries = findObject(input, ['key', 'sentence']) === undefined ? [] : collectEntries(input);
  return { entries: entries.slice(0, 5) };
}

function collectEntries(value: unknown, out: Array<{ key: string; sentence: string }> = []) {
  if (Array.isArray(value)) for (const v of value) collectEntries(v, out);
  else if (value !== null && typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (typeof v.key === 'string' && typeof v.sentence === 'string')
      out.push({ key: v.key, sentence: v.sentence });
    else for (const child of Object.values(v)) collectEntries(child, out);
  }
  return out;
}

/**
 * `memory_session`: every target of one session in one answer, each part answered exactly as the
 * per-trace prompt of that target would be (the turn and its reply; the session's turns; the
 * state the session began with), so both ways of asking give the same targets.
 */
function sessionAnswer(input: unknown): unknown {
  const body = (input ?? {}) as {
    state?: { core?: unknown; procedural?: unknown };
    turns?: Array<[number, string, string, string[]?]>;
    ask?: { turns?: number[]; chunks?: number[]; session_end?: boolean };
  };
  const turns = (body.turns ?? []).map(([index, speaker, text, images]) => ({
    index,
    speaker: speaker === 'U' ? 'user' : 'assistant',
    text,
    images: images ?? [],
  }));
  const at = (index: number) => turns.findIndex((turn) => turn.index === index);
  const answer: Record<string, unknown> = {
    turns: (body.ask?.turns ?? []).map((index) => {
      const turn = turns[at(index)];
      const next = turns[at(index) + 1];
      // The context a per-turn prompt shows: the session's turns before this one (replay.ts).
      const context = turns.slice(Math.max(0, at(index) - PERSONALITY_CONTEXT_TURNS), at(index));
      const view = { turn, context, reply: next?.speaker === 'assistant' ? next : null };
      return { i: index, semantic_write: semanticWrite(view), personality_inference: personality(view) };
    }),
    tree_ops: (body.ask?.chunks ?? []).map((end) => ({ end, ops: 'NO_OP()' })),
  };
  if (body.ask?.session_end === true) {
    answer.core_update = coreUpdate({ core: body.state?.core });
    answer.episodic_summary = episodes({ turns });
    answer.procedural_update = procedural({ procedural: body.state?.procedural });
  }
  return answer;
}

/** The teacher tasks of the memory stage, answered from the JSON input they send. */
export function teacherAnswer(task: string, request: FakeChatRequest): unknown {
  const input = parseInput(request);
  switch (task) {
    case 'semantic_write':
      return semanticWrite(input);
    case 'personality_inference':
      return personality(input);
    case 'core_update':
      return coreUpdate(input);
    case 'episodic_summary':
      return episodes(input);
    case 'procedural_update':
      return procedural(input);
    case 'tree_ops':
      return { ops: 'NO_OP()' };
    case 'memory_session':
      return sessionAnswer(input);
    default:
      return undefined;
  }
}

/** `persona_enrichment`: a role description and core memory written from the given persona. */
export function enrichmentAnswer(request: FakeChatRequest): unknown {
  const prompt = promptContent(request.messages, 'Base persona:');
  let persona: Record<string, unknown> = {};
  let bigFive: Record<string, number> = {};
  try {
    persona = JSON.parse(/Base persona:\n(\{[\s\S]*?\n\})/.exec(prompt)?.[1] ?? '{}') as Record<
      string,
      unknown
    >;
    bigFive = JSON.parse(/fixed, do not change them\):\n(\{.*\})/.exec(prompt)?.[1] ?? '{}') as Record<
      string,
      number
    >;
  } catch {
    // answer with what could be read
  }
  const name = String(persona.name ?? 'The user');
  const interests = Array.isArray(persona.interests) ? (persona.interests as string[]) : [];
  const trait = (t: string, high: string, low: string) =>
    (bigFive[t] ?? 3) >= 4 ? high : (bigFive[t] ?? 3) <= 2 ? low : null;
  const traits = [
    trait('extraversion', 'outgoing and talkative', 'quiet and reserved'),
    trait('conscientiousness', 'organised', 'spontaneous'),
    trait('openness', 'curious about new things', 'fond of routine'),
    trait('agreeableness', 'warm and polite', 'direct'),
    trait('neuroticism', 'prone to worry', 'calm under pressure'),
  ].filter((t): t is string => t !== null);
  const personalityLine =
    traits.length > 0 ? `${name} is ${traits.join(', ')}.` : `${name} has a balanced temperament.`;
  return {
    roleDescription:
      `${name} is ${persona.age ?? 'an adult'} and works as ${persona.occupation ?? 'a professional'} in ${persona.location ?? 'their city'}. ${personalityLine} ${interests.length > 0 ? `In free time ${name} enjoys ${interests.slice(0, 3).join(', ')}.` : ''}`.trim(),
    human: {
      age: String(persona.age ?? ''),
      gender: String(persona.gender ?? ''),
      occupation: String(persona.occupation ?? ''),
      location: String(persona.location ?? ''),
      family: String(persona.family ?? ''),
      education: String(persona.education ?? ''),
      interests: interests.join(', '),
      preferences: interests
        .slice(0, 2)
        .map((i) => `likes ${i}`)
        .join('; '),
      personality: personalityLine,
    },
    persona: {
      identity: `${name}'s personal assistant`,
      roles: 'planning, reminders, recommendations',
      interactionStyle: (bigFive.extraversion ?? 3) >= 4 ? 'lively and friendly' : 'brief and to the point',
    },
  };
}
