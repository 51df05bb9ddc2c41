/**
 * Planted defects of issue 27's memory-target classes (item 9): an episode labelled with its
 * neighbour's subject, procedural memory that keeps a goal the user gave up, core memory that
 * copies a plan statement template.
 */
import type { EpisodicEntry, ProceduralEntry } from '../../src/schemas/memory.js';
import type { CoreMemory } from '../../src/schemas/persona.js';
import type { Defect } from './types.js';

const sessionTrace = (b: Parameters<Defect['apply']>[0], task: string) =>
  b.memory!.traces.find((t) => t.task === task && t.sessionIndex === 0)!;

export const MEMORY_DEFECTS: Defect[] = [
  {
    name: "episode labels shifted one segment (each names its neighbour's subject)",
    check: 'episode_topics',
    apply(b) {
      const trace = sessionTrace(b, 'episodic_summary');
      const episodes = structuredClone(trace.gold.value as EpisodicEntry[]);
      const [first, second] = episodes;
      [first!.summary, second!.summary] = [second!.summary, first!.summary];
      trace.gold.value = episodes;
    },
  },
  {
    name: 'procedural memory keeps a goal the user said they gave up',
    check: 'procedural_goals',
    apply(b) {
      const turn = b.dialogue.sessions[0]!.turns.find((t) => t.speaker === 'user' && t.slots.length === 0)!;
      b.plan.goals.push({
        id: 'goal-marathon',
        description: 'run a marathon',
        keywords: ['marathon'],
        states: [
          { time: b.dialogue.sessions[0]!.start, status: 'in_progress', note: '' },
          { time: turn.time, status: 'abandoned', note: 'knee injury' },
        ],
      });
      b.plan.slots.push({
        id: 'slot-marathon',
        kind: 'goal',
        refId: 'goal-marathon',
        sessionIndex: 0,
        round: turn.round,
        time: turn.time,
        statement: 'gave up on running a marathon',
        keywords: ['marathon'],
        imageId: null,
      });
      turn.slots.push('slot-marathon');
      turn.text = 'I gave up on the marathon, my knee will not take it.';
      const trace = sessionTrace(b, 'procedural_update');
      const kept: ProceduralEntry = {
        id: 'P:goal-marathon',
        key: 'goal marathon',
        sentence: 'is training for a marathon',
        updatedAt: turn.time,
        slotIds: ['slot-marathon'],
      };
      trace.gold.value = [...(trace.gold.value as ProceduralEntry[]), kept];
    },
  },
  {
    name: "core memory copies the plan's statement ('works as retired fisherman')",
    check: 'core_values',
    apply(b) {
      const trace = sessionTrace(b, 'core_update');
      const core = structuredClone(trace.gold.value as CoreMemory);
      core.human.occupation = `${b.plan.enriched.persona.name} works as retired fisherman`;
      trace.gold.value = core;
    },
  },
];
