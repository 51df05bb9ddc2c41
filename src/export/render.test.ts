import { describe, expect, it } from 'vitest';
import { renderTraceInput } from './render.js';
import { rowShapeProblems } from './row-shape.js';

describe('renderTraceInput', () => {
  it('renders a quoted single turn with its own image and never leaves a stray <image>', () => {
    const rendered = renderTraceInput(
      {
        turn: {
          time: '2024-02-19T14:15:36.000Z',
          index: 2,
          speaker: 'user',
          text: '<image> Meet Mochi.',
          images: ['img-1'],
        },
        reply: { index: 3, speaker: 'assistant', text: 'Mochi looks great.', images: [] },
        memory: [{ text: 'the user sent <image> of a kite' }],
      },
      (id) => `images/${id}.png`,
    );
    expect(rendered.images).toEqual(['images/img-1.png']);
    expect(rendered.text).toContain('#2 user: <image>Meet Mochi.');
    expect(rendered.text).toContain('the user sent [image] of a kite');
    expect(rendered.text.split('<image>').length - 1).toBe(1);
    const row = { messages: [{ role: 'user', content: rendered.text }], images: rendered.images };
    expect(rowShapeProblems(row)).toEqual([]);
  });

  it('row shape: an empty target and a tag without its image are named', () => {
    expect(
      rowShapeProblems({
        messages: [
          { role: 'user', content: '<image><image>hi' },
          { role: 'assistant', content: '' },
        ],
        images: ['a.png'],
      }),
    ).toEqual(['message 1 (assistant) is empty', '2 <image> tags for 1 images']);
  });
});
