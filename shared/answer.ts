// Answers describe what the server sends: each endpoint's answer is checked against its schema in tests and
// listed in the OpenAPI document. They parse no input, so their fields use zod's plain types under this name,
// not the bounded input primitives of input.ts (which the lint rule for shared/ requires of every request field).
import { z } from "zod";

export { z as answer };

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Alike both ways and with the same keys: an optional field one of them lacks is a difference too. */
type Alike<A, B> = Same<A, B> extends true ? Same<keyof A, keyof B> : false;

/**
 * An answer's schema for a type declared in a module that must stay free of the validation library (the
 * dashboard's first load reads it): `answerSchemaFor<ComplianceItem>()(answer.object({...}))` compiles only
 * while the schema and the type say the same, so the two cannot drift apart.
 */
export function answerSchemaFor<Expected>() {
  return <Schema extends z.ZodType>(
    schema: Schema & (Alike<z.output<Schema>, Expected> extends true ? unknown : "differs from its type"),
  ) => schema as Schema;
}
