import { parseEvidence } from '../../interpolate/dia-id.js';
import { renumberSessionRefs } from '../../util/session-refs.js';

type Json = Record<string, unknown>;

/** One turn of an M²A conversation (FORMATS.md §6): speaker index, 0-based `S<i>:<u>` id. */
export interface M2aTurn {
  speaker: 0 | 1;
  dia_id: string;
  images: string[];
  text: string;
}

/** One M²A QA item; `image` holds the question's own images (visual QA). */
export interface M2aQa {
  question: { text: string; image: string[] };
  answer: string | number;
  evidence: string[];
  category: number;
}

/** One element of M²A's `merged.json`. */
export interface M2aSample {
  conversation: Json & { speaker_0: string; speaker_1: string; n_session: number };
  qa: M2aQa[];
}

/** A problem met while converting, reported in `report.json`. */
export interface M2aWarning {
  path: string;
  value: string;
  message: string;
}

const SESSION_KEY = /^session_(\d+)$/;
const isLocalPath = (value: unknown): value is string =>
  typeof value === 'string' && value !== '' && !/^[a-z]+:\/\//i.test(value);

/**
 * Converts a LoCoMo record (FORMATS.md §1) into M²A's normalised shape, as M²A's
 * `normalize_locomo_sample` does: `speaker_0/1`, `n_session`, 0-based `session_<i>` and
 * `session_<i>_date_time`, turns `{speaker, dia_id "S<i>:<u>", images, text}`, QA
 * `{question: {text, image: []}, answer, evidence, category}`. Images are the turn's local
 * `img_url` paths (web URLs of unreleased LoCoMo images are dropped, as M²A does when no file
 * matches). Evidence that does not resolve to a turn is dropped and reported. LoCoMo's
 * adversarial category 5 is dropped (M²A uses 5 for visual QA) and counted. "session N" in QA
 * text is renumbered with the sessions (N − 1), so it keeps naming the session of its evidence.
 *
 * @example const { sample } = locomoToM2a(record); sample.conversation.session_0_date_time
 */
export function locomoToM2a(record: Json): {
  sample: M2aSample;
  warnings: M2aWarning[];
  droppedAdversarial: number;
} {
  const conversation = (record.conversation ?? {}) as Json;
  const speakerA = String(conversation.speaker_a ?? 'A');
  const speakerB = String(conversation.speaker_b ?? 'B');
  const numbers = Object.keys(conversation)
    .map((key) => SESSION_KEY.exec(key))
    .filter((match) => match !== null && Array.isArray(conversation[match[0]]))
    .map((match) => Number(match![1]))
    .sort((a, b) => a - b);
  const out: M2aSample['conversation'] = {
    speaker_0: speakerA,
    speaker_1: speakerB,
    n_session: numbers.length,
  };
  const warnings: M2aWarning[] = [];
  const idMap = new Map<string, string>();
  numbers.forEach((old, s) => {
    const turns = conversation[`session_${old}`] as Json[];
    out[`session_${s}`] = turns.map((turn, u): M2aTurn => {
      const id = `S${s}:${u}`;
      idMap.set(`D${old}:${u + 1}`, id);
      const urls = Array.isArray(turn.img_url) ? turn.img_url : [];
      return {
        speaker: turn.speaker === speakerA ? 0 : 1,
        dia_id: id,
        images: urls.filter(isLocalPath),
        text: String(turn.text ?? ''),
      };
    });
    out[`session_${s}_date_time`] = conversation[`session_${old}_date_time`];
  });
  let droppedAdversarial = 0;
  const qa: M2aQa[] = [];
  (Array.isArray(record.qa) ? (record.qa as Json[]) : []).forEach((item, q) => {
    const category = Number(item.category);
    if (category === 5) {
      droppedAdversarial++;
      return;
    }
    const evidence: string[] = [];
    for (const [e, value] of (Array.isArray(item.evidence) ? item.evidence : []).entries()) {
      const parsed = typeof value === 'string' ? parseEvidence(value) : { kind: 'malformed' as const };
      const mapped =
        parsed.kind === 'malformed' ? [] : parsed.ids.map((id) => idMap.get(`D${id.session}:${id.turn}`));
      if (mapped.length === 0 || mapped.some((id) => id === undefined)) {
        warnings.push({
          path: `qa[${q}].evidence[${e}]`,
          value: String(value),
          message: 'evidence does not resolve to a turn; dropped (M²A drops it too)',
        });
      }
      for (const id of mapped) if (id !== undefined && !evidence.includes(id)) evidence.push(id);
    }
    const answer = item.answer;
    // "session N" follows the sessions: LoCoMo's session_<N> is M²A's session_<N − 1>.
    const shift = (n: number) => n - 1;
    qa.push({
      question: { text: renumberSessionRefs(String(item.question ?? ''), shift), image: [] },
      answer: typeof answer === 'number' ? answer : renumberSessionRefs(String(answer ?? ''), shift),
      evidence,
      category,
    });
  });
  return { sample: { conversation: out, qa }, warnings, droppedAdversarial };
}

/**
 * M²A's visual QA injection (`inject_vqa_data`, category 5): for each concept whose images appear
 * in the conversation, one question about a photo of it, with every dia_id showing it as evidence.
 *
 * @example injectVisualQa(sample, [{ name: 'Mochi', objectClass: 'cat', paths: ['images/a.png'] }])
 */
export function injectVisualQa(
  sample: M2aSample,
  concepts: ReadonlyArray<{ name: string; objectClass: string; paths: readonly string[] }>,
): number {
  let added = 0;
  for (const concept of concepts) {
    const evidence: string[] = [];
    let shown: string | undefined;
    for (let s = 0; s < sample.conversation.n_session; s++) {
      for (const turn of (sample.conversation[`session_${s}`] ?? []) as M2aTurn[]) {
        const hit = turn.images.find((path) => concept.paths.includes(path));
        if (hit === undefined) continue;
        shown ??= hit;
        evidence.push(turn.dia_id);
      }
    }
    if (shown === undefined) continue;
    sample.qa.push({
      question: { text: `What is the name of the ${concept.objectClass} in this photo?`, image: [shown] },
      answer: concept.name,
      evidence,
      category: 5,
    });
    added++;
  }
  return added;
}
