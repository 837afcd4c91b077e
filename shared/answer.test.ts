import { answer, answerSchemaFor } from "./answer";

// The binding is checked by the compiler (npm run check): each @ts-expect-error below fails the type check if
// the schema it marks were accepted, so a schema that drifts from its type cannot compile.
interface Item {
  id: number;
  note?: string;
}

// @ts-expect-error: a field of another type
answerSchemaFor<Item>()(answer.object({ id: answer.string(), note: answer.string().optional() }));
// @ts-expect-error: an optional field missing
answerSchemaFor<Item>()(answer.object({ id: answer.number() }));
// @ts-expect-error: a field the type does not have
answerSchemaFor<Item>()(answer.object({ id: answer.number(), note: answer.string().optional(), extra: answer.boolean() }));

describe("answerSchemaFor", () => {
  it("takes a schema that says what its type says, and answers the schema itself", () => {
    const schema = answerSchemaFor<Item>()(answer.object({ id: answer.number(), note: answer.string().optional() }));
    expect(schema.parse({ id: 1, note: "x" })).toEqual({ id: 1, note: "x" });
  });
});
