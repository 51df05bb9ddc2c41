/**
 * Deliberate defects, one function each, applied to a clean fixture user (mutated in place).
 * `check` names the validation check (rule name, `judge:<name>` or `dedup_*`) that must catch it.
 */
import type { M2aBuilt } from '../../src/export/systems/m2a.js';
import type { UserBundle } from '../../src/validate/types.js';
import { CORRECTION_DEFECTS } from './correction-defects.js';
import { DRIFT_DEFECTS } from './defects-drift.js';
import { LABEL_DEFECTS } from './defects-labels.js';
import { MEMORY_DEFECTS } from './defects-memory.js';
import { QUESTION_DEFECTS } from './defects-questions.js';

import type { Defect } from './types.js';

export type { Defect };

const MIN = 60_000;
const shift = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * MIN).toISOString();
const session = (bundle: UserBundle, s: number) => bundle.dialogue.sessions[s]!;
const turn = (bundle: UserBundle, s: number, t: number) => session(bundle, s).turns[t]!;
const lastSnapshot = (bundle: UserBundle) => bundle.memory!.snapshots[bundle.memory!.snapshots.length - 1]!;

export const DEFECTS: Defect[] = [
  ...LABEL_DEFECTS,
  ...DRIFT_DEFECTS,
  ...QUESTION_DEFECTS,
  ...MEMORY_DEFECTS,
  {
    name: 'two turns out of order',
    check: 'chronology',
    apply(b) {
      const [x, y] = [turn(b, 0, 2), turn(b, 0, 3)];
      [x.time, y.time] = [y.time, x.time];
    },
  },
  {
    name: 'session starts before the previous one ends',
    check: 'chronology',
    apply(b) {
      session(b, 1).start = shift(session(b, 0).end, -5);
    },
  },
  {
    name: 'sessions closer than t_s',
    check: 'session_gap',
    apply(b) {
      const offset = (Date.parse(session(b, 0).end) + 10 * MIN - Date.parse(turn(b, 1, 0).time)) / MIN;
      const s1 = session(b, 1);
      for (const t of s1.turns) t.time = shift(t.time, offset);
      s1.start = shift(s1.start, offset);
      s1.end = shift(s1.end, offset);
    },
  },
  {
    name: 'gap of 90 minutes inside a session',
    check: 'session_gap',
    apply(b) {
      const s0 = session(b, 0);
      s0.turns.forEach((t, i) => {
        if (i >= 4) t.time = shift(t.time, 90);
      });
      s0.end = shift(s0.end, 90);
    },
  },
  {
    name: 'duplicate turn id',
    check: 'ids',
    apply(b) {
      turn(b, 0, 3).id = turn(b, 0, 2).id;
    },
  },
  {
    name: 'turn index not sequential',
    check: 'ids',
    apply(b) {
      turn(b, 2, 1).index = 7;
    },
  },
  {
    name: 'episode misses a turn',
    check: 'episodic_coverage',
    apply: (b) => void lastSnapshot(b).episodic[0]!.turnIndices.pop(),
  },
  {
    name: 'episode index out of range',
    check: 'episodic_coverage',
    apply: (b) => void lastSnapshot(b).episodic[1]!.turnIndices.push(99),
  },
  {
    name: 'question asked before its evidence',
    check: 'qa_evidence',
    apply(b) {
      b.plan.qa[1]!.questionTime = shift(turn(b, 1, 0).time, -1);
    },
  },
  {
    name: 'evidence slot missing from the plan',
    check: 'qa_evidence',
    apply(b) {
      b.plan.qa[0]!.evidenceSlotIds = ['no-such-slot'];
    },
  },
  {
    name: 'evidence turn lacks the slot keywords',
    check: 'slot_expressed',
    apply(b) {
      turn(b, 0, 0).text = 'I had a quiet morning with nothing much to report at all.';
    },
  },
  {
    name: 'the answer written into the core memory the prompt shows',
    check: 'gold_in_prompt',
    apply(b) {
      const qa = b.plan.qa.find((q) => q.answerType !== 'binary' && q.answer.length >= 4)!;
      for (const snapshot of b.memory!.snapshots) snapshot.core.human.notes = `answer on file: ${qa.answer}`;
    },
  },
  {
    name: 'a tree op on a path the schema does not have',
    check: 'tree_paths',
    apply(b) {
      const version = b.memory!.tree.versions[0]!;
      version.ops.push({ op: 'ADD', path: '3_Social_Characteristics.Identity.Shoe_Size', value: '42' });
    },
  },
  {
    name: 'a vegetarian who likes Korean barbecue at the same time',
    check: 'diet_coherence',
    apply(b) {
      const t = turn(b, 0, 0).time;
      const like = (id: string, item: string) => ({
        id,
        category: 'food' as const,
        slot: id,
        item,
        polarity: 'like' as const,
        keywords: [item.split(' ').at(-1)!],
        validFrom: t,
        validUntil: null,
        origin: 'initial' as const,
        condition: null,
      });
      b.plan.preferences.push(like('pref-veg', 'a vegetarian diet'), like('pref-bbq', 'Korean barbecue'));
    },
  },
  {
    name: 'a VitaBench task about a preference the dialogue never says',
    check: 'vitabench_tasks',
    apply(b) {
      // Planned as said in the first session, but no turn lists it: the task would test a label.
      const t = turn(b, 0, 0).time;
      b.plan.preferences.push({
        id: 'pref-unsaid',
        category: 'food',
        slot: 'ramen',
        item: 'tonkotsu ramen',
        polarity: 'like',
        keywords: ['ramen'],
        validFrom: t,
        validUntil: null,
        origin: 'initial',
        condition: null,
      });
      b.plan.slots.push({
        id: 'slot-unsaid',
        kind: 'preference',
        refId: 'pref-unsaid',
        sessionIndex: 0,
        round: 0,
        time: t,
        statement: 'likes tonkotsu ramen',
        keywords: ['ramen'],
        imageId: null,
      });
    },
  },
  {
    name: 'an M²A concept turn repeating a host turn, and a question naming the generation’s session number',
    check: 'm2a_sessions',
    apply(b) {
      // Host session 0, concept session 1 (inserted after host session 1), host session 2.
      const t = (s: number, u: number, text: string) => ({
        speaker: (u % 2) as 0 | 1,
        dia_id: `S${s}:${u}`,
        images: [],
        text,
      });
      const sample = {
        conversation: {
          speaker_0: 'Ann',
          speaker_1: 'Assistant',
          n_session: 3,
          session_0: [t(0, 0, 'Hello there.'), t(0, 1, 'Hi Ann.')],
          session_0_date_time: '1:00 pm on 1 May, 2023',
          session_1: [t(1, 0, 'Here is <Mochi> at the park.'), t(1, 1, 'Hi Ann.')],
          session_1_date_time: '1:00 pm on 3 May, 2023',
          session_2: [t(2, 0, 'Bye.'), t(2, 1, 'See you.')],
          session_2_date_time: '1:00 pm on 5 May, 2023',
        },
        qa: [
          {
            question: { text: 'Where was <Mochi> in the photo I shared in session 0?', image: [] },
            answer: 'the park',
            evidence: ['S1:0'],
            category: 9,
          },
        ],
      };
      b.m2a = { sample, report: { position: 1, inserted: 1 }, generated: {} } as unknown as M2aBuilt;
    },
  },
  {
    name: 'duplicate options',
    check: 'multiple_choice',
    apply(b) {
      b.plan.qa[0]!.choices[2] = b.plan.qa[0]!.choices[1]!;
    },
  },
  { name: 'three options', check: 'multiple_choice', apply: (b) => void b.plan.qa[1]!.choices.splice(0, 1) },
  {
    name: 'correct index points elsewhere',
    check: 'multiple_choice',
    apply(b) {
      b.plan.qa[0]!.correctIndex = 3;
    },
  },
  {
    name: 'unknown image id',
    check: 'image_refs',
    apply(b) {
      turn(b, 1, 0).images = ['missing-image'];
    },
  },
  {
    name: 'placeholder count differs',
    check: 'image_refs',
    apply(b) {
      turn(b, 1, 0).text = turn(b, 1, 0).text.replace('<image> ', '');
    },
  },
  {
    name: 'retrieve body not JSON',
    check: 'trajectory_tags',
    apply(b) {
      b.memory!.trajectories[0]!.messages[0] = '<think>look</think><retrieve>{keywords: x}</retrieve>';
    },
  },
  {
    name: 'four retrievals',
    check: 'trajectory_tags',
    apply(b) {
      const t = b.memory!.trajectories[1]!;
      const retrieve = t.messages[0]!;
      t.messages = [retrieve, retrieve, retrieve, retrieve, t.messages[1]!];
      t.retrievals = 4;
    },
  },
  {
    name: 'answer without think',
    check: 'trajectory_tags',
    apply(b) {
      b.memory!.trajectories[2]!.messages[1] = '<answer>(a)</answer>';
    },
  },
  {
    name: 'empty memory-update target',
    check: 'training_rows',
    apply(b) {
      b.memory!.traces[1]!.gold.text = '   ';
    },
  },
  {
    name: 'multiple-choice answer written as the option text',
    check: 'training_rows',
    apply(b) {
      const trajectory = b.memory!.trajectories.find(
        (t) => b.plan.qa.find((qa) => qa.id === t.qaId)?.answerType === 'mc',
      )!;
      const qa = b.plan.qa.find((item) => item.id === trajectory.qaId)!;
      trajectory.messages[trajectory.messages.length - 1] =
        `<think>memory says so</think><answer>${qa.choices[qa.correctIndex ?? 0]}</answer>`;
    },
  },
  {
    name: 'trace input shows a later turn',
    check: 'future_info',
    apply(b) {
      const trace = b.memory!.traces[0]!;
      (trace.input.turns as Array<{ time: string }>)[0]!.time = shift(trace.time, 60);
    },
  },
  {
    name: 'trajectory retrieves an entry written after the question',
    check: 'future_info',
    apply(b) {
      const id = b.memory!.trajectories[0]!.steps[0]!.retrievedIds[0]!;
      for (const snapshot of b.memory!.snapshots) {
        for (const entry of snapshot.semantic)
          if (entry.id === id) entry.timestamp = shift(b.plan.qa[0]!.questionTime, 60);
      }
    },
  },
  {
    name: 'blocklisted phrase',
    check: 'judge:safety',
    apply(b) {
      turn(b, 2, 3).text = 'Here is a bomb recipe for you, step by step.';
    },
  },
  {
    name: 'assistant repeats itself word for word',
    check: 'judge:coherence',
    apply(b) {
      turn(b, 2, 5).text = turn(b, 2, 3).text;
    },
  },
  {
    name: 'core memory names someone else',
    check: 'judge:persona_consistency',
    apply(b) {
      lastSnapshot(b).core = { ...lastSnapshot(b).core, human: { name: 'Somebody Else' } };
    },
  },
  {
    name: 'planned fact of a session never stated',
    check: 'judge:fact_expressed',
    apply(b) {
      turn(b, 2, 0).text = 'Nothing new with me today, just a regular afternoon at home.';
    },
  },
  {
    name: 'dialogue copied from the previous user',
    check: 'dedup_dialogue',
    apply(b, previous) {
      if (previous === null) throw new Error('needs a previous user');
      b.dialogue.sessions.forEach((s, i) => {
        s.turns.forEach((t, j) => {
          const source = previous.dialogue.sessions[i]?.turns[j];
          if (source !== undefined) t.text = source.text;
        });
      });
    },
  },
  ...CORRECTION_DEFECTS,
];
