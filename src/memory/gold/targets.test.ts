import { describe, expect, it } from 'vitest';
import {
  formatCoreMemory,
  formatEpisodes,
  formatPersonalityScores,
  formatSemanticDecision,
  parseKeyValueLines,
} from './targets.js';

describe('memory target formats', () => {
  it('renders semantic decisions in PersonaVLM key-value lines and reads them back', () => {
    const text = formatSemanticDecision({
      reason: 'Likes it.\nReally.',
      decision: true,
      content: 'Ana likes jasmine tea',
      keywords: ['jasmine', 'tea'],
    });
    expect(text).toBe(
      '"reason": Likes it. Really.\n"decision": True\n"content": Ana likes jasmine tea\n"keywords": jasmine, tea',
    );
    expect(parseKeyValueLines(text)).toEqual({
      reason: 'Likes it. Really.',
      decision: 'True',
      content: 'Ana likes jasmine tea',
      keywords: 'jasmine, tea',
    });
    expect(
      formatSemanticDecision({ reason: 'small talk', decision: false, content: 'x', keywords: ['y'] }),
    ).toBe('"reason": small talk\n"decision": False\n"content": None\n"keywords": None');
  });

  it('renders personality, core and episodic targets', () => {
    expect(
      formatPersonalityScores({
        openness: 4,
        conscientiousness: 3,
        extraversion: 2,
        agreeableness: 5,
        neuroticism: 1,
      }),
    ).toBe('"openness": 4\n"conscientiousness": 3\n"extraversion": 2\n"agreeableness": 5\n"neuroticism": 1');
    expect(
      formatCoreMemory({
        human: { name: 'Ana' },
        persona: { identity: 'assistant', roles: 'r', interactionStyle: 'warm' },
      }),
    ).toBe(
      '"human.name": Ana\n"persona.identity": assistant\n"persona.roles": r\n"persona.interactionStyle": warm',
    );
    const episodes = JSON.parse(
      formatEpisodes([
        {
          id: 'e',
          sessionIndex: 0,
          summary: 's',
          keywords: ['k'],
          turnIndices: [0, 1],
          start: '2024-01-01T00:00:00.000Z',
          end: '2024-01-01T00:01:00.000Z',
          slotIds: [],
        },
      ]),
    );
    expect(episodes).toEqual([{ topic_summary: 's', keywords: ['k'], source_dialog_indices: [0, 1] }]);
  });
});
