/**
 * Hand-built, schema-valid users (plan + dialogue + memory) that pass every rule check, for the
 * validate and export tests and the benchmark. Deterministic for a seed; text varied enough that
 * no two utterances are near-duplicates.
 */
import type { UserDialogue } from '../../src/schemas/dialogue.js';
import type { MemorySnapshot, MemoryTrace, UserMemory } from '../../src/schemas/memory.js';
import type { EvidenceSlot, UserPlan } from '../../src/schemas/plan.js';
import { createRng } from '../../src/util/rng.js';
import { buildFixtureQa } from './fixture-qa.js';

const WORDS =
  'morning river garden ticket museum coffee jacket laptop violin recipe bakery mountain novel concert tennis market lantern harbor station painting kitchen balcony sunset festival library puzzle camera bicycle ocean forest meadow candle blanket notebook teapot scarf pillow window carpet mirror bridge island canyon valley desert glacier village castle temple theater stadium airport subway tunnel'.split(
    ' ',
  );

export interface FixtureOptions {
  seed?: number;
  split?: 'train' | 'test';
  sessions?: number;
  roundsPerSession?: number;
  /** Start of the first session (ISO). */
  start?: string;
}

const iso = (ms: number) => new Date(ms).toISOString();
const _fmt = (ms: number) => iso(ms).slice(0, 16).replace('T', ' ');
const MIN = 60_000;
const DAY = 24 * 60 * MIN;

/**
 * Builds one clean user.
 *
 * @example const { plan, dialogue, memory } = buildFixtureUser('user-0001');
 */
export function buildFixtureUser(
  userId: string,
  options: FixtureOptions = {},
): { plan: UserPlan; dialogue: UserDialogue; memory: UserMemory } {
  const seed = options.seed ?? 7;
  const rng = createRng(seed, 'fixture', userId);
  const sessionsCount = options.sessions ?? 3;
  const rounds = options.roundsPerSession ?? 4;
  const t0 = Date.parse(options.start ?? '2024-03-01T09:00:00.000Z');
  // No word twice in a row (validation reads "garden garden" as an ungrammatical join).
  const phrase = (n: number) => {
    const out: string[] = [];
    while (out.length < n) {
      const word = rng.pick(WORDS);
      if (word !== out.at(-1)) out.push(word);
    }
    return out.join(' ');
  };
  const name = `Alex ${userId.slice(-4)}`;
  const bigFive = { openness: 4, conscientiousness: 3, extraversion: 2, agreeableness: 4, neuroticism: 2 };
  const images = [
    {
      id: `${userId}-img-0`,
      path: 'builtin/cat-0.png',
      caption: 'a grey cat on a sofa',
      objects: [{ name: 'cat', color: 'grey', count: 1 }],
    },
  ];
  const slots: EvidenceSlot[] = [];
  const planSessions: UserPlan['sessions'] = [];
  const dialogueSessions: UserDialogue['sessions'] = [];
  const snapshots: MemorySnapshot[] = [];
  const traces: MemoryTrace[] = [];
  const core = {
    human: { name },
    persona: { identity: 'assistant', roles: 'helper', interactionStyle: 'warm' },
  };
  const semantic: MemorySnapshot['semantic'] = [];
  const episodic: MemorySnapshot['episodic'] = [];
  const procedural: MemorySnapshot['procedural'] = [];
  const personality = { p: bigFive, turns: 0 };
  snapshots.push({
    time: iso(t0 - MIN),
    sessionIndex: -1,
    core,
    semantic: [],
    episodic: [],
    procedural: [],
    personality,
  });
  const treeVersions: UserMemory['tree']['versions'] = [];
  for (let s = 0; s < sessionsCount; s++) {
    const start = t0 + s * 2 * DAY;
    const gap = 3;
    const slotId = `${userId}-slot-${s}`;
    const keyword = `dish${s}x${userId.slice(-4)}`;
    slots.push({
      id: slotId,
      kind: s === 1 ? 'image' : 'preference',
      refId: `pref-${s}`,
      sessionIndex: s,
      round: 0,
      time: iso(start),
      statement: `likes ${keyword}`,
      keywords: [keyword],
      imageId: s === 1 ? images[0]!.id : null,
    });
    planSessions.push({
      index: s,
      start: iso(start),
      rounds,
      roundGapMinutes: gap,
      topics: [phrase(2)],
      noise: [],
      images: s === 1 ? [{ round: 0, imageId: images[0]!.id }] : [],
    });
    const turns: UserDialogue['sessions'][number]['turns'] = [];
    for (let r = 0; r < rounds; r++) {
      const time = start + r * gap * MIN;
      const withImage = s === 1 && r === 0;
      const userText =
        r === 0
          ? `${withImage ? '<image> ' : ''}I really enjoy ${keyword} these days, ${phrase(10)}.`
          : `Could you tell me about the ${phrase(12)}?`;
      turns.push({
        id: `${userId}:S${s}:T${2 * r}`,
        index: 2 * r,
        round: r,
        time: iso(time),
        speaker: 'user',
        text: userText,
        images: withImage ? [images[0]!.id] : [],
        slots: r === 0 ? [slotId] : [],
        noise: null,
      });
      turns.push({
        id: `${userId}:S${s}:T${2 * r + 1}`,
        index: 2 * r + 1,
        round: r,
        time: iso(time + MIN),
        speaker: 'assistant',
        text: `Sure, here is something about the ${phrase(12)}.`,
        images: [],
        slots: [],
        noise: null,
      });
    }
    dialogueSessions.push({
      index: s,
      start: turns[0]!.time,
      end: turns[turns.length - 1]!.time,
      topics: [phrase(2)],
      turns,
    });
    const end = turns[turns.length - 1]!.time;
    semantic.push({
      id: `${userId}-sem-${s}`,
      reason: 'stated preference',
      content: `${name} likes ${keyword}`,
      keywords: [keyword],
      timestamp: turns[0]!.time,
      turnId: turns[0]!.id,
      sessionIndex: s,
      imageIds: s === 1 ? [images[0]!.id] : [],
      slotIds: [slotId],
    });
    const half = Math.ceil(turns.length / 2);
    episodic.push(
      {
        id: `${userId}-epi-${s}-0`,
        sessionIndex: s,
        summary: `talked about ${keyword}`,
        keywords: [keyword],
        turnIndices: range(0, half),
        start: turns[0]!.time,
        end: turns[half - 1]!.time,
        slotIds: [slotId],
      },
      {
        id: `${userId}-epi-${s}-1`,
        sessionIndex: s,
        summary: `talked about ${phrase(3)}`,
        keywords: [phrase(1)],
        turnIndices: range(half, turns.length),
        start: turns[half]!.time,
        end,
        slotIds: [],
      },
    );
    procedural.splice(0, procedural.length, {
      id: `${userId}-proc-0`,
      key: 'routine',
      sentence: `walks every ${phrase(1)}`,
      updatedAt: end,
      slotIds: [],
    });
    const traceTurns = turns.slice(0, 2).map(({ id, index, time, speaker, text, images: ids }) => ({
      id,
      index,
      time,
      speaker,
      text,
      images: ids,
    }));
    traces.push(
      {
        id: `${userId}-tr-sem-${s}`,
        task: 'semantic_write',
        userId,
        sessionIndex: s,
        turnId: turns[0]!.id,
        time: turns[0]!.time,
        input: { turns: traceTurns.slice(0, 1) },
        gold: { text: `"decision": True\n"content": likes ${keyword}`, value: { decision: true } },
        teacher: null,
      },
      {
        id: `${userId}-tr-pers-${s}`,
        task: 'personality_inference',
        userId,
        sessionIndex: s,
        turnId: turns[0]!.id,
        time: turns[0]!.time,
        input: { time: turns[0]!.time, turn: traceTurns[0], context: [], personality: 'balanced' },
        // The message shows no trait cue: every trait reads 3 (no evidence), whatever the profile.
        gold: {
          text: '"openness": 3\n"conscientiousness": 3\n"extraversion": 3\n"agreeableness": 3\n"neuroticism": 3',
          value: { openness: 3, conscientiousness: 3, extraversion: 3, agreeableness: 3, neuroticism: 3 },
        },
        teacher: null,
      },
      {
        id: `${userId}-tr-core-${s}`,
        task: 'core_update',
        userId,
        sessionIndex: s,
        turnId: turns[turns.length - 1]!.id,
        time: end,
        input: { turns: traceTurns, core },
        gold: { text: `"name": ${name}`, value: core },
        teacher: null,
      },
      {
        id: `${userId}-tr-epi-${s}`,
        task: 'episodic_summary',
        userId,
        sessionIndex: s,
        turnId: turns[turns.length - 1]!.id,
        time: end,
        input: { turns: traceTurns },
        gold: { text: `{"topic_summary": "talked about ${keyword}"}`, value: episodic.slice(-2) },
        teacher: null,
      },
      {
        id: `${userId}-tr-proc-${s}`,
        task: 'procedural_update',
        userId,
        sessionIndex: s,
        turnId: turns[turns.length - 1]!.id,
        time: end,
        input: { turns: traceTurns, procedural: [] },
        gold: { text: `"routine": walks`, value: [...procedural] },
        teacher: null,
      },
      {
        id: `${userId}-tr-tree-${s}`,
        task: 'tree_ops',
        userId,
        sessionIndex: s,
        turnId: turns[2]!.id,
        time: turns[2]!.time,
        input: { turns: traceTurns },
        gold: {
          text: `ADD(5_Behavioral_Characteristics.Lifestyle.Self_Care.dish, "likes ${keyword}")`,
          value: [],
        },
        teacher: null,
      },
    );
    treeVersions.push({
      version: s + 1,
      sessionIndex: s,
      turnIds: turns.slice(0, 3).map((turn) => turn.id),
      time: turns[2]!.time,
      ops: [
        {
          op: 'ADD',
          path: `5_Behavioral_Characteristics.Lifestyle.Self_Care.dish_${s}`,
          value: `likes ${keyword}`,
        },
      ],
      opsText: `ADD(5_Behavioral_Characteristics.Lifestyle.Self_Care.dish_${s}, "likes ${keyword}")`,
      diff: [
        {
          path: `5_Behavioral_Characteristics.Lifestyle.Self_Care.dish_${s}`,
          before: null,
          after: `likes ${keyword}`,
        },
      ],
    });
    snapshots.push({
      time: end,
      sessionIndex: s,
      core,
      semantic: [...semantic],
      episodic: [...episodic],
      procedural: [...procedural],
      personality: { p: bigFive, turns: (s + 1) * rounds },
    });
  }
  const lastEnd = Date.parse(dialogueSessions[dialogueSessions.length - 1]!.end);
  const { qa, trajectories, asked } = buildFixtureQa(userId, slots, semantic, lastEnd);
  const plan: UserPlan = {
    schemaVersion: 1,
    userId,
    split: options.split ?? 'train',
    profile: 'personavlm',
    horizon: { start: iso(t0), end: iso(asked + DAY) },
    enriched: {
      persona: {
        id: `p-${userId}`,
        source: 'builtin',
        description: 'A curious cook who loves markets.',
        name,
        age: 31,
        gender: 'female',
        occupation: 'chef',
        location: { city: 'Lyon', country: 'France', regionTier: 'tier2' },
        family: 'single',
        lifeStage: 'early career',
        education: 'college',
        interests: ['cooking'],
      },
      bigFive,
      roleDescription: `${name} is a curious cook.`,
      coreMemory: core,
      enrichedBy: 'offline',
    },
    preferences: [],
    drift: [],
    personality: [{ time: iso(t0), bigFive, cause: 'initial' }],
    people: [],
    goals: [],
    habits: [],
    concepts: [],
    images,
    sessions: planSessions,
    slots,
    qa,
  };
  const dialogue: UserDialogue = {
    schemaVersion: 1,
    userId,
    realizer: 'offline',
    offline: true,
    sessions: dialogueSessions,
    behaviors: [],
  };
  const memory: UserMemory = {
    schemaVersion: 1,
    userId,
    offline: true,
    snapshots,
    traces,
    tree: { schemaId: 'human_tree_en', chunkTurns: 3, initial: {}, versions: treeVersions, final: {} },
    trajectories,
    stats: { traces: {}, teacherAgreement: null, firstRetrievalHitRate: 1, sessionBoundaryMismatches: 0 },
  };
  return { plan, dialogue, memory };
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i);
}

/** `count` clean users, ids `user-0000`…, every fourth one in the test split. */
export function buildFixtureCorpus(count: number, options: FixtureOptions = {}) {
  return Array.from({ length: count }, (_, i) =>
    buildFixtureUser(`user-${String(i).padStart(4, '0')}`, {
      ...options,
      split: i % 4 === 3 ? 'test' : 'train',
    }),
  );
}
