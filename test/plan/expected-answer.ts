import { stateAt } from '../../src/plan/state-at.js';
import { explanationLevel } from '../../src/qa/life-kernels.js';
import type { EvidenceSlot, Preference, QaTarget, UserPlan } from '../../src/schemas/plan.js';

/**
 * Test-side derivation of what a QA target's answer must be, from the plan record and `stateAt`
 * only (never from the generator's kernels). Returns null when the answer is right, else a
 * message saying what was expected.
 */
export function checkAnswer(plan: UserPlan, qa: QaTarget): string | null {
  const t = Date.parse(qa.questionTime);
  const state = stateAt(plan, t);
  const slots = qa.evidenceSlotIds.map((id) => plan.slots.find((slot) => slot.id === id) as EvidenceSlot);
  const last = slots[slots.length - 1];
  const cap = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
  // A habit is answered by its activity; the question names its time ("every morning").
  const activity = (description: string) => cap(description.replace(/\s+(every\s.+|before bed)$/, ''));
  const render = (p: Preference) =>
    `${p.polarity}s ${p.item}${p.condition === null ? '' : ` ${p.condition.when}`}`;
  const prefOf = (slot: EvidenceSlot | undefined): Preference | undefined => {
    if (slot === undefined) return undefined;
    const id =
      slot.kind === 'drift' ? plan.drift.find((event) => event.id === slot.refId)?.preferenceId : slot.refId;
    return plan.preferences.find((p) => p.id === id);
  };
  const activeIds = new Set(state.preferences.map((p) => p.id));
  const expect = (value: string) => (qa.answer === value ? null : `expected "${value}", got "${qa.answer}"`);
  const byKind = (): string | null => {
    if (last === undefined) return 'no evidence';
    const habit = plan.habits.find((h) => h.id === last.refId);
    if (habit !== undefined) return expect(activity(habit.description));
    const person = plan.people.find((p) => p.id === last.refId);
    if (person !== undefined) return expect(person.name);
    const concept = plan.concepts.find((c) => c.id === last.refId);
    if (concept !== undefined) return expect(concept.name);
    const goal = plan.goals.find((g) => g.id === last.refId);
    if (goal !== undefined) return expect(`To ${goal.description}`);
    return `unexpected evidence kind ${last.kind}`;
  };
  const drifts = slots
    .filter((slot) => slot.kind === 'drift')
    .map((slot) => plan.drift.find((event) => event.id === slot.refId));

  switch (qa.task) {
    case 'latest_preference_recognition':
    case 'acknowledge_latest_user_preferences':
    case 'single_hop':
    case 'implicit_intent_recognition': {
      const p = prefOf(last);
      if (p === undefined) return qa.task === 'single_hop' ? byKind() : 'implicit/latest needs a preference';
      if (!activeIds.has(p.id)) return `preference ${p.id} not active at question time`;
      return qa.answer === cap(render(p)) || qa.answer === cap(p.item)
        ? null
        : `expected "${cap(render(p))}", got "${qa.answer}"`;
    }
    case 'implicit_preference_recommendation':
    case 'provide_preference_aligned_recommendations':
    case 'generalizing_to_new_scenarios': {
      const p = prefOf(last);
      if (p === undefined || !activeIds.has(p.id) || p.polarity !== 'like')
        return 'recommendation must rest on an active like';
      const liked = new Set(
        state.preferences.filter((x) => x.polarity === 'like').map((x) => x.item.toLowerCase()),
      );
      if (qa.choices.some((choice, index) => index !== qa.correctIndex && liked.has(choice.toLowerCase())))
        return 'a distractor is liked now';
      return expect(cap(p.item));
    }
    case 'interest_evolution_analysis': {
      const hit = drifts.some((event) => {
        const next = plan.preferences.find((p) => p.id === event?.preferenceId);
        const previous = plan.preferences.find((p) => p.id === event?.previousPreferenceId);
        if (previous === undefined) return false;
        if (event?.type === 'delete') {
          return (
            !activeIds.has(previous.id) &&
            qa.answer === `Used to ${previous.polarity} ${previous.item}, not any more`
          );
        }
        return (
          next !== undefined &&
          activeIds.has(next.id) &&
          qa.answer === `Used to ${previous.polarity} ${previous.item}, now ${render(next)}`
        );
      });
      return hit ? null : `no drift explains "${qa.answer}"`;
    }
    case 'track_full_preference_evolution': {
      const event = drifts.find((d) => d !== undefined);
      const p = plan.preferences.find((x) => x.id === (event?.previousPreferenceId ?? event?.preferenceId));
      if (p === undefined) return 'no drift in evidence';
      const chain = plan.preferences
        .filter((x) => x.slot === p.slot && Date.parse(x.validFrom) <= t)
        .sort((a, b) => Date.parse(a.validFrom) - Date.parse(b.validFrom));
      // Every deletion in the history reads "-> no longer …", the last state's or one in the middle.
      const ended = (x: Preference) =>
        plan.drift.some(
          (d) => d.type === 'delete' && d.previousPreferenceId === x.id && Date.parse(d.time) <= t,
        );
      return expect(
        chain.flatMap((x) => (ended(x) ? [render(x), `no longer ${render(x)}`] : [render(x)])).join(' -> '),
      );
    }
    case 'recalling_the_reasons_behind_previous_updates': {
      const event = drifts[drifts.length - 1];
      return event === undefined ? 'no drift evidence' : expect(cap(event.cause));
    }
    case 'multi_hop': {
      const event = drifts[drifts.length - 1];
      const paired = !qa.answer.startsWith('Used to ') && !qa.answer.includes(', because ');
      if (event === undefined || (paired && qa.answer.includes('; '))) {
        // Two liked preferences, each from its own turn: both active now, the answer names both.
        const prefs = [...new Set(slots.map(prefOf))].filter((p): p is Preference => p !== undefined);
        if (prefs.length !== 2) return 'multi-hop without drift needs two preferences';
        if (prefs.some((p) => !activeIds.has(p.id) || p.polarity !== 'like'))
          return 'a named preference is not liked now';
        const [a, b] = prefs as [Preference, Preference];
        const answers = [`${cap(a.item)}; ${b.item}`, `${cap(b.item)}; ${a.item}`];
        return answers.includes(qa.answer)
          ? null
          : `expected one of ${answers.join(' | ')}, got "${qa.answer}"`;
      }
      const next = plan.preferences.find((p) => p.id === event.preferenceId);
      const previous = plan.preferences.find((p) => p.id === event.previousPreferenceId);
      if (qa.answer === cap(event.cause)) return null;
      // The interest-evolution shape ("Used to …, now …" / "…, not any more").
      if (previous !== undefined && qa.answer.startsWith('Used to ')) {
        const evolved = drifts.some((d) => {
          const before = plan.preferences.find((p) => p.id === d?.previousPreferenceId);
          const after = plan.preferences.find((p) => p.id === d?.preferenceId);
          if (before === undefined) return false;
          return d?.type === 'delete'
            ? qa.answer === `Used to ${before.polarity} ${before.item}, not any more`
            : after !== undefined &&
                qa.answer === `Used to ${before.polarity} ${before.item}, now ${render(after)}`;
        });
        return evolved ? null : `no drift explains "${qa.answer}"`;
      }
      return next === undefined
        ? 'no next preference'
        : expect(`${cap(render(next))}, because ${event.cause}`);
    }
    case 'temporal': {
      const day = (iso: string) => {
        const date = new Date(iso);
        const month = date.toLocaleString('en-GB', { month: 'long', timeZone: 'UTC' });
        return `${date.getUTCDate()} ${month} ${date.getUTCFullYear()}`;
      };
      // "When did I first tell you that I like X": the first turn that said it — a drift turn, or
      // an earlier spell of the same preference (held, dropped, taken up again) — for a preference
      // the user holds now.
      const asked = drifts[drifts.length - 1];
      const p = /\bfirst\b/i.test(qa.question) || asked === undefined ? prefOf(last) : undefined;
      if (p === undefined) {
        if (asked !== undefined) return expect(day(asked.time));
        return 'temporal needs a drift or a preference mention';
      }
      const same = (x: Preference) =>
        x.item === p.item &&
        x.polarity === p.polarity &&
        (x.condition?.when ?? null) === (p.condition?.when ?? null);
      if (!state.preferences.some(same)) return `no preference like ${p.id} is held at question time`;
      const opened = new Map(plan.drift.map((d) => [d.id, d.preferenceId]));
      const first = plan.slots
        .filter((slot) => {
          const id = slot.kind === 'drift' ? opened.get(slot.refId) : slot.refId;
          const x = plan.preferences.find((q) => q.id === id);
          return x !== undefined && same(x) && Date.parse(slot.time) < t;
        })
        .sort((a, b) => (a.time < b.time ? -1 : 1))[0];
      if (first?.id !== last?.id) return 'the evidence is not the first mention';
      return expect(day(first!.time));
    }
    case 'open_domain': {
      const p = prefOf(last);
      if (p === undefined || !activeIds.has(p.id)) return 'open-domain must rest on an active preference';
      return expect(p.polarity === 'like' ? 'Yes' : 'No');
    }
    case 'suggest_new_ideas': {
      const stated = new Set(
        plan.preferences
          .filter((p) =>
            plan.slots.some(
              (slot) =>
                Date.parse(slot.time) < t &&
                (slot.refId === p.id ||
                  plan.drift.some((d) => d.id === slot.refId && d.preferenceId === p.id)),
            ),
          )
          .map((p) => p.item.toLowerCase()),
      );
      if (stated.has(qa.answer.toLowerCase())) return 'the "new" idea was already mentioned';
      const wrong = qa.choices.filter((_, index) => index !== qa.correctIndex);
      return wrong.every((choice) => stated.has(choice.toLowerCase()))
        ? null
        : 'a distractor was never mentioned';
    }
    case 'adversarial': {
      const word = qa.retrievalKeywords[0]?.toLowerCase() ?? '';
      if (plan.people.some((person) => person.relation === word)) return 'asked about someone the plan has';
      if (state.evidence.some((slot) => slot.keywords.some((k) => k.toLowerCase() === word)))
        return 'evidence exists';
      return qa.unanswerable && qa.evidenceSlotIds.length === 0
        ? expect('Not mentioned')
        : 'adversarial must be unanswerable';
    }
    case 'visual_detail_recall': {
      const image = plan.images.find((item) => item.id === last?.imageId);
      if (image === undefined) return 'no image evidence';
      const ok = image.objects.some(
        (object) =>
          qa.question.includes(object.name) &&
          (qa.answer === String(object.count) || qa.answer === cap(object.color)),
      );
      return ok ? null : `no object of ${image.id} gives "${qa.answer}"`;
    }
    case 'recall_user_shared_facts': {
      // A shared preference (the last fallback) answers as the latest preference does.
      const p = prefOf(last);
      if (p === undefined) return byKind();
      if (!activeIds.has(p.id)) return `preference ${p.id} not active at question time`;
      return expect(cap(render(p)));
    }
    case 'semantic_information_recall':
    case 'explicit_intent_inference':
      return byKind();
    case 'behavioral_pattern_recognition': {
      const habit = state.habits.find((h) => h.id === last?.refId);
      return habit === undefined ? 'habit not active' : expect(activity(habit.description));
    }
    case 'long_term_goal_tracking': {
      // The latest status the user reported, as the last evidence turn's plan statement says it.
      const reported = /is (planned|in progress|achieved|abandoned)$/.exec(last?.statement ?? '')?.[1];
      if (/\bever\b/.test(qa.question)) {
        // "Did I ever see it through?": done, given up, not said yet, or a plan never named.
        if (last === undefined)
          return qa.unanswerable && !plan.goals.some((goal) => qa.question.includes(goal.description))
            ? expect('I have never mentioned such a plan')
            : 'an outcome question about a named plan without evidence';
        const outcome =
          reported === 'achieved'
            ? 'Yes, I got it done'
            : reported === 'abandoned'
              ? 'No, I gave it up'
              : 'I never said how it ended';
        if (qa.unanswerable !== (outcome === 'I never said how it ended'))
          return 'unanswerable flag disagrees with the outcome';
        return expect(outcome);
      }
      const labels: Record<string, string> = {
        planned: 'Still planning it, not started yet',
        'in progress': 'In progress',
        achieved: 'Achieved it',
        abandoned: 'Gave it up',
      };
      if (reported === undefined) return 'no goal status reported';
      if (qa.unanswerable) return 'a progress question is answerable';
      return expect(labels[reported] as string);
    }
    case 'relationship_recognition': {
      const person = plan.people.find((p) => p.id === last?.refId);
      return person === undefined ? 'no person' : expect(cap(person.relation));
    }
    case 'relationship_dynamics_comprehension': {
      if (qa.unanswerable) {
        // About someone never named: no person of the plan is in the question, no evidence given.
        if (plan.people.some((p) => qa.question.includes(p.name))) return 'asked about someone the plan has';
        if (qa.evidenceSlotIds.length > 0) return 'a never-mentioned person with evidence';
        return expect('I have never mentioned them');
      }
      const person = plan.people.find((p) => p.id === last?.refId);
      if (person === undefined) return 'no person';
      const now = state.people.get(person.id)?.closeness ?? 0;
      const first = person.timeline[0]?.closeness ?? 0;
      return expect(
        now > first ? 'We have grown closer' : now < first ? 'We have drifted apart' : 'About the same',
      );
    }
    case 'tiered_explanation_delivery':
      return expect(explanationLevel(plan.enriched.persona.education));
    case 'personality_alignment': {
      const index = Number(last?.refId.split('-').pop());
      const point = plan.personality[index];
      const before = plan.personality[index - 1];
      if (point === undefined || before === undefined) return 'no personality shift';
      const trait = (Object.keys(point.bigFive) as Array<keyof typeof point.bigFive>).find(
        (k) => point.bigFive[k] !== before.bigFive[k],
      );
      if (trait === undefined) return 'shift changed nothing';
      // The user said which way they changed ("I feel more outgoing lately"): Yes when it went up.
      return expect(point.bigFive[trait] > before.bigFive[trait] ? 'Yes' : 'No');
    }
    default:
      return `unknown task ${qa.task}`;
  }
}
