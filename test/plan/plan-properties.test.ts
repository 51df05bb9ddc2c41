import { beforeAll, describe, expect, it } from 'vitest';
import { buildUserPlan } from '../../src/plan/build-user-plan.js';
import { stateAt } from '../../src/plan/state-at.js';
import { PERSONA_MME_TASKS, PERSONAMEM_TOPICS } from '../../src/qa/tasks.js';
import { UserPlan } from '../../src/schemas/plan.js';
import { resolvePlanSettings } from '../../src/schemas/plan-config.js';
import { checkAnswer } from './expected-answer.js';
import { fixtureImages, fixtureUsers } from './fixtures.js';

const USERS = 1000;
const SEED = 42;
const MINUTE = 60_000;
const settings = resolvePlanSettings({});
const at = (iso: string) => Date.parse(iso);
const plans: UserPlan[] = [];

beforeAll(() => {
  const images = fixtureImages();
  for (const user of fixtureUsers(USERS))
    plans.push(buildUserPlan({ ...user, images }, { config: {}, seed: SEED }));
});

function overlaps(
  a: { validFrom: string; validUntil: string | null },
  b: { validFrom: string; validUntil: string | null },
) {
  const aEnd = a.validUntil === null ? Number.POSITIVE_INFINITY : at(a.validUntil);
  const bEnd = b.validUntil === null ? Number.POSITIVE_INFINITY : at(b.validUntil);
  return at(a.validFrom) < bEnd && at(b.validFrom) < aEnd;
}

describe(`plan properties over ${USERS} seeded users`, () => {
  it('every plan matches the UserPlan schema', () => {
    for (const plan of plans) expect(UserPlan.safeParse(plan).success, plan.userId).toBe(true);
  });

  it('never holds two contradictory preferences at the same time', () => {
    for (const plan of plans) {
      const prefs = plan.preferences;
      for (let i = 0; i < prefs.length; i++) {
        for (let j = i + 1; j < prefs.length; j++) {
          const a = prefs[i] as UserPlan['preferences'][number];
          const b = prefs[j] as UserPlan['preferences'][number];
          const sameSlot = a.slot === b.slot;
          const sameItemOpposite =
            a.item === b.item && a.polarity !== b.polarity && a.condition?.when === b.condition?.when;
          if (sameSlot || sameItemOpposite)
            expect(overlaps(a, b), `${plan.userId} ${a.id}/${b.id}`).toBe(false);
        }
      }
    }
  });

  it('drift events close and open preferences that exist at that time', () => {
    for (const plan of plans) {
      for (const event of plan.drift) {
        const previous = plan.preferences.find((p) => p.id === event.previousPreferenceId);
        const next = plan.preferences.find((p) => p.id === event.preferenceId);
        if (event.type === 'add') expect(event.previousPreferenceId, event.id).toBeNull();
        if (event.type !== 'add') {
          expect(previous, `${plan.userId} ${event.id}`).toBeDefined();
          expect(at(previous?.validFrom ?? '') < at(event.time)).toBe(true);
          expect(previous?.validUntil).toBe(event.time);
        }
        if (event.type !== 'delete') {
          expect(next?.validFrom).toBe(event.time);
          expect(next?.origin).toBe('drift');
        } else {
          expect(event.preferenceId).toBeNull();
        }
        // The drift is expressed at a round whose time is the event's time.
        const slot = plan.slots.find((s) => s.refId === event.id);
        expect(slot?.time).toBe(event.time);
      }
    }
  });

  it('sessions are strictly increasing with gaps of at least t_s and rounds within the ranges', () => {
    for (const plan of plans) {
      let previousEnd = Number.NEGATIVE_INFINITY;
      let total = 0;
      for (const session of plan.sessions) {
        const start = at(session.start);
        expect(start - previousEnd, `${plan.userId} session ${session.index}`).toBeGreaterThanOrEqual(
          settings.sessionGapMinutes * MINUTE,
        );
        previousEnd = start + (session.rounds - 1) * session.roundGapMinutes * MINUTE;
        total += session.rounds;
        expect(session.rounds).toBeLessThanOrEqual(settings.roundsPerSession[1]);
      }
      expect(previousEnd).toBeLessThan(at(plan.horizon.end));
      const ranges = (plan.split === 'train' ? settings.trainContexts : settings.testContexts).map(
        (name) => (settings.contexts[name]?.rounds ?? [0, 0]) as [number, number],
      );
      expect(
        ranges.some(([min, max]) => total >= min && total <= max),
        `${plan.userId} ${total} rounds`,
      ).toBe(true);
      const days = (at(plan.horizon.end) - at(plan.horizon.start)) / 86_400_000;
      expect(days).toBeLessThanOrEqual(settings.horizonDays[plan.split][1] + 1);
      const images = plan.sessions.reduce((sum, session) => sum + session.images.length, 0);
      expect(images / total).toBeGreaterThanOrEqual(settings.multimodal.ratio[0]);
      expect(images / total).toBeLessThanOrEqual(settings.multimodal.ratio[1]);
    }
  });

  it('binds at most one evidence slot per round, at that round time', () => {
    const problems: string[] = [];
    for (const plan of plans) {
      const seen = new Set<string>();
      for (const slot of plan.slots) {
        const key = `${slot.sessionIndex}:${slot.round}`;
        const session = plan.sessions[slot.sessionIndex] as UserPlan['sessions'][number];
        if (seen.has(key)) problems.push(`${plan.userId} two slots at ${key}`);
        seen.add(key);
        if (slot.round >= session.rounds) problems.push(`${plan.userId} ${slot.id} past the session end`);
        if (at(slot.time) !== at(session.start) + Math.round(slot.round * session.roundGapMinutes * MINUTE)) {
          problems.push(`${plan.userId} ${slot.id} time is not its round's time`);
        }
        if (session.noise.some((noise) => noise.round === slot.round))
          problems.push(`${plan.userId} ${slot.id} on a noise round`);
      }
    }
    expect(problems.slice(0, 10)).toEqual([]);
  });

  it('observed drift rates are within 10% of the configured means', () => {
    const expected = { add: 0, delete: 0, modify: 0 };
    const observed = { add: 0, delete: 0, modify: 0 };
    for (const plan of plans) {
      const days = (at(plan.horizon.end) - at(plan.horizon.start)) / 86_400_000;
      const scale = (days / settings.drift.referenceHorizonDays) * settings.drift.timeScale;
      for (const type of ['add', 'delete', 'modify'] as const)
        expected[type] += settings.drift.perUserMeans[type] * scale;
      for (const event of plan.drift) observed[event.type]++;
    }
    console.info('drift observed/expected', observed, expected);
    for (const type of ['add', 'delete', 'modify'] as const) {
      expect(
        Math.abs(observed[type] - expected[type]) / expected[type],
        `${type} ${observed[type]} vs ${expected[type]}`,
      ).toBeLessThan(0.1);
    }
    const noise = plans.reduce((sum, plan) => sum + plan.sessions.reduce((s, x) => s + x.noise.length, 0), 0);
    const rounds = plans.reduce((sum, plan) => sum + plan.sessions.reduce((s, x) => s + x.rounds, 0), 0);
    expect(Math.abs(noise / rounds - settings.noise.ratio) / settings.noise.ratio).toBeLessThan(0.1);
  });

  it('every QA target rests on earlier evidence and answers with the planned state at its time', () => {
    const failures: string[] = [];
    for (const plan of plans) {
      const slotTimes = new Map(plan.slots.map((slot) => [slot.id, at(slot.time)]));
      for (const qa of plan.qa) {
        const t = at(qa.questionTime);
        for (const id of qa.evidenceSlotIds) {
          const time = slotTimes.get(id);
          if (time === undefined || time >= t)
            failures.push(`${plan.userId} ${qa.id} evidence ${id} not before the question`);
        }
        if (!qa.unanswerable && qa.evidenceSlotIds.length === 0)
          failures.push(`${plan.userId} ${qa.id} has no evidence`);
        const problem = checkAnswer(plan, qa);
        if (problem !== null) failures.push(`${plan.userId} ${qa.id} ${qa.task}: ${problem}`);
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });

  it('the answer check catches a corrupted answer (it can fail)', () => {
    let caught = 0;
    let total = 0;
    for (const plan of plans.slice(0, 50)) {
      for (const qa of plan.qa) {
        total++;
        if (checkAnswer(plan, { ...qa, answer: `${qa.answer} (changed)` }) !== null) caught++;
      }
    }
    // suggest_new_ideas only checks that the answer is new, so a changed answer can still pass.
    expect(caught / total).toBeGreaterThan(0.95);
  });

  it('multiple choice has four distinct options, distractors never equal the answer', () => {
    const problems: string[] = [];
    for (const plan of plans) {
      for (const qa of plan.qa) {
        const where = `${plan.userId} ${qa.id} ${qa.task}`;
        const wrong = qa.choices.filter((_, index) => index !== qa.correctIndex).map((c) => c.toLowerCase());
        if (qa.answerType === 'mc') {
          if (qa.choices.length !== 4 || new Set(qa.choices.map((c) => c.toLowerCase())).size !== 4)
            problems.push(`${where} options`);
          if (qa.choices[qa.correctIndex ?? -1] !== qa.answer) problems.push(`${where} correctIndex`);
          if (wrong.includes(qa.answer.toLowerCase())) problems.push(`${where} distractor equals answer`);
        } else if (qa.answerType === 'binary') {
          if (qa.choices.join('/') !== 'Yes/No' || qa.choices[qa.correctIndex ?? -1] !== qa.answer)
            problems.push(`${where} binary`);
        } else if (qa.choices.length !== 0 || qa.correctIndex !== null) {
          problems.push(`${where} open question with options`);
        }
      }
    }
    expect(problems.slice(0, 10)).toEqual([]);
  });

  it('covers every task of every family across users (but the type the real PersonaMem file lacks)', () => {
    const tasks = new Set(plans.flatMap((plan) => plan.qa.map((qa) => `${qa.family}/${qa.task}`)));
    // Persona-MME's 13 tasks (personality alignment rides on primary cases, never a task of its own).
    expect(tasks.size).toBe(13 + 6 + 5);
    expect(tasks.has('persona-mme/personality_alignment')).toBe(false);
    const mmeCases = plans.flatMap((plan) => plan.qa.filter((qa) => qa.family === 'persona-mme'));
    expect(mmeCases.some((qa) => qa.alignment !== undefined)).toBe(true);
    expect(tasks.has('personamem/acknowledge_latest_user_preferences')).toBe(false);
    const groups = (family: string) =>
      new Set(plans.flatMap((plan) => plan.qa.filter((qa) => qa.family === family).map((qa) => qa.group)));
    expect(groups('persona-mme')).toEqual(new Set(PERSONA_MME_TASKS.map((task) => task.group)));
    for (const topic of groups('personamem'))
      expect([...Object.values(PERSONAMEM_TOPICS), 'general']).toContain(topic);
    const locomo = plans.flatMap((plan) => plan.qa.filter((qa) => qa.family === 'locomo'));
    expect(new Set(locomo.map((qa) => qa.locomoCategory))).toEqual(new Set([1, 2, 3, 4, 5]));
    // "Unknown" is sometimes the right answer for goal tracking, and always for adversarial questions.
    const goalTracking = plans.flatMap((plan) =>
      plan.qa.filter((qa) => qa.task === 'long_term_goal_tracking'),
    );
    expect(goalTracking.some((qa) => qa.unanswerable)).toBe(true);
    expect(goalTracking.some((qa) => !qa.unanswerable)).toBe(true);
    expect(locomo.filter((qa) => qa.locomoCategory === 5).every((qa) => qa.unanswerable)).toBe(true);
    // Image questions exist wherever images are on.
    const mme = plans.flatMap((plan) => plan.qa.filter((qa) => qa.family === 'persona-mme'));
    const needImage = mme.filter((qa) => qa.evidenceSlotIds.length > 0 && qa.task === 'visual_detail_recall');
    expect(needImage.length / mme.length).toBeGreaterThan(0.05);
  });

  it('stateAt agrees with the drift log', () => {
    for (const plan of plans.slice(0, 100)) {
      for (const event of plan.drift) {
        const after = stateAt(plan, at(event.time));
        if (event.preferenceId !== null)
          expect(after.preferences.map((p) => p.id)).toContain(event.preferenceId);
        if (event.previousPreferenceId !== null) {
          expect(after.preferences.map((p) => p.id)).not.toContain(event.previousPreferenceId);
          expect(stateAt(plan, at(event.time) - 1).preferences.map((p) => p.id)).toContain(
            event.previousPreferenceId,
          );
        }
      }
    }
  });
});
