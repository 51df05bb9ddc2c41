import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRepo, HubApiError, uploadFiles } from '@huggingface/hub';
import { HubError } from '../errors/index.js';
import { listFiles } from './export-dataset.js';

export interface PushToHubOptions {
  /** `org/name` of the dataset repo. */
  repo: string;
  /** Create the repo private. @default false */
  private?: boolean;
  /** List the files and sizes that would be uploaded; no network. @default false */
  dryRun?: boolean;
  /** Hub endpoint. @default "https://huggingface.co" */
  hubUrl?: string;
  /** Access token (the CLI reads `HF_TOKEN`). Required unless `dryRun`. */
  token?: string;
  /** Injected fetch (tests, proxies). @default globalThis.fetch */
  fetch?: typeof fetch;
  /** @default "Upload persona-forge export" */
  commitTitle?: string;
}

export interface PushToHubResult {
  repo: string;
  dryRun: boolean;
  files: Array<{ path: string; bytes: number }>;
  totalBytes: number;
  created: boolean;
  commit: { oid: string; url: string } | null;
}

/**
 * Uploads an export folder to a Hugging Face dataset repo in one commit through
 * `@huggingface/hub` (`createRepo`, tolerating an existing repo, then `uploadFiles` with the
 * plain LFS transfer). `dryRun` lists what would go up, with sizes, and touches no network.
 *
 * @example await pushToHub('out/quickstart/export', { repo: 'me/persona-forge-demo', token: process.env.HF_TOKEN });
 */
export async function pushToHub(exportDir: string, options: PushToHubOptions): Promise<PushToHubResult> {
  if (!/^[\w.-]+\/[\w.-]+$/.test(options.repo)) {
    throw new HubError(`repo "${options.repo}" is not of the form org/name`, {
      hint: 'pass --repo org/name',
    });
  }
  // A run folder holds the whole run (plans, dialogues, memory, caches): only its export/ is the dataset.
  if (existsSync(join(exportDir, 'manifest.json')) && existsSync(join(exportDir, 'export'))) {
    throw new HubError(`${exportDir} is a run folder, not an export: it would upload the whole run`, {
      hint: `push its export folder: persona-forge push ${join(exportDir, 'export')} --repo ${options.repo}`,
    });
  }
  const files = await listFiles(exportDir).catch((error: unknown) => {
    throw new HubError(`cannot list ${exportDir}: ${(error as Error).message}`, {
      cause: error,
      hint: 'run `persona-forge export <run-dir>` first',
    });
  });
  if (files.length === 0)
    throw new HubError(`${exportDir} holds no files`, { hint: 'run `persona-forge export <run-dir>` first' });
  const totalBytes = files.reduce((sum, file) => sum + file.bytes, 0);
  const result: PushToHubResult = {
    repo: options.repo,
    dryRun: options.dryRun === true,
    files,
    totalBytes,
    created: false,
    commit: null,
  };
  if (options.dryRun === true) return result;
  if (options.token === undefined || options.token === '') {
    throw new HubError('no Hugging Face token', { hint: 'set HF_TOKEN (a write token) or use --dry-run' });
  }
  const common = {
    repo: { type: 'dataset' as const, name: options.repo },
    accessToken: options.token,
    ...(options.hubUrl === undefined ? {} : { hubUrl: options.hubUrl }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  };
  try {
    await createRepo({ ...common, visibility: options.private === true ? 'private' : 'public' });
    result.created = true;
  } catch (error) {
    if (!(error instanceof HubApiError && error.statusCode === 409)) {
      throw new HubError(`creating dataset repo ${options.repo} failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
  try {
    const contents = await Promise.all(
      files.map(async (file) => ({
        path: file.path,
        content: new Blob([await readFile(join(exportDir, file.path))]),
      })),
    );
    const output = await uploadFiles({
      ...common,
      files: contents,
      commitTitle: options.commitTitle ?? 'Upload persona-forge export',
      useXet: false,
      useWebWorkers: false,
    });
    result.commit = output === undefined ? null : { oid: output.commit.oid, url: output.commit.url };
  } catch (error) {
    throw new HubError(`uploading to ${options.repo} failed: ${(error as Error).message}`, { cause: error });
  }
  return result;
}
