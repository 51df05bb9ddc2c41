import { JUDGE_KINDS, type JudgeKind } from '../../../reward/judge-kinds.js';
import type { FakeChatRequest } from '../server.js';
import { statementItems } from './free-writing.js';
import { coverage, promptContent } from './text.js';

/** `slot_expressed`: the fact counts as stated when its keywords, or most of its words, are there. */
export function slotAnswer(request: FakeChatRequest): unknown {
  const prompt = promptContent(request.messages, 'User message: ');
  const fact = /^Fact: (.*)$/m.exec(prompt)?.[1] ?? '';
  const keywords = (/^Keywords: (.*)$/m.exec(prompt)?.[1] ?? '').split(', ').filter((k) => k !== '');
  const message = /^User message: ([\s\S]*)$/m.exec(prompt)?.[1] ?? '';
  const lower = message.toLowerCase();
  const allKeywords = keywords.length > 0 && keywords.every((k) => lower.includes(k.toLowerCase()));
  const share = coverage(fact, message);
  const expressed = allKeywords || share >= 0.6;
  return {
    expressed,
    reason: expressed
      ? `the message states it (${Math.round(share * 100)}% of the fact's words)`
      : `only ${Math.round(share * 100)}% of the fact's words appear`,
  };
}

/**
 * `session_judgement`: facts expressed = share of the planned facts whose words the user turns
 * carry; coherence drops for turns that do not alternate or repeat word for word.
 */
export function sessionAnswer(request: FakeChatRequest): unknown {
  return judgeSessionText(promptContent(request.messages, '\nSession:\n'));
}

/** `session_judgements`: each `### Session n` block of a packed prompt judged as `sessionAnswer` judges one. */
export function sessionsAnswer(request: FakeChatRequest): unknown {
  const parts = promptContent(request.messages, /^### Session \d+$/m).split(/^### Session (\d+)\n/m);
  const sessions: unknown[] = [];
  for (let i = 1; i < parts.length; i += 2)
    sessions.push({ session: Number(parts[i]), ...(judgeSessionText(parts[i + 1] ?? '') as object) });
  return { sessions };
}

function judgeSessionText(prompt: string): unknown {
  const factsBlock = /Planned facts for this session:\n([\s\S]*?)\nSession:\n/.exec(prompt)?.[1] ?? '';
  const facts = factsBlock
    .split('\n')
    .map((line) => line.replace(/^- /, '').trim())
    .filter((line) => line !== '' && line !== '(none)');
  const turns = [
    ...(prompt.split('\nSession:\n')[1] ?? '').matchAll(/^\[(\d+)\] (user|assistant): (.*)$/gm),
  ].map((m) => ({ speaker: m[2] as string, text: m[3] as string }));
  const userText = turns
    .filter((t) => t.speaker === 'user')
    .map((t) => t.text)
    .join(' ');
  // A preference or drift said in other words (the free-writing dialect) names its items.
  const lower = userText.toLowerCase();
  const named = (fact: string) => {
    const items = statementItems(fact);
    return items.length > 0 && items.every((item) => lower.includes(item.toLowerCase()));
  };
  const expressed =
    facts.length === 0
      ? 1
      : facts.filter((f) => coverage(f, userText) >= 0.5 || named(f)).length / facts.length;
  let problems = 0;
  const seen = new Set<string>();
  turns.forEach((turn, i) => {
    if (i > 0 && turns[i - 1]?.speaker === turn.speaker) problems++;
    if (seen.has(turn.text)) problems++;
    seen.add(turn.text);
  });
  const coherence = turns.length === 0 ? 0 : Math.max(0, 1 - problems / turns.length);
  return {
    coherence: Math.round(coherence * 100) / 100,
    safe: true,
    persona_consistency: 1,
    fact_expressed: Math.round(expressed * 100) / 100,
    reason:
      expressed < 1
        ? `${facts.length - Math.round(expressed * facts.length)} planned facts not stated`
        : problems > 0
          ? `${problems} turns repeat or break alternation`
          : 'ok',
  };
}

const FIELDS: Record<JudgeKind, Array<[label: string, key: string]>> = {
  accuracy: [
    ['QUESTION', 'question'],
    ['REFERENCE', 'reference'],
    ['RESPONSE', 'answer'],
  ],
  consistency: [
    ['QUESTION', 'question'],
    ['REASONING', 'reasoning'],
    ['RETRIEVED MEMORY', 'memory'],
    ['ANSWER', 'answer'],
  ],
  tree_ops: [
    ['GT_OPS', 'gt_ops'],
    ['PRED_OPS', 'pred_ops'],
  ],
  persona: [
    ['PROFILE', 'profile'],
    ['QUESTION', 'question'],
    ['ANSWER', 'answer'],
  ],
};

/** Splits one rendered item into its labelled fields (values may span lines). */
function readItem(kind: JudgeKind, text: string): Record<string, string> {
  const labels = FIELDS[kind];
  const out: Record<string, string> = {};
  const pattern = new RegExp(`^(${labels.map(([l]) => l.replace(/ /g, ' ')).join('|')}):[ \\n]?`, 'gm');
  const marks = [...text.matchAll(pattern)];
  marks.forEach((mark, i) => {
    const key = labels.find(([label]) => label === mark[1])?.[1];
    if (key === undefined) return;
    const from = (mark.index ?? 0) + mark[0].length;
    const to = marks[i + 1]?.index ?? text.length;
    out[key] = text.slice(from, to).trim();
  });
  return out;
}

/**
 * The reward judges (`judge_<kind>`): each numbered item graded with the same rule the offline
 * heuristic of that kind uses (token F1 for accuracy, coverage for consistency and persona, the
 * structural tree-op score), written as the model would: a label or a score per item id.
 */
export function rewardJudgeAnswer(kind: JudgeKind, request: FakeChatRequest): unknown {
  const prompt = promptContent(request.messages, /^### Item \d+$/m);
  const spec = JUDGE_KINDS[kind];
  const items = prompt.split(/^### Item (\d+)\n/m);
  const results: Array<Record<string, unknown>> = [];
  for (let i = 1; i < items.length; i += 2) {
    const id = Number(items[i]);
    const input = readItem(kind, items[i + 1] ?? '');
    const value = spec.offline(input, { f1Threshold: 0.5 });
    results.push(
      kind === 'accuracy' ? { id, label: value >= 0.5 ? 'CORRECT' : 'WRONG' } : { id, score: value },
    );
  }
  return { results };
}
