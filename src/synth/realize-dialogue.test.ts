import { describe, expect, it } from 'vitest';
import { normalizeImagePlaceholders } from './realize-dialogue.js';

describe('normalizeImagePlaceholders', () => {
  it.each([
    ['look at this', 1, '<image> look at this'],
    ['<image> and <image> again', 1, '<image> and again'],
    ['<img> here', 1, '<image> here'],
    ['two <image>', 2, '<image> two <image>'],
    ['none here', 0, 'none here'],
    ['<image> stray', 0, 'stray'],
  ])('%s with %i image(s) → %s', (text, count, expected) => {
    expect(normalizeImagePlaceholders(text, count)).toBe(expected);
  });
});
