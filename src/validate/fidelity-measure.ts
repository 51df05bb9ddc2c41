/**
 * One user's contribution to validation.json's fidelity section (`measureUserFidelity`): plain
 * counts and lists, so it can be measured on a worker thread and folded into the corpus meter
 * (`createFidelityMeter` in fidelity.ts) on the main thread in user order.
 */

import { buildVitaBenchTask } from '../export/systems/vitabench.js';
import type { ExportConfig } from '../schemas/export-config.js';
import { emptyContextCounts, measureContexts } from './fidelity-contexts.js';
import { emptyLogCounts, measureLogs } from './fidelity-logs.js';
import { measureOptionForm, type OptionFormPartial } from './fidelity-option-form.js';
import { emptyFormCounts, measureQuestionForms } from './fidelity-questions.js';
import { measureShortcuts, type ShortcutPartial } from './fidelity-shortcuts.js';
import { emptyTargetCounts, measureTargets } from './fidelity-targets.js';
import { emptyVitaCounts, measureVitaSubtasks, type VitaCounts } from './fidelity-vitabench.js';
import { replyProblems } from './reply-agreement.js';
import { driftCauseProblem } from './rules/drift-causes.js';
import { inspectM2aSample } from './rules/m2a-sessions.js';
import { personalityTargetProblems } from './rules/personality-evidence.js';
import { photoDescriptionProblems } from './rules/photo-description.js';
import { goldReadable, questionGoldProblems } from './rules/question-golds.js';
import { keywordCoverage } from './rules/slot-expressed.js';
import { m2aPhotoAnswersInText, visualAnswerInText } from './rules/visual-answer-text.js';
import { visualQuestionProblems } from './rules/visual-distractors.js';
import { slotMeaningProblems, slotMeaningReadings } from './slot-meaning.js';
import { lowercaseNames, parsedShape, turnEdges } from './text-shape.js';
import type { RuleFailure, RuleOptions, UserIndex } from './types.js';

const PLAN_LABELS = ['people in my life', 'how i have been feeling', 'preferences:', 'goals:'];

const ACHIEVED = /\b(achieved|did it|managed to)\b/i;
const ABANDONED = /\b(gave up|given up)\b/i;

/** What the evidence of a state question must say for its answer to be supported. */
const STATE_CUES: Readonly<Record<string, RegExp>> = {
  'Still planning it, not started yet': /\b(plan|planning|not started|have not begun|not started yet)\b/i,
  'In progress': /\b(in progress|started|in the middle|coming along|going slowly)\b/i,
  // The progress form ("Achieved it") and the outcome form ("Yes, I got it done") of one status.
  'Achieved it': ACHIEVED,
  'Gave it up': ABANDONED,
  'Yes, I got it done': ACHIEVED,
  'No, I gave it up': ABANDONED,
  'We have grown closer': /\b(closer)\b/i,
  'We have drifted apart': /\b(drifted apart|not feel as close)\b/i,
};

/** False when a goal-status or relationship-trend answer is not said by its latest evidence turn. */
function stateSaid(index: UserIndex, qa: UserIndex['bundle']['plan']['qa'][number]): boolean {
  const cue = STATE_CUES[qa.answer];
  if (cue === undefined) return true;
  const texts = qa.evidenceSlotIds.map((id) => index.turnBySlot.get(id)?.turn.text ?? '');
  if (qa.answer.startsWith('We have')) return texts.some((text) => cue.test(text));
  return cue.test(texts.at(-1) ?? '');
}

/** Issue 27's question and gold counters (kept together so merges stay additive). */
function emptyQuestionCounts() {
  return {
    explicitDrifts: 0,
    driftCauseErrors: 0,
    reasonQuestions: 0,
    reasonCauseErrors: 0,
    goldReadable: 0,
    goldWrong: 0,
    visualAsked: 0,
    visualInText: 0,
    m2aPhotoAsked: 0,
    m2aPhotoInText: 0,
    ...emptyFormCounts(),
  };
}

/** Issue 27's question and gold counts of one user. */
function measureQuestions(index: UserIndex, n: ReturnType<typeof emptyQuestionCounts>): void {
  const plan = index.bundle.plan;
  const m2aPhotos = m2aPhotoAnswersInText(index);
  n.m2aPhotoAsked += m2aPhotos.asked;
  n.m2aPhotoInText += m2aPhotos.readable.length;
  for (const event of plan.drift) {
    if (event.visibility !== 'explicit') continue;
    n.explicitDrifts++;
    if (driftCauseProblem(plan, event) !== null) n.driftCauseErrors++;
  }
  for (const qa of plan.qa) {
    if (qa.task === 'recalling_the_reasons_behind_previous_updates') {
      n.reasonQuestions++;
      // The gold is the cause of the drift event its evidence voices.
      const asked = new Set(qa.evidenceSlotIds.map((id) => index.slotsById.get(id)?.refId));
      const event = plan.drift.find(
        (d) => asked.has(d.id) && d.cause.toLowerCase() === qa.answer.toLowerCase(),
      );
      if (event !== undefined && driftCauseProblem(plan, event) !== null) n.reasonCauseErrors++;
    }
    if (qa.task === 'visual_detail_recall') {
      n.visualAsked++;
      if (visualAnswerInText(index, qa) !== null) n.visualInText++;
    }
    if (goldReadable(index, qa)) {
      n.goldReadable++;
      if (questionGoldProblems(index, qa).length > 0) n.goldWrong++;
    }
  }
}

/** The counters the meter sums over users. */
export function emptyFidelityCounts() {
  return {
    driftSlots: 0,
    driftErrors: 0,
    prefSlots: 0,
    prefErrors: 0,
    meaningReadings: 0,
    meaningUnsure: 0,
    answerable: 0,
    unanswerable: 0,
    goldAsked: 0,
    goldLeaks: 0,
    questions: 0,
    duplicates: 0,
    userTurns: 0,
    selfNaming: 0,
    turns: 0,
    labelLeaks: 0,
    mme: 0,
    mmeImage: 0,
    mmeWords: 0,
    imageTurns: 0,
    m2aConversations: 0,
    m2aImages: 0,
    m2aConceptTurns: 0,
    m2aDuplicateTurns: 0,
    m2aSessionRefs: 0,
    m2aWrongRefs: 0,
    personalityRows: 0,
    personalityUnsupported: 0,
    photoTurns: 0,
    photoContradictions: 0,
    visualQuestions: 0,
    visualAmbiguous: 0,
    corrections: 0,
    correctionErrors: 0,
    assistantTurns: 0,
    ...emptyQuestionCounts(),
    ...emptyTargetCounts(),
    ...emptyLogCounts(),
    ...emptyContextCounts(),
    replyChecked: 0,
    replyDisagreements: 0,
    parsedUserTurns: 0,
    parsedTurns: 0,
    fragmentTurns: 0,
    lowercaseNameTurns: 0,
    reflexiveTurns: 0,
    leadInRepeatTurns: 0,
    asideStackTurns: 0,
  };
}
export type FidelityCounts = ReturnType<typeof emptyFidelityCounts>;

/** One user's fidelity contribution (structured-cloneable). */
export interface FidelityPartial {
  counts: FidelityCounts;
  /** Assistant-turn openings (first 6 words) with their counts, in first-seen order. */
  openings: Array<[string, number]>;
  /** Normalised question texts of a train user, or of a test user (in plan order). */
  trainQuestions: string[];
  testQuestions: string[];
  /** Questions per LoCoMo / PersonaMem task, in first-seen order. */
  locomo: Array<[string, number]>;
  personaMem: Array<[string, number]>;
  /** Prompt-field and question-only shortcuts (fidelity-shortcuts.ts). */
  shortcuts: ShortcutPartial;
  /** Answer-form baselines per task (fidelity-option-form.ts). */
  optionForm: OptionFormPartial;
  /** Whether VitaBench subtasks need the user's history (fidelity-vitabench.ts). */
  vitabench: VitaCounts;
  /** User-turn first three and last four words, and sentence skeletons of the parsed sample, with counts. */
  userOpenings: Array<[string, number]>;
  userEndings: Array<[string, number]>;
  skeletons: Array<[string, number]>;
}

/**
 * The text-shape sample: user turns of every `PARSE_USER_EVERY`-th round (templates are judged
 * on them, so small runs still have a few hundred), assistant turns of every `PARSE_EVERY`-th.
 */
export const PARSE_USER_EVERY = 2;
export const PARSE_EVERY = 4;

/**
 * Measures one user (its index and the rule failures found on it).
 *
 * @example const partial = measureUserFidelity(index, failuresByCheck, ExportConfig.parse({}));
 */
export function measureUserFidelity(
  index: UserIndex,
  failures: ReadonlyMap<string, readonly RuleFailure[]>,
  exportConfig: ExportConfig,
  vitabench?: RuleOptions['vitabench'],
): FidelityPartial {
  const n = emptyFidelityCounts();
  const openings = new Map<string, number>();
  const trainQuestions: string[] = [];
  const testQuestions: string[] = [];
  const locomo = new Map<string, number>();
  const personaMem = new Map<string, number>();
  const { plan, dialogue } = index.bundle;
  const meaningBySlot = new Map<string, boolean>();
  for (const slot of plan.slots) {
    if (slot.kind !== 'drift' && slot.kind !== 'preference') continue;
    const turn = index.turnBySlot.get(slot.id)?.turn;
    const bad = turn === undefined || slotMeaningProblems(index, slot, turn).length > 0;
    for (const reading of turn === undefined ? [] : slotMeaningReadings(index, slot, turn)) {
      n.meaningReadings++;
      if (reading.verdict === 'unsure' && !reading.missing) n.meaningUnsure++;
    }
    meaningBySlot.set(slot.id, bad);
    if (slot.kind === 'drift') {
      n.driftSlots++;
      if (bad) n.driftErrors++;
    } else {
      n.prefSlots++;
      if (bad) n.prefErrors++;
    }
  }
  n.correctionErrors += failures.get('correction_scope')?.length ?? 0;
  const leaked = new Set((failures.get('gold_in_prompt') ?? []).map((f) => f.location));
  const asked = new Set<string>();
  for (const qa of plan.qa) {
    const question = qa.question.trim().toLowerCase();
    n.questions++;
    if (asked.has(question)) n.duplicates++;
    asked.add(question);
    if (plan.split === 'test') testQuestions.push(question);
    else trainQuestions.push(question);
    if (qa.answerType !== 'binary' && qa.answer.trim().length >= 4) {
      n.goldAsked++;
      if (leaked.has(`plan.qa[${qa.id}]`)) n.goldLeaks++;
    }
    if (!qa.unanswerable) {
      n.answerable++;
      const supported = qa.evidenceSlotIds.every((id) => {
        const slot = index.slotsById.get(id);
        const turn = index.turnBySlot.get(id)?.turn;
        if (slot === undefined || turn === undefined || Date.parse(turn.time) > Date.parse(qa.questionTime))
          return false;
        if (meaningBySlot.get(id) === true) return false;
        return keywordCoverage(turn.text, slot.keywords) === 1;
      });
      if (!supported || qa.evidenceSlotIds.length === 0 || !stateSaid(index, qa)) n.unanswerable++;
    }
    if (qa.family === 'persona-mme') {
      n.mme++;
      n.mmeWords += qa.question.split(/\s+/).filter(Boolean).length;
      if (qa.evidenceSlotIds.some((id) => index.slotsById.get(id)?.imageId != null)) n.mmeImage++;
    }
    if (qa.family === 'locomo' && qa.locomoCategory != null)
      locomo.set(qa.task, (locomo.get(qa.task) ?? 0) + 1);
    if (qa.family === 'personamem') personaMem.set(qa.task, (personaMem.get(qa.task) ?? 0) + 1);
  }
  if (index.bundle.m2a !== undefined && !('skipped' in index.bundle.m2a)) {
    const seen = inspectM2aSample(index.bundle.m2a.sample, index.bundle.m2a.report);
    n.m2aConversations++;
    n.m2aImages += seen.injectedImages;
    n.m2aConceptTurns += seen.conceptTurns;
    n.m2aDuplicateTurns += seen.duplicateTurns;
    n.m2aSessionRefs += seen.sessionRefs;
    n.m2aWrongRefs += seen.wrongSessionRefs;
  }
  // Counted on offline text only: on model text the targets are a model's reading (personality-evidence/1).
  for (const trace of index.bundle.dialogue.offline ? (index.bundle.memory?.traces ?? []) : []) {
    if (trace.task !== 'personality_inference') continue;
    n.personalityRows++;
    if (personalityTargetProblems(trace).length > 0) n.personalityUnsupported++;
  }
  measureQuestions(index, n);
  measureTargets(index, n);
  measureLogs(index, n);
  measureQuestionForms(index, exportConfig, n);
  n.photoContradictions += photoDescriptionProblems(index).length;
  for (const qa of plan.qa) {
    if (qa.task !== 'visual_detail_recall') continue;
    n.visualQuestions++;
    if (visualQuestionProblems(index, qa).length > 0) n.visualAmbiguous++;
  }
  measureContexts(index, exportConfig, n);
  const fullName = plan.enriched.persona.name;
  const agreement = replyProblems(index);
  n.replyChecked += agreement.checked;
  n.replyDisagreements += agreement.problems.length;
  const userOpenings = new Map<string, number>();
  const userEndings = new Map<string, number>();
  const skeletons = new Map<string, number>();
  const bump = (map: Map<string, number>, key: string) => {
    if (key !== '') map.set(key, (map.get(key) ?? 0) + 1);
  };
  for (const session of dialogue.sessions) {
    for (const turn of session.turns) {
      if (turn.round % (turn.speaker === 'user' ? PARSE_USER_EVERY : PARSE_EVERY) === 0) {
        const parsed = parsedShape(turn.text);
        n.parsedTurns++;
        if (parsed.fragments.length > 0) n.fragmentTurns++;
        if (parsed.asides.reflexive.length > 0) n.reflexiveTurns++;
        if (turn.speaker === 'user') {
          n.parsedUserTurns++;
          if (parsed.asides.repeatedLeadIns.length > 0) n.leadInRepeatTurns++;
          if (parsed.asides.asides > 1) n.asideStackTurns++;
          for (const skeleton of parsed.skeletons) bump(skeletons, skeleton);
        }
      }
      if (turn.speaker === 'user') {
        const edges = turnEdges(turn.text);
        bump(userOpenings, edges.opening);
        bump(userEndings, edges.ending);
        if (lowercaseNames(turn.text).length > 0) n.lowercaseNameTurns++;
      }
      n.turns++;
      if (turn.images.length > 0) n.imageTurns++;
      const lower = turn.text.toLowerCase();
      if (PLAN_LABELS.some((label) => lower.includes(label))) n.labelLeaks++;
      if (turn.speaker === 'user') {
        n.userTurns++;
        if (turn.images.length > 0) n.photoTurns++;
        if (turn.noise === 'correction') n.corrections++;
        if (turn.text.includes(fullName)) n.selfNaming++;
      } else {
        n.assistantTurns++;
        const opening = (lower.match(/[\p{L}\p{N}']+/gu) ?? []).slice(0, 6).join(' ');
        openings.set(opening, (openings.get(opening) ?? 0) + 1);
      }
    }
  }
  return {
    counts: n,
    openings: [...openings],
    trainQuestions,
    testQuestions,
    locomo: [...locomo],
    personaMem: [...personaMem],
    shortcuts: measureShortcuts(index),
    optionForm: measureOptionForm(index),
    vitabench:
      vitabench === undefined
        ? emptyVitaCounts()
        : measureVitaSubtasks(
            buildVitaBenchTask(index.bundle, vitabench.config, vitabench.seed).subtasks,
            plan,
          ),
    userOpenings: [...userOpenings],
    userEndings: [...userEndings],
    skeletons: [...skeletons],
  };
}
