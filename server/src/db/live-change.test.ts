import { sql } from "drizzle-orm";
import { authChangeFields, changeChannels, liveChangeKinds, type LiveChangeField } from "../../../shared/live-change";
import { useTestContext } from "../testing/test-context";
import { parseAuthChange, parseLiveChange } from "./live-bus";

/**
 * Every NOTIFY the database sends, read from the bodies of its functions as the migrations left them, is held to the
 * payloads declared in shared/live-change.ts: its channel, its kind, its fields and the words a field may hold. Every
 * declared kind is sent by some trigger, and the server's parser reads what each one sends.
 */
const ctx = useTestContext();

/** The top-level arguments of the call whose opening parenthesis is at `open`, and where the call ends. */
function callArguments(text: string, open: number): { args: string[]; end: number } {
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let at = open; at < text.length; at += 1) {
    const char = text[at];
    if (char === "'") {
      at = text.indexOf("'", at + 1);
      while (text[at + 1] === "'") at = text.indexOf("'", at + 2);
      continue;
    }
    if (char === "(") depth += 1;
    else if (char === ")" && --depth === 0) {
      args.push(text.slice(start, at).trim());
      return { args, end: at + 1 };
    } else if (char === "," && depth === 1) {
      args.push(text.slice(start, at).trim());
      start = at + 1;
    }
  }
  throw new Error(`unbalanced call at ${text.slice(open, open + 60)}`);
}

const literal = (expression: string): string | null => /^'((?:[^']|'')*)'$/.exec(expression)?.[1]?.replace(/''/g, "'") ?? null;

interface SentPayload {
  function: string;
  channel: string;
  /** Each key of the JSON object with the expression of its value. */
  fields: Map<string, string>;
}

/** Every pg_notify call of the function's body: its channel and the keys of the JSON object it sends. */
function notifiesOf(name: string, body: string): SentPayload[] {
  const sent: SentPayload[] = [];
  for (const match of body.matchAll(/pg_notify\s*\(/gi)) {
    const { args } = callArguments(body, match.index + match[0].length - 1);
    const channel = literal(args[0] ?? "");
    const built = /^jsonb?_build_object\s*\(/i.exec(args[1] ?? "");
    if (channel === null || !built)
      throw new Error(`${name} sends a payload not declared as a literal channel and a JSON object: ${args.join(", ")}`);
    const { args: pairs, end } = callArguments(args[1]!, built[0].length - 1);
    expect(args[1]!.slice(end).trim(), `${name}: the object is sent as text`).toMatch(/^::\s*text$/i);
    const fields = new Map<string, string>();
    for (let index = 0; index < pairs.length; index += 2) {
      const key = literal(pairs[index]!);
      if (key === null) throw new Error(`${name} sends a key that is not a literal: ${pairs[index]}`);
      fields.set(key, pairs[index + 1] ?? "");
    }
    sent.push({ function: name, channel, fields });
  }
  return sent;
}

/** The words an expression can give: the literals a CASE answers with, or the literal itself. */
function wordsOf(expression: string): string[] {
  const plain = literal(expression);
  if (plain !== null) return [plain];
  return [...expression.matchAll(/\b(?:THEN|ELSE)\s+'((?:[^']|'')*)'/gi)].map((match) => match[1]!.replace(/''/g, "'"));
}

/** A payload as the function would send it, with ids for id fields: what the listening instance is handed. */
function samplesOf(sent: SentPayload, declared: Record<string, LiveChangeField> = {}): Record<string, unknown>[] {
  let samples: Record<string, unknown>[] = [{}];
  let id = 1;
  for (const [key, expression] of sent.fields) {
    const words = key === "k" ? wordsOf(expression) : declared[key]?.oneOf ? wordsOf(expression) : null;
    const value = id++;
    samples = words
      ? samples.flatMap((sample) => words.map((word) => ({ ...sample, [key]: word })))
      : samples.map((sample) => ({ ...sample, [key]: value }));
  }
  return samples;
}

async function everyNotify(): Promise<SentPayload[]> {
  const result = await ctx.db.execute(
    sql`select p.proname as name, p.prosrc as body from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = current_schema() and p.prosrc ilike '%pg_notify%' order by p.proname`,
  );
  const rows = (result as unknown as { rows: { name: string; body: string }[] }).rows;
  return rows.flatMap((row) => notifiesOf(row.name, row.body));
}

describe("the database's change notifications", () => {
  it("send only the declared payloads, every declared kind is sent, and the server's parser reads each one", async () => {
    const sent = await everyNotify();
    const channels: string[] = Object.values(changeChannels);
    expect(sent.map((payload) => payload.channel).filter((channel) => !channels.includes(channel))).toEqual([]);

    const liveSent = sent.filter((payload) => payload.channel === changeChannels.live);
    const kindsSent = new Set<string>();
    for (const payload of liveSent) {
      const kind = literal(payload.fields.get("k") ?? "");
      expect(kind, `${payload.function}: every live change names its kind as a literal`).not.toBeNull();
      kindsSent.add(kind!);
      expect(Object.keys(liveChangeKinds), `${payload.function} sends the kind "${kind}"`).toContain(kind);
      const declared: Record<string, LiveChangeField> = liveChangeKinds[kind as keyof typeof liveChangeKinds].fields;
      const keys = [...payload.fields.keys()].filter((key) => key !== "k");
      const required = Object.keys(declared).filter((key) => !declared[key]!.optional);
      expect({ kind, undeclared: keys.filter((key) => !(key in declared)) }).toEqual({ kind, undeclared: [] });
      expect({ kind, missing: required.filter((key) => !keys.includes(key)) }).toEqual({ kind, missing: [] });
      for (const [key, field] of Object.entries(declared)) {
        const expression = payload.fields.get(key);
        if (expression === undefined) continue;
        if (field.oneOf)
          expect({ kind, key, words: wordsOf(expression).filter((word) => !field.oneOf!.includes(word)) }).toEqual({
            kind,
            key,
            words: [],
          });
        if (field.oneOf) expect(wordsOf(expression).length, `${kind}.${key} names its words`).toBeGreaterThan(0);
        else expect(literal(expression), `${kind}.${key} is an id, not a literal`).toBeNull();
      }
      for (const sample of samplesOf(payload, declared)) expect(parseLiveChange(sample), JSON.stringify(sample)).not.toBeNull();
    }
    expect([...kindsSent].sort()).toEqual(Object.keys(liveChangeKinds).sort());

    const authSent = sent.filter((payload) => payload.channel === changeChannels.auth);
    expect(authSent.length).toBeGreaterThan(0);
    for (const payload of authSent) {
      const keys = [...payload.fields.keys()];
      expect({ function: payload.function, undeclared: keys.filter((key) => !(key in authChangeFields)) }).toEqual({
        function: payload.function,
        undeclared: [],
      });
      for (const sample of samplesOf(payload)) expect(Object.keys(parseAuthChange(sample) ?? {})).toHaveLength(keys.length);
    }
  });

  it("are parsed field by field: an unknown kind, a missing id or a word not declared is dropped; an optional field may be absent", () => {
    expect(parseLiveChange({ k: "d", d: 4, c: 2, a: "added" })).toEqual({ kind: "document", documentId: 4, companyId: 2, change: "added" });
    expect(parseLiveChange({ k: "d", d: 4, c: 2, a: "renamed" })).toBeNull();
    expect(parseLiveChange({ k: "m", m: 3 })).toEqual({ kind: "meeting", meetingId: 3 });
    expect(parseLiveChange({ k: "m", m: 3, c: 9 })).toEqual({ kind: "meeting", meetingId: 3, companyId: 9 });
    expect(parseLiveChange({ k: "r", r: 5 })).toBeNull();
    expect(parseLiveChange({ k: "x", r: 5 })).toBeNull();
    expect(parseLiveChange({ k: "v", r: -1 })).toBeNull();
    expect(parseLiveChange({ k: "toString", r: 1 })).toBeNull();
    expect(parseAuthChange({ s: 1, u: 2 })).toEqual({ sessionId: 1, userId: 2 });
    expect(parseAuthChange({ x: 1 })).toBeNull();
  });
});
