// Namespace import: lets bundlers drop the parts of zod (locales) we never use.
import * as z from 'zod';

/** The arguments the model sends: `{ plan }`. Strict, so stray fields are refused, not dropped. */
export const exitPlanModeArgsSchema = z.strictObject({
  plan: z
    .string()
    .describe('The plan in Markdown. Its first line is a "# " title; then the steps, and the files or parts you will change.'),
});

export type ExitPlanModeArgs = z.infer<typeof exitPlanModeArgsSchema>;
