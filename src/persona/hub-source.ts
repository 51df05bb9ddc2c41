import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { downloadFileToCacheDir } from '@huggingface/hub';
import { HubError } from '../errors/index.js';
import type { HubPersonasConfig } from '../schemas/personas-config.js';

export interface DownloadHubFileOptions {
  /** Overrides `config.cacheDir`. */
  cacheDir?: string;
  fetch?: typeof fetch;
  /** Environment the token is read from (`config.tokenEnv`). @default process.env */
  env?: Record<string, string | undefined>;
}

const COMMIT = /^[0-9a-f]{40}$/;

/** Where the resolved commit of `revision` is remembered (the Hub cache's own `refs/` layout). */
function refPath(cacheDir: string, repo: string, revision: string): string {
  return join(cacheDir, `datasets--${repo.split('/').join('--')}`, 'refs', revision.replaceAll('/', '--'));
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * Downloads a dataset file from the Hub (or `hubUrl`) once into the cache directory and returns
 * its local path. The resolved commit is stored under `refs/<revision>`; later calls pass that
 * commit to `downloadFileToCacheDir`, which then finds the cached snapshot without any request.
 * `refresh: true` re-resolves the branch.
 *
 * @example
 * const path = await downloadHubFile(PersonasConfig.parse({}).hub, { cacheDir: '.pf-cache/hub' });
 */
export async function downloadHubFile(
  config: HubPersonasConfig,
  options: DownloadHubFileOptions = {},
): Promise<string> {
  const env = options.env ?? process.env;
  const cacheDir = options.cacheDir ?? config.cacheDir;
  const token = env[config.tokenEnv];
  if (token !== undefined && token !== '' && !token.startsWith('hf_')) {
    throw new HubError(`the token in $${config.tokenEnv} does not start with "hf_"`, {
      hint: 'set it to a Hugging Face user access token (https://huggingface.co/settings/tokens)',
    });
  }
  const ref = refPath(cacheDir, config.repo, config.revision);
  let revision = config.revision;
  if (!config.refresh && !COMMIT.test(revision) && (await exists(ref))) {
    const cached = (await readFile(ref, 'utf8')).trim();
    if (COMMIT.test(cached)) revision = cached;
  }
  let path: string;
  try {
    path = await downloadFileToCacheDir({
      repo: { type: 'dataset', name: config.repo },
      path: config.file,
      revision,
      cacheDir,
      ...(config.hubUrl === undefined ? {} : { hubUrl: config.hubUrl.replace(/\/+$/, '') }),
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      ...(token === undefined || token === '' ? {} : { accessToken: token }),
    });
  } catch (error) {
    throw new HubError(
      `cannot download ${config.file} from dataset ${config.repo}@${config.revision} (${config.hubUrl ?? 'huggingface.co'}): ${(error as Error).message}`,
      {
        cause: error,
        hint: `check the repo, file and revision; gated or private datasets need a token in $${config.tokenEnv}`,
      },
    );
  }
  // The snapshot folder name is the commit the file was resolved at.
  const commit = /snapshots[/\\]([0-9a-f]{40})[/\\]/.exec(path)?.[1];
  if (commit !== undefined && commit !== revision) {
    await mkdir(join(ref, '..'), { recursive: true });
    await writeFile(ref, commit);
  }
  return path;
}
