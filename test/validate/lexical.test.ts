import { describe, expect, it } from 'vitest';
import { contentStems } from '../../src/util/content-words.js';
import { lexicalPick } from '../../src/validate/fidelity-lexical.js';

describe('the lexical question-only baseline', () => {
  it('reads content words as lemma stems, stop words left out', () => {
    expect(contentStems('What do I usually do every morning?')).toEqual(['usual', 'morn']);
    expect(contentStems('Jogs in the park every morning')).toEqual(['jog', 'park', 'morn']);
  });

  it('picks the option sharing most content words with the question', () => {
    const question =
      "I told you about something I'm working towards that involves five kilograms — what am I aiming for?";
    const choices = [
      'To lose five kilograms',
      'To run a half marathon',
      'To renovate the kitchen',
      'To pass the driving test',
    ];
    expect(lexicalPick({ question, choices, correctIndex: 0 })).toBe(1);
    expect(lexicalPick({ question, choices, correctIndex: 2 })).toBe(0);
  });

  it('splits the credit over tied options: no shared word at all is chance', () => {
    const question = 'Which of these goals did I tell you I had set myself?';
    const choices = [
      'To lose five kilograms',
      'To run a half marathon',
      'To renovate the kitchen',
      'To pass the driving test',
    ];
    expect(lexicalPick({ question, choices, correctIndex: 1 })).toBe(0.25);
    const timed = 'What do I usually do every morning?';
    const options = [
      'Jogs in the park every morning',
      'Swims every morning',
      'Reads before bed',
      'Calls home on Sundays',
    ];
    expect(lexicalPick({ question: timed, choices: options, correctIndex: 0 })).toBe(0.5);
    expect(lexicalPick({ question: timed, choices: [], correctIndex: null })).toBeNull();
  });
});
