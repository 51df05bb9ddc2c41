import type { ExportConfig } from '../../schemas/export-config.js';
import { formatLocomoTime } from '../time-format.js';
import type { EvalSource } from './common.js';
import { evidenceTurns, stripImagePlaceholders } from './common.js';
import { joinPath } from './persona-mme.js';

/** A LoCoMo sample as `buildLocomoSample` makes it (plain data: it crosses threads). */
export interface LocomoSample {
  qa: Array<Record<string, unknown>>;
  conversation: Record<string, unknown>;
  event_summary: Record<string, unknown>;
  observation: Record<string, unknown>;
  session_summary: Record<string, string>;
  sample_id: string;
}

/**
 * One LoCoMo sample (FORMATS.md §1): `conversation` with `speaker_a` (the user) and `speaker_b`
 * (the assistant), `session_N` turns with 1-based `dia_id` "D<s>:<t>" (images as `img_url` +
 * `blip_caption`), `session_N_date_time` in LoCoMo's free-text form, and `qa` with `evidence`
 * dia_ids and `category` (5 = adversarial, answer in `adversarial_answer`). Sessions after the
 * user's last question are left out, so no question sees its future.
 *
 * @example buildLocomoSample(bundle, config)?.conversation.session_1_date_time // '9:00 am on 1 March, 2024'
 */
export function buildLocomoSample(bundle: EvalSource, config: ExportConfig): LocomoSample | null {
  const targets = bundle.plan.qa.filter(
    (qa) => config.eval.allFamiliesInEachFormat || qa.family === 'locomo',
  );
  if (targets.length === 0) return null;
  const lastAsked = Math.max(...targets.map((qa) => Date.parse(qa.questionTime)));
  const images = new Map(bundle.plan.images.map((image) => [image.id, image]));
  const speakerA = bundle.plan.enriched.persona.name;
  const conversation: Record<string, unknown> = { speaker_a: speakerA, speaker_b: 'Assistant' };
  const diaIds = new Map<string, string>();
  const slots = new Map(bundle.plan.slots.map((slot) => [slot.id, slot]));
  const observation: Record<string, unknown> = {};
  const sessionSummary: Record<string, string> = {};
  const eventSummary: Record<string, unknown> = {};
  let n = 0;
  for (const session of bundle.dialogue.sessions) {
    if (Date.parse(session.start) >= lastAsked) break;
    n++;
    conversation[`session_${n}_date_time`] = formatLocomoTime(session.start);
    // What the user's turns state (the plan's facts, third person, with the turn's dia_id), the
    // session's summary and its life events, in LoCoMo's shapes.
    const facts: Array<[string, string]> = [];
    const events: string[] = [];
    session.turns.forEach((turn, t) => {
      for (const slot of turn.slots.flatMap((id) => slots.get(id) ?? [])) {
        if (slot.kind === 'noise') continue;
        facts.push([slot.statement, `D${n}:${t + 1}`]);
        if (slot.kind === 'drift' || slot.kind === 'goal' || slot.kind === 'relationship')
          events.push(`${slot.statement}.`);
      }
    });
    observation[`session_${n}_observation`] = { [speakerA]: facts, Assistant: [] };
    const when = formatLocomoTime(session.start);
    const topics = bundle.plan.sessions[session.index]?.topics ?? [];
    sessionSummary[`session_${n}_summary`] =
      `${speakerA} and the assistant had a conversation at ${when}${topics.length > 0 ? ` about ${topics.join(', ')}` : ''}.` +
      (facts.length > 0 ? ` ${facts.map(([fact]) => `${fact}.`).join(' ')}` : '');
    eventSummary[`events_session_${n}`] = {
      [speakerA]: events,
      Assistant: [],
      date: when.replace(/^.* on /, ''),
    };
    conversation[`session_${n}`] = session.turns.map((turn, t) => {
      const diaId = `D${n}:${t + 1}`;
      diaIds.set(turn.id, diaId);
      const entry: Record<string, unknown> = {
        speaker: turn.speaker === 'user' ? speakerA : 'Assistant',
        dia_id: diaId,
        text: stripImagePlaceholders(turn.text),
      };
      if (turn.images.length > 0) {
        entry.img_url = turn.images.map((id) => joinPath(config.imageRoot, images.get(id)?.path ?? id));
        entry.blip_caption = turn.images.map((id) => images.get(id)?.caption ?? '').join('; ');
      }
      return entry;
    });
  }
  const qa = targets.map((target) => {
    const evidence = evidenceTurns(bundle, target).flatMap((found) => diaIds.get(found.turn.id) ?? []);
    const category = target.locomoCategory ?? (target.unanswerable ? 5 : 4);
    return category === 5
      ? { question: target.question, evidence, category, adversarial_answer: target.answer }
      : { question: target.question, answer: target.answer, evidence, category };
  });
  // The published key order; the export names samples `conv-<n>` (the published kind).
  return {
    qa,
    conversation,
    event_summary: eventSummary,
    observation,
    session_summary: sessionSummary,
    sample_id: bundle.plan.userId,
  };
}
