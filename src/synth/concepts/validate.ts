import type { SynthConfig } from '../../schemas/synth-config.js';
import { sessionRefProblems } from '../../util/session-refs.js';
import { CONCEPT_QA_CATEGORY, type ConceptGeneration, type ConceptMember } from './schema.js';

/** Expected QA count per category for a total (2:3:1:4 by default, scaled to `qaTotal`). */
export function expectedQaCounts(config: SynthConfig['concepts']): Record<6 | 7 | 8 | 9, number> {
  const mix = config.qaMix;
  const sum = mix.multiHop + mix.temporal + mix.openDomain + mix.singleHop;
  const scale = config.qaTotal / sum;
  return {
    [CONCEPT_QA_CATEGORY.multiHop]: mix.multiHop * scale,
    [CONCEPT_QA_CATEGORY.temporal]: mix.temporal * scale,
    [CONCEPT_QA_CATEGORY.openDomain]: mix.openDomain * scale,
    [CONCEPT_QA_CATEGORY.singleHop]: mix.singleHop * scale,
  } as Record<6 | 7 | 8 | 9, number>;
}

/**
 * Checks a generated concept conversation the way M²A's `validate_generated_content` does:
 * session count, exact fixed timestamps, dia_id sequence, turn counts, known images, every
 * concept named `<Name>` in the first message, QA category mix and evidence ids — and what
 * M²A does not check: no turn text said twice, no question asked twice, and every "session k" a
 * question or answer names holds its evidence (`S<k>:…`). Returns the list of problems (empty
 * when valid).
 *
 * @example validateConceptGeneration(output, { concepts, times, config }) // []
 */
export function validateConceptGeneration(
  output: ConceptGeneration,
  expected: { concepts: ConceptMember[]; times: string[]; config: SynthConfig['concepts'] },
): string[] {
  const issues: string[] = [];
  const { config } = expected;
  if (output.sessions.length !== expected.times.length)
    issues.push(`expected ${expected.times.length} sessions, got ${output.sessions.length}`);
  const images = new Set(expected.concepts.flatMap((c) => c.imageIds));
  const ids = new Set<string>();
  output.sessions.forEach((session, s) => {
    if (expected.times[s] !== undefined && session.date_time !== expected.times[s])
      issues.push(
        `session ${s}: date_time must be exactly "${expected.times[s]}", got "${session.date_time}"`,
      );
    const [min, max] = config.turnsPerSession;
    if (session.turns.length < min || session.turns.length > max)
      issues.push(`session ${s}: ${session.turns.length} turns, expected ${min}-${max}`);
    session.turns.forEach((turn, t) => {
      if (turn.dia_id !== `S${s}:${t}`)
        issues.push(`session ${s} turn ${t}: dia_id must be "S${s}:${t}", got "${turn.dia_id}"`);
      ids.add(turn.dia_id);
      for (const image of turn.images)
        if (!images.has(image)) issues.push(`${turn.dia_id}: unknown image "${image}"`);
    });
  });
  const first = output.sessions[0]?.turns[0]?.text ?? '';
  for (const concept of expected.concepts)
    if (!first.includes(`<${concept.name}>`)) issues.push(`the first message must name <${concept.name}>`);
  const said = new Map<string, string>();
  for (const session of output.sessions)
    for (const turn of session.turns) {
      const key = turn.text.trim().toLowerCase();
      const before = said.get(key);
      if (before !== undefined) issues.push(`${turn.dia_id} repeats the text of ${before}`);
      else said.set(key, turn.dia_id);
    }
  const asked = new Set<string>();
  const sessionOf = (id: string) => {
    const match = /^S(\d+):\d+$/.exec(id);
    return match === null ? null : Number(match[1]);
  };
  const counts: Record<number, number> = {};
  for (const item of output.qa) {
    if (asked.has(item.question)) issues.push(`QA "${item.question}" is asked twice`);
    asked.add(item.question);
    for (const problem of sessionRefProblems(item.question, item.answer, item.evidence, sessionOf))
      issues.push(`QA "${item.question}" ${problem} (session k = the turns S<k>:…)`);
    counts[item.category] = (counts[item.category] ?? 0) + 1;
    for (const id of item.evidence)
      if (!ids.has(id)) issues.push(`QA "${item.question}": unknown evidence "${id}"`);
  }
  if (output.qa.length !== config.qaTotal)
    issues.push(`expected ${config.qaTotal} QA items, got ${output.qa.length}`);
  for (const [category, count] of Object.entries(expectedQaCounts(config))) {
    if ((counts[Number(category)] ?? 0) !== count)
      issues.push(`category ${category}: expected ${count} QA items, got ${counts[Number(category)] ?? 0}`);
  }
  return issues;
}
