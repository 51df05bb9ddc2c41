import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExportConfig } from '../../schemas/export-config.js';
import { backgroundWrites } from '../../util/background.js';
import { writeJson } from '../../util/fs.js';
import { formatMinute, optionLabel } from '../time-format.js';
import type { EvalSource } from './common.js';
import { titleCase } from './common.js';

/** Persona-MME's task names as its paper and `Persona-MME.json` spell them (FORMATS.md §7). */
export const PERSONA_MME_TASK_NAMES: Record<string, string> = {
  visual_detail_recall: 'Visual Detail Recall',
  semantic_information_recall: 'Semantic Information Recall',
  explicit_intent_inference: 'Explicit Intent Inference',
  implicit_intent_recognition: 'Implicit Intent Recognition',
  latest_preference_recognition: 'Latest Preference Recognition',
  interest_evolution_analysis: 'Interest Evolution Analysis',
  implicit_preference_recommendation: 'Implicit Preference Recommendation',
  behavioral_pattern_recognition: 'Behavioral Pattern Recognition',
  long_term_goal_tracking: 'Long-term Goal Tracking',
  relationship_recognition: 'Relationship Recognition',
  relationship_dynamics_comprehension: 'Relationship Dynamics Comprehension',
  tiered_explanation_delivery: 'Tiered Explanation Delivery',
  generalizing_to_new_scenarios: 'Generalizing to New Scenarios',
  personality_alignment: 'Personality Alignment',
};

/** One Persona-MME question (FORMATS.md §7). */
export interface PersonaMmeQuestion {
  data_path: string;
  type: string;
  question_type: string;
  time: string;
  query: string;
  choices: Record<string, string>;
  answer: string;
  alignment?: { chosen: string; rejected: string };
}

/**
 * Persona-MME's `user_data.json`: `profile`, `sessions` as lists of `{time, user, assistant}`
 * rounds (images as `<img>` in `user`), and `imgs` in the order the placeholders appear.
 *
 * @example buildUserData(bundle, 'images').sessions[0][0].time // '2024-03-01 09:00'
 */
export function buildUserData(bundle: EvalSource, imageRoot: string) {
  const images = new Map(bundle.plan.images.map((image) => [image.id, image.path]));
  const imgs: string[] = [];
  const sessions = bundle.dialogue.sessions.map((session) => {
    const rounds: Array<{ time: string; user: string; assistant: string }> = [];
    for (const turn of session.turns) {
      if (turn.speaker === 'user') {
        for (const id of turn.images) imgs.push(joinPath(imageRoot, images.get(id) ?? id));
        rounds.push({
          time: formatMinute(turn.time),
          user: turn.text.replaceAll('<image>', '<img>'),
          assistant: '',
        });
      } else {
        const last = rounds[rounds.length - 1];
        if (last === undefined || last.assistant !== '')
          rounds.push({ time: formatMinute(turn.time), user: '', assistant: turn.text });
        else last.assistant = turn.text;
      }
    }
    return rounds;
  });
  return { profile: bundle.plan.enriched.roleDescription, sessions, imgs };
}

export function joinPath(root: string, path: string): string {
  return root === '' ? path : `${root.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** One user's share of Persona-MME: its `user_data.json` text and its questions. */
export interface PersonaMmeUser {
  userId: string;
  userData: string;
  questions: PersonaMmeQuestion[];
}

/**
 * A user's Persona-MME part (null when the user has no multiple-choice target): built where the
 * user is read (a worker thread), written by `createPersonaMmeWriter`. A primary case's
 * `alignment` becomes its `alignment` pair (chosen and rejected reply styles).
 *
 * @example personaMmeUser(bundle, config)?.questions[0]?.answer // 'A'
 */
export function personaMmeUser(bundle: EvalSource, config: ExportConfig): PersonaMmeUser | null {
  const targets = bundle.plan.qa.filter(
    (qa) =>
      (config.eval.allFamiliesInEachFormat || qa.family === 'persona-mme') &&
      qa.answerType !== 'open' &&
      qa.correctIndex !== null,
  );
  if (targets.length === 0) return null;
  const dataPath = `./samples/${bundle.plan.userId}/user_data.json`;
  const questions: PersonaMmeQuestion[] = [];
  const seen = new Set<string>();
  for (const qa of targets) {
    const correct = qa.correctIndex ?? 0;
    // The same question with the same options at the same time is one case, not two.
    const key = JSON.stringify([qa.questionTime, qa.question, qa.choices, correct]);
    if (seen.has(key)) continue;
    seen.add(key);
    const question: PersonaMmeQuestion = {
      data_path: dataPath,
      type: qa.group,
      question_type: PERSONA_MME_TASK_NAMES[qa.task] ?? titleCase(qa.task),
      time: formatMinute(qa.questionTime),
      query: qa.question,
      choices: Object.fromEntries(qa.choices.map((choice, i) => [optionLabel(i), choice])),
      answer: optionLabel(correct),
    };
    // Personality alignment is judged within primary cases (Persona-MME's appendix): the reply
    // style that suits the user's level at question time, and the one that does not.
    if (qa.alignment !== undefined)
      question.alignment = { chosen: qa.alignment.style, rejected: qa.alignment.contrary };
    else if (qa.answerType === 'binary') {
      question.alignment = {
        chosen: qa.choices[correct] ?? qa.answer,
        rejected: qa.choices[1 - correct] ?? '',
      };
    }
    questions.push(question);
  }
  return {
    userId: bundle.plan.userId,
    userData: `${JSON.stringify(buildUserData(bundle, config.imageRoot), null, 2)}\n`,
    questions,
  };
}

/**
 * Writes `eval/persona-mme/samples/<user>/user_data.json` per user part (see `personaMmeUser`)
 * and `Persona-MME.json` with every user's questions, in the order the parts are added.
 *
 * @example const writer = createPersonaMmeWriter(dir); await writer.addUser(personaMmeUser(bundle, config)); await writer.finish();
 */
export function createPersonaMmeWriter(dir: string) {
  const questions: PersonaMmeQuestion[] = [];
  let users = 0;
  // One small file per user: a plain write (the atomic helper fsyncs, which dominates at 700
  // users), not waited for (the caller goes on with the next users; `finish` waits for all).
  const writes = backgroundWrites(8);
  return {
    async addUser(part: PersonaMmeUser | null): Promise<void> {
      if (part === null) return;
      users++;
      const userDir = join(dir, 'samples', part.userId);
      await writes.add(async () => {
        await mkdir(userDir, { recursive: true });
        await writeFile(join(userDir, 'user_data.json'), part.userData);
      });
      questions.push(...part.questions);
    },
    async finish(): Promise<{ users: number; questions: number }> {
      await writes.drain();
      await writeJson(join(dir, 'Persona-MME.json'), questions);
      return { users, questions: questions.length };
    },
  };
}
