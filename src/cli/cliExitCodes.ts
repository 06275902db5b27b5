/** Exit codes (README "Operator CLI"): scripts can tell a typo from an outage. */
export const EXIT = { ok: 0, failed: 1, usage: 2, unavailable: 69, config: 78 } as const;
