import { stringify } from 'yaml';
import type { ExportConfig } from '../schemas/export-config.js';
import type { ExportSummary } from './export-dataset.js';
import { RL_COLUMNS, SFT_COLUMNS } from './export-user.js';
import { cardFeatures } from './hf-features.js';

const FEATURES = { sft: cardFeatures(SFT_COLUMNS), rl: cardFeatures(RL_COLUMNS) };

/** How many PersonaMem questions were left out, per reason ('' when none). */
function leftOutNote(summary: ExportSummary, config: ExportConfig): string {
  const out = summary.eval.personamem.leftOut;
  if (out === undefined || out.historyTooShort + out.evidenceTooFar === 0) return '';
  const { min, max } = config.eval.personamemContextRange;
  return `: ${out.historyTooShort} asked before the history reached ${min} tokens, ${out.evidenceTooFar} whose evidence sessions exceed ${max}`;
}

/** The evaluation sets that hold questions (a set with none is not listed). */
function evalSets(summary: ExportSummary, config: ExportConfig): string {
  const lines = [
    summary.eval.personaMme.questions > 0
      ? `- \`eval/persona-mme/Persona-MME.json\` + \`samples/<user>/user_data.json\`: ${summary.eval.personaMme.questions} questions over ${summary.eval.personaMme.users} users.`
      : '',
    summary.eval.personamem.questions > 0
      ? `- \`eval/personamem/questions.csv\` + \`shared_contexts.jsonl\`: ${summary.eval.personamem.questions} questions; each sees whole sessions of its user as close to ${config.eval.personamemContextTokens} tokens as ${config.eval.personamemContextRange.min}–${config.eval.personamemContextRange.max} tokens allow, questions whose history gives no such context left out${leftOutNote(summary, config)} (token columns counted with gpt-tokenizer, o200k).`
      : '',
    summary.eval.locomo.questions > 0
      ? `- \`eval/locomo.json\`: ${summary.eval.locomo.samples} conversations, ${summary.eval.locomo.questions} questions (LoCoMo shape).`
      : '',
  ].filter((line) => line !== '');
  return lines.length === 0 ? 'None: this export has no evaluation questions.' : lines.join('\n');
}

const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

function sizeCategory(rows: number): string {
  if (rows < 1_000) return 'n<1K';
  if (rows < 10_000) return '1K<n<10K';
  if (rows < 100_000) return '10K<n<100K';
  return '100K<n<1M';
}

/**
 * Renders `export/README.md`: a Hugging Face dataset card whose YAML front matter declares the
 * `sft` and `rl` configs (parquet, or jsonl when parquet is off) with train/test splits, their
 * features and row counts, the license, the generation settings and whether the offline realizer,
 * offline memory replay or offline judges produced the data.
 *
 * @example renderDatasetCard(summary, { config, seed: 42, generation: { pipeline: 'quickstart' }, parquet: true }).startsWith('---\n')
 */
export function renderDatasetCard(
  summary: ExportSummary,
  options: { config: ExportConfig; seed: number; generation: Record<string, unknown>; parquet: boolean },
): string {
  const extension = options.parquet ? 'parquet' : 'jsonl';
  const anyOffline = summary.offline.realizer || summary.offline.memory || summary.offline.judges === true;
  const rows = (kind: 'sft' | 'rl', split: 'train' | 'test') => total(summary[kind][split]);
  const front = {
    license: options.config.card.license,
    language: options.config.card.language,
    pretty_name: options.config.card.prettyName ?? 'persona-forge synthetic personalization data',
    tags: [
      'synthetic',
      'personalization',
      'long-term-memory',
      'persona-forge',
      ...(anyOffline ? ['offline-generated'] : []),
    ],
    task_categories: ['text-generation'],
    size_categories: [
      sizeCategory(rows('sft', 'train') + rows('sft', 'test') + rows('rl', 'train') + rows('rl', 'test')),
    ],
    configs: (['sft', 'rl'] as const).map((kind) => ({
      config_name: kind,
      // `load_dataset(repo)` with no config name loads this one.
      ...(kind === 'sft' ? { default: true } : {}),
      data_files: (['train', 'test'] as const).map((split) => ({
        split,
        path: `${kind}/${split}.${extension}`,
      })),
    })),
    dataset_info: (['sft', 'rl'] as const).map((kind) => ({
      config_name: kind,
      features: FEATURES[kind],
      splits: (['train', 'test'] as const).map((split) => ({ name: split, num_examples: rows(kind, split) })),
    })),
    persona_forge: {
      seed: options.seed,
      generation: options.generation,
      offline: {
        realizer: summary.offline.realizer,
        memory: summary.offline.memory,
        judges: summary.offline.judges,
      },
      realizers: summary.realizers,
      users: summary.users,
      excluded_users: summary.excluded,
      counts: { sft: summary.sft, rl: summary.rl },
      mix: { sft: options.config.sft.mix, rl: options.config.rl.mix },
      eval: summary.eval,
    },
  };
  const table = (kind: 'sft' | 'rl') => {
    const tasks = [
      ...new Set([...Object.keys(summary[kind].train), ...Object.keys(summary[kind].test)]),
    ].sort();
    return [
      '| task | train | test |',
      '|---|---|---|',
      ...tasks.map(
        (task) => `| ${task} | ${summary[kind].train[task] ?? 0} | ${summary[kind].test[task] ?? 0} |`,
      ),
    ].join('\n');
  };
  const offlineNote = anyOffline
    ? `> **Offline-generated data.** ${[
        summary.offline.realizer
          ? 'Dialogues come from the deterministic offline template realizer, not a language model.'
          : '',
        summary.offline.memory
          ? 'Memory supervision and reasoning trajectories come from offline gold replay of the plan.'
          : '',
        summary.offline.judges === true
          ? 'Judge checks were deterministic offline heuristics, not a model judge.'
          : '',
      ]
        .filter((text) => text !== '')
        .join(
          ' ',
        )} Use it to test pipelines and formats; its language is far less varied than model-written text.`
    : '> Dialogues were realized by a language model (see `persona_forge.realizers`) and checked by rules and a model judge.';
  const body = `# ${front.pretty_name}

Synthetic long-term personalization data made by persona-forge: simulated users
whose preferences, habits and personality drift over weeks of conversation, with the memory supervision and questions
that the plan implies.

${offlineNote}

## Configs

- \`sft\`: ms-swift \`messages\` rows. \`task\` is one of reasoning (multi-turn \`<think>\` / \`<retrieve>\` / \`<answer>\`
  trajectories, retrieval results as \`${options.config.sft.retrievalRole}\` turns), personality_inference, semantic_write,
  core_update, procedural_update, episodic_summary or tree_ops. Multimodal rows carry \`images\` and exactly one \`<image>\` per
  image (a quoted image elsewhere is written \`[image]\`); no message is empty (an update with nothing to keep says \`NO_CHANGE\`).
  Answers follow one convention across SFT, RL and evaluation: the option letter for multiple choice (\`<answer>(b)</answer>\`),
  the option text for yes/no, the answer text for open questions.
- \`rl\`: prompt-only \`messages\` plus the columns reward functions read: \`solution\`, \`answer_type\` (open | mc | binary),
  \`choices\` (list of strings, "(a) …" for multiple choice), \`gt_ops\` (reference PersonaTree operations, empty outside
  tree_ops), \`user_id\`, \`question_time\` ("YYYY-MM-DD HH:MM") and \`memory_snapshot\` (the memory state at question time as a
  JSON string, empty when none: stored as a string because its shape varies).

Images referenced by \`images\` columns and the evaluation sets are under \`${options.config.imageRoot}/\`, relative to this folder
(set \`ROOT_IMAGE_DIR\` to this folder for ms-swift; \`persona-forge train\` does) (${summary.images.copied} files${summary.images.missing.length > 0 ? `, ${summary.images.missing.length} missing from the pool` : ''}).${options.parquet ? '\nIn the Parquet files each `images` entry also holds the image file itself (the `datasets` Image feature: `{bytes, path}`), so `load_dataset` returns images and the Hub viewer shows them; the jsonl files hold the paths.' : ''}

Splits are disjoint by persona: ${summary.users.train} train users, ${summary.users.test} test users (${summary.excluded} quarantined by validation and left out).

### SFT rows
${table('sft')}

### RL rows
${table('rl')}

## Evaluation sets (\`eval/\`)

${evalSets(summary, options.config)}

## Use with ms-swift

\`\`\`
swift sft --dataset sft/train.${extension} --val_dataset sft/test.${extension} …
swift rlhf --rlhf_type grpo --dataset rl/train.${extension} …
\`\`\`

## License

${options.config.card.license}. Generated data; no real user appears in it.
`;
  return `---\n${stringify(front, { lineWidth: 0, aliasDuplicateObjects: false })}---\n\n${body}`;
}
