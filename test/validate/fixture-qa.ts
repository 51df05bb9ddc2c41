/**
 * The fixture user's QA targets (one per family and answer type, plus an unanswerable one) and a
 * well-formed one-retrieval trajectory for each, asked a day after the last session.
 */
import type { MemorySnapshot, ReasoningTrajectory } from '../../src/schemas/memory.js';
import type { EvidenceSlot, QaTarget } from '../../src/schemas/plan.js';

const DAY = 24 * 60 * 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const fmt = (ms: number) => iso(ms).slice(0, 16).replace('T', ' ');

export function buildFixtureQa(
  userId: string,
  slots: readonly EvidenceSlot[],
  semantic: MemorySnapshot['semantic'],
  lastEnd: number,
): { qa: QaTarget[]; trajectories: ReasoningTrajectory[]; asked: number } {
  const asked = lastEnd + DAY;
  const qa: QaTarget[] = [];
  const base = { questionTime: iso(asked), retrievalKeywords: [], unanswerable: false, locomoCategory: null };
  qa.push({
    ...base,
    id: `${userId}-qa-0`,
    family: 'persona-mme',
    task: 'latest_preference_recognition',
    group: 'Preference Recognition',
    question: 'Which dish have I been enjoying most lately?',
    answer: slots[0]!.keywords[0]!,
    answerType: 'mc',
    choices: [slots[0]!.keywords[0]!, 'plain rice', 'green salad', 'tomato soup'],
    correctIndex: 0,
    evidenceSlotIds: [slots[0]!.id],
    // Personality alignment is judged within a primary case (Persona-MME's appendix).
    alignment: {
      trait: 'openness',
      level: 4,
      style: 'suggesting something unconventional I have never tried',
      contrary: 'sticking to familiar, proven options',
    },
  });
  qa.push({
    ...base,
    id: `${userId}-qa-1`,
    family: 'personamem',
    task: 'recall_user_shared_facts',
    group: 'foodRecommendation',
    question: 'Remind me, which dish did I mention after sharing the photo?',
    answer: 'fried noodles',
    answerType: 'mc',
    choices: ['tomato soup', 'fried noodles', 'plain rice', 'green salad'],
    correctIndex: 1,
    evidenceSlotIds: [slots[1]!.id],
  });
  qa.push({
    ...base,
    id: `${userId}-qa-2`,
    family: 'locomo',
    task: 'single_hop',
    group: 'single-hop',
    question: 'What dish did I say I enjoy?',
    answer: slots[0]!.keywords[0]!,
    answerType: 'open',
    choices: [],
    correctIndex: null,
    evidenceSlotIds: [slots[0]!.id],
    locomoCategory: 4,
  });
  qa.push({
    ...base,
    id: `${userId}-qa-3`,
    family: 'locomo',
    task: 'open_domain',
    group: 'Knowledge',
    question: 'Would I enjoy a loud party tonight?',
    answer: 'No',
    answerType: 'binary',
    choices: ['Yes', 'No'],
    correctIndex: 1,
    evidenceSlotIds: [slots[0]!.id],
    locomoCategory: 3,
  });
  qa.push({
    ...base,
    id: `${userId}-qa-4`,
    family: 'locomo',
    task: 'adversarial',
    group: 'adversarial',
    question: 'What is the name of my brother?',
    answer: 'unknown',
    answerType: 'open',
    choices: [],
    correctIndex: null,
    evidenceSlotIds: [],
    unanswerable: true,
    locomoCategory: 5,
  });
  const trajectories: ReasoningTrajectory[] = qa.map((target) => {
    const query = {
      keywords: target.question.split(' ').slice(0, 3).join(' '),
      start_time: null,
      end_time: fmt(asked),
    };
    const block = `[semantic] ${semantic[0]!.content} (${fmt(Date.parse(semantic[0]!.timestamp))})`;
    // The answer convention (src/qa/answer-convention.ts): the letter for mc, the option text for binary.
    const answer =
      target.answerType === 'mc'
        ? `(${'abcd'[target.correctIndex ?? 0]})`
        : target.answerType === 'binary'
          ? (target.choices[target.correctIndex ?? 0] as string)
          : target.answer;
    return {
      qaId: target.id,
      questionTime: target.questionTime,
      question: target.question,
      steps: [
        {
          think: 'I should look this up.',
          retrieve: query,
          retrievedIds: [semantic[0]!.id],
          retrievedBlock: block,
          topK: { semantic: 4, episodic: 2, procedural: 2 },
        },
        { think: 'Memory answers it.', retrieve: null, retrievedIds: [], retrievedBlock: null, topK: null },
      ],
      answer,
      messages: [
        `<think>I should look this up.</think><retrieve>${JSON.stringify(query)}</retrieve>`,
        `<think>Memory answers it.</think><answer>${answer}</answer>`,
      ],
      retrievals: 1,
      firstRetrievalHit: true,
      evidenceRetrieved: true,
      offline: true,
    };
  });
  return { qa, trajectories, asked };
}
