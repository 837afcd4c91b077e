/** Time comes from here so expiry, deadline and "upcoming" rules are testable. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
