import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExportConfig } from '../../schemas/export-config.js';
import { writeJson } from '../../util/fs.js';
import type { ExportBundle } from '../read-run.js';
import { formatMinute, optionLabel } from '../time-format.js';
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
export function buildUserData(bundle: ExportBundle, imageRoot: string) {
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

/**
 * Writes `eval/persona-mme/samples/<user>/user_data.json` per user and collects the user's
 * multiple-choice questions (binary alignment targets become `alignment` pairs on a yes/no item).
 *
 * @example const writer = createPersonaMmeWriter(dir, config); await writer.addUser(bundle); await writer.finish();
 */
export function createPersonaMmeWriter(dir: string, config: ExportConfig) {
  const questions: PersonaMmeQuestion[] = [];
  let users = 0;
  return {
    async addUser(bundle: ExportBundle): Promise<void> {
      const targets = bundle.plan.qa.filter(
        (qa) =>
          (config.eval.allFamiliesInEachFormat || qa.family === 'persona-mme') &&
          qa.answerType !== 'open' &&
          qa.correctIndex !== null,
      );
      if (targets.length === 0) return;
      users++;
      const dataPath = `./samples/${bundle.plan.userId}/user_data.json`;
      // One small file per user: a plain write (the atomic helper fsyncs, which dominates at 700 users).
      const userDir = join(dir, 'samples', bundle.plan.userId);
      await mkdir(userDir, { recursive: true });
      await writeFile(
        join(userDir, 'user_data.json'),
        `${JSON.stringify(buildUserData(bundle, config.imageRoot), null, 2)}\n`,
      );
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
        if (qa.answerType === 'binary') {
          question.alignment = {
            chosen: qa.choices[correct] ?? qa.answer,
            rejected: qa.choices[1 - correct] ?? '',
          };
        }
        questions.push(question);
      }
    },
    async finish(): Promise<{ users: number; questions: number }> {
      await writeJson(join(dir, 'Persona-MME.json'), questions);
      return { users, questions: questions.length };
    },
  };
}
