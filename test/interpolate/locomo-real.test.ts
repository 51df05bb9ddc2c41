import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  formatLocomoTime,
  interpolateIntoHost,
  parseEvidence,
  parseLocomoTime,
} from '../../src/interpolate/index.js';
import { sessionsForInsertion } from '../../src/synth/insert-sessions.js';
import { makePlanFixture } from '../support/plan-fixture.js';

type Json = Record<string, unknown>;
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const file = path.resolve(repoRoot, '../shared', 'data/locomo/locomo10.json');

describe.skipIf(!existsSync(file))('interpolation over the real locomo10.json', () => {
  const load = (): Json[] => JSON.parse(readFileSync(file, 'utf8')) as Json[];

  it('parses and re-formats every session time exactly', () => {
    for (const record of load()) {
      for (const [key, value] of Object.entries(record.conversation as Json)) {
        if (key.endsWith('_date_time'))
          expect(formatLocomoTime(parseLocomoTime(value as string))).toBe(value);
      }
    }
  });

  it('splices sessions into all 10 conversations: host turns unchanged, order strictly increasing, evidence remapped, malformed ids reported', async () => {
    const plan = makePlanFixture({ seed: 21, rounds: 30, sessionRounds: [5, 8] });
    const insert = await sessionsForInsertion(plan, { seed: 3, count: 3 });
    const n = insert.sessions.length;
    const host = load();
    const reported: string[] = [];
    for (let c = 0; c < host.length; c++) {
      const original = host[c]!;
      const { document, report } = interpolateIntoHost({
        host,
        format: 'locomo',
        sessions: insert,
        seed: 100 + c,
        conversation: c,
      });
      const merged = (document as Json[])[c]!;
      // Other conversations untouched, the input not mutated.
      (document as Json[]).forEach((item, i) => {
        if (i !== c) expect(item).toBe(host[i]);
      });
      const position = report.position;
      const shift = (s: number) => (s > position ? s + n : s);
      const before = original.conversation as Json;
      const after = merged.conversation as Json;
      const afterTurns = new Map<string, Json>();
      for (const [key, value] of Object.entries(after))
        if (/^session_\d+$/.test(key))
          for (const turn of value as Json[]) afterTurns.set(turn.dia_id as string, turn);

      for (const [key, value] of Object.entries(before)) {
        const match = /^session_(\d+)$/.exec(key);
        if (match === null) continue;
        const s = Number(match[1]);
        const moved = after[`session_${shift(s)}`] as Json[];
        (value as Json[]).forEach((turn, t) => {
          const id = String(turn.dia_id).replace(/^D\d+/, `D${shift(s)}`);
          expect(JSON.stringify(moved[t])).toBe(JSON.stringify({ ...turn, dia_id: id }));
        });
      }
      const times = Object.keys(after)
        .map((key) => /^session_(\d+)_date_time$/.exec(key))
        .filter((m) => m !== null)
        .map((m) => [Number(m![1]), parseLocomoTime(after[m![0]] as string)] as const)
        .sort((a, b) => a[0] - b[0]);
      for (let i = 1; i < times.length; i++) expect(times[i]![1]).toBeGreaterThan(times[i - 1]![1]);

      const qaBefore = original.qa as Json[];
      const qaAfter = merged.qa as Json[];
      // The host's QA, then the QA planned for the inserted sessions (evidence inside them).
      expect(qaAfter).toHaveLength(qaBefore.length + report.qaAdded);
      const inserted = new Set(Array.from({ length: n }, (_, k) => position + 1 + k));
      for (const item of qaAfter.slice(qaBefore.length))
        for (const id of item.evidence as string[])
          expect(inserted.has(Number(/^D(\d+):/.exec(id)?.[1]))).toBe(true);
      qaBefore.forEach((item, q) => {
        const expected: string[] = [];
        for (const value of item.evidence as string[]) {
          const parsed = parseEvidence(value);
          if (parsed.kind === 'malformed') expected.push(value);
          else for (const id of parsed.ids) expected.push(`D${shift(id.session)}:${id.turn}`);
          if (parsed.kind !== 'malformed') {
            // The remapped id points at the same host turn as before.
            for (const id of parsed.ids) {
              const old = (before[`session_${id.session}`] as Json[] | undefined)?.find(
                (turn) => turn.dia_id === `D${id.session}:${id.turn}`,
              );
              if (old !== undefined)
                expect(afterTurns.get(`D${shift(id.session)}:${id.turn}`)?.text).toBe(old.text);
            }
          }
        }
        expect(qaAfter[q]!.evidence).toEqual(expected);
        expect({ ...qaAfter[q], evidence: null }).toEqual({ ...item, evidence: null });
      });
      for (const warning of report.warnings) if (warning.kind !== 'dangling') reported.push(warning.value);
    }
    // The six malformed evidence strings FORMATS.md §1 lists are all reported.
    for (const bad of ['D8:6; D9:17', 'D', 'D:11:26', 'D9:1 D4:4 D4:6']) expect(reported).toContain(bad);
    expect(reported).toHaveLength(6);
  });
});
