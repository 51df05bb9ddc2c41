import { describe, expect, it } from 'vitest';
import { RecipeError } from '../errors/index.js';
import { allowedArgs, assertKnownArgs, closestArg, loadArgNames } from './arg-names.js';

describe('ms-swift argument names', () => {
  it('carries its source commit', () => {
    const data = loadArgNames();
    expect(data.source.repo).toBe('modelscope/ms-swift');
    expect(data.source.commit).toMatch(/^[0-9a-f]{40}$/);
  });

  it('knows 4.x renamed train_type to tuner_type', () => {
    expect(allowedArgs('sft', 4).has('tuner_type')).toBe(true);
    expect(allowedArgs('sft', 4).has('train_type')).toBe(false);
    expect(allowedArgs('sft', 3).has('train_type')).toBe(true);
    expect(allowedArgs('sft', 3).has('tuner_type')).toBe(false);
  });

  it('accepts inherited transformers fields and GRPO-only names only for rlhf', () => {
    expect(allowedArgs('sft', 4).has('max_steps')).toBe(true);
    expect(allowedArgs('rlhf', 4).has('num_generations')).toBe(true);
    expect(allowedArgs('sft', 4).has('num_generations')).toBe(false);
  });

  it('explains renamed arguments', () => {
    expect(() => assertKnownArgs(['train_type'], 'sft', 4)).toThrowError(
      /; renamed to tuner_type in v4\.0\.0/,
    );
  });

  it('names the closest real argument for a typo', () => {
    expect(closestArg('num_generation', allowedArgs('rlhf', 4))).toBe('num_generations');
    expect(() => assertKnownArgs(['model', 'learning_rat'], 'sft', 4)).toThrowError(
      /--learning_rat is not an argument of `swift sft`/,
    );
    try {
      assertKnownArgs(['gc_collect_after_offload'], 'rlhf', 4);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(RecipeError);
      expect((error as RecipeError).flag).toBe('gc_collect_after_offload');
      expect((error as RecipeError).hint).toMatch(/did you mean --/);
    }
  });
});
