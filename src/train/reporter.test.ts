import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createConsoleReporter } from './reporter.js';

function capture(tty: boolean) {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (c: Buffer) => {
    text += c.toString('utf8');
  });
  const reporter = createConsoleReporter({ stream, tty });
  return { reporter, text: () => text };
}

describe('createConsoleReporter', () => {
  it('writes plain progress lines without a TTY', () => {
    const { reporter, text } = capture(false);
    reporter.output('run sh: `python sft.py`\n');
    reporter.progress({
      step: 2,
      maxSteps: 4,
      loss: 1,
      reward: 0.5,
      learningRate: 2e-6,
      remaining: '3s',
      isEval: false,
    });
    reporter.stop();
    expect(text()).toBe(
      'run sh: `python sft.py`\n[persona-forge] step 2/4 (50.0%) loss 1.0000 reward 0.5000 lr 2.00e-6 eta 3s\n',
    );
  });

  it('draws a bar with loss, reward, lr and ETA on a TTY', () => {
    const { reporter, text } = capture(true);
    reporter.progress({
      step: 1,
      maxSteps: 4,
      loss: 1.5,
      reward: 0.25,
      learningRate: 1e-6,
      remaining: '9s',
      isEval: false,
    });
    reporter.progress({
      step: 2,
      maxSteps: 4,
      loss: 1.25,
      reward: 0.5,
      learningRate: 1e-6,
      remaining: '6s',
      isEval: false,
    });
    reporter.stop();
    expect(text()).toMatch(/2\/4 \| loss 1\.2500 \| reward 0\.5000 \| lr 1\.00e-6 \| eta 6s/);
  });
});
