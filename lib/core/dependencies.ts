// Shared dependencies a node serves without: Redis (rate-limit counts fall back
// to PostgreSQL) and the blob store (only requests for stored bytes need it).
// Every node shares them, so their outage must not make nodes unready (the
// balancer would be left with none): it is reported on the requests that need
// them, as the gauge atrium_dependency_up, in /healthz's detail, and in one
// log line when the state changes.
import { config } from '../config.ts';
import { log } from '../log.ts';
import { dependencyUp } from './metrics.ts';

export type Dependency = 'redis' | 'storage';
type State = 'up' | 'down' | 'not seen yet';

const states: Record<Dependency, State> = { redis: 'not seen yet', storage: 'not seen yet' };

/** Records whether `dependency` answered a use or a check just now. */
export function noteDependency(dependency: Dependency, up: boolean): void {
  dependencyUp.set({ dependency }, up ? 1 : 0);
  const before = states[dependency];
  states[dependency] = up ? 'up' : 'down';
  if (before === states[dependency] || (up && before === 'not seen yet')) return;
  if (up) log.info('dependency is back', { dependency });
  else log.warn('dependency is down', { dependency });
}

/** Each dependency as last seen by this node (no new check: /healthz must answer at once). */
export function dependencyStates(): Record<Dependency, State | 'not configured'> {
  return { redis: config.redisUrl ? states.redis : 'not configured', storage: states.storage };
}
