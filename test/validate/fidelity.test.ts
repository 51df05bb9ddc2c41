import { describe, expect, it } from 'vitest';
import { ValidateConfig } from '../../src/schemas/validate-config.js';
import { createFidelityMeter } from '../../src/validate/fidelity.js';
import { RULE_CHECKS } from '../../src/validate/rules/index.js';
import { indexUser, type RuleFailure, type UserBundle } from '../../src/validate/types.js';
import { DEFECTS } from './defects.js';
import { QUESTION_DEFECTS } from './defects-questions.js';
import { buildFixtureUser } from './fixture.js';

const options = { config: ValidateConfig.parse({}), imageExists: () => true };

function measure(bundles: UserBundle[], qaWeights?: Record<string, number>) {
  const meter = createFidelityMeter(qaWeights === undefined ? {} : { qaWeights });
  for (const bundle of bundles) {
    const index = indexUser(bundle);
    const failures = new Map<string, RuleFailure[]>();
    for (const check of RULE_CHECKS) failures.set(check.name, check.run(index, options));
    meter.addUser(index, failures);
  }
  return meter.finish();
}

const corpus = () => {
  const test = buildFixtureUser('user-0003', { split: 'test' });
  // The fixture asks every user the same questions; test users get their own phrasing, as ask() does.
  for (const qa of test.plan.qa) qa.question = `Quick check: ${qa.question}`;
  return [buildFixtureUser('user-0001'), buildFixtureUser('user-0002'), test];
};
const defectRates = (figures: ReturnType<typeof measure>) =>
  Object.fromEntries(
    Object.entries(figures)
      .filter(([, figure]) => figure.kind === 'max')
      .map(([name, figure]) => [name, figure.count]),
  );

describe('fidelity figures', () => {
  it('are all zero on a clean corpus', () => {
    const figures = measure(corpus());
    // The fixture asks every user the same questions with the same answers: the question-only
    // baselines (a count of expected right picks, not of defects) have their own tests below.
    const { question_only_baseline: _, question_only_lexical: __, ...rates } = defectRates(figures);
    for (const [name, count] of Object.entries(rates)) expect(count, name).toBe(0);
    expect(figures.unanswerable_qa!.of).toBeGreaterThan(0);
  });

  it('flag a question-only shortcut: every test answer is the majority train answer of its task', () => {
    const figure = measure(corpus()).question_only_baseline!;
    expect(figure).toMatchObject({ kind: 'max', target: 5, ok: false });
    expect(figure.value).toBeGreaterThan(5);
  });

  it('pass the question-only baseline when test answers do not follow the train majority', () => {
    const bundles = corpus();
    for (const qa of bundles[2]!.plan.qa)
      if (qa.answerType !== 'open') qa.correctIndex = ((qa.correctIndex ?? 0) + 1) % qa.choices.length;
    expect(measure(bundles).question_only_baseline).toMatchObject({ ok: true, count: 0 });
  });

  it('flag closed questions whose words give their answer away (lexical question-only baseline)', () => {
    const clean = measure(corpus()).question_only_lexical!;
    expect(clean).toMatchObject({ kind: 'max', target: 5, ok: true });
    const bundles = corpus();
    // "I told you about something … that involves <the answer's words>": the question spells the answer.
    for (const bundle of bundles)
      for (const qa of bundle.plan.qa)
        if (qa.answerType === 'mc')
          qa.question = `${qa.question} It involves ${qa.choices[qa.correctIndex!]}.`;
    const planted = measure(bundles).question_only_lexical!;
    expect(planted.ok).toBe(false);
    expect(planted.value).toBeGreaterThan(50);
    expect(planted.description).toMatch(/worst tasks: \w+ \+\d/);
  });

  it('flag a profile field that decides the answer (education pitching tiered explanations)', () => {
    const bundles = Array.from({ length: 24 }, (_, i) =>
      buildFixtureUser(`user-${String(i + 1).padStart(4, '0')}`),
    );
    bundles.forEach((bundle, i) => {
      const level = i % 2 === 0 ? 'A detailed, technical explanation' : 'A simple, step-by-step explanation';
      const qa = bundle.plan.qa[0]!;
      Object.assign(qa, {
        task: 'made_up_tiered_task',
        answer: level,
        choices: [level, 'Just the formula', 'A poem', 'Nothing'],
        correctIndex: 0,
      });
      for (const snapshot of bundle.memory!.snapshots)
        snapshot.core = {
          ...snapshot.core,
          human: { ...snapshot.core.human, schooling: i % 2 === 0 ? 'doctorate' : 'high school' },
        };
    });
    const figure = measure(bundles).prompt_field_decides_answer!;
    expect(figure.count).toBeGreaterThan(0);
    expect(figure.description).toContain('schooling → made_up_tiered_task');
  });

  it.each([
    [
      'drift_meaning_errors',
      (b: UserBundle[]) => DEFECTS.find((d) => d.name.startsWith('an added dislike'))!.apply(b[0]!, null),
    ],
    [
      'train_test_question_overlap',
      (b: UserBundle[]) => {
        b[2]!.plan.qa[0]!.question = b[0]!.plan.qa[0]!.question;
      },
    ],
    [
      'duplicate_questions',
      (b: UserBundle[]) => {
        b[0]!.plan.qa[1]!.question = b[0]!.plan.qa[0]!.question;
      },
    ],
    [
      'gold_in_prompt',
      (b: UserBundle[]) => DEFECTS.find((d) => d.check === 'gold_in_prompt')!.apply(b[0]!, null),
    ],
    [
      'self_naming',
      (b: UserBundle[]) => {
        const turn = b[0]!.dialogue.sessions[0]!.turns.find((t) => t.speaker === 'user')!;
        turn.text = `${b[0]!.plan.enriched.persona.name} here: ${turn.text}`;
      },
    ],
    [
      'plan_label_leaks',
      (b: UserBundle[]) => {
        const turn = b[0]!.dialogue.sessions[0]!.turns.find((t) => t.speaker === 'assistant')!;
        turn.text = `I will keep that in mind when people in my life comes up. ${turn.text}`;
      },
    ],
    [
      'personality_target_unsupported',
      (b: UserBundle[]) =>
        DEFECTS.find((d) => d.name.startsWith('personality target copied'))!.apply(b[0]!, null),
    ],
    [
      'personality_thin_extremes',
      (b: UserBundle[]) =>
        DEFECTS.find((d) => d.name.includes('graded from a single message'))!.apply(b[0]!, null),
    ],
    [
      'personality_exclamation_extraversion',
      (b: UserBundle[]) =>
        DEFECTS.find((d) => d.name.includes('graded from a single message'))!.apply(b[0]!, null),
    ],
    [
      'personality_wrong_side',
      (b: UserBundle[]) => {
        // The messages say the user is anxious (and the target reads them right), but the user's
        // hidden profile is calm throughout: a writer whose text shows the other side.
        const user = b[0]!;
        for (const point of user.plan.personality) point.bigFive = { ...point.bigFive, neuroticism: 1 };
        for (const trace of user.memory!.traces.filter((t) => t.task === 'personality_inference')) {
          const said = (text: string) => ({ speaker: 'user', text, time: trace.time, images: [] });
          trace.input.context = [
            said('I have been so tense since Monday.'),
            said('I worry about the budget every single night.'),
          ];
          trace.gold.value = { ...(trace.gold.value as object), neuroticism: 4 };
        }
      },
    ],
    [
      'episode_topic_errors',
      (b: UserBundle[]) => DEFECTS.find((d) => d.check === 'episode_topics')!.apply(b[0]!, null),
    ],
    [
      'procedural_finished_goals',
      (b: UserBundle[]) => DEFECTS.find((d) => d.check === 'procedural_goals')!.apply(b[0]!, null),
    ],
    [
      'core_template_values',
      (b: UserBundle[]) => DEFECTS.find((d) => d.check === 'core_values')!.apply(b[0]!, null),
    ],
    [
      'photo_text_contradictions',
      (b: UserBundle[]) => DEFECTS.find((d) => d.check === 'photo_description')!.apply(b[0]!, null),
    ],
    [
      'visual_distractors_true',
      (b: UserBundle[]) => DEFECTS.find((d) => d.check === 'visual_distractors')!.apply(b[0]!, null),
    ],
    [
      'correction_retractions',
      (b: UserBundle[]) => DEFECTS.find((d) => d.check === 'correction_scope')!.apply(b[0]!, null),
    ],
    [
      'unanswerable_qa',
      (b: UserBundle[]) => {
        const qa = b[0]!.plan.qa.find((q) => q.evidenceSlotIds.length > 0)!;
        const turn = indexUser(b[0]!).turnBySlot.get(qa.evidenceSlotIds[0]!)!.turn;
        turn.text = 'Nothing much happened today.';
      },
    ],
    ...QUESTION_DEFECTS.map((defect): [string, (b: UserBundle[]) => void] => [
      { visual_answer_text: 'visual_answer_in_text', drift_causes: 'drift_cause_direction' }[
        defect.check as 'drift_causes'
      ] ?? 'wrong_golds',
      (b) => defect.apply(b[0]!, null),
    ]),
    [
      'prompt_stale_preferences',
      (b: UserBundle[]) => {
        const user = b[0]!;
        const first = user.dialogue.sessions[0]!.turns[0]!.time;
        user.plan.preferences.push({
          id: 'pref-tea',
          category: 'food',
          slot: 'food.tea',
          item: 'green tea',
          polarity: 'like',
          keywords: ['tea'],
          validFrom: first,
          validUntil: user.dialogue.sessions[1]!.turns[0]!.time,
          origin: 'initial',
          condition: null,
        });
        // Core memory words it its own way, so the prompt's filter of exact entries keeps it.
        for (const snapshot of user.memory!.snapshots)
          snapshot.core = {
            ...snapshot.core,
            human: { ...snapshot.core.human, preferences: 'likes green tea a lot' },
          };
      },
    ],
    [
      'near_duplicate_options',
      (b: UserBundle[]) => {
        b[0]!.plan.qa[0]!.choices[1] = `Salted ${b[0]!.plan.qa[0]!.choices[0]}`;
      },
    ],
    [
      'near_duplicate_options',
      (b: UserBundle[]) => {
        // One option's words inside another's ("Camping" / "Camping under the stars").
        b[0]!.plan.qa[0]!.choices[1] = `${b[0]!.plan.qa[0]!.choices[0]} under the stars`;
      },
    ],
    [
      'near_duplicate_options',
      (b: UserBundle[]) => {
        b[0]!.plan.qa[0]!.choices[2] = 'Used to like tomato soup, now likes tomato soup';
      },
    ],
    [
      'standalone_alignment_questions',
      (b: UserBundle[]) => {
        Object.assign(b[0]!.plan.qa[3]!, { family: 'persona-mme', task: 'personality_alignment' });
      },
    ],
    [
      'alignment_level_errors',
      (b: UserBundle[]) => {
        b[0]!.plan.qa[0]!.alignment = { trait: 'openness', level: 1, style: 'x', contrary: 'y' };
      },
    ],
  ])('catch a planted defect: %s', (name, plant) => {
    const bundles = corpus();
    plant(bundles);
    const figure = measure(bundles)[name]!;
    expect(figure.count).toBeGreaterThan(0);
    expect(figure.ok).toBe(false);
  });

  it('count a goal-status answer the evidence does not say as unanswerable', () => {
    const bundles = corpus();
    const qa = bundles[0]!.plan.qa.find((q) => q.evidenceSlotIds.length > 0)!;
    const turn = indexUser(bundles[0]!).turnBySlot.get(qa.evidenceSlotIds.at(-1)!)!.turn;
    qa.answer = 'Achieved it';
    turn.text = `${turn.text} I still want to get there.`;
    expect(measure(bundles).unanswerable_qa!.count).toBe(1);
    turn.text = `${turn.text} Actually, I did it - I managed it!`;
    expect(measure(bundles).unanswerable_qa!.count).toBe(0);
  });

  it("measure the LoCoMo mix against the pipeline's configured weights, the real file's by default", () => {
    // The fixture asks one single-hop (category 4), one yes/no open-domain (category 3) and one
    // adversarial (category 5) question a user.
    const published = measure(corpus());
    // The real file's mix (14/16/5/42/22 of 99 questions in 100) is the default target.
    expect(published.locomo_category_4).toMatchObject({ value: 33.3, target: 42.4, ok: false });
    expect(published.locomo_category_4!.description).toContain('real file: 42%');
    const configured = measure(corpus(), {
      multi_hop: 0,
      temporal: 0,
      open_domain: 1,
      single_hop: 1,
      adversarial: 1,
    });
    expect(configured.locomo_category_4).toMatchObject({ value: 33.3, target: 33.3, ok: true });
    expect(configured.locomo_category_5).toMatchObject({ value: 33.3, target: 33.3, ok: true });
    expect(configured.locomo_category_1).toMatchObject({ value: 0, target: 0, ok: true });
    expect(configured.locomo_category_4!.description).toContain('configured; real file: 42%');
  });
});
