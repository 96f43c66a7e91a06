import { z } from 'zod';
import type { FaultPlan, FaultRule, RecordedRoute } from './types.js';

interface PendingRule {
  rule: Readonly<FaultRule>;
  remaining: number;
}

/** Fault rules consumed in insertion order: each request uses at most the first matching rule. */
export class FaultQueue implements FaultPlan {
  private rules: PendingRule[] = [];

  get pending(): readonly Readonly<FaultRule>[] {
    return this.rules.map((pending) => pending.rule);
  }

  add(rule: FaultRule): void {
    const times = rule.times ?? 1;
    if (!(times > 0)) throw new Error('A fault rule needs times > 0');
    const problem = faultRuleProblem(rule);
    if (problem !== undefined) throw new Error(`Invalid fault rule: ${problem}`);
    this.rules.push({ rule: { ...rule }, remaining: times });
  }

  clear(): void {
    this.rules = [];
  }

  /** Takes one use of the first rule matching `route`, if any. */
  take(route: RecordedRoute): Readonly<FaultRule> | undefined {
    const index = this.rules.findIndex((p) => p.rule.route === '*' || p.rule.route === route);
    const pending = this.rules[index];
    if (pending === undefined) return undefined;
    pending.remaining -= 1;
    if (pending.remaining <= 0) this.rules.splice(index, 1);
    return pending.rule;
  }
}

/** A fault rule as JSON from the control endpoint; times may be "Infinity" or null for no limit. */
export const faultRuleSchema = z
  .object({
    route: z.enum([
      'export.start',
      'export.get',
      'export.bundle',
      'store.get',
      'agent.create',
      'agent.get',
      'agent.message',
      '*',
    ]),
    times: z
      .union([z.number().int().positive(), z.literal('Infinity'), z.null()])
      .optional()
      .transform((times) => (times === 'Infinity' || times === null ? Infinity : times)),
    status: z.number().int().min(100).max(599).optional(),
    body: z.string().optional(),
    retryAfter: z.string().optional(),
    reset: z.boolean().optional(),
    latencyMs: z.number().nonnegative().optional(),
    cutAfterBytes: z.number().int().nonnegative().optional(),
    stallAfterBytes: z.number().int().nonnegative().optional(),
    flipByteAt: z.number().int().nonnegative().optional(),
    lengthMismatch: z.enum(['longer', 'shorter']).optional(),
    changeArchive: z.boolean().optional(),
    expireLink: z.boolean().optional(),
    echoAuthorization: z.boolean().optional(),
    handledFirst: z.boolean().optional(),
  })
  .strict()
  .superRefine((rule, ctx) => {
    const problem = faultRuleProblem(rule);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });

/** True when the rule answers for the server instead of letting the request be handled. */
export const answersInstead = (rule: Readonly<FaultRule>): boolean =>
  rule.status !== undefined || rule.echoAuthorization === true || rule.body !== undefined;

/** Why a rule could not do what it says, for the control endpoint and `add()` alike. */
function faultRuleProblem(rule: Readonly<FaultRule>): string | undefined {
  if (rule.handledFirst === true && (rule.route === 'store.get' || !answersInstead(rule))) {
    return 'handledFirst takes an API route and an answer (status or body) to replace its own';
  }
  // Without an answer of the rule's, the server's own goes out and the header with nothing.
  if (rule.retryAfter !== undefined && !answersInstead(rule)) {
    return "retryAfter is a header of the rule's answer: give the status (or body) it comes with";
  }
  return undefined;
}

export const PROXY_HTML_502 =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n' +
  '<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
