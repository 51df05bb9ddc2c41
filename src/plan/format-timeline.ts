import type { UserPlan } from '../schemas/plan.js';

const short = (iso: string) => iso.slice(0, 16).replace('T', ' ');

/**
 * A readable chronological timeline of one plan for `persona-forge inspect plan`: the persona,
 * then every session with its evidence slots and noise, drift events with causes, personality
 * shifts, relationship and goal changes, and the QA targets at their question times.
 *
 * @example console.log(formatPlanTimeline(await findUserPlan('runs/a', 'train-00000')));
 */
export function formatPlanTimeline(plan: UserPlan): string {
  const persona = plan.enriched.persona;
  const lines: string[] = [];
  const rounds = plan.sessions.reduce((sum, session) => sum + session.rounds, 0);
  const imageRounds = plan.sessions.reduce((sum, session) => sum + session.images.length, 0);
  lines.push(
    `${plan.userId} (${plan.split}, profile ${plan.profile}) — ${persona.name}, ${persona.age}, ${persona.occupation}, ${persona.location.city}`,
  );
  lines.push(`  ${persona.description}`);
  const b5 = plan.personality[0]?.bigFive;
  if (b5 !== undefined) {
    lines.push(
      `  Big Five O${b5.openness} C${b5.conscientiousness} E${b5.extraversion} A${b5.agreeableness} N${b5.neuroticism} (enriched ${plan.enriched.enrichedBy})`,
    );
  }
  lines.push(
    `  horizon ${short(plan.horizon.start)} → ${short(plan.horizon.end)}; ${plan.sessions.length} sessions, ${rounds} rounds, ${imageRounds} with images; ${plan.preferences.length} preferences, ${plan.drift.length} drift events, ${plan.qa.length} questions`,
  );
  lines.push('', 'Initial preferences:');
  for (const p of plan.preferences.filter((item) => item.origin === 'initial')) {
    const end = p.validUntil === null ? '' : ` (until ${short(p.validUntil)})`;
    const when = p.condition === null ? '' : ` [${p.condition.context}: ${p.condition.when}]`;
    lines.push(`  ${p.id} ${p.category.padEnd(13)} ${p.polarity} ${p.item}${when}${end}`);
  }
  lines.push(
    '',
    'People:',
    ...plan.people.map((person) => `  ${person.id} ${person.name} (${person.relation})`),
  );
  lines.push('Habits:', ...plan.habits.map((habit) => `  ${habit.id} ${habit.description}`));
  lines.push(
    'Concepts:',
    ...plan.concepts.map(
      (concept) =>
        `  ${concept.id} <${concept.name}> ${concept.kind}/${concept.objectClass}: ${concept.imageIds.join(', ')}`,
    ),
  );

  // Everything with a time, merged into one chronology.
  const events: Array<{ time: string; order: number; text: string }> = [];
  for (const session of plan.sessions) {
    const noise = session.noise.map((item) => `r${item.round} ${item.kind}`).join(', ');
    events.push({
      time: session.start,
      order: 0,
      text: `── session ${session.index}: ${session.rounds} rounds every ${session.roundGapMinutes} min; topics: ${session.topics.join('; ')}${noise === '' ? '' : `; noise: ${noise}`}`,
    });
  }
  for (const slot of plan.slots) {
    events.push({
      time: slot.time,
      order: 1,
      text: `   s${slot.sessionIndex}r${slot.round} [${slot.kind}] ${slot.statement}${slot.imageId === null ? '' : ` {${slot.imageId}}`}`,
    });
  }
  for (const event of plan.drift) {
    events.push({
      time: event.time,
      order: 2,
      text: `   ↳ drift ${event.type} (${event.visibility}) ${event.previousPreferenceId ?? '∅'} → ${event.preferenceId ?? '∅'} because ${event.cause}`,
    });
  }
  for (const point of plan.personality.slice(1)) {
    events.push({
      time: point.time,
      order: 2,
      text: `   ↳ personality now ${Object.values(point.bigFive).join('/')} (${point.cause})`,
    });
  }
  for (const goal of plan.goals) {
    for (const state of goal.states)
      events.push({
        time: state.time,
        order: 2,
        text: `   ↳ goal ${goal.id} "${goal.description}": ${state.status}`,
      });
  }
  for (const qa of plan.qa) {
    const options =
      qa.choices.length === 0
        ? ''
        : ` [${qa.choices.map((choice, index) => (index === qa.correctIndex ? `*${choice}*` : choice)).join(' | ')}]`;
    events.push({
      time: qa.questionTime,
      order: 3,
      text: `   ? ${qa.family}/${qa.task}: ${qa.question} → ${qa.answer}${options} (evidence ${qa.evidenceSlotIds.join(', ') || 'none'})`,
    });
  }
  events.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.order - b.order));
  lines.push('', 'Timeline:');
  for (const event of events) lines.push(`${short(event.time)} ${event.text}`);
  return `${lines.join('\n')}\n`;
}
