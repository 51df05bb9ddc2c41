import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  insertedSpeakerProblems,
  interpolateEachConversation,
  interpolateIntoHost,
} from '../../src/interpolate/index.js';
import { sessionsForEachUser } from '../../src/synth/insert-sessions.js';
import { runCli } from '../support/cli.js';
import { makeLocomoFixture } from '../support/locomo-fixture.js';
import { makePlanFixture } from '../support/plan-fixture.js';

type Json = Record<string, unknown>;
const plans = [3, 4, 6].map((seed) => makePlanFixture({ seed, rounds: 40, sessionRounds: [6, 8] }));

/** Three LoCoMo-shaped conversations, each between two friends of its own. */
function hosts(): Json[] {
  return [
    ['Nadia', 'Felix'],
    ['Caro', 'Mel'],
    ['Jon', 'Gina'],
  ].map(([a, b]) => {
    const record = makeLocomoFixture({ sessions: 4, gapDays: 30 });
    const text = JSON.stringify(record).replaceAll('"Nadia"', `"${a}"`).replaceAll('"Felix"', `"${b}"`);
    return JSON.parse(text) as Json;
  });
}

const inserted = (conversation: Json, position: number, count: number): Json[][] =>
  Array.from({ length: count }, (_, j) => conversation[`session_${position + j + 1}`] as Json[]);

describe('interpolated LoCoMo sessions speak as the user and their assistant', () => {
  it('one generated user per host conversation, spoken by speaker_a and Assistant, the user renamed', async () => {
    const users = await sessionsForEachUser(plans, { seed: 2 });
    // The realizer may address the user by name (the builtin personas' offline text does).
    users.forEach((user, c) => {
      expect(user.userName).toBe(plans[c]!.enriched.persona.name);
      user.sessions[0]!.turns[1]!.text = `Okay, ${user.userName}, noted.`;
    });
    const host = hosts();
    const { document, reports } = interpolateEachConversation({ host, users, seed: 5 });
    expect(reports.map((r) => r.user)).toEqual([0, 1, 2]);
    const signatures = new Set<string>();
    reports.forEach((report, c) => {
      const conversation = (document[c] as Json).conversation as Json;
      const [a, b] = [String(conversation.speaker_a), String(conversation.speaker_b)];
      expect(report.speakers).toEqual({ user: a, assistant: 'Assistant' });
      expect(report.warnings.filter((w) => w.kind === 'speaker')).toEqual([]);
      const sessions = inserted(conversation, report.position, report.inserted);
      signatures.add(JSON.stringify(sessions.map((s) => s.map((t) => t.text))));
      const name = plans[c]!.enriched.persona.name;
      for (const [j, turns] of sessions.entries())
        for (const [t, turn] of turns.entries()) {
          const role = users[c]!.sessions[j]!.turns[t]!.speaker;
          expect(turn.speaker).toBe(role === 'user' ? a : 'Assistant');
          expect(turn.speaker).not.toBe(b);
          expect(String(turn.text)).not.toContain(name.split(' ')[0]!);
        }
    });
    expect(signatures.size).toBe(3);
    const first = (document[1] as Json).conversation as Json;
    expect(inserted(first, reports[1]!.position, 1)[0]![1]!.text).toBe('Okay, Caro, noted.');
    // Deterministic.
    expect(JSON.stringify(interpolateEachConversation({ host, users, seed: 5 }).document)).toBe(
      JSON.stringify(document),
    );
  });

  it('the interpolation report catches the host friend speaking the assistant and the user’s own name', async () => {
    const [user] = await sessionsForEachUser(plans.slice(0, 1), { seed: 2, count: 2 });
    const host = hosts()[0]!;
    // The old mapping, planted on purpose: the user's friend speaks the assistant's lines.
    const { document, report } = interpolateIntoHost({
      host,
      format: 'locomo',
      sessions: user!,
      seed: 1,
      position: 1,
      speakers: { user: 'Nadia', assistant: 'Felix' },
    });
    expect(report.warnings.filter((w) => w.kind === 'speaker').map((w) => w.message)).toContain(
      "the assistant is a host speaker: the host's own person speaks its lines",
    );
    // One turn spoken by the wrong person, one saying the generated user's own name.
    const clean = interpolateIntoHost({ host, format: 'locomo', sessions: user!, seed: 1, position: 1 });
    const conversation = structuredClone((clean.document as Json).conversation as Json);
    const turns = conversation.session_2 as Json[];
    turns[1]!.speaker = 'Felix';
    const name = plans[0]!.enriched.persona.name;
    turns[2]!.text = `Thanks, ${name}.`;
    const numbers = [2, 3];
    const problems = insertedSpeakerProblems(
      conversation,
      numbers,
      user!.sessions,
      clean.report.speakers!,
      name,
    );
    expect(problems.map((p) => p.path)).toEqual([
      'conversation.session_2[1].speaker',
      'conversation.session_2[2].text',
    ]);
    const untouched = (clean.document as Json).conversation as Json;
    expect(insertedSpeakerProblems(untouched, numbers, user!.sessions, clean.report.speakers!, name)).toEqual(
      [],
    );
    expect(document).not.toBe(clean.document);
  });

  it('the CLI splices every conversation of a list by default, one user each (contract unchanged)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pf-speakers-'));
    try {
      await writeFile(join(dir, 'host.json'), JSON.stringify(hosts()));
      await writeFile(join(dir, 'plan.jsonl'), `${plans.map((p) => JSON.stringify(p)).join('\n')}\n`);
      const out = join(dir, 'merged.json');
      const args = ['--host', 'host.json', '--format', 'locomo', '--sessions', 'plan.jsonl', '--out', out];
      const run = await runCli(dir, ['interpolate', ...args, '--seed', '3', '--report', 'report.json']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/conversation 2: user 2 .* as Jon with Assistant/);
      expect(run.stdout).not.toMatch(/"kind":"speaker"/);
      // The LoCoMo figures, each at its target 0: added questions in LoCoMo form, category and
      // evidence; no inserted turn with the generated person's biography or the wrong speaker.
      for (const name of [
        'added_question_form',
        'added_question_category',
        'added_question_evidence',
        'inserted_biography_turns',
        'inserted_speaker_errors',
      ])
        expect(run.stdout).toMatch(new RegExp(`fidelity ${name}: 0 of \\d+ \\(target 0\\)\n`));
      expect(run.stdout).toMatch(/fidelity inserted_biography_turns: 0 of [1-9]\d* /);
      const reports = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as Array<{
        fidelity: Json;
      }>;
      expect(reports).toHaveLength(hosts().length);
      const merged = JSON.parse(await readFile(out, 'utf8')) as Json[];
      const original = hosts();
      merged.forEach((record, c) => {
        const sessions = (r: Json) =>
          Object.keys(r.conversation as Json).filter((k) => /^session_\d+$/.test(k));
        expect(sessions(record).length).toBeGreaterThan(sessions(original[c]!).length);
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
