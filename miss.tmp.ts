import { z } from 'zod';
import { PipelineConfig } from './src/schemas/pipeline.js';
import { Recipe } from './src/schemas/recipe.js';
import { RewardServerConfig } from './src/schemas/reward.js';
const out: string[] = [];
function walk(s: any, path: string) {
  if (!s || typeof s !== 'object') return;
  if (Array.isArray(s)) { s.forEach((x, i) => walk(x, path)); return; }
  if (s.properties) for (const [k, v] of Object.entries<any>(s.properties)) { if (!v.description) out.push(`${path}.${k}`); }
  for (const [k, v] of Object.entries(s)) if (!['enum','const','default'].includes(k)) walk(v, k === 'properties' ? path : k==='items'? path+'[]' : path);
}
function walkProps(s: any, path: string) {
  if (!s || typeof s !== 'object') return;
  if (Array.isArray(s)) { s.forEach((x) => walkProps(x, path)); return; }
  if (s.properties) for (const [k, v] of Object.entries<any>(s.properties)) { if (!v.description) out.push(`${path}.${k}`); walkProps(v, `${path}.${k}`); }
  for (const [k, v] of Object.entries(s)) if (!['enum','const','default','properties'].includes(k)) walkProps(v, path);
}
for (const [n, sch] of Object.entries({ pipeline: PipelineConfig, recipe: Recipe, rewards: RewardServerConfig }))
  walkProps(z.toJSONSchema(sch as any, { io: 'input', unrepresentable: 'any' }), n);
console.log([...new Set(out)].join('\n'));
