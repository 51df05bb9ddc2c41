import { describe, expect, it } from 'vitest';
import { formatProgress, parseLogLine } from './progress.js';

describe('parseLogLine', () => {
  it('parses an ms-swift training line', () => {
    const parsed = parseLogLine(
      '{"loss": 1.25, "grad_norm": 2.0, "learning_rate": 2e-05, "epoch": 0.1, "reward": 0.75, "global_step/max_steps": "12/300", "percentage": "4.00%", "elapsed_time": "1m 2s", "remaining_time": "25m", "memory(GiB)": 60.1, "train_speed(s/it)": 5.1}',
    );
    expect(parsed).toEqual({
      kind: 'progress',
      event: {
        step: 12,
        maxSteps: 300,
        loss: 1.25,
        reward: 0.75,
        learningRate: 2e-5,
        epoch: 0.1,
        elapsed: '1m 2s',
        remaining: '25m',
        isEval: false,
      },
    });
  });

  it('parses eval lines and the final line', () => {
    expect(parseLogLine('{"eval_loss": 0.5, "global_step/max_steps": "20/40"}')).toMatchObject({
      kind: 'progress',
      event: { isEval: true, loss: 0.5 },
    });
    expect(
      parseLogLine(
        '{"last_model_checkpoint": "/o/v1-20260101-000000/checkpoint-40", "best_model_checkpoint": null, "global_step": 40}',
      ),
    ).toEqual({
      kind: 'final',
      event: {
        lastModelCheckpoint: '/o/v1-20260101-000000/checkpoint-40',
        bestModelCheckpoint: null,
        globalStep: 40,
      },
    });
  });

  it('ignores noise', () => {
    expect(parseLogLine('')).toBeUndefined();
    expect(parseLogLine('not json')).toBeUndefined();
    expect(parseLogLine('{"loss": 1}')).toBeUndefined();
  });

  it('formats a plain line', () => {
    expect(
      formatProgress({
        step: 3,
        maxSteps: 12,
        loss: 0.5,
        learningRate: 1e-6,
        remaining: '9s',
        isEval: false,
      }),
    ).toBe('step 3/12 (25.0%) loss 0.5000 lr 1.00e-6 eta 9s');
  });
});
