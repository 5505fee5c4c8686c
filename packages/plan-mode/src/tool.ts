import type { ToolInputSchema } from '@askseam/tool-ask-user';
import { exitPlanModeToolDescription, exitPlanModeToolName } from './description.js';
import { executeExitPlanMode, type ExitPlanModeContext, type ExitPlanModeResult } from './execute.js';
import { exitPlanModeArgsSchema } from './schema.js';
import { exitPlanModeJsonSchemaCopy } from './tool-definitions.js';

/** Everything a model loop needs to offer `exit_plan_mode`, in one object. */
export interface ExitPlanModeTool {
  readonly name: typeof exitPlanModeToolName;
  readonly description: string;
  readonly parameters: typeof exitPlanModeArgsSchema;
  /** `{ plan }` as JSON Schema. A fresh, editable copy on every read. */
  readonly jsonSchema: ToolInputSchema;
  execute(args: unknown, context: ExitPlanModeContext): Promise<ExitPlanModeResult>;
}

export const exitPlanModeTool: ExitPlanModeTool = Object.freeze({
  name: exitPlanModeToolName,
  description: exitPlanModeToolDescription,
  parameters: exitPlanModeArgsSchema,
  // A getter, so a framework that edits the schema it is given (LangChain's tool()) neither fails
  // on a frozen object nor changes what the next caller reads.
  get jsonSchema(): ToolInputSchema {
    return exitPlanModeJsonSchemaCopy();
  },
  execute: executeExitPlanMode,
});
