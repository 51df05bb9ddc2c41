// Worker thread entry: registers tsx's loader (the sources are TypeScript) and starts the map
// worker. Plain JavaScript so it runs without a loader already in place.
import { register } from 'tsx/esm/api';

register();
await import('./map-worker.ts');
