// Plan limits are off on a server without a billing provider (the self-hosted
// default); a test about a limit turns them on explicitly, as an operator's
// BILLING_PLANS would, and they are off again after each test.
import { afterEach } from 'vitest';
import { config, type PlanTableOverrides } from '@/lib/config.ts';

/** Enforces the built-in plan table with `overrides` over it (BILLING_PLANS), until the test ends. */
export function enforcePlanLimits(overrides: PlanTableOverrides = {}): void {
  config.planTable = overrides;
}

afterEach(() => {
  config.planTable = null;
});
